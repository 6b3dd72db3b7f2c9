// TimelineSourceDialog: the system keychain (CredentialStore): looking up remembered credentials when a URL is
// typed, filling the empty fields with them, storing them after a success, forgetting them.
#include "fp8dash/ui/timeline_source_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <utility>

#include "fp8dash/core/prometheus_client.h"
#include "fp8dash/ui/background_job.h"
#include "fp8dash/ui/credential_store.h"
#include "fp8dash/ui/keychain_credential_store.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/time_range_picker.h"
#include "timeline/model_pick_button.h"
#include "widgets/ui_style.h"

#include "timeline/timeline_source_parts.h"

namespace fp8dash::ui {

using namespace timeline_source_parts;

// The keychain. Blobs: {"auth": "basic"|"bearer", "user", "password", "token", "headers": [[name, value], ...]} for
// Prometheus, {"publicKey", "secretKey"} for Langfuse; only fields that hold something.

bool TimelineSourceDialog::isLookingUpKeychain() const {
    return !m_keychainUnavailable && (m_lookupTimer->isActive() || m_lookupsPending > 0);
}

QString TimelineSourceDialog::keychainText() const {
    return m_keychainLabel->text();
}

void TimelineSourceDialog::lookUpKeychain() {
    m_lookupTimer->stop();
    const QString keys[2] = {CredentialStore::prometheusKey(m_urlEdit->text()),
                             CredentialStore::langfuseKey(m_langfuseUrl->text())};
    // What the keychain filled in belongs to the URL it was stored for.
    for (int i = 0; i < 2; ++i) {
        if (!m_keychainKey[i].isEmpty() && m_keychainKey[i] != keys[i]) clearKeychainFilled(static_cast<Source>(i));
    }
    const quint64 generation = ++m_lookupGeneration;
    m_lookupsPending = 0;
    auto roundDone = [this] {
        emit keychainLookedUp();
        if (std::exchange(m_fetchAfterLookup, false)) startFetch();
    };
    if (!m_keychainUnavailable) {
        for (int i = 0; i < 2; ++i) {
            if (keys[i].isEmpty() || keys[i] == m_keychainKey[i]) continue;
            ++m_lookupsPending;
            const auto source = static_cast<Source>(i);
            auto answered = [this, generation, source, key = keys[i], roundDone](const CredentialStore::Reply& reply) {
                if (generation != m_lookupGeneration) return;  // the URLs changed since: a newer round counts
                switch (reply.outcome) {
                    case CredentialStore::Outcome::Done:
                        fillFromKeychain(source, key, reply.data);
                        break;
                    case CredentialStore::Outcome::NotFound:
                        break;
                    case CredentialStore::Outcome::Unavailable:
                        keychainUnavailable(reply.error);
                        break;
                    case CredentialStore::Outcome::Failed:
                        showKeychainNote(tr("The system keychain refused the lookup: %1").arg(reply.error), true);
                        break;
                }
                if (--m_lookupsPending == 0) roundDone();
            };
            m_store->read(keys[i], this, std::move(answered));
        }
    }
    if (m_lookupsPending == 0) roundDone();
}

bool TimelineSourceDialog::fillIfEmpty(QLineEdit* edit, const QString& value, Source source) {
    if (value.isEmpty() || !edit->text().isEmpty()) return false;  // typed beats stored
    edit->setText(value);
    m_keychainFilled[static_cast<int>(source)].insert(edit, value);
    return true;
}

void TimelineSourceDialog::fillFromKeychain(Source source, const QString& key, const QByteArray& blob) {
    const QJsonObject o = QJsonDocument::fromJson(blob).object();
    const auto text = [&o](const char* name) { return o.value(QLatin1String(name)).toString(); };
    bool filled = false;
    if (source == Source::Prometheus) {
        const QString auth = text("auth");
        const int kind = auth == QStringLiteral("basic")    ? AuthBasic
                         : auth == QStringLiteral("bearer") ? AuthBearer
                                                            : AuthNone;
        // The stored method wins over a default (the environment's, the file's) but not over typed credentials.
        const int current = m_authCombo->currentIndex();
        const bool typedBasic = !m_userEdit->text().isEmpty() || !m_passwordEdit->text().isEmpty();
        const bool typedForCurrent = current == AuthBasic    ? typedBasic
                                     : current == AuthBearer ? !m_tokenEdit->text().isEmpty()
                                                             : false;
        if (kind != AuthNone && kind != current && !typedForCurrent) m_authCombo->setCurrentIndex(kind);
        if (kind == AuthBasic) {
            filled |= fillIfEmpty(m_userEdit, text("user"), source);
            filled |= fillIfEmpty(m_passwordEdit, text("password"), source);
        } else if (kind == AuthBearer) {
            filled |= fillIfEmpty(m_tokenEdit, text("token"), source);
        }
        QStringList lines;
        for (const QJsonValue& h : o.value(QLatin1String("headers")).toArray()) {
            const QJsonArray pair = h.toArray();
            if (pair.size() == 2) lines << pair[0].toString() + QStringLiteral(": ") + pair[1].toString();
        }
        if (!lines.isEmpty() && m_headersEdit->toPlainText().trimmed().isEmpty()) {
            const QString headers = lines.join(QLatin1Char('\n'));
            m_headersEdit->setPlainText(headers);
            m_keychainFilled[static_cast<int>(source)].insert(m_headersEdit, headers);
            filled = true;
        }
    } else {
        filled |= fillIfEmpty(m_publicKey, text("publicKey"), source);
        filled |= fillIfEmpty(m_secretKey, text("secretKey"), source);
    }
    m_keychainKey[static_cast<int>(source)] = key;
    m_rememberCheck->setChecked(true);  // remembered already: a later success keeps the entry up to date
    const QString url = key.section(QLatin1Char(' '), 1);
    showKeychainNote(filled ? tr("Filled in from the system keychain: the credentials for %1.").arg(url)
                            : tr("The system keychain holds credentials for %1; the typed ones are used.").arg(url));
}

void TimelineSourceDialog::clearKeychainFilled(Source source) {
    auto& filled = m_keychainFilled[static_cast<int>(source)];
    for (auto it = filled.cbegin(); it != filled.cend(); ++it) {
        // Only what still holds the stored value: an edited field is the user's now.
        if (auto* line = qobject_cast<QLineEdit*>(it.key()); line && line->text() == it.value()) line->clear();
        if (auto* plain = qobject_cast<QPlainTextEdit*>(it.key()); plain && plain->toPlainText() == it.value()) {
            plain->clear();
        }
    }
    filled.clear();
    m_keychainKey[static_cast<int>(source)].clear();
}

TimelineSourceDialog::Remembered TimelineSourceDialog::rememberedFor(bool prometheus, bool langfuse) const {
    Remembered out;
    if (!m_rememberCheck->isChecked() || m_keychainUnavailable) return out;
    const auto put = [&out](const QString& key, const QJsonObject& o) {
        if (!key.isEmpty() && !o.isEmpty()) out.entries.insert(key, QJsonDocument(o).toJson(QJsonDocument::Compact));
    };
    if (prometheus) {
        // Only what is typed (or came from the keychain): the environment's values stay in the environment.
        QJsonObject o;
        const auto add = [&o](const char* name, const QString& value) {
            if (!value.trimmed().isEmpty()) o.insert(QLatin1String(name), value.trimmed());
        };
        if (m_authCombo->currentIndex() == AuthBasic) {
            add("user", m_userEdit->text());
            add("password", m_passwordEdit->text());
        } else if (m_authCombo->currentIndex() == AuthBearer) {
            add("token", m_tokenEdit->text());
        }
        QJsonArray headers;
        if (auto parsed = parseHeaders(m_headersEdit->toPlainText())) {
            for (const auto& [name, value] : *parsed) headers.append(QJsonArray{toQString(name), toQString(value)});
        }
        if (!headers.isEmpty()) o.insert(QStringLiteral("headers"), headers);
        if (!o.isEmpty()) {
            o.insert(QStringLiteral("auth"), m_authCombo->currentIndex() == AuthBasic    ? QStringLiteral("basic")
                                             : m_authCombo->currentIndex() == AuthBearer ? QStringLiteral("bearer")
                                                                                         : QStringLiteral("none"));
        }
        put(CredentialStore::prometheusKey(m_urlEdit->text()), o);
    }
    if (langfuse) {
        QJsonObject o;
        const QString publicKey = m_publicKey->text().trimmed();
        const QString secretKey = m_secretKey->text().trimmed();
        if (!publicKey.isEmpty()) o.insert(QStringLiteral("publicKey"), publicKey);
        if (!secretKey.isEmpty()) o.insert(QStringLiteral("secretKey"), secretKey);
        put(CredentialStore::langfuseKey(m_langfuseUrl->text()), o);
    }
    return out;
}

namespace {
// One answer for several keychain calls.
struct KeychainBatch {
    int pending = 0;
    bool ok = true;
    QString error;
    QStringList urls;
};
}  // namespace

void TimelineSourceDialog::storeInKeychain(const Remembered& remembered) {
    if (remembered.entries.isEmpty()) return;
    auto batch = std::make_shared<KeychainBatch>();
    batch->pending = static_cast<int>(remembered.entries.size());
    for (auto it = remembered.entries.cbegin(); it != remembered.entries.cend(); ++it) {
        batch->urls << it.key().section(QLatin1Char(' '), 1);
        m_store->write(it.key(), it.value(), this, [this, batch](const CredentialStore::Reply& reply) {
            if (reply.outcome == CredentialStore::Outcome::Unavailable) keychainUnavailable(reply.error);
            if (reply.outcome != CredentialStore::Outcome::Done && batch->ok) {
                batch->ok = false;
                batch->error = reply.error;
            }
            if (--batch->pending > 0) return;
            if (batch->ok) {
                const QString urls = batch->urls.join(QStringLiteral(", "));
                showKeychainNote(tr("Saved in the system keychain for %1.").arg(urls));
            } else if (!m_keychainUnavailable) {
                showKeychainNote(tr("The system keychain did not store the credentials: %1").arg(batch->error), true);
            }
            emit keychainStored(batch->ok);
        });
    }
}

void TimelineSourceDialog::forgetCredentials() {
    clearKeychainFilled(Source::Prometheus);
    clearKeychainFilled(Source::Langfuse);
    m_rememberCheck->setChecked(false);
    QStringList keys;
    for (const QString& key :
         {CredentialStore::prometheusKey(m_urlEdit->text()), CredentialStore::langfuseKey(m_langfuseUrl->text())}) {
        if (!key.isEmpty()) keys << key;
    }
    if (keys.isEmpty()) {
        showKeychainNote(tr("No URL given: nothing to forget."));
        emit keychainForgotten(true);
        return;
    }
    auto batch = std::make_shared<KeychainBatch>();
    batch->pending = static_cast<int>(keys.size());
    for (const QString& key : std::as_const(keys)) {
        batch->urls << key.section(QLatin1Char(' '), 1);
        m_store->remove(key, this, [this, batch](const CredentialStore::Reply& reply) {
            if (reply.outcome == CredentialStore::Outcome::Unavailable) keychainUnavailable(reply.error);
            const bool ok =
                reply.outcome == CredentialStore::Outcome::Done || reply.outcome == CredentialStore::Outcome::NotFound;
            if (!ok && batch->ok) {
                batch->ok = false;
                batch->error = reply.error;
            }
            if (--batch->pending > 0) return;
            if (batch->ok) {
                showKeychainNote(tr("Forgotten: the system keychain holds no credentials for %1.")
                                     .arg(batch->urls.join(QStringLiteral(", "))));
            } else if (!m_keychainUnavailable) {
                showKeychainNote(tr("The system keychain did not remove the credentials: %1").arg(batch->error), true);
            }
            emit keychainForgotten(batch->ok);
        });
    }
}

void TimelineSourceDialog::keychainUnavailable(const QString& error) {
    if (m_keychainUnavailable) return;
    m_keychainUnavailable = true;
    // Nothing to remember into and nothing to forget; the dialog works on with typed and environment credentials.
    m_inputs.removeAll(m_rememberCheck);
    m_inputs.removeAll(m_forgetButton);
    m_rememberCheck->setChecked(false);
    m_rememberCheck->setEnabled(false);
    m_forgetButton->setEnabled(false);
    showKeychainNote(tr("The system keychain is not available: %1; credentials stay in memory for this session.")
                         .arg(error.isEmpty() ? tr("no reason given") : error),
                     true);
}

void TimelineSourceDialog::showKeychainNote(const QString& text, bool problem) {
    style::setTextTone(m_keychainLabel, problem ? std::optional(style::TextTone::Caution) : std::nullopt);
    m_keychainLabel->setText(text);
    growToFit();
}

}  // namespace fp8dash::ui
