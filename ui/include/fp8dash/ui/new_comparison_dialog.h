#pragma once
// NewComparisonDialog: builds a comparison from lm-eval runs (each a results file or an output directory: the
// baseline and 1 to 8 candidates, added, removed and reordered in the form, each previewing under its picker what it
// holds as soon as it is chosen: model, tasks, lm-eval version, date and FP8 layers, read on a worker) and/or two
// judge score files (either is enough), an optional BF16 control rerun, labels, thresholds, the cautious policy, the
// recommendation's gate (several candidates), optional metric overrides and, where the baseline and the first
// candidate name tasks differently, a task-pairing editor (the CLI's --map; prefilled with core's suggestions).
// Each run may come with its serving-benchmark results (vLLM bench serve, GuideLLM, AIPerf: a file or a folder,
// chosen, typed or dropped onto the run's row, previewed under it off the GUI thread); with any, the "What FP8 buys"
// group asks for the team's latency SLO, the load to serve and the GPU-hour price (docs/serving.md).
// "Compare" reads and compares everything on a QtConcurrent worker, pairing the runs' sample logs when they are beside
// the results (busy state with the logs' progress; Cancel stops reading and abandons the result), shows errors inline
// naming the file, and on success closes: result() holds the comparison, not saved (the window opens it unsaved).
// "Compare and Save…" does the same, then asks where to save and writes the *.fp8cmp file (savedPath(); declined:
// not saved, as Compare). The form scrolls inside a dialog no taller than the screen's available height. GUI thread
// only.

#include <QDialog>
#include <QHash>
#include <QList>
#include <QString>

#include <memory>
#include <optional>

#include "fp8dash/ui/loaded_comparison.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QFrame;
class QVBoxLayout;
class QDialogButtonBox;
class QDoubleSpinBox;
class QScrollArea;
class QSpinBox;
class QTableWidget;
class QGridLayout;
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
    void setCandidatePath(const QString& path);  // the first candidate's
    // The candidates (index 0 is the first, the one setCandidatePath sets). addCandidate returns the new row's index,
    // -1 at kMaxCandidates.
    int candidateCount() const;
    int addCandidate(const QString& path = {}, const QString& label = {});
    void removeCandidate(int index);           // the last remaining candidate is kept
    void moveCandidate(int index, int delta);  // -1 up, +1 down
    QString candidatePath(int index) const;
    QString candidateLabel(int index) const;
    void setCandidateLabel(int index, const QString& label);
    // What was detected of a run (0: the baseline, k: candidate k-1): three lines, "model · lm-eval VERSION (or git
    // COMMIT) · DATE", "N tasks: a, b, c, … (+M)" and "Layers: LABEL — weights W · KV cache K · KV scales S"; or an
    // error naming the file; or "" while nothing is chosen or it is being read.
    QString detectedText(int run) const;
    // The task-pairing editor (shown when the baseline and the first candidate have tasks the other lacks): one row
    // per baseline task without a counterpart, column 1 a combo box of the candidate's unmatched tasks (item 0: not
    // paired), prefilled with core's suggestions. Its pairs go into the request as ComparisonOptions::taskMap.
    QTableWidget* taskPairingTable() const { return m_pairingTable; }
    bool isTaskPairingShown() const;
    QScrollArea* formScrollArea() const { return m_scroll; }
    QWidget* metricOverridesEdit() const;
    void setRecommendationGate(Verdict accept, std::optional<double> minRecoveryPct);
    void setControlPath(const QString& path);
    void setJudgePaths(const QString& baseline, const QString& candidate);
    void setCautious(bool on);
    void setAllowIncomparable(bool on);
    void setLabels(const QString& baseline, const QString& candidate);  // the baseline's and the first candidate's
    void setThresholds(double goBelow, double investigateAbove);
    void setOverridesText(const QString& text);  // one TASK=METRIC[,FILTER] per line
    void setTitle(const QString& title);
    // Serving benchmarks (run 0: the baseline, k: candidate k-1): the results file or folder of a run, and what its
    // preview says ("" while nothing is chosen or it is being read).
    void setServingPath(int run, const QString& path);
    QString servingPath(int run) const;
    QString servingPreviewText(int run) const;
    bool isServingPreviewError(int run) const;
    QLineEdit* servingPathEdit(int run) const;
    // The "What FP8 buys" group (shown once a run has serving results): the SLO (one percentile for every target;
    // each target's spin box at 0 is "no target"), the SLO in words, the target load and the GPU-hour price (0: none),
    // and the noise threshold.
    QGroupBox* servingBox() const { return m_servingBox; }
    QComboBox* sloPercentileCombo() const { return m_sloPercentile; }
    QDoubleSpinBox* sloTtftSpin() const { return m_sloTtft; }
    QDoubleSpinBox* sloTpotSpin() const { return m_sloTpot; }
    QDoubleSpinBox* sloE2elSpin() const { return m_sloE2el; }
    QString sloWords() const;
    QDoubleSpinBox* targetLoadSpin() const { return m_targetLoad; }
    QDoubleSpinBox* gpuHourCostSpin() const { return m_gpuHourCost; }
    QSpinBox* gpusPerReplicaSpin() const { return m_gpusPerReplica; }
    // The noise threshold (ServingOptions::noisePct, %): a gain smaller than it, with one run per variant, is noise.
    QDoubleSpinBox* noisePctSpin() const { return m_noisePct; }
    QString noiseWords() const;  // "Gains smaller than ±2.0 % count as noise …"

    // When set, the save step uses this path instead of asking with a file dialog.
    void setPresetSavePath(const QString& path) { m_presetSavePath = path; }
    void setStartDirectory(const QString& dir) { m_startDirectory = dir; }

    // The request the form describes, or an error naming the field (validated on the GUI thread; files not read).
    Result<NewComparisonRequest> request() const;

    bool isBusy() const { return m_busy; }
    QString errorText() const;                               // the inline error, empty when none
    bool hasResult() const { return m_result.has_value(); }  // compared (saved or not)
    QString resultText() const;                              // the result's summary, plain text; "" when none
    QPushButton* compareButton() const { return m_okButton; }
    QPushButton* compareAndSaveButton() const { return m_compareAndSaveButton; }
    QPushButton* cancelButton() const { return m_cancelButton; }
    QCheckBox* cautiousCheck() const { return m_cautiousCheck; }
    QCheckBox* allowIncomparableCheck() const { return m_allowIncomparableCheck; }
    // The changed documents kept per paired task (0–10,000, default 200; 0: only the counts): --answer-examples.
    QSpinBox* answerExamplesSpin() const { return m_answerExamplesSpin; }

    const LoadedComparison* result() const { return m_result ? &*m_result : nullptr; }
    QString savedPath() const { return m_savedPath; }

    // Compares; the dialog closes with the result (not saved). compareAndSave(): then asks where to save it.
    void accept() override;
    void compareAndSave();
    void reject() override;  // while busy: abandons the running comparison and stays open

signals:
    void comparisonFailed(const QString& message);  // for tests and logging; the dialog shows it too
    void compared();                                // compared (and saved when asked); the dialog closes next

protected:
    void showEvent(QShowEvent* event) override;
    // Where to save; an empty string means the user declined. Default: the preset path, else a QFileDialog.
    virtual QString chooseSavePath(const QString& suggestedName);

private:
    QGroupBox* buildRulesBox();  // the constructor's verdict-rules group
    struct BuildProgress;        // shared with the worker: sample-log bytes read
    struct RunRow;               // one run of the runs group: path, label, what was detected
    struct Detected;             // what a run's results file says, read on a worker
    struct ServingPreview;       // what a run's serving results hold, read on a worker

    enum class PathKind { Run, Scores };
    QWidget* pathRow(QWidget* parent, QLineEdit*& edit, const QString& objectName, const QString& placeholder,
                     PathKind kind, bool tracked);
    RunRow* addRunRow(bool baseline);
    static Detected detectRunAt(const QString& path);  // on a worker
    void renumberRows();
    void detectRun(RunRow* row);
    void showDetected(RunRow* row, const Detected& detected);
    void updateTaskPairing();  // after the baseline's or the first candidate's run was read
    // Serving benchmarks (new_comparison_serving.cpp).
    QGroupBox* buildServingBox();
    void buildNoiseRow(QFormLayout* form);
    void addServingField(RunRow* row, QGridLayout* grid, int gridRow);
    static ServingPreview previewServingAt(const QString& path);  // on a worker
    void previewServing(RunRow* row);
    void showServingPreview(RunRow* row, const ServingPreview& preview);
    void updateServingBox();
    ServingSlo chosenSlo() const;
    Status addServingToRequest(NewComparisonRequest& r) const;
    void showResult(const LoadedComparison& loaded);
    bool save();  // asks where and writes m_result; false: declined or failed (shown)

    void browse(QLineEdit* edit, bool directory);
    void browseScores(QLineEdit* edit);
    void pollProgress();
    void start(NewComparisonRequest request, bool thenSave);
    void finish(Result<LoadedComparison> outcome);
    void setBusy(bool busy, const QString& status = {});
    void showError(const QString& message);
    void showStatus(const QString& message);
    QString suggestedFileName(const LoadedComparison& loaded) const;

    QLineEdit* m_baselineEdit = nullptr;   // the baseline row's path
    QLineEdit* m_candidateEdit = nullptr;  // the first candidate row's path
    QVBoxLayout* m_rowsLayout = nullptr;
    QList<RunRow*> m_rows;  // the baseline first, then the candidates
    QPushButton* m_addCandidateButton = nullptr;
    QHash<QString, std::shared_ptr<Detected>> m_detectedCache;  // by path: a moved row shows its run at once
    QLineEdit* m_controlEdit = nullptr;
    QLineEdit* m_judgeBaselineEdit = nullptr;
    QLineEdit* m_judgeCandidateEdit = nullptr;
    QCheckBox* m_cautiousCheck = nullptr;
    QCheckBox* m_allowIncomparableCheck = nullptr;
    QTimer* m_progressTimer = nullptr;
    QLineEdit* m_titleEdit = nullptr;
    QSpinBox* m_answerExamplesSpin = nullptr;
    QDoubleSpinBox* m_goBelowSpin = nullptr;
    QDoubleSpinBox* m_investigateAboveSpin = nullptr;
    QPlainTextEdit* m_overridesEdit = nullptr;
    QComboBox* m_acceptCombo = nullptr;
    QCheckBox* m_minRecoveryCheck = nullptr;
    QDoubleSpinBox* m_minRecoverySpin = nullptr;
    QLabel* m_gateCaption = nullptr;
    QFrame* m_resultFrame = nullptr;
    QLabel* m_resultLabel = nullptr;
    QLabel* m_errorLabel = nullptr;
    QLabel* m_statusLabel = nullptr;
    QProgressBar* m_busyBar = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    QPushButton* m_okButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QPushButton* m_compareAndSaveButton = nullptr;
    QScrollArea* m_scroll = nullptr;
    QWidget* m_form = nullptr;  // the scroll area's widget
    QGroupBox* m_pairingBox = nullptr;
    QTableWidget* m_pairingTable = nullptr;
    QLabel* m_pairingCaption = nullptr;
    QList<QWidget*> m_inputs;  // disabled while busy
    QGroupBox* m_servingBox = nullptr;
    QComboBox* m_sloPercentile = nullptr;
    QDoubleSpinBox* m_sloTtft = nullptr;
    QDoubleSpinBox* m_sloTpot = nullptr;
    QDoubleSpinBox* m_sloE2el = nullptr;
    QLabel* m_sloWords = nullptr;
    QDoubleSpinBox* m_targetLoad = nullptr;
    QDoubleSpinBox* m_gpuHourCost = nullptr;
    QSpinBox* m_gpusPerReplica = nullptr;
    QDoubleSpinBox* m_noisePct = nullptr;
    QLabel* m_noiseWords = nullptr;
    QHash<QString, std::shared_ptr<ServingPreview>> m_servingCache;  // by path

    bool m_busy = false;
    BackgroundJob* m_job = nullptr;             // the running comparison; Cancel drops its result
    std::shared_ptr<BuildProgress> m_progress;  // the running job's
    QString m_presetSavePath;
    QString m_startDirectory;
    bool m_saveAfterCompare = false;           // the running comparison's: Compare and Save…
    std::optional<LoadedComparison> m_result;  // compared
    QString m_savedPath;                       // where it was saved; "" when not
};

}  // namespace fp8dash::ui
