#include "fp8dash/ui/new_comparison_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "fp8dash/ui/background_job.h"
#include "ui_style.h"

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

NewComparisonDialog::NewComparisonDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("newComparisonDialog"));
    setWindowTitle(tr("New Comparison"));
    setMinimumWidth(760);

    auto* layout = new QVBoxLayout(this);
    layout->setSpacing(12);
    layout->addWidget(style::caption(
        tr("Compare the BF16 baseline with the FP8 candidate on their lm-evaluation-harness results, on their "
           "domain judge scores, or on both (one decision over everything). Per-sample logs "
           "(--log_samples) beside the results are paired automatically."),
        this));

    // One path field with its browse buttons: lm-eval runs take a file or a folder, judge scores a file.
    enum class Browse { Run, Scores };
    auto pathRow = [&](QWidget* box, QLineEdit*& edit, const QString& objectName, const QString& placeholder,
                       Browse kind) {
        auto* row = new QWidget(box);
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        edit = new QLineEdit(row);
        edit->setObjectName(objectName);
        edit->setPlaceholderText(placeholder);
        edit->setClearButtonEnabled(true);
        connect(edit, &QLineEdit::textChanged, edit, [edit](const QString& text) { edit->setToolTip(text); });
        h->addWidget(edit, 1);
        m_inputs << edit;
        QLineEdit* target = edit;
        auto* fileButton = new QPushButton(tr("File…"), row);
        h->addWidget(fileButton);
        m_inputs << fileButton;
        if (kind == Browse::Scores) {
            connect(fileButton, &QPushButton::clicked, this, [this, target] { browseScores(target); });
            return row;
        }
        auto* folderButton = new QPushButton(tr("Folder…"), row);
        connect(fileButton, &QPushButton::clicked, this, [this, target] { browse(target, false); });
        connect(folderButton, &QPushButton::clicked, this, [this, target] { browse(target, true); });
        h->addWidget(folderButton);
        m_inputs << folderButton;
        return row;
    };

    // Runs
    auto* runsBox = new QGroupBox(tr("lm-eval runs"), this);
    auto* runsForm = new QFormLayout(runsBox);
    runsForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    runsForm->addRow(tr("&Baseline:"), pathRow(runsBox, m_baselineEdit, QStringLiteral("baselinePath"),
                                               tr("results_….json or an lm-eval output folder"), Browse::Run));
    runsForm->addRow(tr("&Candidate:"), pathRow(runsBox, m_candidateEdit, QStringLiteral("candidatePath"),
                                                tr("results_….json or an lm-eval output folder"), Browse::Run));
    QWidget* controlRow = pathRow(runsBox, m_controlEdit, QStringLiteral("controlPath"),
                                  tr("optional: a second BF16 run of the same setup"), Browse::Run);
    controlRow->setToolTip(
        tr("A BF16-vs-BF16 rerun: how far two runs of the same setup differ. Each task shows it "
           "as its noise floor; the verdicts do not change."));
    runsForm->addRow(tr("C&ontrol run:"), controlRow);

    auto* labelsRow = new QWidget(runsBox);
    auto* labelsLayout = new QHBoxLayout(labelsRow);
    labelsLayout->setContentsMargins(0, 0, 0, 0);
    m_baselineLabelEdit = new QLineEdit(QStringLiteral("BF16"), labelsRow);
    m_baselineLabelEdit->setObjectName(QStringLiteral("baselineLabel"));
    m_candidateLabelEdit = new QLineEdit(QStringLiteral("FP8"), labelsRow);
    m_candidateLabelEdit->setObjectName(QStringLiteral("candidateLabel"));
    labelsLayout->addWidget(new QLabel(tr("baseline"), labelsRow));
    labelsLayout->addWidget(m_baselineLabelEdit, 1);
    labelsLayout->addSpacing(12);
    labelsLayout->addWidget(new QLabel(tr("candidate"), labelsRow));
    labelsLayout->addWidget(m_candidateLabelEdit, 1);
    runsForm->addRow(tr("&Labels:"), labelsRow);
    m_titleEdit = new QLineEdit(runsBox);
    m_titleEdit->setObjectName(QStringLiteral("comparisonTitle"));
    m_titleEdit->setPlaceholderText(tr("optional; default: “<model>: BF16 vs FP8”"));
    runsForm->addRow(tr("&Title:"), m_titleEdit);
    m_inputs << m_baselineLabelEdit << m_candidateLabelEdit << m_titleEdit;
    layout->addWidget(runsBox);

    // Judge
    auto* judgeBox = new QGroupBox(tr("Domain judge scores"), this);
    auto* judgeForm = new QFormLayout(judgeBox);
    judgeForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    judgeForm->addRow(tr("Baseline &scores:"),
                      pathRow(judgeBox, m_judgeBaselineEdit, QStringLiteral("judgeBaselinePath"),
                              tr("optional: baseline.jsonl, .csv or .json"), Browse::Scores));
    judgeForm->addRow(tr("Candidate sc&ores:"),
                      pathRow(judgeBox, m_judgeCandidateEdit, QStringLiteral("judgeCandidatePath"),
                              tr("optional: candidate.jsonl, .csv or .json"), Browse::Scores));
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
    layout->addLayout(statusRow);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_okButton = m_buttons->button(QDialogButtonBox::Ok);
    m_okButton->setText(tr("Compare and Save…"));
    m_okButton->setObjectName(QStringLiteral("compareButton"));
    m_cancelButton = m_buttons->button(QDialogButtonBox::Cancel);
    m_cancelButton->setObjectName(QStringLiteral("cancelButton"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &NewComparisonDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &NewComparisonDialog::reject);
    layout->addWidget(m_buttons);

    m_progressTimer = new QTimer(this);
    m_progressTimer->setInterval(100);
    connect(m_progressTimer, &QTimer::timeout, this, &NewComparisonDialog::pollProgress);
    m_job = new BackgroundJob(this);  // destroyed with the dialog: a running job stops reading sample logs
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
    m_inputs << m_goBelowSpin << m_investigateAboveSpin << m_overridesEdit << m_cautiousCheck
             << m_allowIncomparableCheck;
    return rulesBox;
}

NewComparisonDialog::~NewComparisonDialog() = default;

void NewComparisonDialog::showEvent(QShowEvent* event) {
    QDialog::showEvent(event);
    // A window's first size ignores height-for-width: the wrapped captions would squeeze the form. Grow to fit.
    if (layout() && layout()->hasHeightForWidth()) {
        const int needed = layout()->totalHeightForWidth(width());
        if (needed > height()) resize(width(), needed);
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
    m_baselineLabelEdit->setText(baseline);
    m_candidateLabelEdit->setText(candidate);
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
    r.baselineLabel = m_baselineLabelEdit->text().trimmed();
    r.candidateLabel = m_candidateLabelEdit->text().trimmed();
    if (r.baselineLabel.isEmpty() || r.candidateLabel.isEmpty()) {
        return Error{tr("Both runs need a label (e.g. BF16 and FP8).").toStdString()};
    }
    r.title = m_titleEdit->text().trimmed();
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
    start(std::move(r).value());
}

void NewComparisonDialog::reject() {
    if (m_busy) {
        m_job->cancel();  // its result will be dropped; reading sample logs stops at the next progress report
        setBusy(false, tr("Cancelled. The comparison was abandoned."));
        return;
    }
    QDialog::reject();
}

void NewComparisonDialog::start(NewComparisonRequest request) {
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
    LoadedComparison loaded = std::move(outcome).value();
    QString path = chooseSavePath(suggestedFileName(loaded));
    if (path.isEmpty()) {
        showStatus(tr("Compared, but not saved: press “Compare and Save…” again to choose a file."));
        return;
    }
    if (QFileInfo(path).suffix().compare(QStringLiteral("fp8cmp"), Qt::CaseInsensitive) != 0) {
        path += QStringLiteral(".fp8cmp");
    }
    // Saving is one small atomic write; it runs here so the dialog closes only once the file is safely on disk.
    const Status saved = saveComparisonFile(loaded.document, toFsPath(path));
    if (!saved) {
        const QString message = toQString(saved.error().message);
        showError(message);
        emit comparisonFailed(message);
        return;
    }
    m_savedPath = QFileInfo(path).absoluteFilePath();
    m_result = std::move(loaded);
    QDialog::accept();
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
        toQString(loaded.document.baseline.label) + QStringLiteral("-vs-") + toQString(loaded.document.candidate.label);
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
    m_okButton->setEnabled(!busy);
    m_busyBar->setVisible(busy);
    m_cancelButton->setToolTip(busy ? tr("Abandon the running comparison") : QString());
    showStatus(status);
}

void NewComparisonDialog::showError(const QString& message) {
    m_errorLabel->setText(message);
    m_errorLabel->show();
    m_statusLabel->clear();
}

void NewComparisonDialog::showStatus(const QString& message) {
    m_statusLabel->setText(message);
}

}  // namespace fp8dash::ui
