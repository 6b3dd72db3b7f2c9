// The runs group of the New Comparison dialog: a row per run (baseline, candidates added, removed and reordered),
// what each run holds, read on a worker and shown under its picker, and the task-pairing editor for runs whose
// tasks are named differently.
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

#include "document/new_comparison_parts.h"

namespace fp8dash::ui {

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
    addServingField(row, grid, 2);
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
    updateServingBox();
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
    const QString path = a->path->text(), label = a->label->text(), serving = a->servingPath->text();
    a->path->setText(b->path->text());
    a->label->setText(b->label->text());
    a->servingPath->setText(b->servingPath->text());
    b->path->setText(path);
    b->label->setText(label);
    b->servingPath->setText(serving);
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
}  // namespace fp8dash::ui
