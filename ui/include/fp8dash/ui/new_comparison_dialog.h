#pragma once
// NewComparisonDialog: builds a comparison from two lm-eval runs (each a results file or an output directory)
// and/or two judge score files (either pair is enough), an optional BF16 control rerun, labels, thresholds, the
// cautious policy and optional metric overrides; OK reads and compares everything on a QtConcurrent worker, pairing
// the runs' sample logs when they are beside the results (busy state with the logs' progress; Cancel stops reading
// and abandons the result), shows errors inline naming the file, then asks where to save and writes the *.fp8cmp
// file. Accepted means saved: result() and savedPath() then hold it. GUI thread only.

#include <QDialog>
#include <QString>

#include <memory>
#include <optional>

#include "fp8dash/ui/loaded_comparison.h"

class QCheckBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTimer;

namespace fp8dash::ui {

class BackgroundJob;

class NewComparisonDialog : public QDialog {
    Q_OBJECT
public:
    explicit NewComparisonDialog(QWidget* parent = nullptr);
    ~NewComparisonDialog() override;

    // Test and automation hooks: fill the form without native dialogs.
    void setBaselinePath(const QString& path);
    void setCandidatePath(const QString& path);
    void setControlPath(const QString& path);
    void setJudgePaths(const QString& baseline, const QString& candidate);
    void setCautious(bool on);
    void setAllowIncomparable(bool on);
    void setLabels(const QString& baseline, const QString& candidate);
    void setThresholds(double goBelow, double investigateAbove);
    void setOverridesText(const QString& text);  // one TASK=METRIC[,FILTER] per line
    void setTitle(const QString& title);
    // When set, the save step uses this path instead of asking with a file dialog.
    void setPresetSavePath(const QString& path) { m_presetSavePath = path; }
    void setStartDirectory(const QString& dir) { m_startDirectory = dir; }

    // The request the form describes, or an error naming the field (validated on the GUI thread; files not read).
    Result<NewComparisonRequest> request() const;

    bool isBusy() const { return m_busy; }
    QString errorText() const;  // the inline error, empty when none
    QPushButton* compareButton() const { return m_okButton; }
    QPushButton* cancelButton() const { return m_cancelButton; }
    QCheckBox* cautiousCheck() const { return m_cautiousCheck; }
    QCheckBox* allowIncomparableCheck() const { return m_allowIncomparableCheck; }

    const LoadedComparison* result() const { return m_result ? &*m_result : nullptr; }
    QString savedPath() const { return m_savedPath; }

    void accept() override;  // starts the comparison; the dialog closes once the file is saved
    void reject() override;  // while busy: abandons the running comparison and stays open

signals:
    void comparisonFailed(const QString& message);  // for tests and logging; the dialog shows it too

protected:
    void showEvent(QShowEvent* event) override;
    // Where to save; an empty string means the user declined. Default: the preset path, else a QFileDialog.
    virtual QString chooseSavePath(const QString& suggestedName);

private:
    QGroupBox* buildRulesBox();  // the constructor's verdict-rules group
    struct BuildProgress;        // shared with the worker: sample-log bytes read

    void browse(QLineEdit* edit, bool directory);
    void browseScores(QLineEdit* edit);
    void pollProgress();
    void start(NewComparisonRequest request);
    void finish(Result<LoadedComparison> outcome);
    void setBusy(bool busy, const QString& status = {});
    void showError(const QString& message);
    void showStatus(const QString& message);
    QString suggestedFileName(const LoadedComparison& loaded) const;

    QLineEdit* m_baselineEdit = nullptr;
    QLineEdit* m_candidateEdit = nullptr;
    QLineEdit* m_controlEdit = nullptr;
    QLineEdit* m_judgeBaselineEdit = nullptr;
    QLineEdit* m_judgeCandidateEdit = nullptr;
    QCheckBox* m_cautiousCheck = nullptr;
    QCheckBox* m_allowIncomparableCheck = nullptr;
    QTimer* m_progressTimer = nullptr;
    QLineEdit* m_baselineLabelEdit = nullptr;
    QLineEdit* m_candidateLabelEdit = nullptr;
    QLineEdit* m_titleEdit = nullptr;
    QDoubleSpinBox* m_goBelowSpin = nullptr;
    QDoubleSpinBox* m_investigateAboveSpin = nullptr;
    QPlainTextEdit* m_overridesEdit = nullptr;
    QLabel* m_errorLabel = nullptr;
    QLabel* m_statusLabel = nullptr;
    QProgressBar* m_busyBar = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    QPushButton* m_okButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QList<QWidget*> m_inputs;  // disabled while busy

    bool m_busy = false;
    BackgroundJob* m_job = nullptr;             // the running comparison; Cancel drops its result
    std::shared_ptr<BuildProgress> m_progress;  // the running job's
    QString m_presetSavePath;
    QString m_startDirectory;
    std::optional<LoadedComparison> m_result;
    QString m_savedPath;
};

}  // namespace fp8dash::ui
