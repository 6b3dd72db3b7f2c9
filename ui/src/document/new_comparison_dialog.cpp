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

#include "document/new_comparison_parts.h"
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
           "both runs' answers and responses, saved in the file. 0 keeps only the counts: no "
           "question or response from the sample logs enters the file."));
    runsForm->addRow(tr("Answer &examples per task:"), m_answerExamplesSpin);
    m_inputs << m_answerExamplesSpin;
    runsLayout->addLayout(runsForm);
    layout->addWidget(runsBox);
    layout->addWidget(buildServingBox());  // shown once a run has serving results

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

void NewComparisonDialog::setRecommendationGate(Verdict accept, std::optional<double> minRecoveryPct) {
    m_acceptCombo->setCurrentIndex(accept == Verdict::Monitor ? 1 : 0);
    m_minRecoveryCheck->setChecked(minRecoveryPct.has_value());
    if (minRecoveryPct) m_minRecoverySpin->setValue(*minRecoveryPct);
}

// Reads the row's results file on a worker; the answer is shown only if the row still holds that path.
QWidget* NewComparisonDialog::metricOverridesEdit() const {
    return m_overridesEdit;
}

// The baseline's and the first candidate's tasks that have no counterpart of the same name: one row per baseline
// task, its combo box offering the candidate's (prefilled with core's suggestion); pairs chosen before stay chosen.
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
    m_acceptCombo->setToolTip(tr("A variant passes when its overall verdict is at most this."));
    m_minRecoveryCheck = new QCheckBox(tr("and every task recovers at least"), gateRow);
    m_minRecoveryCheck->setObjectName(QStringLiteral("minRecoveryCheck"));
    m_minRecoverySpin = percentSpin(95.0, gateRow);
    m_minRecoverySpin->setObjectName(QStringLiteral("minRecovery"));
    m_minRecoverySpin->setEnabled(false);
    m_minRecoverySpin->setToolTip(
        tr("LLM Compressor's gate: recovery = candidate / baseline, at least this for every compared task."));
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
    if (const Status serving = addServingToRequest(r); !serving) return serving.error();
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
    // What FP8 buys on the team's server, when serving results were given (the reason beyond the first three).
    const auto& reasons = loaded.decision.reasons;
    for (std::size_t i = loaded.decision.variants ? 0 : 3; i < reasons.size(); ++i)
        if (reasons[i].rfind("serving: ", 0) == 0) html += QStringLiteral("<br>• %1").arg(style::escaped(reasons[i]));
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
