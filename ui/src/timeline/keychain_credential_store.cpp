#include "fp8dash/ui/keychain_credential_store.h"

#include <QTimer>

#include <qt6keychain/keychain.h>

namespace fp8dash::ui {

namespace {

CredentialStore::Outcome outcomeOf(QKeychain::Error error) {
    switch (error) {
        case QKeychain::NoError:
            return CredentialStore::Outcome::Done;
        case QKeychain::EntryNotFound:
            return CredentialStore::Outcome::NotFound;
        case QKeychain::AccessDenied:
        case QKeychain::AccessDeniedByUser:
        case QKeychain::CouldNotDeleteEntry:
            return CredentialStore::Outcome::Failed;
        default:
            // NoBackendAvailable, NotImplemented, and OtherError, which is what a secret service that cannot be
            // reached over D-Bus reports.
            return CredentialStore::Outcome::Unavailable;
    }
}

// QtKeychain 0.13 says only "Unknown error" when it finds no backend at all (no libsecret, no GNOME Keyring, no
// KWallet on the session bus): name what is missing.
QString explained(const QString& error) {
    const QString hint = QObject::tr("no secret service such as GNOME Keyring or KWallet could be reached over D-Bus");
    if (error.isEmpty()) return hint;
    if (error == QStringLiteral("Unknown error")) return error + QStringLiteral(" (") + hint + QLatin1Char(')');
    return error;
}

}  // namespace

KeychainCredentialStore::KeychainCredentialStore(int timeoutMs)
    : m_timeoutMs(timeoutMs), m_state(std::make_shared<State>()) {}

void KeychainCredentialStore::read(const QString& key, QObject* context, Callback done) {
    run(Op::Read, key, {}, context, std::move(done));
}

void KeychainCredentialStore::write(const QString& key, const QByteArray& data, QObject* context, Callback done) {
    run(Op::Write, key, data, context, std::move(done));
}

void KeychainCredentialStore::remove(const QString& key, QObject* context, Callback done) {
    run(Op::Remove, key, {}, context, std::move(done));
}

void KeychainCredentialStore::run(Op op, const QString& key, const QByteArray& data, QObject* context, Callback done) {
    if (m_state->unavailable) {
        QTimer::singleShot(0, context, [done = std::move(done), error = *m_state->unavailable] {
            if (done) done(Reply{Outcome::Unavailable, {}, error});
        });
        return;
    }
    const QString service = QString::fromLatin1(kService);
    QKeychain::Job* job = nullptr;
    switch (op) {
        case Op::Read:
            job = new QKeychain::ReadPasswordJob(service);
            break;
        case Op::Write: {
            auto* write = new QKeychain::WritePasswordJob(service);
            write->setBinaryData(data);
            job = write;
            break;
        }
        case Op::Remove:
            job = new QKeychain::DeletePasswordJob(service);
            break;
    }
    // Never the plain-file fallback: a secret in a settings file is what this store exists to avoid.
    job->setInsecureFallback(false);
    job->setAutoDelete(true);  // the job outlives a closed dialog and cleans up after itself
    job->setKey(key);

    // Whichever comes first, the job's answer or the timeout, answers; the other is ignored.
    auto answered = std::make_shared<bool>(false);
    auto callback = std::make_shared<Callback>(std::move(done));
    auto state = m_state;
    QObject::connect(job, &QKeychain::Job::finished, context, [answered, callback, state, op](QKeychain::Job* j) {
        if (*answered) return;
        *answered = true;
        Reply reply;
        reply.outcome = outcomeOf(j->error());
        if (reply.outcome == Outcome::Done && op == Op::Read) {
            reply.data = static_cast<QKeychain::ReadPasswordJob*>(j)->binaryData();
        }
        if (reply.outcome == Outcome::Unavailable) {
            reply.error = explained(j->errorString());
        } else if (reply.outcome == Outcome::Failed) {
            reply.error = j->errorString();
        }
        if (reply.outcome == Outcome::Unavailable && !state->unavailable) state->unavailable = reply.error;
        if (*callback) (*callback)(reply);
    });
    QTimer::singleShot(m_timeoutMs, context, [answered, callback, state, timeoutMs = m_timeoutMs] {
        if (*answered) return;
        *answered = true;
        const QString error = QObject::tr("no answer from the secret service within %1 s").arg(timeoutMs / 1000.0);
        if (!state->unavailable) state->unavailable = error;
        if (*callback) (*callback)(Reply{Outcome::Unavailable, {}, error});
    });
    job->start();
}

}  // namespace fp8dash::ui
