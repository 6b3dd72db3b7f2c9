#pragma once
// KeychainCredentialStore: CredentialStore over the system keychain (QtKeychain: the Secret Service, KWallet, or the
// platform's own), never its insecure plain-file fallback. Jobs run asynchronously; a job that has not answered
// within the timeout (a D-Bus session without a secret service can leave a call waiting) is reported Unavailable.
// Once the keychain has been found unavailable, later calls answer Unavailable at once, so a missing keychain costs
// at most one timeout per store. GUI thread only.

#include <QString>

#include <memory>
#include <optional>

#include "fp8dash/ui/credential_store.h"

namespace fp8dash::ui {

class KeychainCredentialStore : public CredentialStore {
public:
    explicit KeychainCredentialStore(int timeoutMs = 15000);

    void read(const QString& key, QObject* context, Callback done) override;
    void write(const QString& key, const QByteArray& data, QObject* context, Callback done) override;
    void remove(const QString& key, QObject* context, Callback done) override;

private:
    enum class Op { Read, Write, Remove };
    void run(Op op, const QString& key, const QByteArray& data, QObject* context, Callback done);

    struct State {
        std::optional<QString> unavailable;  // the first "unavailable" message, answered from then on
    };
    int m_timeoutMs;
    std::shared_ptr<State> m_state;  // shared with the jobs' callbacks, which may run after this store is gone
};

}  // namespace fp8dash::ui
