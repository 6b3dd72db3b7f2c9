#pragma once
// MemoryCredentialStore: a CredentialStore in memory, for tests and for running without a keychain. Answers
// asynchronously like the keychain does (on the next event-loop turn), so callers cannot depend on a synchronous
// answer. setUnavailable() makes it answer like a missing keychain. GUI thread only.

#include <QHash>
#include <QString>

#include <optional>

#include "fp8dash/ui/credential_store.h"

namespace fp8dash::ui {

class MemoryCredentialStore : public CredentialStore {
public:
    void read(const QString& key, QObject* context, Callback done) override;
    void write(const QString& key, const QByteArray& data, QObject* context, Callback done) override;
    void remove(const QString& key, QObject* context, Callback done) override;

    void setUnavailable(const QString& error) { m_unavailable = error; }
    bool contains(const QString& key) const { return m_entries.contains(key); }
    QByteArray data(const QString& key) const { return m_entries.value(key); }
    QStringList keys() const { return m_entries.keys(); }
    int readCount() const { return m_reads; }

private:
    void answer(QObject* context, Callback done, Reply reply);

    QHash<QString, QByteArray> m_entries;
    std::optional<QString> m_unavailable;
    int m_reads = 0;
};

}  // namespace fp8dash::ui
