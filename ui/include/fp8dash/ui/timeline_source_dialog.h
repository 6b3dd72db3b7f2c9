#pragma once
// TimelineSourceDialog: where the production timeline comes from. Prometheus URL, authentication (none, basic,
// bearer), extra headers such as X-Scope-OrgID, TLS verification and a CA file; the throughput query (or none); the
// quality source (none, a Prometheus query, or Langfuse scores by name and trace tags with the public and secret
// keys); the time range, step and the time FP8 went on. "Test Connection" asks Prometheus for its build info on a
// worker thread and shows it, or the exact error. "Fetch" runs fetchTimeline() on a QtConcurrent worker with a
// progress bar fed from core's Progress (through the future's queued progress signals); Cancel sets the atomic flag
// core polls and the dialog is usable again at once; errors show in the dialog, naming the URL. Accepted means
// fetched: result() then holds the timeline. Credentials typed here live in memory for this session only: they never
// reach the comparison file (TimelineSettings holds none) or QSettings. GUI thread only.

#include <QDialog>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>

#include "fp8dash/core/timeline.h"

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace fp8dash::ui {

class TimeRangePicker;

class TimelineSourceDialog : public QDialog {
    Q_OBJECT
public:
    struct Request {
        TimelineSettings settings;
        TimelineCredentials credentials;
    };

    explicit TimelineSourceDialog(QWidget* parent = nullptr);
    ~TimelineSourceDialog() override;  // cancels a fetch or test still running

    // Fills the form: sources, queries, range, step, change time. Rule and bands are kept as they are.
    void setSettings(const TimelineSettings& settings);
    // The credentials typed earlier in this session (fills the secret fields, never shown in clear).
    void setCredentials(const TimelineCredentials& credentials);

    // The form as a fetch request, validated; the error names the field. Empty secret fields fall back to the
    // environment (FP8DASH_PROMETHEUS_TOKEN, FP8DASH_PROMETHEUS_USER/_PASSWORD, FP8DASH_PROMETHEUS_HEADERS,
    // LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY).
    Result<Request> request() const;

    void testConnection();  // Prometheus build info, off the GUI thread
    void startFetch();      // what the Fetch button does; the dialog closes once the timeline is fetched

    bool isFetching() const { return m_fetching; }
    bool isTesting() const { return m_testing; }
    QString errorText() const;       // the inline error, empty when none
    QString statusText() const;      // progress text, "Cancelled.", ...
    QString connectionText() const;  // the last Test Connection result
    int progressPermille() const;    // 0..1000 while fetching

    QPushButton* fetchButton() const { return m_fetchButton; }
    QPushButton* cancelButton() const { return m_cancelButton; }
    QPushButton* testButton() const { return m_testButton; }
    TimeRangePicker* rangePicker() const { return m_rangePicker; }

    const TimelineData* result() const { return m_result ? &*m_result : nullptr; }
    const TimelineCredentials& resultCredentials() const { return m_resultCredentials; }

    void accept() override;  // starts the fetch
    void reject() override;  // while fetching: cancels it and stays open; otherwise closes

signals:
    void fetchFailed(const QString& message);
    void fetchCancelled();
    void connectionTested(bool ok, const QString& text);

private:
    void updateVisibility();
    void setHeaderPlaceholder(const std::vector<std::string>& fetchedWith);
    void updatePointEstimate();
    void setFetching(bool fetching, const QString& status = {});
    void finishFetch(Result<TimelineData> outcome, TimelineCredentials credentials);
    void showError(const QString& message);
    void growToFit();
    Headers typedHeaders() const;

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

    QComboBox* m_qualityCombo = nullptr;
    QStackedWidget* m_qualityStack = nullptr;
    QFormLayout* m_qualityForm = nullptr;  // the Langfuse page
    QLineEdit* m_qualityQuery = nullptr;
    QLineEdit* m_langfuseUrl = nullptr;
    QLineEdit* m_scoreName = nullptr;
    QLineEdit* m_traceTags = nullptr;
    QLineEdit* m_environments = nullptr;
    QLineEdit* m_publicKey = nullptr;
    QLineEdit* m_secretKey = nullptr;

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

    bool m_fetching = false;
    bool m_testing = false;
    quint64 m_fetchGeneration = 0;  // bumped by each fetch and by Cancel; an older finished fetch is dropped
    quint64 m_testGeneration = 0;
    std::shared_ptr<std::atomic<bool>> m_fetchCancel;  // read by core's Progress::cancelled on the worker
    std::shared_ptr<std::atomic<bool>> m_testCancel;
    std::optional<TimelineData> m_result;
    TimelineCredentials m_resultCredentials;
};

}  // namespace fp8dash::ui
