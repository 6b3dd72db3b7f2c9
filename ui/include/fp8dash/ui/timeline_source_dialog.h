#pragma once
// TimelineSourceDialog: where the production timeline comes from. Prometheus URL, authentication (none, basic,
// bearer), extra headers such as X-Scope-OrgID, TLS verification and a CA file; the throughput query (or none); the
// quality source (none, a Prometheus query, or Langfuse scores by name and trace tags with the public and secret
// keys); the time range, step and the time FP8 went on. "Test Connection" asks Prometheus for its build info on a
// worker thread and shows it, or the exact error. "Fetch" runs fetchTimeline() on a QtConcurrent worker with a
// progress bar fed from core's Progress (through the future's queued progress signals); Cancel sets the atomic flag
// core polls and the dialog is usable again at once; errors show in the dialog, naming the URL. Accepted means
// fetched: result() then holds the timeline. Credentials never reach the comparison file (TimelineSettings holds
// none), QSettings or a log. They are taken, field by field, from what is typed, else from the system keychain,
// else from the environment. With "Remember in the system keychain" ticked, a successful fetch or Test Connection
// stores the typed ones in the CredentialStore under the source's URL; opening the dialog or changing a URL looks
// them up (asynchronously) and fills the empty fields; "Forget" removes them. Without a keychain a note says so and
// credentials stay in memory for this session. GUI thread only.

#include <QDialog>
#include <QHash>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <optional>

#include "fp8dash/core/timeline.h"

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QFormLayout;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTimer;
class QVBoxLayout;

namespace fp8dash::ui {

class BackgroundJob;

class CredentialStore;
class ModelPickButton;
class TimeRangePicker;

class TimelineSourceDialog : public QDialog {
    Q_OBJECT
public:
    struct Request {
        TimelineSettings settings;
        TimelineCredentials credentials;
    };

    // store: where remembered credentials live; nullptr: the system keychain (KeychainCredentialStore).
    explicit TimelineSourceDialog(QWidget* parent = nullptr, std::shared_ptr<CredentialStore> store = nullptr);
    ~TimelineSourceDialog() override;  // cancels a fetch or test still running

    // Fills the form: sources, queries, range, step, change time. Rule and bands are kept as they are.
    void setSettings(const TimelineSettings& settings);
    // The credentials typed earlier in this session (fills the secret fields, never shown in clear).
    void setCredentials(const TimelineCredentials& credentials);

    // The form as a fetch request, validated; the error names the field. Empty secret fields (not typed, not filled
    // from the keychain) fall back to the environment (FP8DASH_PROMETHEUS_TOKEN, FP8DASH_PROMETHEUS_USER/_PASSWORD,
    // FP8DASH_PROMETHEUS_HEADERS, LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY).
    Result<Request> request() const;

    void testConnection();  // Prometheus build info, off the GUI thread
    void startFetch();      // what the Fetch button does; the dialog closes once the timeline is fetched
    // What Refresh does: like startFetch, but when the form lacks credentials while a keychain lookup is under way,
    // fetches once the lookup has filled them in (or failed).
    void startFetchAfterKeychain();

    bool isFetching() const { return m_fetching; }
    bool isTesting() const { return m_testing; }
    QString errorText() const;       // the inline error, empty when none
    QString statusText() const;      // progress text, "Cancelled.", ...
    QString connectionText() const;  // the last Test Connection result
    int progressPermille() const;    // 0..1000 while fetching
    QString keychainText() const;    // the keychain note: filled in, saved, forgotten, or not available (and why)
    bool isKeychainAvailable() const { return !m_keychainUnavailable; }  // false once the keychain failed to answer
    bool isLookingUpKeychain() const;  // a lookup is scheduled or waiting for the keychain

    QPushButton* fetchButton() const { return m_fetchButton; }
    QPushButton* cancelButton() const { return m_cancelButton; }
    QPushButton* testButton() const { return m_testButton; }
    TimeRangePicker* rangePicker() const { return m_rangePicker; }
    QCheckBox* rememberCheck() const { return m_rememberCheck; }
    QPushButton* forgetButton() const { return m_forgetButton; }

    const TimelineData* result() const { return m_result ? &*m_result : nullptr; }
    const TimelineCredentials& resultCredentials() const { return m_resultCredentials; }
    // What the servers said besides the data during the last fetch (a deprecated Langfuse endpoint, a long fetch, a
    // rate-limit wait): for the main window's notice area.
    QStringList sourceNotices() const { return m_notices; }

    void accept() override;  // starts the fetch
    void reject() override;  // while fetching: cancels it and stays open; otherwise closes

signals:
    void fetchFailed(const QString& message);
    void fetchCancelled();
    void connectionTested(bool ok, const QString& text);
    void keychainLookedUp();          // every lookup of a round has answered (found, not found or failed)
    void keychainStored(bool ok);     // a remember after success has answered
    void keychainForgotten(bool ok);  // Forget has answered

private:
    // The form (timeline_source_form.cpp), one builder per group.
    QGroupBox* buildPrometheusBox();
    QGroupBox* buildThroughputBox();
    QGroupBox* buildQualityBox();
    QGroupBox* buildRangeBox();
    QHBoxLayout* buildKeychainRow();
    void buildFeedback(QVBoxLayout* layout);  // the error line, progress, status and the buttons
    void updateVisibility();
    void setHeaderPlaceholder(const std::vector<std::string>& fetchedWith);
    void updatePointEstimate();
    void setFetching(bool fetching, const QString& status = {});
    void finishFetch(Result<TimelineData> outcome, TimelineCredentials credentials);
    void showFetchProgress(qint64 done, qint64 total, const QString& text);
    void showError(const QString& message);
    void growToFit();
    Headers typedHeaders() const;
    Result<PrometheusSettings> formPrometheusSettings() const;  // URL, auth, headers, TLS as typed (for a quick ask)

    // The keychain (CredentialStore); blobs are JSON objects of the typed secret fields.
    enum class Source { Prometheus, Langfuse };
    struct Remembered {  // what a success stores: key -> blob, captured when the fetch or test starts
        QHash<QString, QByteArray> entries;
    };
    void lookUpKeychain();
    void fillFromKeychain(Source source, const QString& key, const QByteArray& blob);
    void clearKeychainFilled(Source source);
    Remembered rememberedFor(bool prometheus, bool langfuse) const;
    void storeInKeychain(const Remembered& remembered);
    void forgetCredentials();
    void keychainUnavailable(const QString& error);
    void showKeychainNote(const QString& text, bool problem = false);
    bool fillIfEmpty(QLineEdit* edit, const QString& value, Source source);

    TimelineSettings m_base;  // the rule and bands (and anything else the form does not show) come from here

    QLineEdit* m_urlEdit = nullptr;
    QComboBox* m_authCombo = nullptr;
    QStackedWidget* m_authStack = nullptr;
    QLineEdit* m_userEdit = nullptr;
    QLineEdit* m_passwordEdit = nullptr;
    QLineEdit* m_tokenEdit = nullptr;
    QPlainTextEdit* m_headersEdit = nullptr;
    QCheckBox* m_verifyTls = nullptr;
    QLineEdit* m_caFileEdit = nullptr;
    QPushButton* m_testButton = nullptr;
    QLabel* m_connectionLabel = nullptr;
    QFormLayout* m_promForm = nullptr;

    QCheckBox* m_fetchThroughput = nullptr;
    QLineEdit* m_throughputQuery = nullptr;
    QLineEdit* m_seriesPick = nullptr;
    ModelPickButton* m_modelPick = nullptr;  // lists the model_name values the server has

    QComboBox* m_qualityCombo = nullptr;
    QStackedWidget* m_qualityStack = nullptr;
    QFormLayout* m_qualityForm = nullptr;  // the Langfuse page
    QLineEdit* m_qualityQuery = nullptr;
    QLineEdit* m_langfuseUrl = nullptr;
    QLineEdit* m_scoreName = nullptr;
    QLineEdit* m_traceTags = nullptr;
    QLineEdit* m_environments = nullptr;
    QComboBox* m_langfuseMode = nullptr;  // Automatic, every score (raw), per minute (Metrics API)
    QStringList m_notices;
    QLineEdit* m_publicKey = nullptr;
    QLineEdit* m_secretKey = nullptr;
    QComboBox* m_windowsCombo = nullptr;  // automatic, prometheus2, prometheus3

    TimeRangePicker* m_rangePicker = nullptr;
    QSpinBox* m_stepSpin = nullptr;
    QLabel* m_pointsLabel = nullptr;
    QCheckBox* m_changeKnown = nullptr;
    QDateTimeEdit* m_changeEdit = nullptr;

    QLabel* m_errorLabel = nullptr;
    QLabel* m_statusLabel = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_fetchButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QList<QWidget*> m_inputs;  // disabled while fetching
    QCheckBox* m_rememberCheck = nullptr;
    QPushButton* m_forgetButton = nullptr;
    QLabel* m_keychainLabel = nullptr;

    std::shared_ptr<CredentialStore> m_store;
    QTimer* m_lookupTimer = nullptr;  // a URL being typed is looked up once typing pauses
    int m_lookupsPending = 0;
    quint64 m_lookupGeneration = 0;  // bumped by each lookup round; answers of older rounds only count down
    QString m_keychainKey[2];        // per Source: the key whose entry filled the fields, empty when none
    QHash<QObject*, QString> m_keychainFilled[2];  // per Source: field -> the value the keychain put there
    bool m_keychainUnavailable = false;
    bool m_fetchAfterLookup = false;
    Remembered m_fetchRemember;  // stored when the running fetch succeeds
    bool m_fetching = false;
    bool m_testing = false;
    BackgroundJob* m_fetchJob = nullptr;  // Cancel or the dialog's end stops the fetch and drops its result
    BackgroundJob* m_testJob = nullptr;   // Test Connection
    std::optional<TimelineData> m_result;
    TimelineCredentials m_resultCredentials;
};

}  // namespace fp8dash::ui
