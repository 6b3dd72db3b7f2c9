#pragma once
// RunJudgeDialog: the domain eval with an LLM judge, run from the app (core's judge_runner.h). The form
// takes the samples file (JSON Lines with id/prompt/expected; its sample count, or the error naming the line, shows
// once picked), the baseline (BF16) and candidate (FP8) deployments and the judge (OpenAI-compatible URL and model; a
// deployment's empty model is asked from GET /v1/models), concurrency, max_tokens, the output folder (default: a
// judge-run-<date> folder beside the samples file) and the rubric (the seed's by default, editable under "Edit
// rubric…"). API keys come from the environment only (FP8DASH_BASELINE_API_KEY, FP8DASH_CANDIDATE_API_KEY,
// FP8DASH_JUDGE_API_KEY, OPENAI_API_KEY): never typed into, shown or stored by the app.
// Run validates the form (errors name the field), then runs runJudgeEval() on a QtConcurrent worker with a progress
// bar and "12/200 done, 1 failed, ETA 2 min"; Cancel sets the atomic flag core polls, keeps what is done in the
// folder, and the dialog is usable again once the worker has stopped (~50 ms); Run on the same folder resumes. A
// finished run's two score files are read (still on the worker) and scoresReady() is emitted: MainWindow puts them
// into the document's judge section. The dialog stays open showing the outcome, with the failures count and the
// path of failures.jsonl. The URLs, models, concurrency and max_tokens are remembered in QSettings (no secrets).
// GUI thread only.

#include <QDialog>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>

#include "fp8dash/core/http_client.h"
#include "fp8dash/core/judge_runner.h"
#include "fp8dash/core/judge_scores.h"

class QDialogButtonBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QToolButton;
class QWidget;

namespace fp8dash::ui {

class BackgroundJob;

class RunJudgeDialog : public QDialog {
    Q_OBJECT
public:
    explicit RunJudgeDialog(QWidget* parent = nullptr);
    ~RunJudgeDialog() override;  // a run still going is cancelled; its files stay resumable

    // Test and automation hooks: fill the form without native dialogs.
    void setSamplesPath(const QString& path);  // reads the file at once: the count or the error shows
    void setBaseline(const QString& url, const QString& model = {});
    void setCandidate(const QString& url, const QString& model = {});
    void setJudge(const QString& url, const QString& model);
    void setConcurrency(int workers);
    void setMaxTokens(int tokens);
    void setOutputDir(const QString& dir);  // from then on the folder no longer follows the samples file
    void setRubric(const QString& rubric);
    // Timeouts and retries of the HTTP requests (tests shorten them); never shown in the form.
    void setHttpOptions(const HttpOptions& http) { m_http = http; }

    // The form as run settings, validated; errors name the field. API keys from the environment.
    Result<JudgeRunSettings> settings() const;
    // The folder a samples file's results go to by default: <its folder>/judge-run-<YYYY-MM-DD>.
    static QString defaultOutputDir(const QString& samplesPath);

    void startRun();   // what Run does
    void cancelRun();  // what Cancel does while running; no effect otherwise

    bool isRunning() const { return m_running; }
    QString errorText() const;     // the inline error, empty when none
    QString samplesText() const;   // "5 samples (10 answers to judge)" or the file's error
    QString statusText() const;    // progress, "Cancelled…", the outcome
    QString failuresText() const;  // "1 failed: see …/failures.jsonl", empty when none failed
    QString outputNote() const;    // whether Run starts afresh or resumes in the output folder
    int progressValue() const;     // work units finished (2 per sample), as last shown
    int progressMaximum() const;   // 0 while the total is not known yet

    // The last run that finished (not cancelled): its summary and both score lists, ready for a judge section.
    const JudgeRunSummary* summary() const { return m_summary ? &*m_summary : nullptr; }
    const JudgeSection* scores() const { return m_scores ? &*m_scores : nullptr; }

    QPushButton* runButton() const { return m_runButton; }
    QPushButton* closeButton() const { return m_closeButton; }  // "Cancel" while running
    QToolButton* rubricToggle() const { return m_rubricToggle; }
    QPlainTextEdit* rubricEdit() const { return m_rubricEdit; }

    void accept() override;  // starts the run
    void reject() override;  // while running: cancels and stays open; otherwise closes

signals:
    void scoresReady();  // a run finished and both score files were read: scores() and summary() hold them
    void runFailed(const QString& message);
    void runCancelled();  // the worker has stopped after Cancel; the dialog is usable again

private:
    // The form, one builder per group.
    QGroupBox* buildFilesBox();
    QGroupBox* buildServersBox();
    QGroupBox* buildRunBox();
    struct Outcome;

    void browseSamples();
    void browseOutput();
    void readSamples();
    void updateOutputNote();
    void updateKeysNote();
    void setRunning(bool running, const QString& status = {});
    void finishRun(Outcome outcome);
    void showError(const QString& message);
    void growToFit(bool shrink = false);
    void loadRemembered();
    void remember() const;

    QLineEdit* m_samplesEdit = nullptr;
    QLabel* m_samplesLabel = nullptr;
    QLineEdit* m_baselineUrl = nullptr;
    QLineEdit* m_baselineModel = nullptr;
    QLineEdit* m_candidateUrl = nullptr;
    QLineEdit* m_candidateModel = nullptr;
    QLineEdit* m_judgeUrl = nullptr;
    QLineEdit* m_judgeModel = nullptr;
    QSpinBox* m_concurrencySpin = nullptr;
    QSpinBox* m_maxTokensSpin = nullptr;
    QLineEdit* m_outputEdit = nullptr;
    QLabel* m_outputNote = nullptr;
    QToolButton* m_rubricToggle = nullptr;
    QWidget* m_rubricPanel = nullptr;
    QPlainTextEdit* m_rubricEdit = nullptr;
    QLabel* m_keysLabel = nullptr;
    QLabel* m_errorLabel = nullptr;
    QLabel* m_statusLabel = nullptr;
    QLabel* m_failuresLabel = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_runButton = nullptr;
    QPushButton* m_closeButton = nullptr;
    QList<QWidget*> m_inputs;  // disabled while running

    bool m_progressShown = false;        // hidden until the first run
    bool m_outputFollowsSamples = true;  // until the user picks or types a folder
    HttpOptions m_http = JudgeRunSettings::defaultHttp();
    bool m_running = false;
    bool m_cancelling = false;
    BackgroundJob* m_job = nullptr;  // the run; Cancel asks it to stop, its summary still arrives
    std::optional<JudgeRunSummary> m_summary;
    std::optional<JudgeSection> m_scores;
};

}  // namespace fp8dash::ui
