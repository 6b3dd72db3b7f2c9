#pragma once
// SingleInstance: one running fp8dash per user session. The first desktop instance listens on a local socket
// (Qt Network's QLocalServer, in $XDG_RUNTIME_DIR, else a 0700 folder in the temporary directory, user access only);
// a later start — a double-click on a *.fp8cmp in the file manager — connects, hands over its files (absolute
// paths) and exits, and the running app opens them. Protocol: one JSON line each way,
//   client: {"open": ["/abs/a.fp8cmp", ...], "present": false, "pid": 1234, "place": {"tab": "Review", ...}}
// ("place", open_place.h: optional, where the first file opens)
//   server: {"accepted": true, "pid": 5678, "files": 1}
// `fp8dash --new-instance` skips the hand-off. GUI thread only (the client part blocks for at most its timeout,
// before any window exists).

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>

#include "fp8dash/ui/open_place.h"

class QLocalServer;

namespace fp8dash::ui {

class SingleInstance : public QObject {
    Q_OBJECT
public:
    explicit SingleInstance(QObject* parent = nullptr);
    ~SingleInstance() override;

    // The socket's full path for this user.
    static QString defaultServerName();

    struct HandOff {
        qint64 pid = 0;  // the running instance's
        int files = 0;   // how many it accepted
    };
    // Tries to hand `files` to a running instance; nullopt when none answers within timeoutMs (then this process
    // becomes the instance).
    static std::optional<HandOff> handOff(const QStringList& files, bool present, const QString& serverName,
                                          int timeoutMs = 3000, const OpenPlace& place = {});

    // Starts listening (a stale socket left by a crashed instance is removed first). False when it cannot.
    bool listen(const QString& serverName);
    QString serverName() const;

signals:
    // Another start asked for these files (absolute paths; empty: just bring a window to the front), at `place`
    // (OpenPlace::toJson; {} for none).
    void openRequested(const QStringList& files, bool present, const QJsonObject& place);

private:
    void handleConnection();

    QLocalServer* m_server = nullptr;
};

}  // namespace fp8dash::ui
