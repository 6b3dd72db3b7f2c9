#include "fp8dash/ui/run_judge_dialog.h"

#include <QDate>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <tuple>
#include <utility>

#include "fp8dash/ui/background_job.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/number_text.h"
#include "fp8dash/ui/screen_fit.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

namespace {

constexpr int kMaxConcurrency = 64;
const char* const kKeyVariables[] = {"FP8DASH_BASELINE_API_KEY", "FP8DASH_CANDIDATE_API_KEY", "FP8DASH_JUDGE_API_KEY",
                                     "OPENAI_API_KEY"};

QString settingsKey(const char* name) {
    return QStringLiteral("runJudge/") + QLatin1String(name);
}

// "34 s", "2 min", "1 h 5 min": an estimate, so whole units.
QString etaText(double seconds) {
    const long s = std::max(0L, std::lround(seconds));
    if (s < 60) return RunJudgeDialog::tr("%1 s").arg(s);
    const long minutes = (s + 30) / 60;
    if (minutes < 60) return RunJudgeDialog::tr("%1 min").arg(minutes);
    return RunJudgeDialog::tr("%1 h %2 min").arg(minutes / 60).arg(minutes % 60);
}

QString countsText(const JudgeRunCounts& c) {
    QString text = RunJudgeDialog::tr("%1/%2 done, %3 failed").arg(c.finished()).arg(c.total).arg(c.failed);
    if (c.etaS && c.finished() < c.total) text += RunJudgeDialog::tr(", ETA %1").arg(etaText(*c.etaS));
    return text;
}

Status judgeCheckUrl(const QString& text, const QString& field) {
    const QString t = text.trimmed();
    if (t.isEmpty()) return Error{RunJudgeDialog::tr("%1: required.").arg(field).toStdString()};
    const QUrl url(t, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty() ||
        (scheme != QStringLiteral("http") && scheme != QStringLiteral("https"))) {
        return Error{RunJudgeDialog::tr("%1: “%2” is not an http:// or https:// URL, e.g. http://vllm-bf16:8000.")
                         .arg(field, t)
                         .toStdString()};
    }
    return success();
}

QLineEdit* lineEdit(const QString& objectName, const QString& accessibleName, const QString& placeholder,
                    QWidget* parent) {
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(objectName);
    edit->setAccessibleName(accessibleName);
    edit->setPlaceholderText(placeholder);
    edit->setClearButtonEnabled(true);
    return edit;
}

}  // namespace

// What the worker hands back: the run's summary (or the setup error), and for a finished run both score files.
struct RunJudgeDialog::Outcome {
    Result<JudgeRunSummary> summary = Error{"not run"};
    std::optional<JudgeSection> scores;
    QString loadError;  // a finished run whose score files could not be read (e.g. every sample of a side failed)
};

RunJudgeDialog::RunJudgeDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("runJudgeDialog"));
    setWindowTitle(tr("Run Domain Eval"));
    setMinimumWidth(760);
    m_job = new BackgroundJob(this);
    // Progress: done of all work units, with the counts in words.
    connect(m_job, &BackgroundJob::progressed, this, [this](qint64 done, qint64 total, const QString& text) {
        if (!m_running) return;
        if (m_progress->maximum() != total) m_progress->setRange(0, static_cast<int>(total));
        m_progress->setValue(static_cast<int>(done));
        if (!m_cancelling && !text.isEmpty()) m_statusLabel->setText(text);
    });

    auto* layout = new QVBoxLayout(this);
    layout->setSpacing(10);
    layout->addWidget(style::caption(
        tr("Each sample's prompt goes to the BF16 baseline and the FP8 candidate (OpenAI-compatible chat API, "
           "temperature 0); a judge model then rates every answer 1–5 against the expected answer."),
        this));

    layout->addWidget(buildFilesBox());

    layout->addWidget(buildServersBox());

    layout->addWidget(buildRunBox());

    layout->addWidget(style::caption(
        tr("Results are written to the output folder as they come. Cancel keeps what is done; Run again with the "
           "same folder resumes (scored samples are skipped, failed ones are tried again)."),
        this));

    m_errorLabel = plainLabel(QString(), this);  // servers' and files' messages (untrusted_ui.h)
    m_errorLabel->setObjectName(QStringLiteral("errorLabel"));
    m_errorLabel->setAccessibleName(tr("Error"));
    m_errorLabel->setWordWrap(true);
    m_errorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    style::setTextTone(m_errorLabel, style::TextTone::Error);
    m_errorLabel->hide();
    layout->addWidget(m_errorLabel);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("runProgress"));
    m_progress->setAccessibleName(tr("Run progress"));
    m_progress->setFormat(QStringLiteral("%v/%m"));
    m_progress->hide();
    layout->addWidget(m_progress);
    m_statusLabel = plainLabel(QString(), this);
    m_statusLabel->setObjectName(QStringLiteral("statusLabel"));
    m_statusLabel->setAccessibleName(tr("Run status"));
    m_statusLabel->setWordWrap(true);
    m_statusLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_statusLabel);
    m_failuresLabel = plainLabel(QString(), this);
    m_failuresLabel->setObjectName(QStringLiteral("failuresLabel"));
    m_failuresLabel->setAccessibleName(tr("Failures"));
    m_failuresLabel->setWordWrap(true);
    m_failuresLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    style::setTextTone(m_failuresLabel, style::TextTone::Caution);
    m_failuresLabel->hide();
    layout->addWidget(m_failuresLabel);

    auto* buttons = new QDialogButtonBox(this);
    m_runButton = buttons->addButton(tr("&Run"), QDialogButtonBox::AcceptRole);
    m_runButton->setObjectName(QStringLiteral("runButton"));
    m_runButton->setAccessibleName(tr("Run the domain eval"));
    m_runButton->setDefault(true);
    m_closeButton = buttons->addButton(QDialogButtonBox::Close);
    m_closeButton->setObjectName(QStringLiteral("closeButton"));
    connect(buttons, &QDialogButtonBox::accepted, this, &RunJudgeDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &RunJudgeDialog::reject);
    layout->addWidget(buttons);

    loadRemembered();
    updateKeysNote();
    updateOutputNote();
    setRunning(false);
}

// The samples file and the output folder.
QGroupBox* RunJudgeDialog::buildFilesBox() {
    auto* filesBox = new QGroupBox(tr("Samples and results"), this);
    auto* filesLayout = new QVBoxLayout(filesBox);
    auto* filesForm = new QFormLayout;
    filesForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    filesLayout->addLayout(filesForm);
    auto pathRow = [this](QLineEdit* edit, const QString& buttonName, auto browse) {
        auto* row = new QWidget(this);
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(edit, 1);
        auto* button = new QPushButton(tr("Browse…"), row);
        button->setAccessibleName(buttonName);
        connect(button, &QPushButton::clicked, this, browse);
        h->addWidget(button);
        m_inputs << edit << button;
        return row;
    };
    m_samplesEdit = lineEdit(QStringLiteral("samplesPath"), tr("Samples file"),
                             tr("JSON Lines: {\"id\", \"prompt\", \"expected\"} per line"), filesBox);
    connect(m_samplesEdit, &QLineEdit::editingFinished, this, &RunJudgeDialog::readSamples);
    filesForm->addRow(tr("&Samples:"),
                      pathRow(m_samplesEdit, tr("Browse for the samples file"), [this] { browseSamples(); }));
    m_samplesLabel = plainLabel(QString(), filesBox);
    m_samplesLabel->setObjectName(QStringLiteral("samplesCount"));
    m_samplesLabel->setAccessibleName(tr("Samples file status"));
    m_samplesLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_samplesLabel->setText(tr("No samples file chosen."));
    filesForm->addRow(QString(), m_samplesLabel);
    m_outputEdit = lineEdit(QStringLiteral("outputDir"), tr("Output folder"),
                            tr("a folder for baseline.jsonl, candidate.jsonl, failures.jsonl, run.json"), filesBox);
    connect(m_outputEdit, &QLineEdit::textEdited, this, [this] { m_outputFollowsSamples = false; });
    connect(m_outputEdit, &QLineEdit::textChanged, this, &RunJudgeDialog::updateOutputNote);
    filesForm->addRow(tr("&Output folder:"),
                      pathRow(m_outputEdit, tr("Browse for the output folder"), [this] { browseOutput(); }));
    m_outputNote = style::caption(QString(), filesBox);
    m_outputNote->setObjectName(QStringLiteral("outputNote"));
    filesLayout->addWidget(m_outputNote);
    return filesBox;
}

// The three OpenAI-compatible servers: baseline, candidate and judge.
QGroupBox* RunJudgeDialog::buildServersBox() {
    auto* serversBox = new QGroupBox(tr("Servers (OpenAI-compatible)"), this);
    auto* serversLayout = new QVBoxLayout(serversBox);
    auto* grid = new QGridLayout;
    grid->setColumnStretch(1, 3);
    grid->setColumnStretch(2, 2);
    grid->addWidget(new QLabel(tr("URL"), serversBox), 0, 1);
    grid->addWidget(new QLabel(tr("Model"), serversBox), 0, 2);
    auto endpointRow = [&](int row, const QString& label, const QString& name, QLineEdit*& url, QLineEdit*& model,
                           const QString& urlExample, const QString& modelPlaceholder) {
        auto* caption = new QLabel(label, serversBox);
        url = lineEdit(name + QStringLiteral("Url"), tr("%1 URL").arg(name.at(0).toUpper() + name.mid(1)), urlExample,
                       serversBox);
        model = lineEdit(name + QStringLiteral("Model"), tr("%1 model").arg(name.at(0).toUpper() + name.mid(1)),
                         modelPlaceholder, serversBox);
        caption->setBuddy(url);
        grid->addWidget(caption, row, 0);
        grid->addWidget(url, row, 1);
        grid->addWidget(model, row, 2);
        m_inputs << url << model;
    };
    const QString askServer = tr("empty: the server's first model");
    endpointRow(1, tr("&Baseline (BF16):"), QStringLiteral("baseline"), m_baselineUrl, m_baselineModel,
                QStringLiteral("http://vllm-bf16:8000"), askServer);
    endpointRow(2, tr("&Candidate (FP8):"), QStringLiteral("candidate"), m_candidateUrl, m_candidateModel,
                QStringLiteral("http://vllm-fp8:8000"), askServer);
    endpointRow(3, tr("&Judge:"), QStringLiteral("judge"), m_judgeUrl, m_judgeModel,
                QStringLiteral("https://api.openai.com"), tr("required, e.g. gpt-4o"));
    serversLayout->addLayout(grid);
    m_keysLabel = style::caption(QString(), serversBox);
    m_keysLabel->setObjectName(QStringLiteral("apiKeysNote"));
    serversLayout->addWidget(m_keysLabel);
    return serversBox;
}

// The run settings and the rubric.
QGroupBox* RunJudgeDialog::buildRunBox() {
    auto* runBox = new QGroupBox(tr("Run"), this);
    auto* runLayout = new QVBoxLayout(runBox);
    auto* spins = new QHBoxLayout;
    m_concurrencySpin = new QSpinBox(runBox);
    m_concurrencySpin->setObjectName(QStringLiteral("concurrency"));
    m_concurrencySpin->setAccessibleName(tr("Concurrency"));
    m_concurrencySpin->setRange(1, kMaxConcurrency);
    m_concurrencySpin->setValue(4);
    m_concurrencySpin->setToolTip(tr("Requests in flight at once, across the three servers"));
    m_maxTokensSpin = new QSpinBox(runBox);
    m_maxTokensSpin->setObjectName(QStringLiteral("maxTokens"));
    m_maxTokensSpin->setAccessibleName(tr("Max tokens"));
    m_maxTokensSpin->setRange(1, 1 << 20);
    m_maxTokensSpin->setValue(JudgeRunSettings{}.maxTokens);
    m_maxTokensSpin->setToolTip(tr("max_tokens of the answers and of the judge's replies"));
    auto* concurrencyLabel = new QLabel(tr("Co&ncurrency:"), runBox);
    concurrencyLabel->setBuddy(m_concurrencySpin);
    auto* tokensLabel = new QLabel(tr("&Max tokens:"), runBox);
    tokensLabel->setBuddy(m_maxTokensSpin);
    spins->addWidget(concurrencyLabel);
    spins->addWidget(m_concurrencySpin);
    spins->addSpacing(16);
    spins->addWidget(tokensLabel);
    spins->addWidget(m_maxTokensSpin);
    spins->addStretch(1);
    m_rubricToggle = new QToolButton(runBox);
    m_rubricToggle->setObjectName(QStringLiteral("rubricToggle"));
    m_rubricToggle->setText(tr("Edit rubric…"));
    m_rubricToggle->setAccessibleName(tr("Edit rubric"));
    m_rubricToggle->setCheckable(true);
    m_rubricToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_rubricToggle->setArrowType(Qt::RightArrow);
    m_rubricToggle->setAutoRaise(true);
    spins->addWidget(m_rubricToggle);
    runLayout->addLayout(spins);
    m_inputs << m_concurrencySpin << m_maxTokensSpin;

    m_rubricPanel = new QWidget(runBox);
    auto* rubricLayout = new QVBoxLayout(m_rubricPanel);
    rubricLayout->setContentsMargins(0, 0, 0, 0);
    rubricLayout->addWidget(style::caption(
        tr("{prompt}, {expected} and {answer} are replaced by the sample's texts; the judge must reply with a score "
           "1–5. A resumed run must use the rubric it started with."),
        m_rubricPanel));
    m_rubricEdit = new QPlainTextEdit(m_rubricPanel);
    m_rubricEdit->setObjectName(QStringLiteral("rubric"));
    m_rubricEdit->setAccessibleName(tr("Judge rubric"));
    m_rubricEdit->setPlainText(QString::fromUtf8(kDefaultJudgeRubric));
    m_rubricEdit->setFixedHeight(m_rubricEdit->fontMetrics().lineSpacing() * 8);
    rubricLayout->addWidget(m_rubricEdit);
    auto* restore = new QPushButton(tr("Restore Default Rubric"), m_rubricPanel);
    restore->setAccessibleName(tr("Restore the default rubric"));
    connect(restore, &QPushButton::clicked, this,
            [this] { m_rubricEdit->setPlainText(QString::fromUtf8(kDefaultJudgeRubric)); });
    rubricLayout->addWidget(restore, 0, Qt::AlignLeft);
    m_rubricPanel->hide();
    runLayout->addWidget(m_rubricPanel);
    m_inputs << m_rubricEdit << restore;
    connect(m_rubricToggle, &QToolButton::toggled, this, [this](bool on) {
        m_rubricToggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
        m_rubricPanel->setVisible(on);
        growToFit(!on);
    });
    return runBox;
}

// A worker still running stops at its next check (the job is destroyed with the dialog); what it wrote stays in the
// folder, resumable.
RunJudgeDialog::~RunJudgeDialog() = default;

void RunJudgeDialog::loadRemembered() {
    const QSettings s;
    const std::pair<const char*, QLineEdit*> fields[] = {
        {"baselineUrl", m_baselineUrl},       {"baselineModel", m_baselineModel}, {"candidateUrl", m_candidateUrl},
        {"candidateModel", m_candidateModel}, {"judgeUrl", m_judgeUrl},           {"judgeModel", m_judgeModel}};
    for (const auto& [name, edit] : fields) {
        edit->setText(s.value(settingsKey(name)).toString());
        edit->setCursorPosition(0);  // a long model id shows its start
    }
    m_concurrencySpin->setValue(s.value(settingsKey("concurrency"), m_concurrencySpin->value()).toInt());
    m_maxTokensSpin->setValue(s.value(settingsKey("maxTokens"), m_maxTokensSpin->value()).toInt());
}

void RunJudgeDialog::remember() const {
    // Addresses and model names only: the API keys live in the environment.
    QSettings s;
    const std::pair<const char*, QLineEdit*> fields[] = {
        {"baselineUrl", m_baselineUrl},       {"baselineModel", m_baselineModel}, {"candidateUrl", m_candidateUrl},
        {"candidateModel", m_candidateModel}, {"judgeUrl", m_judgeUrl},           {"judgeModel", m_judgeModel}};
    for (const auto& [name, edit] : fields) s.setValue(settingsKey(name), edit->text().trimmed());
    s.setValue(settingsKey("concurrency"), m_concurrencySpin->value());
    s.setValue(settingsKey("maxTokens"), m_maxTokensSpin->value());
}

void RunJudgeDialog::setSamplesPath(const QString& path) {
    m_samplesEdit->setText(path);
    readSamples();
}

void RunJudgeDialog::setBaseline(const QString& url, const QString& model) {
    m_baselineUrl->setText(url);
    m_baselineModel->setText(model);
}

void RunJudgeDialog::setCandidate(const QString& url, const QString& model) {
    m_candidateUrl->setText(url);
    m_candidateModel->setText(model);
}

void RunJudgeDialog::setJudge(const QString& url, const QString& model) {
    m_judgeUrl->setText(url);
    m_judgeModel->setText(model);
}

void RunJudgeDialog::setConcurrency(int workers) {
    m_concurrencySpin->setValue(workers);
}

void RunJudgeDialog::setMaxTokens(int tokens) {
    m_maxTokensSpin->setValue(tokens);
}

void RunJudgeDialog::setOutputDir(const QString& dir) {
    m_outputFollowsSamples = false;
    m_outputEdit->setText(dir);
}

void RunJudgeDialog::setRubric(const QString& rubric) {
    m_rubricEdit->setPlainText(rubric);
}

QString RunJudgeDialog::defaultOutputDir(const QString& samplesPath) {
    const QFileInfo info(samplesPath);
    return QDir(info.absolutePath())
        .filePath(QStringLiteral("judge-run-") + QDate::currentDate().toString(Qt::ISODate));
}

void RunJudgeDialog::browseSamples() {
    const QString start = m_samplesEdit->text().trimmed().isEmpty() ? QDir::homePath() : m_samplesEdit->text();
    const QString path = QFileDialog::getOpenFileName(this, tr("Choose the Samples File"), start,
                                                      tr("JSON Lines (*.jsonl *.ndjson *.json);;All files (*)"));
    if (!path.isEmpty()) setSamplesPath(QDir::toNativeSeparators(path));
}

void RunJudgeDialog::browseOutput() {
    QString start = m_outputEdit->text().trimmed();
    if (start.isEmpty() || !QFileInfo(start).isDir()) start = QFileInfo(m_samplesEdit->text()).absolutePath();
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Choose the Output Folder"), start);
    if (!dir.isEmpty()) setOutputDir(QDir::toNativeSeparators(dir));
}

void RunJudgeDialog::readSamples() {
    const QString path = m_samplesEdit->text().trimmed();
    if (path.isEmpty()) {
        m_samplesLabel->setText(tr("No samples file chosen."));
        style::setTextTone(m_samplesLabel, std::nullopt);
        return;
    }
    if (m_outputFollowsSamples) m_outputEdit->setText(QDir::toNativeSeparators(defaultOutputDir(path)));
    // Read at once: a samples file is prompts and answers, small enough for the GUI thread.
    const auto samples = readJudgeSamples(toFsPath(path).string());
    if (!samples) {
        m_samplesLabel->setText(toQString(samples.error().message));
        style::setTextTone(m_samplesLabel, style::TextTone::Error);
        return;
    }
    const qsizetype n = static_cast<qsizetype>(samples->size());
    m_samplesLabel->setText(n == 1 ? tr("1 sample (2 answers to judge).")
                                   : tr("%1 samples (%2 answers to judge).").arg(n).arg(2 * n));
    style::setTextTone(m_samplesLabel, std::nullopt);
}

void RunJudgeDialog::updateOutputNote() {
    const QString dir = m_outputEdit->text().trimmed();
    QString note;
    if (dir.isEmpty()) {
        note = tr("Choose a samples file: the results go to a judge-run-<date> folder beside it.");
    } else if (QFileInfo::exists(QDir(dir).filePath(QStringLiteral("run.json")))) {
        note = tr("This folder holds an earlier run: Run resumes it (samples already scored are skipped).");
    } else {
        note = tr("A new run; the folder is created if needed.");
    }
    m_outputNote->setText(note);
}

void RunJudgeDialog::updateKeysNote() {
    QStringList set;
    QStringList names;
    for (const char* name : kKeyVariables) {
        names << QLatin1String(name);
        if (!qEnvironmentVariableIsEmpty(name)) set << QLatin1String(name);
    }
    QString text = tr("API keys are read from the environment (%1; OPENAI_API_KEY for any that is unset), never "
                      "typed here or saved.")
                       .arg(names.mid(0, 3).join(QStringLiteral(", ")));
    text += QLatin1Char(' ');
    text += set.isEmpty() ? tr("None is set now: requests go without a key.")
                          : tr("Set now: %1.").arg(set.join(QStringLiteral(", ")));
    m_keysLabel->setText(text);
}

Result<JudgeRunSettings> RunJudgeDialog::settings() const {
    JudgeRunSettings s;
    const QString samples = m_samplesEdit->text().trimmed();
    if (samples.isEmpty())
        return Error{tr("Samples: choose the JSON Lines file of prompts and expected answers.").toStdString()};
    if (!QFileInfo(samples).isFile()) return Error{tr("Samples: “%1” is not a file.").arg(samples).toStdString()};
    const std::tuple<QString, QLineEdit*, QLineEdit*, ChatEndpoint*> endpoints[] = {
        {tr("Baseline URL"), m_baselineUrl, m_baselineModel, &s.baseline},
        {tr("Candidate URL"), m_candidateUrl, m_candidateModel, &s.candidate},
        {tr("Judge URL"), m_judgeUrl, m_judgeModel, &s.judge}};
    for (const auto& [field, url, model, endpoint] : endpoints) {
        if (auto ok = judgeCheckUrl(url->text(), field); !ok) return ok.error();
        endpoint->url = url->text().trimmed().toStdString();
        endpoint->model = model->text().trimmed().toStdString();
    }
    if (s.judge.model.empty()) {
        return Error{tr("Judge model: required (the model that rates the answers; its server may serve several).")
                         .toStdString()};
    }
    const QString out = m_outputEdit->text().trimmed();
    if (out.isEmpty()) return Error{tr("Output folder: required.").toStdString()};
    if (QFileInfo(out).exists() && !QFileInfo(out).isDir()) {
        return Error{tr("Output folder: “%1” is a file, not a folder.").arg(out).toStdString()};
    }
    const QString rubric = m_rubricEdit->toPlainText();
    if (!rubric.contains(QStringLiteral("{answer}"))) {
        return Error{
            tr("Rubric: it has no {answer} placeholder, so the judge would not see the answer.").toStdString()};
    }
    s.samplesPath = toFsPath(samples).string();
    s.outDir = toFsPath(out).string();
    s.rubric = rubric.toStdString();
    s.concurrency = m_concurrencySpin->value();
    s.maxTokens = m_maxTokensSpin->value();
    s.http = m_http;
    judgeKeysFromEnvironment(s);
    // Anything the form does not check itself (core's own rules) still shows before the run starts.
    if (auto ok = s.validate(); !ok) return ok.error();
    return s;
}

void RunJudgeDialog::accept() {
    startRun();
}

void RunJudgeDialog::reject() {
    if (m_running) {
        cancelRun();
        return;
    }
    QDialog::reject();
}

void RunJudgeDialog::cancelRun() {
    if (!m_running || m_cancelling) return;
    m_cancelling = true;
    m_job->requestStop();  // the run returns what it finished: its summary still arrives
    m_closeButton->setEnabled(false);
    m_statusLabel->setText(tr("Cancelling… (what is done stays in the output folder)"));
}

void RunJudgeDialog::startRun() {
    if (m_running) return;
    updateKeysNote();
    auto s = settings();
    if (!s) {
        showError(toQString(s.error().message));
        emit runFailed(m_errorLabel->text());
        return;
    }
    m_errorLabel->hide();
    m_failuresLabel->hide();
    remember();
    m_cancelling = false;
    setRunning(true, tr("Starting: asking the servers…"));

    auto run = [settings = std::move(s).value()](JobControl& job) {
        Progress progress;
        progress.cancelled = [&job] { return job.isCancelled(); };
        // Called one at a time by core's workers.
        auto onCounts = [&job](const JudgeRunCounts& c) {
            job.report(static_cast<std::int64_t>(c.finished()), static_cast<std::int64_t>(c.total), countsText(c));
        };
        Outcome outcome;
        outcome.summary = runJudgeEval(settings, progress, onCounts);
        if (outcome.summary && !outcome.summary->cancelled) {
            const std::filesystem::path dir(settings.outDir);
            JudgeSection section;
            auto baseline = loadJudgeScores(dir / "baseline.jsonl", section.options.scale);
            auto candidate = loadJudgeScores(dir / "candidate.jsonl", section.options.scale);
            if (!baseline) {
                outcome.loadError = toQString(baseline.error().message);
            } else if (!candidate) {
                outcome.loadError = toQString(candidate.error().message);
            } else {
                section.baseline = std::move(baseline).value();
                section.candidate = std::move(candidate).value();
                outcome.scores = std::move(section);
            }
        }
        return outcome;
    };
    m_job->start(std::move(run), [this](Outcome outcome) { finishRun(std::move(outcome)); });
}

void RunJudgeDialog::finishRun(Outcome outcome) {
    const bool cancelled = m_cancelling || (outcome.summary && outcome.summary->cancelled);
    m_cancelling = false;
    if (!outcome.summary && cancelled) {
        // Stopped while still setting up (asking a server for its model, say): a cancel, not a failure.
        setRunning(false, tr("Cancelled before any sample was done. Run again to start."));
        emit runCancelled();
        return;
    }
    if (!outcome.summary) {
        setRunning(false);
        showError(toQString(outcome.summary.error().message));
        emit runFailed(m_errorLabel->text());
        return;
    }
    const JudgeRunSummary& summary = *outcome.summary;
    const QString folder = QDir::toNativeSeparators(toQString(summary.outDir));
    const QString failuresPath =
        QDir::toNativeSeparators(QDir(toQString(summary.outDir)).filePath(QStringLiteral("failures.jsonl")));
    if (summary.counts.failed > 0) {
        const std::size_t failed = summary.counts.failed;
        m_failuresLabel->setText(
            failed == 1 ? tr("1 answer failed and has no score: see %1 (Run again retries it).").arg(failuresPath)
                        : tr("%1 answers failed and have no score: see %2 (Run again retries them).")
                              .arg(failed)
                              .arg(failuresPath));
        m_failuresLabel->show();
    }
    if (cancelled) {
        setRunning(false, tr("Cancelled at %1 (%2 this run); what is done is kept in %3. Run again to resume.")
                              .arg(countsText(summary.counts),
                                   QString::number(summary.counts.scored + summary.counts.failed), folder));
        emit runCancelled();
        return;
    }
    const auto mean = [](const JudgeVariantSummary& v) {
        return v.meanScore ? fixedText(*v.meanScore, 2) : QStringLiteral("–");
    };
    const QString done = tr("Done: %1 samples; baseline %2 scored (mean %3), candidate %4 scored (mean %5).")
                             .arg(summary.samples)
                             .arg(summary.baseline.scored)
                             .arg(mean(summary.baseline))
                             .arg(summary.candidate.scored)
                             .arg(mean(summary.candidate));
    if (!outcome.scores) {
        setRunning(false, done);
        showError(tr("The scores could not be put into the comparison: %1").arg(outcome.loadError));
        emit runFailed(m_errorLabel->text());
        return;
    }
    m_summary = summary;
    m_scores = std::move(outcome.scores);
    setRunning(false, done + QLatin1Char(' ') +
                          tr("The scores are in the comparison's Domain judge tab; save the comparison to keep them."));
    m_closeButton->setFocus();
    emit scoresReady();
}

void RunJudgeDialog::setRunning(bool running, const QString& status) {
    m_running = running;
    for (QWidget* w : std::as_const(m_inputs)) w->setEnabled(!running);
    m_runButton->setEnabled(!running);
    m_closeButton->setEnabled(true);
    m_closeButton->setText(running ? tr("Cancel") : tr("Close"));
    m_closeButton->setAccessibleName(running ? tr("Cancel the run") : tr("Close"));
    m_closeButton->setToolTip(running ? tr("Stop the run; what is done stays in the output folder") : QString());
    if (running) {
        m_progress->setRange(0, 0);  // busy until core reports the total
        m_progress->setValue(0);
    }
    if (running) m_progressShown = true;  // from the first run on, the bar shows the last run's progress
    m_progress->setVisible(m_progressShown);
    m_statusLabel->setText(status);
    updateOutputNote();
    growToFit();
}

void RunJudgeDialog::showError(const QString& message) {
    m_errorLabel->setText(message);
    m_errorLabel->show();
    growToFit();
}

void RunJudgeDialog::growToFit(bool shrink) {
    // A window does not grow by itself when a panel appears or wrapped text needs more lines: its layout would
    // squeeze the rows over each other instead. Take the height the layout needs at this width.
    QLayout* l = layout();
    if (!l || !isVisible()) return;
    l->activate();
    const int needed = l->hasHeightForWidth() ? l->totalHeightForWidth(width()) : l->totalSizeHint().height();
    // Never past the screen's available height (screen_fit.h): a 768-pixel laptop keeps the buttons on screen.
    if (needed > height() || (shrink && needed < height()))
        resize(dialogSizeFor(QSize(width(), needed), availableGeometryFor(this)));
}

QString RunJudgeDialog::errorText() const {
    return m_errorLabel->isHidden() ? QString() : m_errorLabel->text();
}

QString RunJudgeDialog::samplesText() const {
    return m_samplesLabel->text();
}

QString RunJudgeDialog::statusText() const {
    return m_statusLabel->text();
}

QString RunJudgeDialog::failuresText() const {
    return m_failuresLabel->isHidden() ? QString() : m_failuresLabel->text();
}

QString RunJudgeDialog::outputNote() const {
    return m_outputNote->text();
}

int RunJudgeDialog::progressValue() const {
    return std::max(0, m_progress->value());
}

int RunJudgeDialog::progressMaximum() const {
    return m_progress->maximum();
}

}  // namespace fp8dash::ui
