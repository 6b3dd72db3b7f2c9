#include "fp8dash/ui/memory_credential_store.h"

#include <QTimer>

namespace fp8dash::ui {

void MemoryCredentialStore::answer(QObject* context, Callback done, Reply reply) {
    // The next event-loop turn, and only while the context lives: the keychain's contract.
    QTimer::singleShot(0, context, [done = std::move(done), reply = std::move(reply)] {
        if (done) done(reply);
    });
}

void MemoryCredentialStore::read(const QString& key, QObject* context, Callback done) {
    ++m_reads;
    Reply reply;
    if (m_unavailable) {
        reply = {Outcome::Unavailable, {}, *m_unavailable};
    } else if (const auto it = m_entries.constFind(key); it != m_entries.cend()) {
        reply = {Outcome::Done, *it, {}};
    } else {
        reply = {Outcome::NotFound, {}, {}};
    }
    answer(context, std::move(done), std::move(reply));
}

void MemoryCredentialStore::write(const QString& key, const QByteArray& data, QObject* context, Callback done) {
    Reply reply{Outcome::Done, {}, {}};
    if (m_unavailable) {
        reply = {Outcome::Unavailable, {}, *m_unavailable};
    } else {
        m_entries.insert(key, data);
    }
    answer(context, std::move(done), std::move(reply));
}

void MemoryCredentialStore::remove(const QString& key, QObject* context, Callback done) {
    Reply reply{Outcome::Done, {}, {}};
    if (m_unavailable) {
        reply = {Outcome::Unavailable, {}, *m_unavailable};
    } else if (m_entries.remove(key) == 0) {
        reply.outcome = Outcome::NotFound;
    }
    answer(context, std::move(done), std::move(reply));
}

}  // namespace fp8dash::ui
