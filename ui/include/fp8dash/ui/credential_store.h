#pragma once
// CredentialStore: where the GUI may remember the secrets of a data source between sessions (DESIGN.md: tokens and
// keys live in the environment or the system keychain, never in a comparison file, QSettings or a log). Entries are
// small byte blobs (the dialog stores JSON) under service "fp8dash", keyed by source kind and URL, e.g.
// "prometheus https://prom.example:9090" or "langfuse https://cloud.langfuse.com". Every call returns at once; its
// callback runs later on the calling (GUI) thread, and not at all once the context object (never null) is gone.
// GUI thread only. Implementations: KeychainCredentialStore (the system keychain through QtKeychain) and
// MemoryCredentialStore (tests).

#include <QByteArray>
#include <QString>

#include <functional>

class QObject;

namespace fp8dash::ui {

class CredentialStore {
public:
    enum class Outcome {
        Done,         // read: found (data holds it); write, remove: done
        NotFound,     // read: nothing stored under that key; remove: there was nothing (also fine)
        Unavailable,  // no keychain to talk to (no secret service, no D-Bus, no answer in time): error says why
        Failed,       // the keychain answered with an error (e.g. access denied): error says why
    };
    struct Reply {
        Outcome outcome = Outcome::Failed;
        QByteArray data;  // read: the stored blob
        QString error;    // Unavailable, Failed: the keychain's own message
    };
    using Callback = std::function<void(const Reply&)>;

    static constexpr const char* kService = "fp8dash";

    virtual ~CredentialStore() = default;

    virtual void read(const QString& key, QObject* context, Callback done) = 0;
    virtual void write(const QString& key, const QByteArray& data, QObject* context, Callback done) = 0;
    virtual void remove(const QString& key, QObject* context, Callback done) = 0;

    // Keys: the kind, a space, the URL without trailing slashes. Empty when the URL is empty.
    static QString prometheusKey(const QString& url);
    static QString langfuseKey(const QString& url);
};

}  // namespace fp8dash::ui
