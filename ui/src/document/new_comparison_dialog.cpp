#include "fp8dash/ui/new_comparison_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFrame>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QSpinBox>
#include <QTableWidget>
#include <QTextDocumentFragment>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>

#include "fp8dash/core/changed_answers.h"
#include "fp8dash/core/fp8_config.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/task_pairing.h"
#include "fp8dash/ui/background_job.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

struct NewComparisonDialog::BuildProgress {
    std::atomic<std::uint64_t> done{0};
    std::atomic<std::uint64_t> total{0};
};

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
};

namespace {

QDoubleSpinBox* percentSpin(double value, QWidget* parent) {
    auto* spin = new QDoubleSpinBox(parent);
    spin->setRange(0.0, 100.0);
    spin->setDecimals(2);
    spin->setSingleStep(0.1);
    spin->setSuffix(QStringLiteral(" %"));
    spin->setValue(value);
    spin->setAlignment(Qt::AlignRight);
    return spin;
}

}  // namespace

namespace {

// "gsm8k, mmlu, arc_challenge, … (+54)": the first few task names, each at most 24 characters (all in the tooltip).
QString shortTaskList(const LmEvalResults& run) {
    constexpr std::size_t kShown = 3;
    QStringList names;
    for (std::size_t i = 0; i < run.tasks.size() && i < kShown; ++i) {
        QString name = toQString(run.tasks[i].name);
        if (name.size() > 24) name = name.left(23) + QStringLiteral("…");
        names << name;
    }
    QString text = names.join(QStringLiteral(", "));
    if (run.tasks.size() > kShown) text += QObject::tr(", … (+%1)").arg(run.tasks.size() - kShown);
    return text;
}

}  // namespace

NewComparisonDialog::Detected NewComparisonDialog::detectRunAt(const QString& path) {
    Detected out;
    auto run = readLmEvalPath(toFsPath(path));
    if (!run) {
        out.error = true;
        // Core names the file it read; a message that does not (a folder without results) gets the path chosen.
        QString message = toQString(run.error().message);
        if (!message.contains(QFileInfo(path).fileName())) message = path + QStringLiteral(": ") + message;
        out.text = QObject::tr("Cannot read it: %1").arg(message);
        return out;
    }
    const Fp8Config config = detectFp8Config(*run);
    const std::string& model = !config.model.empty() ? config.model : run->modelName;
    const qsizetype tasks = static_cast<qsizetype>(run->tasks.size());
    out.derivedLabel = toQString(layersLabel(config));
    QStringList first{model.empty() ? QObject::tr("model not recorded") : toQString(model)};
    // lm-eval records its version since 0.4.5 or so; older files have only the harness' git commit.
    if (!run->lmEvalVersion.empty()) {
        first << QObject::tr("lm-eval %1").arg(toQString(run->lmEvalVersion));
    } else if (!run->gitHash.empty()) {
        first << QObject::tr("lm-eval git %1").arg(toQString(run->gitHash));
    } else {
        first << QObject::tr("lm-eval version not recorded");
    }
    if (run->date) {
        first << QDateTime::fromSecsSinceEpoch(static_cast<qint64>(*run->date), Qt::UTC)
                     .toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
    }
    const RunLayers& l = config.layers;
    // Three lines: the run, its tasks, its layers.
    out.text =
        first.join(QStringLiteral(" · ")) + QLatin1Char('\n') +
        (tasks == 1 ? QObject::tr("1 task: %1") : QObject::tr("%1 tasks: %2").arg(tasks)).arg(shortTaskList(*run)) +
        QLatin1Char('\n') +
        QObject::tr("Layers: %1 — weights %2 · KV cache %3 · KV scales %4")
            .arg(out.derivedLabel, toQString(l.weights.value), toQString(l.kvCache.value), toQString(l.kvScales.value));
    const std::pair<const char*, const LayerSetting*> layers[] = {
        {"Weights", &l.weights}, {"KV cache", &l.kvCache}, {"KV scales", &l.kvScales}, {"Activations", &l.activations}};
    QStringList lines;
    QStringList taskNames;
    for (const TaskResult& t : run->tasks) taskNames << toQString(t.name);
    lines << QObject::tr("Tasks: %1").arg(taskNames.join(QStringLiteral(", ")));
    for (const auto& [name, setting] : layers) {
        QString line = QStringLiteral("%1: %2").arg(QObject::tr(name), toQString(setting->value));
        if (!setting->evidence.empty()) line += QStringLiteral(" (%1)").arg(toQString(setting->evidence));
        lines << line;
    }
    out.toolTip = lines.join(QLatin1Char('\n'));
    out.run = std::make_shared<const LmEvalResults>(std::move(run).value());
    return out;
}

// One path field with its browse buttons: lm-eval runs take a file or a folder, judge scores a file. `tracked`: the
// widgets join m_inputs (disabled while busy); a run row's are disabled with their row instead.
QWidget* NewComparisonDialog::pathRow(QWidget* parent, QLineEdit*& edit, const QString& objectName,
                                      const QString& placeholder, PathKind kind, bool tracked) {
    auto* row = new QWidget(parent);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    edit = new QLineEdit(row);
    edit->setObjectName(objectName);
    edit->setPlaceholderText(placeholder);
    edit->setClearButtonEnabled(true);
    connect(edit, &QLineEdit::textChanged, edit, [edit](const QString& text) { edit->setToolTip(escapedTip(text)); });
    h->addWidget(edit, 1);
    QLineEdit* target = edit;
    auto* fileButton = new QPushButton(tr("File…"), row);
    h->addWidget(fileButton);
    QList<QWidget*> widgets{edit, fileButton};
    if (kind == PathKind::Scores) {
        connect(fileButton, &QPushButton::clicked, this, [this, target] { browseScores(target); });
    } else {
        auto* folderButton = new QPushButton(tr("Folder…"), row);
        connect(fileButton, &QPushButton::clicked, this, [this, target] { browse(target, false); });
        connect(folderButton, &QPushButton::clicked, this, [this, target] { browse(target, true); });
        h->addWidget(folderButton);
        widgets << folderButton;
    }
    if (tracked) m_inputs << widgets;
    return row;
}

NewComparisonDialog::NewComparisonDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("newComparisonDialog"));
    setWindowTitle(tr("New Comparison"));
    setMinimumWidth(760);

    // The form scrolls inside the dialog (a laptop's 768 px are not enough for it); the status and the buttons stay.
    auto* outer = new QVBoxLayout(this);
    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(QStringLiteral("formScroll"));
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_form = new QWidget(m_scroll);
    auto* layout = new QVBoxLayout(m_form);
    layout->setContentsMargins(0, 0, 6, 0);
    layout->setSpacing(12);
    layout->addWidget(style::caption(
        tr("Compare the BF16 baseline with the FP8 candidate on their lm-evaluation-harness results, on their "
           "domain judge scores, or on both (one decision over everything). Per-sample logs "
           "(--log_samples) beside the results are paired automatically."),
        this));

    // Runs: the baseline, then the candidates, each a row of its own; the control run and the title below.
    auto* runsBox = new QGroupBox(tr("lm-eval runs"), this);
    auto* runsLayout = new QVBoxLayout(runsBox);
    runsLayout->setSpacing(6);
    m_rowsLayout = new QVBoxLayout;
    m_rowsLayout->setSpacing(6);
    runsLayout->addLayout(m_rowsLayout);
    RunRow* baselineRow = addRunRow(true);
    m_baselineEdit = baselineRow->path;
    m_baselineEdit->setObjectName(QStringLiteral("baselinePath"));
    baselineRow->label->setObjectName(QStringLiteral("baselineLabel"));
    RunRow* candidateRow = addRunRow(false);
    m_candidateEdit = candidateRow->path;
    m_candidateEdit->setObjectName(QStringLiteral("candidatePath"));
    candidateRow->label->setObjectName(QStringLiteral("candidateLabel"));
    auto* addRow = new QHBoxLayout;
    m_addCandidateButton = new QPushButton(tr("&Add Candidate"), runsBox);
    m_addCandidateButton->setObjectName(QStringLiteral("addCandidate"));
    m_addCandidateButton->setToolTip(
        tr("Compare several FP8 variants with the one baseline (up to %1): e.g. FP8 weights, FP8 weights + FP8 KV "
           "cache, a checkpoint with calibrated KV scales. fp8dash measures each layer step and recommends the most "
           "aggressive variant that passes.")
            .arg(kMaxCandidates));
    connect(m_addCandidateButton, &QPushButton::clicked, this, [this] {
        const int index = addCandidate();
        if (index >= 0) m_rows[index + 1]->path->setFocus();
    });
    m_inputs << m_addCandidateButton;
    addRow->addWidget(m_addCandidateButton);
    addRow->addWidget(style::caption(tr("Labels left empty are named after the run's FP8 layers."), runsBox), 1);
    runsLayout->addLayout(addRow);

    auto* runsForm = new QFormLayout;
    runsForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    QWidget* controlRow = pathRow(runsBox, m_controlEdit, QStringLiteral("controlPath"),
                                  tr("optional: a second BF16 run of the same setup"), PathKind::Run, true);
    controlRow->setToolTip(
        tr("A BF16-vs-BF16 rerun: how far two runs of the same setup differ. Each task shows it "
           "as its noise floor; the verdicts do not change."));
    runsForm->addRow(tr("C&ontrol run:"), controlRow);
    m_titleEdit = new QLineEdit(runsBox);
    m_titleEdit->setObjectName(QStringLiteral("comparisonTitle"));
    m_titleEdit->setPlaceholderText(tr("optional; default: “<model>: BF16 vs FP8”"));
    runsForm->addRow(tr("&Title:"), m_titleEdit);
    m_inputs << m_titleEdit;
    m_answerExamplesSpin = new QSpinBox(runsBox);
    m_answerExamplesSpin->setObjectName(QStringLiteral("answerExamples"));
    m_answerExamplesSpin->setRange(0, 10000);
    m_answerExamplesSpin->setValue(static_cast<int>(kDefaultAnswerExamples));
    m_answerExamplesSpin->setSpecialValueText(tr("0 (only the counts)"));
    m_answerExamplesSpin->setAccessibleName(tr("Answer examples per task"));
    m_answerExamplesSpin->setToolTip(
        tr("The documents whose answer FP8 changed, kept per paired task (lost first): the question, the target and "
           "both runs' answers and responses, saved in the file (--answer-examples). 0 keeps only the counts: no "
           "question or response from the sample logs enters the file."));
    runsForm->addRow(tr("Answer &examples per task:"), m_answerExamplesSpin);
    m_inputs << m_answerExamplesSpin;
    runsLayout->addLayout(runsForm);
    layout->addWidget(runsBox);

    // Task pairing: the baseline's tasks the first candidate names otherwise (the CLI's --map).
    m_pairingBox = new QGroupBox(tr("Task pairing"), this);
    m_pairingBox->setObjectName(QStringLiteral("taskPairing"));
    auto* pairingLayout = new QVBoxLayout(m_pairingBox);
    m_pairingCaption = style::caption(QString(), m_pairingBox);
    pairingLayout->addWidget(m_pairingCaption);
    m_pairingTable = new QTableWidget(0, 2, m_pairingBox);
    m_pairingTable->setObjectName(QStringLiteral("taskPairingTable"));
    m_pairingTable->setHorizontalHeaderLabels({tr("Baseline task"), tr("Candidate task")});
    m_pairingTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_pairingTable->verticalHeader()->hide();
    m_pairingTable->setSelectionMode(QAbstractItemView::NoSelection);
    m_pairingTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    pairingLayout->addWidget(m_pairingTable);
    m_pairingBox->hide();
    m_inputs << m_pairingTable;
    layout->addWidget(m_pairingBox);

    // Judge
    auto* judgeBox = new QGroupBox(tr("Domain judge scores"), this);
    auto* judgeForm = new QFormLayout(judgeBox);
    judgeForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    judgeForm->addRow(tr("Baseline &scores:"),
                      pathRow(judgeBox, m_judgeBaselineEdit, QStringLiteral("judgeBaselinePath"),
                              tr("optional: baseline.jsonl, .csv or .json"), PathKind::Scores, true));
    judgeForm->addRow(tr("Candidate sc&ores:"),
                      pathRow(judgeBox, m_judgeCandidateEdit, QStringLiteral("judgeCandidatePath"),
                              tr("optional: candidate.jsonl, .csv or .json"), PathKind::Scores, true));
    judgeForm->addRow(QString(), style::caption(tr("One score (1–5) per sample, with an id to pair the two sides; "
                                                   "fp8dash judge writes such files."),
                                                judgeBox));
    layout->addWidget(judgeBox);

    layout->addWidget(buildRulesBox());

    // Feedback
    m_errorLabel = new QLabel(this);
    m_errorLabel->setObjectName(QStringLiteral("errorLabel"));
    m_errorLabel->setWordWrap(true);
    m_errorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_errorLabel->setStyleSheet(
        QStringLiteral("QLabel { color: #9b1c1c; background: #fbdcdc; border-radius: 4px;"
                       " padding: 6px 8px; }"));
    m_errorLabel->hide();
    layout->addWidget(m_errorLabel);

    // The result, shown before it is saved.
    m_resultFrame = new QFrame(this);
    m_resultFrame->setObjectName(QStringLiteral("resultFrame"));
    m_resultFrame->setFrameShape(QFrame::StyledPanel);
    auto* resultLayout = new QVBoxLayout(m_resultFrame);
    resultLayout->setContentsMargins(10, 8, 10, 8);
    m_resultLabel = new QLabel(m_resultFrame);
    m_resultLabel->setObjectName(QStringLiteral("resultText"));
    m_resultLabel->setTextFormat(Qt::RichText);  // built from escaped data only
    m_resultLabel->setWordWrap(true);
    m_resultLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    resultLayout->addWidget(m_resultLabel);
    m_resultFrame->hide();
    layout->addWidget(m_resultFrame);
    layout->addStretch(1);
    m_scroll->setWidget(m_form);
    outer->addWidget(m_scroll, 1);

    auto* statusRow = new QHBoxLayout;
    m_busyBar = new QProgressBar(this);
    m_busyBar->setObjectName(QStringLiteral("busyBar"));
    m_busyBar->setRange(0, 0);
    m_busyBar->setTextVisible(false);
    m_busyBar->setMaximumWidth(160);
    m_busyBar->hide();
    m_statusLabel = style::caption(QString(), this);
    m_statusLabel->setObjectName(QStringLiteral("statusLabel"));
    statusRow->addWidget(m_busyBar);
    statusRow->addWidget(m_statusLabel, 1);
    outer->addLayout(statusRow);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_okButton = m_buttons->button(QDialogButtonBox::Ok);
    m_okButton->setText(tr("&Compare"));
    m_okButton->setObjectName(QStringLiteral("compareButton"));
    m_cancelButton = m_buttons->button(QDialogButtonBox::Cancel);
    m_cancelButton->setObjectName(QStringLiteral("cancelButton"));
    m_okButton->setToolTip(tr("Compare, then open the result in the window, not yet saved (File › Save saves it)"));
    m_compareAndSaveButton = m_buttons->addButton(tr("Compare and &Save…"), QDialogButtonBox::ActionRole);
    m_compareAndSaveButton->setObjectName(QStringLiteral("compareAndSaveButton"));
    m_compareAndSaveButton->setToolTip(tr("Compare, then choose where to save it, then open it"));
    connect(m_compareAndSaveButton, &QPushButton::clicked, this, &NewComparisonDialog::compareAndSave);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &NewComparisonDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &NewComparisonDialog::reject);
    outer->addWidget(m_buttons);

    m_progressTimer = new QTimer(this);
    m_progressTimer->setInterval(100);
    connect(m_progressTimer, &QTimer::timeout, this, &NewComparisonDialog::pollProgress);
    m_job = new BackgroundJob(this);  // destroyed with the dialog: a running job stops reading sample logs

    renumberRows();
}

NewComparisonDialog::RunRow* NewComparisonDialog::addRunRow(bool baseline) {
    auto* row = new RunRow;
    row->baseline = baseline;
    row->widget = new QWidget(this);
    auto* grid = new QGridLayout(row->widget);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(2);
    row->title = new QLabel(row->widget);
    row->title->setMinimumWidth(row->title->fontMetrics().horizontalAdvance(tr("Candidate 8:")) + 4);
    grid->addWidget(row->title, 0, 0);
    QWidget* pathField = pathRow(row->widget, row->path, QString(), tr("results_….json or an lm-eval output folder"),
                                 PathKind::Run, false);
    row->title->setBuddy(row->path);
    grid->addWidget(pathField, 0, 1);
    row->label = new QLineEdit(row->widget);
    row->label->setAccessibleName(tr("Label"));
    row->label->setFixedWidth(row->label->fontMetrics().horizontalAdvance(QStringLiteral("FP8 W8A8 + FP8 KV")) + 16);
    row->label->setPlaceholderText(baseline ? QStringLiteral("BF16") : QStringLiteral("FP8"));
    row->label->setToolTip(tr("The run's label in tables, reports and slides"));
    grid->addWidget(row->label, 0, 2);
    auto tool = [&](const QString& text, const QString& tip) {
        auto* b = new QToolButton(row->widget);
        b->setText(text);
        b->setToolTip(tip);
        b->setAccessibleName(tip);
        b->setAutoRaise(true);
        QSizePolicy keep = b->sizePolicy();
        keep.setRetainSizeWhenHidden(true);  // the baseline's row keeps the candidates' columns aligned
        b->setSizePolicy(keep);
        return b;
    };
    row->up = tool(QStringLiteral("▲"), tr("Move the candidate up"));
    row->down = tool(QStringLiteral("▼"), tr("Move the candidate down"));
    row->remove = tool(QStringLiteral("✕"), tr("Remove the candidate"));
    auto* buttons = new QHBoxLayout;
    buttons->setSpacing(0);
    buttons->addWidget(row->up);
    buttons->addWidget(row->down);
    buttons->addWidget(row->remove);
    grid->addLayout(buttons, 0, 3);
    row->detected = style::caption(QString(), row->widget);
    row->detected->setObjectName(QStringLiteral("detectedRun"));
    row->detected->setTextFormat(Qt::PlainText);
    row->detected->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Three short lines, not wrapped (a wrapped label's height-for-width is lost inside the scroll area, cutting
    // lines off); a line longer than the row is cut at its end, never widening the dialog; the tooltip has it all.
    row->detected->setWordWrap(false);
    row->detected->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    row->detected->hide();
    grid->addWidget(row->detected, 1, 1, 1, 3);
    grid->setColumnStretch(1, 1);
    if (baseline) {
        row->up->hide();
        row->down->hide();
        row->remove->hide();
    }
    const auto indexOf = [this, row] { return static_cast<int>(m_rows.indexOf(row)) - 1; };
    connect(row->up, &QToolButton::clicked, this, [this, indexOf] { moveCandidate(indexOf(), -1); });
    connect(row->down, &QToolButton::clicked, this, [this, indexOf] { moveCandidate(indexOf(), +1); });
    connect(row->remove, &QToolButton::clicked, this, [this, indexOf] { removeCandidate(indexOf()); });
    row->detectTimer = new QTimer(row->widget);
    row->detectTimer->setSingleShot(true);
    row->detectTimer->setInterval(350);
    connect(row->detectTimer, &QTimer::timeout, this, [this, row] { detectRun(row); });
    connect(row->path, &QLineEdit::textChanged, this, [this, row] {
        ++row->generation;  // an answer for the old text is dropped
        const QString path = row->path->text().trimmed();
        if (const auto cached = m_detectedCache.value(path)) {
            showDetected(row, *cached);
        } else {
            row->detected->hide();
            row->detectTimer->start();
        }
        updateTaskPairing();
    });
    m_rows << row;
    m_rowsLayout->addWidget(row->widget);
    return row;
}

// Titles, which buttons apply, and what the add button and the gate say, after rows came, went or moved.
void NewComparisonDialog::renumberRows() {
    const int candidates = candidateCount();
    for (int i = 0; i < m_rows.size(); ++i) {
        RunRow* row = m_rows[i];
        if (row->baseline) {
            row->title->setText(tr("&Baseline:"));
            continue;
        }
        row->title->setText(candidates == 1 ? tr("&Candidate:") : tr("Candidate %1:").arg(i));
        row->up->setEnabled(i > 1);
        row->down->setEnabled(i < m_rows.size() - 1);
        row->remove->setEnabled(candidates > 1);
        // One candidate: a label left empty is "FP8", as ever; several: the run's layers name it.
        const auto detected = m_detectedCache.value(row->path->text().trimmed());
        row->label->setPlaceholderText(candidates == 1                                 ? QStringLiteral("FP8")
                                       : detected && !detected->derivedLabel.isEmpty() ? detected->derivedLabel
                                                                                       : tr("from its layers"));
    }
    m_addCandidateButton->setEnabled(!m_busy && candidates < static_cast<int>(kMaxCandidates));
    m_addCandidateButton->setText(candidates < static_cast<int>(kMaxCandidates)
                                      ? tr("&Add Candidate")
                                      : tr("%1 candidates at most").arg(kMaxCandidates));
    m_acceptCombo->setEnabled(!m_busy && candidates > 1);
    m_minRecoveryCheck->setEnabled(!m_busy && candidates > 1);
    m_minRecoverySpin->setEnabled(!m_busy && candidates > 1 && m_minRecoveryCheck->isChecked());
    m_gateCaption->setEnabled(candidates > 1);
}

int NewComparisonDialog::candidateCount() const {
    return static_cast<int>(m_rows.size()) - 1;
}

int NewComparisonDialog::addCandidate(const QString& path, const QString& label) {
    if (candidateCount() >= static_cast<int>(kMaxCandidates)) return -1;
    RunRow* row = addRunRow(false);
    row->path->setText(path);
    row->label->setText(label);
    renumberRows();
    return candidateCount() - 1;
}

void NewComparisonDialog::removeCandidate(int index) {
    if (index < 0 || index >= candidateCount() || candidateCount() <= 1) return;
    RunRow* row = m_rows.takeAt(index + 1);
    const bool first = index == 0;
    delete row->widget;  // its children, the timer included
    delete row;
    if (first) m_candidateEdit = m_rows[1]->path;  // the first candidate's row is whichever comes first now
    m_rows[1]->path->setObjectName(QStringLiteral("candidatePath"));
    m_rows[1]->label->setObjectName(QStringLiteral("candidateLabel"));
    renumberRows();
    updateTaskPairing();
}

void NewComparisonDialog::moveCandidate(int index, int delta) {
    const int other = index + delta;
    if (index < 0 || other < 0 || index >= candidateCount() || other >= candidateCount()) return;
    // The rows stay; their contents trade places (the first row keeps its object names for automation).
    RunRow* a = m_rows[index + 1];
    RunRow* b = m_rows[other + 1];
    const QString path = a->path->text(), label = a->label->text();
    a->path->setText(b->path->text());
    a->label->setText(b->label->text());
    b->path->setText(path);
    b->label->setText(label);
    renumberRows();
    updateTaskPairing();
    b->path->setFocus();
}

QString NewComparisonDialog::candidatePath(int index) const {
    return index >= 0 && index < candidateCount() ? m_rows[index + 1]->path->text() : QString();
}
QString NewComparisonDialog::candidateLabel(int index) const {
    return index >= 0 && index < candidateCount() ? m_rows[index + 1]->label->text() : QString();
}
void NewComparisonDialog::setCandidateLabel(int index, const QString& label) {
    if (index >= 0 && index < candidateCount()) m_rows[index + 1]->label->setText(label);
}

QString NewComparisonDialog::detectedText(int run) const {
    if (run < 0 || run >= m_rows.size() || m_rows[run]->detected->isHidden()) return {};
    return m_rows[run]->detected->text();
}

void NewComparisonDialog::setRecommendationGate(Verdict accept, std::optional<double> minRecoveryPct) {
    m_acceptCombo->setCurrentIndex(accept == Verdict::Monitor ? 1 : 0);
    m_minRecoveryCheck->setChecked(minRecoveryPct.has_value());
    if (minRecoveryPct) m_minRecoverySpin->setValue(*minRecoveryPct);
}

// Reads the row's results file on a worker; the answer is shown only if the row still holds that path.
void NewComparisonDialog::detectRun(RunRow* row) {
    const QString path = row->path->text().trimmed();
    if (path.isEmpty()) {
        row->detected->hide();
        renumberRows();
        return;
    }
    const quint64 generation = row->generation;
    auto* watcher = new QFutureWatcher<Detected>(row->widget);  // goes with the row when it is removed
    connect(watcher, &QFutureWatcher<Detected>::finished, this, [this, row, watcher, path, generation] {
        const Detected detected = watcher->result();
        watcher->deleteLater();
        m_detectedCache.insert(path, std::make_shared<Detected>(detected));
        if (row->generation == generation) showDetected(row, detected);
    });
    watcher->setFuture(QtConcurrent::run([path] { return detectRunAt(path); }));
}

void NewComparisonDialog::showDetected(RunRow* row, const Detected& detected) {
    row->detected->setText(detected.text);
    row->detected->setToolTip(escapedTip(detected.toolTip));
    style::setTextTone(row->detected, detected.error ? std::optional(style::TextTone::Error) : std::nullopt);
    row->detected->show();
    renumberRows();
    updateTaskPairing();
}

bool NewComparisonDialog::isTaskPairingShown() const {
    return !m_pairingBox->isHidden();
}

QWidget* NewComparisonDialog::metricOverridesEdit() const {
    return m_overridesEdit;
}

// The baseline's and the first candidate's tasks that have no counterpart of the same name: one row per baseline
// task, its combo box offering the candidate's (prefilled with core's suggestion); pairs chosen before stay chosen.
void NewComparisonDialog::updateTaskPairing() {
    const auto detectedOf = [this](int run) -> std::shared_ptr<Detected> {
        if (run >= m_rows.size()) return nullptr;
        const RunRow* row = m_rows[run];
        if (row->detected->isHidden()) return nullptr;  // being read, or nothing chosen
        return m_detectedCache.value(row->path->text().trimmed());
    };
    const auto baseline = detectedOf(0), candidate = detectedOf(1);
    if (!baseline || !candidate || !baseline->run || !candidate->run) {
        m_pairingBox->hide();
        return;
    }
    const UnmatchedTasks unmatched = unmatchedTasks(*baseline->run, *candidate->run);
    if (unmatched.baselineOnly.empty() || unmatched.candidateOnly.empty()) {
        m_pairingBox->hide();
        m_pairingTable->setRowCount(0);
        return;
    }
    // What the user chose already, kept where the lists still offer it.
    QHash<QString, QString> chosen;
    for (int r = 0; r < m_pairingTable->rowCount(); ++r) {
        const auto* combo = qobject_cast<QComboBox*>(m_pairingTable->cellWidget(r, 1));
        if (combo && m_pairingTable->item(r, 0))
            chosen.insert(m_pairingTable->item(r, 0)->text(), combo->currentData().toString());
    }
    QHash<QString, QString> suggested;
    for (const TaskMapping& m : unmatched.suggested) suggested.insert(toQString(m.baseline), toQString(m.candidate));
    m_pairingTable->setRowCount(static_cast<int>(unmatched.baselineOnly.size()));
    for (int r = 0; r < m_pairingTable->rowCount(); ++r) {
        const QString task = toQString(unmatched.baselineOnly[static_cast<std::size_t>(r)]);
        auto* item = new QTableWidgetItem(visibleText(task));
        item->setData(Qt::UserRole, task);
        m_pairingTable->setItem(r, 0, item);
        auto* combo = new QComboBox(m_pairingTable);
        combo->setAccessibleName(tr("Candidate task for %1").arg(task));
        combo->addItem(tr("— not paired (left out) —"), QString());
        for (const std::string& c : unmatched.candidateOnly) combo->addItem(visibleText(toQString(c)), toQString(c));
        const QString want = chosen.contains(task) ? chosen.value(task) : suggested.value(task);
        combo->setCurrentIndex(std::max(0, combo->findData(want)));
        m_pairingTable->setCellWidget(r, 1, combo);
    }
    m_pairingCaption->setText(
        tr("%1 of the baseline's tasks and %2 of the candidate's have no task of the same name in the other run. Pair "
           "those that are the same task under another name; unpaired tasks are left out of the comparison.")
            .arg(unmatched.baselineOnly.size())
            .arg(unmatched.candidateOnly.size()));
    // Tall enough for every row up to eight; more scroll inside the table.
    const int rows = std::min(m_pairingTable->rowCount(), 8);
    m_pairingTable->setFixedHeight(m_pairingTable->horizontalHeader()->sizeHint().height() +
                                   rows * m_pairingTable->verticalHeader()->defaultSectionSize() +
                                   2 * m_pairingTable->frameWidth() + 2);
    m_pairingBox->show();
}

// The verdict rules: the thresholds, the cautious policy, comparing what is not comparable, metric overrides.
QGroupBox* NewComparisonDialog::buildRulesBox() {
    auto* rulesBox = new QGroupBox(tr("Verdict rules"), this);
    auto* rulesForm = new QFormLayout(rulesBox);
    rulesForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto* thresholdsRow = new QWidget(rulesBox);
    auto* thresholdsLayout = new QHBoxLayout(thresholdsRow);
    thresholdsLayout->setContentsMargins(0, 0, 0, 0);
    const Thresholds defaults;
    m_goBelowSpin = percentSpin(defaults.goBelow, thresholdsRow);
    m_goBelowSpin->setObjectName(QStringLiteral("goBelow"));
    m_investigateAboveSpin = percentSpin(defaults.investigateAbove, thresholdsRow);
    m_investigateAboveSpin->setObjectName(QStringLiteral("investigateAbove"));
    thresholdsLayout->addWidget(new QLabel(tr("GO below"), thresholdsRow));
    thresholdsLayout->addWidget(m_goBelowSpin);
    thresholdsLayout->addSpacing(16);
    thresholdsLayout->addWidget(new QLabel(tr("INVESTIGATE above"), thresholdsRow));
    thresholdsLayout->addWidget(m_investigateAboveSpin);
    thresholdsLayout->addStretch(1);
    rulesForm->addRow(tr("Degradation:"), thresholdsRow);
    rulesForm->addRow(QString(),
                      style::caption(tr("Between the two (both ends included) the verdict is MONITOR."), rulesBox));
    m_overridesEdit = new QPlainTextEdit(rulesBox);
    m_overridesEdit->setObjectName(QStringLiteral("metricOverrides"));
    m_overridesEdit->setPlaceholderText(
        tr("One per line, e.g.\ngsm8k=exact_match,flexible-extract\narc_challenge=acc"));
    m_overridesEdit->setTabChangesFocus(true);
    const int lineHeight = m_overridesEdit->fontMetrics().lineSpacing();
    m_overridesEdit->setFixedHeight(lineHeight * 4 + 16);
    m_cautiousCheck =
        new QCheckBox(tr("C&autious policy: an uncertain result takes the worst band it may be in"), rulesBox);
    m_cautiousCheck->setObjectName(QStringLiteral("cautiousPolicy"));
    m_cautiousCheck->setToolTip(
        tr("When a task's (or the judge's) 95 % interval straddles a band edge, take the worst "
           "band the interval reaches instead of the band of the point estimate."));
    rulesForm->addRow(tr("Policy:"), m_cautiousCheck);
    m_allowIncomparableCheck = new QCheckBox(tr("Compare runs that are &not comparable anyway"), rulesBox);
    m_allowIncomparableCheck->setObjectName(QStringLiteral("allowIncomparable"));
    m_allowIncomparableCheck->setToolTip(
        tr("Tasks whose few-shot count, task version, sample count, prompts, chat template or generation settings "
           "differ between the runs, and two identical runs, are left out as not comparable. Checked: they are "
           "compared anyway, and the verdict says so."));
    rulesForm->addRow(tr("Comparability:"), m_allowIncomparableCheck);
    rulesForm->addRow(tr("&Metric overrides:"), m_overridesEdit);

    // The recommendation's gate (several candidates): the most aggressive variant that passes it is recommended.
    auto* gateRow = new QWidget(rulesBox);
    auto* gateLayout = new QHBoxLayout(gateRow);
    gateLayout->setContentsMargins(0, 0, 0, 0);
    m_acceptCombo = new QComboBox(gateRow);
    m_acceptCombo->setObjectName(QStringLiteral("acceptVerdict"));
    m_acceptCombo->addItem(tr("GO only"), static_cast<int>(Verdict::Go));
    m_acceptCombo->addItem(tr("GO or MONITOR"), static_cast<int>(Verdict::Monitor));
    m_acceptCombo->setToolTip(
        tr("A variant passes when its overall verdict is at most this (fp8dash compare "
           "--accept go|monitor)."));
    m_minRecoveryCheck = new QCheckBox(tr("and every task recovers at least"), gateRow);
    m_minRecoveryCheck->setObjectName(QStringLiteral("minRecoveryCheck"));
    m_minRecoverySpin = percentSpin(95.0, gateRow);
    m_minRecoverySpin->setObjectName(QStringLiteral("minRecovery"));
    m_minRecoverySpin->setEnabled(false);
    m_minRecoverySpin->setToolTip(
        tr("LLM Compressor's gate: recovery = candidate / baseline, at least this for every compared task "
           "(--min-recovery)."));
    connect(m_minRecoveryCheck, &QCheckBox::toggled, m_minRecoverySpin, &QWidget::setEnabled);
    gateLayout->addWidget(m_acceptCombo);
    gateLayout->addWidget(m_minRecoveryCheck);
    gateLayout->addWidget(m_minRecoverySpin);
    gateLayout->addStretch(1);
    rulesForm->addRow(tr("&Recommend:"), gateRow);
    m_gateCaption = style::caption(
        tr("With several candidates: the most aggressive variant (the most FP8 layers) that passes is recommended."),
        rulesBox);
    rulesForm->addRow(QString(), m_gateCaption);
    m_inputs << m_goBelowSpin << m_investigateAboveSpin << m_overridesEdit << m_cautiousCheck
             << m_allowIncomparableCheck << m_acceptCombo << m_minRecoveryCheck;
    return rulesBox;
}

NewComparisonDialog::~NewComparisonDialog() {
    qDeleteAll(m_rows);  // the rows' widgets are the dialog's children
}

void NewComparisonDialog::showEvent(QShowEvent* event) {
    QDialog::showEvent(event);
    // As tall as the form needs (its wrapped captions: height-for-width), but no taller than the screen's available
    // height less the title bar: the form scrolls inside, the status and the buttons stay on screen.
    const int viewportWidth = std::max(m_scroll->viewport()->width(), 200);
    const int formHeight =
        m_form->hasHeightForWidth() ? m_form->heightForWidth(viewportWidth) : m_form->sizeHint().height();
    int wanted = height() - m_scroll->viewport()->height() + formHeight;
    if (const QScreen* s = screen()) {
        const QRect available = s->availableGeometry();
        const int frame = std::max(frameGeometry().height() - geometry().height(), 0);
        const int titleBar = frame > 0 ? frame : 32;  // not known before the window manager decorates it
        wanted = std::min(wanted, available.height() - titleBar);
        resize(width(), std::max(wanted, minimumSizeHint().height()));
        // Keep it on the screen: a dialog centred over a tall parent may start above or below it.
        QRect g = frameGeometry();
        if (g.bottom() > available.bottom()) g.moveBottom(available.bottom());
        if (g.top() < available.top()) g.moveTop(available.top());
        move(g.topLeft());
    } else {
        resize(width(), wanted);
    }
}

void NewComparisonDialog::setControlPath(const QString& path) {
    m_controlEdit->setText(path);
}
void NewComparisonDialog::setJudgePaths(const QString& baseline, const QString& candidate) {
    m_judgeBaselineEdit->setText(baseline);
    m_judgeCandidateEdit->setText(candidate);
}
void NewComparisonDialog::setCautious(bool on) {
    m_cautiousCheck->setChecked(on);
}
void NewComparisonDialog::setAllowIncomparable(bool on) {
    m_allowIncomparableCheck->setChecked(on);
}

void NewComparisonDialog::setBaselinePath(const QString& path) {
    m_baselineEdit->setText(path);
}
void NewComparisonDialog::setCandidatePath(const QString& path) {
    m_candidateEdit->setText(path);
}
void NewComparisonDialog::setLabels(const QString& baseline, const QString& candidate) {
    m_rows[0]->label->setText(baseline);
    m_rows[1]->label->setText(candidate);
}
void NewComparisonDialog::setThresholds(double goBelow, double investigateAbove) {
    m_goBelowSpin->setValue(goBelow);
    m_investigateAboveSpin->setValue(investigateAbove);
}
void NewComparisonDialog::setOverridesText(const QString& text) {
    m_overridesEdit->setPlainText(text);
}
void NewComparisonDialog::setTitle(const QString& title) {
    m_titleEdit->setText(title);
}

QString NewComparisonDialog::errorText() const {
    return m_errorLabel->isHidden() ? QString() : m_errorLabel->text();
}

Result<NewComparisonRequest> NewComparisonDialog::request() const {
    NewComparisonRequest r;
    r.baselinePath = m_baselineEdit->text().trimmed();
    r.candidatePath = m_candidateEdit->text().trimmed();
    r.controlPath = m_controlEdit->text().trimmed();
    r.judgeBaselinePath = m_judgeBaselineEdit->text().trimmed();
    r.judgeCandidatePath = m_judgeCandidateEdit->text().trimmed();
    if (const Status valid = r.validate(); !valid) return valid.error();
    // An empty label is its placeholder: BF16, FP8 for a single candidate, else derived from the run's layers.
    r.baselineLabel = m_rows[0]->label->text().trimmed();
    if (r.baselineLabel.isEmpty()) r.baselineLabel = QStringLiteral("BF16");
    const bool several = candidateCount() > 1;
    r.candidateLabel = m_rows[1]->label->text().trimmed();
    if (!several && r.candidateLabel.isEmpty()) r.candidateLabel = QStringLiteral("FP8");
    for (int i = 2; i < m_rows.size(); ++i) {
        const QString path = m_rows[i]->path->text().trimmed();
        if (path.isEmpty()) {
            return Error{
                tr("Candidate %1: choose its results file or folder, or remove the row.").arg(i).toStdString()};
        }
        r.moreCandidatePaths << path;
        r.moreCandidateLabels << m_rows[i]->label->text().trimmed();
    }
    {
        QStringList given;
        for (const RunRow* row : m_rows) {
            const QString label = row->baseline ? r.baselineLabel : row->label->text().trimmed();
            if (label.isEmpty()) continue;
            if (given.contains(label)) {
                return Error{
                    tr("The label “%1” is given to two runs: each run needs its own.").arg(label).toStdString()};
            }
            given << label;
        }
    }
    if (several) {
        r.recommendation.accept = static_cast<Verdict>(m_acceptCombo->currentData().toInt());
        if (m_minRecoveryCheck->isChecked()) r.recommendation.minRecoveryPct = m_minRecoverySpin->value();
    }
    r.title = m_titleEdit->text().trimmed();
    r.answerExamples = static_cast<std::uint64_t>(m_answerExamplesSpin->value());
    r.options.thresholds.goBelow = m_goBelowSpin->value();
    r.options.thresholds.investigateAbove = m_investigateAboveSpin->value();
    r.options.cautious = m_cautiousCheck->isChecked();
    r.options.allowIncomparable = m_allowIncomparableCheck->isChecked();
    if (const Status valid = r.options.thresholds.validate(); !valid) return valid.error();

    const QStringList lines = m_overridesEdit->toPlainText().split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#'))) continue;
        auto parsed = MetricOverride::parse(line.toStdString());
        if (!parsed) {
            return Error{
                tr("Metric overrides, line %1: %2").arg(i + 1).arg(toQString(parsed.error().message)).toStdString()};
        }
        r.options.overrides.push_back(std::move(parsed).value());
    }
    // The task-pairing editor's pairs, as --map passes them.
    if (isTaskPairingShown()) {
        for (int row = 0; row < m_pairingTable->rowCount(); ++row) {
            const auto* combo = qobject_cast<QComboBox*>(m_pairingTable->cellWidget(row, 1));
            const QTableWidgetItem* item = m_pairingTable->item(row, 0);
            if (!combo || !item || combo->currentData().toString().isEmpty()) continue;
            r.options.taskMap.push_back(
                {item->data(Qt::UserRole).toString().toStdString(), combo->currentData().toString().toStdString()});
        }
    }
    return r;
}

void NewComparisonDialog::browse(QLineEdit* edit, bool directory) {
    QString start = edit->text().trimmed();
    if (start.isEmpty()) start = m_startDirectory;
    QString chosen;
    if (directory) {
        chosen = QFileDialog::getExistingDirectory(this, tr("Choose an lm-eval Output Folder"), start);
    } else {
        chosen = QFileDialog::getOpenFileName(this, tr("Choose an lm-eval Results File"), start,
                                              tr("lm-eval results (*.json);;All files (*)"));
    }
    if (chosen.isEmpty()) return;
    edit->setText(QDir::toNativeSeparators(chosen));
    m_startDirectory = directory ? chosen : QFileInfo(chosen).absolutePath();
}

void NewComparisonDialog::browseScores(QLineEdit* edit) {
    QString start = edit->text().trimmed();
    if (start.isEmpty()) start = m_startDirectory;
    const QString chosen =
        QFileDialog::getOpenFileName(this, tr("Choose a Judge Score File"), start,
                                     tr("Judge scores (*.jsonl *.ndjson *.csv *.json);;All files (*)"));
    if (chosen.isEmpty()) return;
    edit->setText(QDir::toNativeSeparators(chosen));
    m_startDirectory = QFileInfo(chosen).absolutePath();
}

void NewComparisonDialog::accept() {
    if (m_busy) return;
    auto r = request();
    if (!r) {
        showError(toQString(r.error().message));
        return;
    }
    start(std::move(r).value(), false);
}

void NewComparisonDialog::compareAndSave() {
    if (m_busy) return;
    auto r = request();
    if (!r) {
        showError(toQString(r.error().message));
        return;
    }
    start(std::move(r).value(), true);
}

void NewComparisonDialog::reject() {
    if (m_busy) {
        m_job->cancel();  // its result will be dropped; reading sample logs stops at the next progress report
        setBusy(false, tr("Cancelled. The comparison was abandoned."));
        return;
    }
    QDialog::reject();
}

void NewComparisonDialog::start(NewComparisonRequest request, bool thenSave) {
    m_saveAfterCompare = thenSave;
    m_result.reset();
    m_savedPath.clear();
    m_errorLabel->hide();
    setBusy(true, request.hasEvals() ? tr("Reading the runs and comparing…") : tr("Reading the judge scores…"));
    auto progress = std::make_shared<BuildProgress>();
    m_progress = progress;
    m_progressTimer->start();
    using Outcome = Result<LoadedComparison>;
    // The worker only touches the shared progress (polled by a timer: sample logs report very often) and its job's
    // cancel flag: no call into the dialog, which may be gone when it reports.
    auto work = [request = std::move(request), progress](JobControl& job) -> Outcome {
        return buildNewComparison(request, [progress, &job](std::uint64_t done, std::uint64_t total) {
            progress->done = done;
            progress->total = total;
            return !job.isCancelled();
        });
    };
    m_job->start(std::move(work), [this](Outcome outcome) { finish(std::move(outcome)); });
}

void NewComparisonDialog::pollProgress() {
    if (!m_busy || !m_progress) return;
    const std::uint64_t total = m_progress->total.load();
    if (total == 0) return;
    const std::uint64_t done = std::min(m_progress->done.load(), total);
    const int permille = static_cast<int>(done * 1000 / total);
    m_busyBar->setRange(0, 1000);
    m_busyBar->setValue(permille);
    showStatus(tr("Reading the sample logs… %1 %").arg(permille / 10));
}

void NewComparisonDialog::finish(Result<LoadedComparison> outcome) {
    setBusy(false);
    if (!outcome) {
        const QString message = toQString(outcome.error().message);
        showError(message);
        emit comparisonFailed(message);
        return;
    }
    m_result = std::move(outcome).value();
    showResult(*m_result);
    // Compare and Save…: where to save; declined, the result still opens, not saved (nothing compared is lost).
    if (m_saveAfterCompare && !save()) {
        if (!m_errorLabel->isHidden()) return;  // the write failed: shown; the form stays for another try
    }
    emit compared();
    QDialog::accept();
}

bool NewComparisonDialog::save() {
    QString path = chooseSavePath(suggestedFileName(*m_result));
    if (path.isEmpty()) return false;
    if (QFileInfo(path).suffix().compare(QStringLiteral("fp8cmp"), Qt::CaseInsensitive) != 0) {
        path += QStringLiteral(".fp8cmp");
    }
    // Saving is one small atomic write; it runs here so the dialog closes only once the file is safely on disk.
    const Status saved = saveComparisonFile(m_result->document, toFsPath(path));
    if (!saved) {
        const QString message = toQString(saved.error().message);
        showError(message);
        emit comparisonFailed(message);
        return false;
    }
    m_savedPath = QFileInfo(path).absoluteFilePath();
    return true;
}

QString NewComparisonDialog::resultText() const {
    return m_result ? QTextDocumentFragment::fromHtml(m_resultLabel->text()).toPlainText() : QString();
}

// The verdict in a few lines, before saving: the overall verdict and its first reasons; with several candidates
// the recommendation and each variant's verdict, worst task and average recovery.
void NewComparisonDialog::showResult(const LoadedComparison& loaded) {
    const auto verdictSpan = [](Verdict v) {
        return QStringLiteral("<b style=\"color:%1\">%2</b>")
            .arg(style::verdictTextColor(v, style::darkPalette()).name(), toQString(verdictTitle(v)));
    };
    QString html;
    if (loaded.decision.verdict) {
        html += tr("Verdict: %1").arg(verdictSpan(*loaded.decision.verdict));
    } else {
        html += tr("No verdict: nothing to compare gave one.");
    }
    if (const auto& variants = loaded.decision.variants) {
        const Recommendation& rec = variants->recommendation;
        html += QStringLiteral("<br>");
        html += rec.label ? tr("Recommended: <b>%1</b> — %2").arg(style::escaped(*rec.label), style::escaped(rec.buys))
                          : tr("<b>No variant passes</b> — %1").arg(style::escaped(rec.reason));
        html += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"2\" style=\"margin-top:6px\">");
        html += QStringLiteral(
                    "<tr><th align=\"left\">%1</th><th align=\"left\">%2</th><th align=\"left\">%3"
                    "</th><th align=\"right\">%4</th></tr>")
                    .arg(tr("Variant"), tr("Verdict"), tr("Worst task"), tr("Avg recovery"));
        for (const VariantResult& v : variants->variants) {
            const QString worst = v.worstTask.empty() || !v.worstDegradationPct
                                      ? tr("none degraded")
                                      : QStringLiteral("%1 −%2 %")
                                            .arg(style::escaped(v.worstTask))
                                            .arg(*v.worstDegradationPct, 0, 'f', 2);
            const QString recovery = v.averageRecoveryPct ? QStringLiteral("%1 %").arg(*v.averageRecoveryPct, 0, 'f', 1)
                                                          : QStringLiteral("–");
            const bool chosen = rec.recommends(v.label);
            html += QStringLiteral("<tr><td>%1%2</td><td>%3</td><td>%4</td><td align=\"right\">%5</td></tr>")
                        .arg(chosen ? QStringLiteral("★ ") : QString(), style::escaped(v.label), verdictSpan(v.verdict),
                             worst, recovery);
        }
        html += QStringLiteral("</table>");
        if (loaded.document.judge) {
            html += tr("The domain judge's scores are the first candidate's (%1).")
                        .arg(style::escaped(loaded.document.candidate.label));
        }
    } else {
        for (std::size_t i = 0; i < loaded.decision.reasons.size() && i < 3; ++i)
            html += QStringLiteral("<br>• %1").arg(style::escaped(loaded.decision.reasons[i]));
    }
    // Privacy: what of the sample logs the file will hold (answer_examples: the questions and responses).
    if (const std::string notice = answerExamplesNotice(answerExamplesHeld(loaded.document)); !notice.empty())
        html += QStringLiteral("<br>%1").arg(style::escaped(notice));
    for (const QString& note : loaded.buildNotes)
        html += QStringLiteral("<br><span style=\"color:%1\">%2</span>")
                    .arg(style::secondaryTextColor().name(), style::escaped(note));
    m_resultLabel->setText(html);  // the summary (resultText); the window shows the result itself
    showStatus(tr("Compared."));
}

QString NewComparisonDialog::chooseSavePath(const QString& suggestedName) {
    if (!m_presetSavePath.isEmpty()) return m_presetSavePath;
    const QString dir = m_startDirectory.isEmpty() ? QDir::homePath() : m_startDirectory;
    return QFileDialog::getSaveFileName(this, tr("Save Comparison"), QDir(dir).filePath(suggestedName),
                                        tr("fp8dash comparisons (*.fp8cmp)"));
}

QString NewComparisonDialog::suggestedFileName(const LoadedComparison& loaded) const {
    std::string model = loaded.document.baseline.results.modelName;
    if (const auto slash = model.rfind('/'); slash != std::string::npos) model = model.substr(slash + 1);
    QString base = toQString(model);
    if (!base.isEmpty()) base += QLatin1Char('-');
    base +=
        toQString(loaded.document.baseline.label) + QStringLiteral("-vs-") +
        (loaded.document.hasVariants() ? QStringLiteral("%1-variants").arg(loaded.document.moreCandidates.size() + 1)
                                       : toQString(loaded.document.candidate.label));
    base = base.toLower();
    base.replace(QRegularExpression(QStringLiteral("[^a-z0-9._-]+")), QStringLiteral("-"));
    return base + QStringLiteral(".fp8cmp");
}

void NewComparisonDialog::setBusy(bool busy, const QString& status) {
    m_busy = busy;
    if (!busy) {
        m_progressTimer->stop();
        m_busyBar->setRange(0, 0);  // indeterminate until the next job reports bytes
    }
    for (QWidget* w : std::as_const(m_inputs)) w->setEnabled(!busy);
    for (RunRow* row : std::as_const(m_rows)) row->widget->setEnabled(!busy);
    renumberRows();
    m_okButton->setEnabled(!busy);
    m_compareAndSaveButton->setEnabled(!busy);
    m_busyBar->setVisible(busy);
    m_cancelButton->setToolTip(busy ? tr("Abandon the running comparison") : QString());
    showStatus(status);
}

void NewComparisonDialog::showError(const QString& message) {
    m_errorLabel->setText(message);
    m_errorLabel->show();
    m_statusLabel->clear();
    m_scroll->ensureWidgetVisible(m_errorLabel);
}

void NewComparisonDialog::showStatus(const QString& message) {
    m_statusLabel->setText(message);
}

}  // namespace fp8dash::ui
