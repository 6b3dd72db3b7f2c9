// The New Comparison dialog's runs group (new_comparison_dialog.cpp builds the dialog, new_comparison_runs.cpp the
// rows of its runs, what each run holds, and the task pairing): what both see of a run's row.
#pragma once

#include <QLabel>
#include <QLineEdit>
#include <QString>
#include <QTimer>
#include <QToolButton>
#include <QWidget>

#include <memory>

#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/ui/new_comparison_dialog.h"

namespace fp8dash::ui {

// What a run's results file says, for its row: read on a worker (a results file can be large; its sample logs are
// not read here).
struct NewComparisonDialog::Detected {
    QString text;          // two lines: the run (model, tasks, lm-eval version, date), then its layers
    QString toolTip;       // every task, then each layer with its evidence
    QString derivedLabel;  // the label a run without one gets: its layers ("FP8 W8A8 + FP8 KV (scales 1.0)")
    bool error = false;
    std::shared_ptr<const LmEvalResults> run;  // for the task-pairing editor; null on error
};

struct NewComparisonDialog::RunRow {
    QWidget* widget = nullptr;
    QLabel* title = nullptr;  // "Baseline:", "Candidate 2:"
    QLineEdit* path = nullptr;
    QLineEdit* label = nullptr;
    QLabel* detected = nullptr;
    QToolButton* up = nullptr;
    QToolButton* down = nullptr;
    QToolButton* remove = nullptr;
    QTimer* detectTimer = nullptr;  // a typed path is read once typing pauses
    quint64 generation = 0;         // the newest detection's; older answers are dropped
    bool baseline = false;
    // The run's serving-benchmark results (optional; new_comparison_serving.cpp): a file or folder, typed, chosen or
    // dropped onto the row, and what it holds, read on a worker.
    QWidget* servingField = nullptr;
    QLineEdit* servingPath = nullptr;
    QLabel* servingPreview = nullptr;
    QTimer* servingTimer = nullptr;
    quint64 servingGeneration = 0;
};

// What a run's serving results hold, for its row: "8 load points · vLLM bench serve · concurrency 4–512 · MODEL", or
// the error naming the file. Read on a worker without the per-request arrays.
struct NewComparisonDialog::ServingPreview {
    QString text;
    QString toolTip;
    bool error = false;
};

}  // namespace fp8dash::ui
