#include "fp8dash/ui/timeline_source_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QGroupBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPromise>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <utility>

#include "fp8dash/core/prometheus_client.h"
#include "fp8dash/ui/credential_store.h"
#include "fp8dash/ui/keychain_credential_store.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/time_range_picker.h"
#include "model_pick_button.h"
#include "ui_style.h"

namespace fp8dash::ui {

namespace {

constexpr int kProgressSteps = 1000;
enum AuthIndex { AuthNone = 0, AuthBasic = 1, AuthBearer = 2 };
enum QualityIndex { QualityNone = 0, QualityPrometheus = 1, QualityLangfuse = 2 };

constexpr int kLookupDelayMs = 250;

QString sessionOnlyTip() {
    return TimelineSourceDialog::tr(
        "Kept in memory for this session, and in the system keychain when “Remember in the system keychain” is "
        "ticked; never written to the comparison file or the settings. Empty: the system keychain, then the "
        "environment variable named in the field.");
}

// A caption on one line: word-wrapped labels make a QFormLayout compute its height for a width, which in Qt 6.4
// under-counts fixed-height rows (the headers box) and lets the rows overlap.
QLabel* lineCaption(const QString& text, QWidget* parent) {
    QLabel* label = style::caption(text, parent);
    label->setWordWrap(false);
    return label;
}

QLineEdit* secretEdit(const QString& objectName, QWidget* parent) {
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(objectName);
    edit->setEchoMode(QLineEdit::Password);
    edit->setToolTip(sessionOnlyTip());
    return edit;
}

QString envPlaceholder(const char* variable, const QString& otherwise = {}) {
    return qEnvironmentVariableIsSet(variable)
               ? TimelineSourceDialog::tr("empty: %1 from the environment").arg(QString::fromLatin1(variable))
               : otherwise;
}

std::string orFallback(const QString& typed, const std::string& fallback) {
    const QString t = typed.trimmed();
    return t.isEmpty() ? fallback : t.toStdString();
}

std::vector<std::string> commaList(const QString& text) {
    std::vector<std::string> out;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString p = part.trimmed();
        if (!p.isEmpty()) out.push_back(p.toStdString());
    }
    return out;
}

QString joined(const std::vector<std::string>& items) {
    QStringList list;
    for (const std::string& s : items) list << toQString(s);
    return list.join(QStringLiteral(", "));
}

Result<Headers> parseHeaders(const QString& text) {
    return parseHeaderList(text.toStdString(), TimelineSourceDialog::tr("Extra headers").toStdString());
}

Status checkUrl(const QString& text, const QString& field) {
    const QUrl url(text, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty() || (scheme != QStringLiteral("http") && scheme != QStringLiteral("https"))) {
        return Error{TimelineSourceDialog::tr("%1: “%2” is not an http:// or https:// URL.").arg(field, text).toStdString()};
    }
    return success();
}

QDateTime utcTime(double unixSeconds) {
    return QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(std::llround(unixSeconds * 1000.0)), Qt::UTC);
}

}  // namespace

TimelineSourceDialog::TimelineSourceDialog(QWidget* parent, std::shared_ptr<CredentialStore> store)
    : QDialog(parent), m_store(store ? std::move(store) : std::make_shared<KeychainCredentialStore>()) {
    setObjectName(QStringLiteral("timelineSourceDialog"));
    setWindowTitle(tr("Production Timeline: Data Source"));
    setMinimumWidth(1000);

    auto* layout = new QVBoxLayout(this);
    layout->setSpacing(10);
    layout->addWidget(style::caption(
        tr("Throughput comes from Prometheus (or Thanos, Mimir, Cortex, VictoriaMetrics: the plain HTTP API); judge "
           "quality from Langfuse scores or a score metric exported to Prometheus. Either may be left out."),
        this));

    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(12);
    grid->setVerticalSpacing(10);

    // Prometheus
    auto* promBox = new QGroupBox(tr("Prometheus"), this);
    auto* promLayout = new QVBoxLayout(promBox);
    m_promForm = new QFormLayout;
    promLayout->addLayout(m_promForm);
    m_promForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_urlEdit = new QLineEdit(promBox);
    m_urlEdit->setObjectName(QStringLiteral("prometheusUrl"));
    m_urlEdit->setPlaceholderText(tr("http://prometheus:9090 or https://mimir.example/prometheus"));
    m_promForm->addRow(tr("&URL:"), m_urlEdit);
    m_authCombo = new QComboBox(promBox);
    m_authCombo->setObjectName(QStringLiteral("authMethod"));
    m_authCombo->addItems({tr("None"), tr("Basic (user and password)"), tr("Bearer token")});
    m_authCombo->setToolTip(sessionOnlyTip());
    m_promForm->addRow(tr("&Authentication:"), m_authCombo);
    // One row whose content follows the method (rows shown and hidden in a QFormLayout misplace taller rows).
    m_authStack = new QStackedWidget(promBox);
    m_authStack->addWidget(lineCaption(tr("No credentials are sent."), m_authStack));
    auto* basicPage = new QWidget(m_authStack);
    auto* basic = new QHBoxLayout(basicPage);
    basic->setContentsMargins(0, 0, 0, 0);
    m_userEdit = new QLineEdit(basicPage);
    m_userEdit->setObjectName(QStringLiteral("basicUser"));
    m_userEdit->setPlaceholderText(envPlaceholder("FP8DASH_PROMETHEUS_USER", tr("user")));
    m_userEdit->setToolTip(sessionOnlyTip());
    m_passwordEdit = secretEdit(QStringLiteral("basicPassword"), basicPage);
    m_passwordEdit->setPlaceholderText(envPlaceholder("FP8DASH_PROMETHEUS_PASSWORD", tr("password")));
    basic->addWidget(m_userEdit, 1);
    basic->addWidget(m_passwordEdit, 1);
    m_authStack->addWidget(basicPage);
    m_tokenEdit = secretEdit(QStringLiteral("bearerToken"), m_authStack);
    m_tokenEdit->setPlaceholderText(envPlaceholder("FP8DASH_PROMETHEUS_TOKEN", tr("token")));
    m_authStack->addWidget(m_tokenEdit);
    m_promForm->addRow(tr("Credentials:"), m_authStack);
    m_headersEdit = new QPlainTextEdit(promBox);
    m_headersEdit->setObjectName(QStringLiteral("extraHeaders"));
    m_headersEdit->setTabChangesFocus(true);
    m_headersEdit->setToolTip(tr("Header names are saved with the timeline; their values are not.") +
                              QLatin1Char(' ') + sessionOnlyTip());
    m_headersEdit->setFixedHeight(m_headersEdit->fontMetrics().lineSpacing() * 3 + 14);
    m_promForm->addRow(tr("Extra &headers:"), m_headersEdit);
    m_verifyTls = new QCheckBox(tr("Verify certificates"), promBox);
    m_verifyTls->setObjectName(QStringLiteral("verifyTls"));
    m_verifyTls->setChecked(true);
    m_verifyTls->setToolTip(tr("Leave on: without verification anyone on the path can read the token and the data."));
    m_promForm->addRow(tr("TLS:"), m_verifyTls);
    auto* caRow = new QWidget(promBox);
    auto* ca = new QHBoxLayout(caRow);
    ca->setContentsMargins(0, 0, 0, 0);
    m_caFileEdit = new QLineEdit(caRow);
    m_caFileEdit->setObjectName(QStringLiteral("caFile"));
    m_caFileEdit->setPlaceholderText(tr("PEM bundle; empty: the system's certificates"));
    auto* caBrowse = new QPushButton(tr("Browse…"), caRow);
    connect(caBrowse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("CA Certificates (PEM)"), m_caFileEdit->text(),
                                                          tr("PEM certificates (*.pem *.crt);;All files (*)"));
        if (!file.isEmpty()) m_caFileEdit->setText(file);
    });
    ca->addWidget(m_caFileEdit, 1);
    ca->addWidget(caBrowse);
    m_promForm->addRow(tr("CA file:"), caRow);
    // Below the form, not in it: the result wraps (errors are long), and the form must not compute heights for widths.
    auto* test = new QHBoxLayout;
    m_testButton = new QPushButton(tr("Test Connection"), promBox);
    m_testButton->setObjectName(QStringLiteral("testConnection"));
    m_testButton->setToolTip(tr("Ask Prometheus for its build info (/api/v1/status/buildinfo)"));
    m_connectionLabel = new QLabel(promBox);
    m_connectionLabel->setObjectName(QStringLiteral("connectionResult"));
    m_connectionLabel->setWordWrap(true);
    m_connectionLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    test->addWidget(m_testButton, 0, Qt::AlignTop);
    test->addWidget(m_connectionLabel, 1);
    promLayout->addLayout(test);
    promLayout->addStretch(1);
    m_inputs << m_urlEdit << m_authCombo << m_userEdit << m_passwordEdit << m_tokenEdit << m_headersEdit << m_verifyTls
             << m_caFileEdit << caBrowse << m_testButton;
    grid->addWidget(promBox, 0, 0);

    // Throughput
    auto* throughputBox = new QGroupBox(tr("Throughput"), this);
    auto* throughputForm = new QFormLayout(throughputBox);
    throughputForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_fetchThroughput = new QCheckBox(tr("Fetch throughput from Prometheus"), throughputBox);
    m_fetchThroughput->setObjectName(QStringLiteral("fetchThroughput"));
    m_fetchThroughput->setChecked(true);
    throughputForm->addRow(m_fetchThroughput);
    m_throughputQuery = new QLineEdit(QString::fromLatin1(kDefaultThroughputQuery), throughputBox);
    m_throughputQuery->setObjectName(QStringLiteral("throughputQuery"));
    throughputForm->addRow(tr("&Query:"), m_throughputQuery);
    m_seriesPick = new QLineEdit(throughputBox);
    m_seriesPick->setObjectName(QStringLiteral("seriesPick"));
    m_seriesPick->setPlaceholderText(tr("empty sums every series; model_name=… picks a model (its engines summed)"));
    auto* pickRow = new QHBoxLayout;
    pickRow->addWidget(m_seriesPick, 1);
    m_modelPick = new ModelPickButton(
        m_seriesPick,
        [this]() -> ModelPickButton::Target {
            auto ps = formPrometheusSettings();
            if (!ps) return ps.error();
            return std::pair{std::move(ps).value(), m_rangePicker->range()};
        },
        throughputBox);
    pickRow->addWidget(m_modelPick);
    throughputForm->addRow(tr("Series:"), pickRow);
    m_inputs << m_fetchThroughput << m_throughputQuery << m_seriesPick << m_modelPick;
    grid->addWidget(throughputBox, 1, 0);

    // Quality
    auto* qualityBox = new QGroupBox(tr("Quality (LLM-as-judge)"), this);
    auto* qualityLayout = new QVBoxLayout(qualityBox);
    auto* sourceForm = new QFormLayout;
    sourceForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_qualityCombo = new QComboBox(qualityBox);
    m_qualityCombo->setObjectName(QStringLiteral("qualitySource"));
    m_qualityCombo->addItems({tr("None"), tr("Prometheus query"), tr("Langfuse scores")});
    sourceForm->addRow(tr("&Source:"), m_qualityCombo);
    qualityLayout->addLayout(sourceForm);
    m_qualityStack = new QStackedWidget(qualityBox);
    QLabel* leftOut = lineCaption(tr("Left out: the timeline then gives no verdict of its own."), m_qualityStack);
    leftOut->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_qualityStack->addWidget(leftOut);
    auto* promPage = new QWidget(m_qualityStack);
    auto* promQuality = new QFormLayout(promPage);
    promQuality->setContentsMargins(0, 0, 0, 0);
    promQuality->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_qualityQuery = new QLineEdit(QString::fromLatin1(kDefaultQualityQuery), promPage);
    m_qualityQuery->setObjectName(QStringLiteral("qualityQuery"));
    promQuality->addRow(tr("Query:"), m_qualityQuery);
    promQuality->addRow(QString(), lineCaption(tr("The alert is then evaluated by Prometheus itself."), promPage));
    m_qualityStack->addWidget(promPage);
    auto* langfusePage = new QWidget(m_qualityStack);
    m_qualityForm = new QFormLayout(langfusePage);
    m_qualityForm->setContentsMargins(0, 0, 0, 0);
    m_qualityForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_qualityStack->addWidget(langfusePage);
    qualityLayout->addWidget(m_qualityStack);
    qualityLayout->addStretch(1);
    m_langfuseUrl = new QLineEdit(qualityBox);
    m_langfuseUrl->setObjectName(QStringLiteral("langfuseUrl"));
    m_langfuseUrl->setPlaceholderText(tr("https://cloud.langfuse.com or a self-hosted URL"));
    m_qualityForm->addRow(tr("Langfuse URL:"), m_langfuseUrl);
    m_scoreName = new QLineEdit(QString::fromLatin1(kDefaultScoreName), qualityBox);
    m_scoreName->setObjectName(QStringLiteral("scoreName"));
    m_qualityForm->addRow(tr("Score name:"), m_scoreName);
    m_traceTags = new QLineEdit(qualityBox);
    m_traceTags->setObjectName(QStringLiteral("traceTags"));
    m_traceTags->setPlaceholderText(tr("comma-separated, all must match, e.g. precision:fp8"));
    m_qualityForm->addRow(tr("Trace tags:"), m_traceTags);
    m_environments = new QLineEdit(qualityBox);
    m_environments->setObjectName(QStringLiteral("environments"));
    m_environments->setPlaceholderText(tr("comma-separated; empty: all"));
    m_qualityForm->addRow(tr("Environments:"), m_environments);
    m_langfuseMode = new QComboBox(qualityBox);
    m_langfuseMode->setObjectName(QStringLiteral("langfuseMode"));
    // In LangfuseMode's order: Raw, Aggregate, Auto.
    m_langfuseMode->addItems({tr("Every score"), tr("Per-minute sums (Metrics API)"), tr("Automatic")});
    m_langfuseMode->setCurrentIndex(static_cast<int>(LangfuseMode::Auto));
    m_langfuseMode->setToolTip(
        tr("Per-minute sums read the quality series from Langfuse's Metrics API in a few requests (Langfuse v4 and "
           "Cloud), with the same means and alert as every score. Automatic uses them above 50,000 scores."));
    m_qualityForm->addRow(tr("Read:"), m_langfuseMode);
    m_publicKey = new QLineEdit(qualityBox);
    m_publicKey->setObjectName(QStringLiteral("langfusePublicKey"));
    m_publicKey->setPlaceholderText(envPlaceholder("LANGFUSE_PUBLIC_KEY", tr("pk-lf-…")));
    m_publicKey->setToolTip(sessionOnlyTip());
    m_qualityForm->addRow(tr("Public key:"), m_publicKey);
    m_secretKey = secretEdit(QStringLiteral("langfuseSecretKey"), qualityBox);
    m_secretKey->setPlaceholderText(envPlaceholder("LANGFUSE_SECRET_KEY", tr("sk-lf-…")));
    m_qualityForm->addRow(tr("Secret key:"), m_secretKey);
    // The local alert's window edges (CLI --window-semantics): the server's own unless the user says otherwise.
    m_windowsCombo = new QComboBox(qualityBox);
    m_windowsCombo->setObjectName(QStringLiteral("windowSemantics"));
    m_windowsCombo->addItem(tr("As the Prometheus server does (none: Prometheus 3)"));
    m_windowsCombo->addItem(tr("Prometheus 2.x: closed [t−r, t]"));
    m_windowsCombo->addItem(tr("Prometheus 3.x: left-open (t−r, t]"));
    m_windowsCombo->setToolTip(
        tr("Which samples a range selector's window holds when fp8dash evaluates the alert over Langfuse scores"));
    m_qualityForm->addRow(tr("Alert &windows:"), m_windowsCombo);
    m_inputs << m_qualityCombo << m_qualityQuery << m_langfuseUrl << m_scoreName << m_traceTags << m_environments
             << m_langfuseMode << m_publicKey << m_secretKey << m_windowsCombo;
    grid->addWidget(qualityBox, 0, 1, 2, 1);

    // Range
    auto* rangeBox = new QGroupBox(tr("Time range and change"), this);
    auto* rangeForm = new QFormLayout(rangeBox);
    rangeForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_rangePicker = new TimeRangePicker(rangeBox);
    rangeForm->addRow(tr("&Range:"), m_rangePicker);
    auto* stepRow = new QWidget(rangeBox);
    auto* step = new QHBoxLayout(stepRow);
    step->setContentsMargins(0, 0, 0, 0);
    m_stepSpin = new QSpinBox(stepRow);
    m_stepSpin->setObjectName(QStringLiteral("step"));
    m_stepSpin->setRange(1, 86400);
    m_stepSpin->setValue(60);
    m_stepSpin->setSuffix(tr(" s"));
    m_stepSpin->setToolTip(tr("The resolution of the series, and the alert's evaluation interval"));
    m_pointsLabel = lineCaption(QString(), stepRow);
    m_pointsLabel->setObjectName(QStringLiteral("pointEstimate"));
    step->addWidget(m_stepSpin);
    step->addWidget(m_pointsLabel, 1);
    rangeForm->addRow(tr("S&tep:"), stepRow);
    auto* changeRow = new QWidget(rangeBox);
    auto* change = new QHBoxLayout(changeRow);
    change->setContentsMargins(0, 0, 0, 0);
    m_changeKnown = new QCheckBox(tr("FP8 went on at"), changeRow);
    m_changeKnown->setObjectName(QStringLiteral("changeKnown"));
    m_changeEdit = new QDateTimeEdit(changeRow);
    m_changeEdit->setObjectName(QStringLiteral("changeAt"));
    m_changeEdit->setTimeSpec(Qt::UTC);
    m_changeEdit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
    m_changeEdit->setCalendarPopup(true);
    m_changeEdit->setEnabled(false);
    change->addWidget(m_changeKnown);
    change->addWidget(m_changeEdit);
    change->addStretch(1);
    rangeForm->addRow(tr("Change:"), changeRow);
    rangeForm->addRow(QString(), lineCaption(tr("Unknown? Leave it off: the timeline offers the switch vLLM "
                                                   "reports in vllm:cache_config_info, if any."),
                                                rangeBox));
    m_inputs << m_rangePicker << m_stepSpin << m_changeKnown << m_changeEdit;
    grid->addWidget(rangeBox, 2, 0, 1, 2);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    layout->addLayout(grid);

    // The keychain
    auto* keychainRow = new QHBoxLayout;
    m_rememberCheck = new QCheckBox(tr("Remember in the system &keychain"), this);
    m_rememberCheck->setObjectName(QStringLiteral("rememberInKeychain"));
    m_rememberCheck->setToolTip(tr("After a successful fetch or Test Connection, store the credentials typed here in "
                                   "the system keychain, for these URLs; they fill in the next time"));
    m_forgetButton = new QPushButton(tr("Forget"), this);
    m_forgetButton->setObjectName(QStringLiteral("forgetCredentials"));
    m_forgetButton->setToolTip(tr("Remove the credentials the system keychain holds for these URLs"));
    m_keychainLabel = new QLabel(this);
    m_keychainLabel->setObjectName(QStringLiteral("keychainNote"));
    m_keychainLabel->setWordWrap(true);
    m_keychainLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    keychainRow->addWidget(m_rememberCheck, 0, Qt::AlignTop);
    keychainRow->addWidget(m_forgetButton, 0, Qt::AlignTop);
    keychainRow->addWidget(m_keychainLabel, 1);
    layout->addLayout(keychainRow);
    m_inputs << m_rememberCheck << m_forgetButton;

    // Feedback
    m_errorLabel = new QLabel(this);
    m_errorLabel->setObjectName(QStringLiteral("errorLabel"));
    m_errorLabel->setWordWrap(true);
    m_errorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_errorLabel->setStyleSheet(
        QStringLiteral("QLabel { color: #9b1c1c; background: #fbdcdc; border-radius: 4px; padding: 6px 8px; }"));
    m_errorLabel->hide();
    layout->addWidget(m_errorLabel);
    auto* statusRow = new QHBoxLayout;
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("fetchProgress"));
    m_progress->setRange(0, kProgressSteps);
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(220);
    m_progress->hide();
    m_statusLabel = style::caption(QString(), this);
    m_statusLabel->setObjectName(QStringLiteral("statusLabel"));
    statusRow->addWidget(m_progress);
    statusRow->addWidget(m_statusLabel, 1);
    layout->addLayout(statusRow);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_fetchButton = buttons->button(QDialogButtonBox::Ok);
    m_fetchButton->setText(tr("Fetch"));
    m_fetchButton->setObjectName(QStringLiteral("fetchButton"));
    m_cancelButton = buttons->button(QDialogButtonBox::Cancel);
    m_cancelButton->setObjectName(QStringLiteral("cancelButton"));
    connect(buttons, &QDialogButtonBox::accepted, this, &TimelineSourceDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &TimelineSourceDialog::reject);
    layout->addWidget(buttons);

    connect(m_authCombo, &QComboBox::currentIndexChanged, this, &TimelineSourceDialog::updateVisibility);
    connect(m_qualityCombo, &QComboBox::currentIndexChanged, this, &TimelineSourceDialog::updateVisibility);
    connect(m_fetchThroughput, &QCheckBox::toggled, this, &TimelineSourceDialog::updateVisibility);
    connect(m_changeKnown, &QCheckBox::toggled, m_changeEdit, &QWidget::setEnabled);
    connect(m_testButton, &QPushButton::clicked, this, &TimelineSourceDialog::testConnection);
    connect(m_rangePicker, &TimeRangePicker::rangeChanged, this, &TimelineSourceDialog::updatePointEstimate);
    connect(m_stepSpin, &QSpinBox::valueChanged, this, &TimelineSourceDialog::updatePointEstimate);
    connect(m_forgetButton, &QPushButton::clicked, this, &TimelineSourceDialog::forgetCredentials);
    // Looked up when the dialog opens (the timer's first run) and whenever a URL changes; keys follow the URLs.
    m_lookupTimer = new QTimer(this);
    m_lookupTimer->setSingleShot(true);
    m_lookupTimer->setInterval(kLookupDelayMs);
    connect(m_lookupTimer, &QTimer::timeout, this, &TimelineSourceDialog::lookUpKeychain);
    connect(m_urlEdit, &QLineEdit::textChanged, m_lookupTimer, qOverload<>(&QTimer::start));
    connect(m_langfuseUrl, &QLineEdit::textChanged, m_lookupTimer, qOverload<>(&QTimer::start));
    m_lookupTimer->start();

    // Authentication the environment provides is the natural default.
    const TimelineCredentials env = credentialsFromEnvironment();
    m_authCombo->setCurrentIndex(env.prometheusAuth.kind == HttpAuth::Kind::Bearer  ? AuthBearer
                                 : env.prometheusAuth.kind == HttpAuth::Kind::Basic ? AuthBasic
                                                                                    : AuthNone);
    m_changeEdit->setDateTime(QDateTime::currentDateTimeUtc());
    setHeaderPlaceholder({});
    updateVisibility();
    updatePointEstimate();
}

TimelineSourceDialog::~TimelineSourceDialog() {
    // A worker still running stops at its next progress check; its result goes nowhere.
    if (m_fetchCancel) m_fetchCancel->store(true);
    if (m_testCancel) m_testCancel->store(true);
}

void TimelineSourceDialog::setHeaderPlaceholder(const std::vector<std::string>& fetchedWith) {
    QString text = fetchedWith.empty()
                       ? tr("One per line, e.g. X-Scope-OrgID: tenant-a")
                       : tr("Fetched with %1: type the values again (they are not saved)").arg(joined(fetchedWith));
    if (qEnvironmentVariableIsSet("FP8DASH_PROMETHEUS_HEADERS")) text += tr("\nempty: FP8DASH_PROMETHEUS_HEADERS");
    m_headersEdit->setPlaceholderText(text);
}

void TimelineSourceDialog::updateVisibility() {
    m_authStack->setCurrentIndex(m_authCombo->currentIndex());
    m_throughputQuery->setEnabled(m_fetchThroughput->isChecked() && !m_fetching);
    m_seriesPick->setEnabled(m_fetchThroughput->isChecked() && !m_fetching);
    m_modelPick->setEnabled(m_fetchThroughput->isChecked() && !m_fetching);
    m_qualityStack->setCurrentIndex(m_qualityCombo->currentIndex());
}

void TimelineSourceDialog::updatePointEstimate() {
    const auto [from, to] = m_rangePicker->range();
    const double points = to > from ? std::floor((to - from) / m_stepSpin->value()) + 1 : 0;
    QString text = tr("≈ %L1 points per series").arg(static_cast<qlonglong>(points));
    if (points > static_cast<double>(PrometheusClient::kMaxTotalPoints)) text += tr(" — too many: raise the step");
    m_pointsLabel->setText(text);
}

void TimelineSourceDialog::setSettings(const TimelineSettings& s) {
    m_base = s;
    m_urlEdit->setText(toQString(s.prometheusUrl));
    if (s.prometheusAuth == "bearer") {
        m_authCombo->setCurrentIndex(AuthBearer);
    } else if (s.prometheusAuth == "basic") {
        m_authCombo->setCurrentIndex(AuthBasic);
    } else {
        m_authCombo->setCurrentIndex(AuthNone);
    }
    // The file names the headers it was fetched with; their values were never saved, so ask for them again.
    setHeaderPlaceholder(s.prometheusHeaderNames);
    m_fetchThroughput->setChecked(s.fetchThroughput);
    m_throughputQuery->setText(toQString(s.throughputQuery));
    m_seriesPick->setText(toQString(s.seriesPick));
    m_qualityCombo->setCurrentIndex(s.qualitySource == QualitySource::Prometheus ? QualityPrometheus
                                    : s.qualitySource == QualitySource::Langfuse ? QualityLangfuse
                                                                                 : QualityNone);
    m_qualityQuery->setText(toQString(s.qualityQuery));
    m_langfuseUrl->setText(toQString(s.langfuseUrl));
    m_scoreName->setText(toQString(s.scoreName));
    m_traceTags->setText(joined(s.traceTags));
    m_environments->setText(joined(s.environments));
    m_windowsCombo->setCurrentIndex(!s.windowSemantics                                   ? 0
                                    : *s.windowSemantics == WindowSemantics::Prometheus2 ? 1
                                                                                         : 2);
    // A raw timeline (the only mode before the aggregate one) is refreshed in the automatic mode.
    m_langfuseMode->setCurrentIndex(
        static_cast<int>(s.langfuseMode == LangfuseMode::Aggregate ? LangfuseMode::Aggregate : LangfuseMode::Auto));
    if (s.to > s.from) m_rangePicker->setRange(s.from, s.to);
    m_stepSpin->setValue(std::clamp(static_cast<int>(std::lround(s.step)), 1, 86400));
    m_changeKnown->setChecked(s.changeAt.has_value());
    if (s.changeAt) m_changeEdit->setDateTime(utcTime(*s.changeAt));
    updateVisibility();
    updatePointEstimate();
}

void TimelineSourceDialog::setCredentials(const TimelineCredentials& c) {
    switch (c.prometheusAuth.kind) {
        case HttpAuth::Kind::Basic:
            m_authCombo->setCurrentIndex(AuthBasic);
            m_userEdit->setText(toQString(c.prometheusAuth.user));
            m_passwordEdit->setText(toQString(c.prometheusAuth.password));
            break;
        case HttpAuth::Kind::Bearer:
            m_authCombo->setCurrentIndex(AuthBearer);
            m_tokenEdit->setText(toQString(c.prometheusAuth.token));
            break;
        case HttpAuth::Kind::None:
            break;
    }
    QStringList headers;
    for (const auto& [name, value] : c.prometheusHeaders) headers << toQString(name) + QStringLiteral(": ") + toQString(value);
    m_headersEdit->setPlainText(headers.join(QLatin1Char('\n')));
    m_publicKey->setText(toQString(c.langfusePublicKey));
    m_secretKey->setText(toQString(c.langfuseSecretKey));
    m_verifyTls->setChecked(c.httpTemplate.verifyTls);
    m_caFileEdit->setText(toQString(c.httpTemplate.caFile));
    updateVisibility();
}

Result<TimelineSourceDialog::Request> TimelineSourceDialog::request() const {
    Request r;
    TimelineSettings& s = r.settings;
    s = m_base;
    s.prometheusUrl = m_urlEdit->text().trimmed().toStdString();
    while (!s.prometheusUrl.empty() && s.prometheusUrl.back() == '/') s.prometheusUrl.pop_back();
    s.fetchThroughput = m_fetchThroughput->isChecked();
    s.throughputQuery = m_throughputQuery->text().trimmed().toStdString();
    s.seriesPick = m_seriesPick->text().trimmed().toStdString();
    const int quality = m_qualityCombo->currentIndex();
    s.qualitySource = quality == QualityPrometheus ? QualitySource::Prometheus
                      : quality == QualityLangfuse ? QualitySource::Langfuse
                                                   : QualitySource::None;
    s.qualityQuery = m_qualityQuery->text().trimmed().toStdString();
    s.langfuseUrl = m_langfuseUrl->text().trimmed().toStdString();
    while (!s.langfuseUrl.empty() && s.langfuseUrl.back() == '/') s.langfuseUrl.pop_back();
    s.scoreName = m_scoreName->text().trimmed().toStdString();
    s.traceTags = commaList(m_traceTags->text());
    s.environments = commaList(m_environments->text());
    s.windowSemantics.reset();
    if (m_windowsCombo->currentIndex() > 0)
        s.windowSemantics =
            m_windowsCombo->currentIndex() == 1 ? WindowSemantics::Prometheus2 : WindowSemantics::Prometheus3;
    s.langfuseMode = static_cast<LangfuseMode>(std::clamp(m_langfuseMode->currentIndex(), 0, 2));
    const auto [from, to] = m_rangePicker->range();
    s.from = from;
    s.to = to;
    s.step = m_stepSpin->value();
    s.changeAt.reset();
    if (m_changeKnown->isChecked()) s.changeAt = m_changeEdit->dateTime().toMSecsSinceEpoch() / 1000.0;

    if (!s.fetchThroughput && s.qualitySource == QualitySource::None) {
        return Error{tr("Nothing to fetch: choose the throughput query, a quality source, or both.").toStdString()};
    }
    const bool needPrometheus = s.fetchThroughput || s.qualitySource == QualitySource::Prometheus;
    if (needPrometheus) {
        if (s.prometheusUrl.empty()) return Error{tr("Prometheus URL: needed for the queries.").toStdString()};
        if (auto ok = checkUrl(toQString(s.prometheusUrl), tr("Prometheus URL")); !ok) return ok.error();
    }
    if (s.fetchThroughput && s.throughputQuery.empty()) {
        return Error{tr("Throughput query: empty (untick “Fetch throughput” to leave it out).").toStdString()};
    }
    if (s.qualitySource == QualitySource::Prometheus && s.qualityQuery.empty()) {
        return Error{tr("Quality query: empty.").toStdString()};
    }
    if (s.qualitySource == QualitySource::Langfuse) {
        if (s.langfuseUrl.empty()) return Error{tr("Langfuse URL: needed for Langfuse scores.").toStdString()};
        if (auto ok = checkUrl(toQString(s.langfuseUrl), tr("Langfuse URL")); !ok) return ok.error();
        if (s.scoreName.empty()) return Error{tr("Score name: empty (the default is llm_judge_domain).").toStdString()};
    }
    if (!(s.to > s.from)) return Error{tr("Range: “to” must be after “from”.").toStdString()};
    if ((s.to - s.from) / s.step + 1 > static_cast<double>(PrometheusClient::kMaxTotalPoints)) {
        return Error{tr("Step: %1 s over this range gives more points than fp8dash fetches per series; raise it.")
                         .arg(s.step)
                         .toStdString()};
    }

    // Credentials: typed here, else from the environment.
    const TimelineCredentials env = credentialsFromEnvironment();
    TimelineCredentials& c = r.credentials;
    switch (m_authCombo->currentIndex()) {
        case AuthBasic:
            c.prometheusAuth.kind = HttpAuth::Kind::Basic;
            c.prometheusAuth.user = orFallback(m_userEdit->text(), env.prometheusAuth.user);
            c.prometheusAuth.password = orFallback(m_passwordEdit->text(), env.prometheusAuth.password);
            if (needPrometheus && c.prometheusAuth.user.empty()) {
                return Error{tr("User: type it, or set FP8DASH_PROMETHEUS_USER.").toStdString()};
            }
            break;
        case AuthBearer:
            c.prometheusAuth.kind = HttpAuth::Kind::Bearer;
            c.prometheusAuth.token = orFallback(m_tokenEdit->text(), env.prometheusAuth.token);
            if (needPrometheus && c.prometheusAuth.token.empty()) {
                return Error{tr("Token: type it, or set FP8DASH_PROMETHEUS_TOKEN.").toStdString()};
            }
            break;
        default:
            break;
    }
    auto headers = parseHeaders(m_headersEdit->toPlainText());
    if (!headers) return headers.error();
    c.prometheusHeaders = headers->empty() ? env.prometheusHeaders : *headers;
    c.langfusePublicKey = orFallback(m_publicKey->text(), env.langfusePublicKey);
    c.langfuseSecretKey = orFallback(m_secretKey->text(), env.langfuseSecretKey);
    if (s.qualitySource == QualitySource::Langfuse && (c.langfusePublicKey.empty() || c.langfuseSecretKey.empty())) {
        return Error{tr("Langfuse keys: type the public and secret key, or set LANGFUSE_PUBLIC_KEY and "
                        "LANGFUSE_SECRET_KEY.")
                         .toStdString()};
    }
    c.httpTemplate.verifyTls = m_verifyTls->isChecked();
    c.httpTemplate.caFile = m_caFileEdit->text().trimmed().toStdString();
    return r;
}

Headers TimelineSourceDialog::typedHeaders() const {
    auto headers = parseHeaders(m_headersEdit->toPlainText());
    if (!headers || headers->empty()) return credentialsFromEnvironment().prometheusHeaders;
    return *headers;
}

Result<PrometheusSettings> TimelineSourceDialog::formPrometheusSettings() const {
    const QString url = m_urlEdit->text().trimmed();
    if (auto ok = checkUrl(url, tr("Prometheus URL")); !ok) return ok.error();
    PrometheusSettings ps;
    ps.baseUrl = url.toStdString();
    while (!ps.baseUrl.empty() && ps.baseUrl.back() == '/') ps.baseUrl.pop_back();
    // The same credentials a fetch would use, without requiring the rest of the form to be complete.
    const TimelineCredentials env = credentialsFromEnvironment();
    switch (m_authCombo->currentIndex()) {
        case AuthBasic:
            ps.http.auth.kind = HttpAuth::Kind::Basic;
            ps.http.auth.user = orFallback(m_userEdit->text(), env.prometheusAuth.user);
            ps.http.auth.password = orFallback(m_passwordEdit->text(), env.prometheusAuth.password);
            break;
        case AuthBearer:
            ps.http.auth.kind = HttpAuth::Kind::Bearer;
            ps.http.auth.token = orFallback(m_tokenEdit->text(), env.prometheusAuth.token);
            break;
        default:
            break;
    }
    ps.http.headers = typedHeaders();
    ps.http.verifyTls = m_verifyTls->isChecked();
    ps.http.caFile = m_caFileEdit->text().trimmed().toStdString();
    ps.http.totalTimeoutS = 20;
    ps.http.maxRetries = 1;  // a test answers quickly or says why
    return ps;
}

void TimelineSourceDialog::testConnection() {
    if (m_testing) return;
    const QString url = m_urlEdit->text().trimmed();
    auto settings = formPrometheusSettings();
    if (!settings) {
        m_connectionLabel->setStyleSheet(style::colorRule(style::errorTextColor()));
        m_connectionLabel->setText(toQString(settings.error().message));
        growToFit();
        emit connectionTested(false, m_connectionLabel->text());
        return;
    }
    PrometheusSettings ps = std::move(settings).value();

    const Remembered remembered = rememberedFor(true, false);
    const quint64 generation = ++m_testGeneration;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    if (m_testCancel) m_testCancel->store(true);
    m_testCancel = cancel;
    m_testing = true;
    m_testButton->setEnabled(false);
    m_connectionLabel->setStyleSheet(QString());
    m_connectionLabel->setText(tr("Asking %1 for its build info…").arg(url));

    auto* watcher = new QFutureWatcher<Result<std::string>>(this);
    const std::string testedUrl = ps.baseUrl;
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, remembered, testedUrl] {
        watcher->deleteLater();
        if (generation != m_testGeneration) return;
        m_testing = false;
        m_testButton->setEnabled(!m_fetching);
        const Result<std::string> info = watcher->future().takeResult();
        if (info) {
            m_connectionLabel->setStyleSheet(style::colorRule(style::successTextColor()));
            QString text = tr("✓ Connected: %1").arg(toQString(*info));
            // Which backend this is and the window edges a local alert evaluation would follow (remembered by
            // buildInfo: no second request).
            PrometheusSettings known;
            known.baseUrl = testedUrl;
            if (const auto server = PrometheusClient(known).knownServerInfo())
                text += tr("\nAlert windows: %1 (%2)")
                            .arg(toQString(windowSemanticsName(server->windows)), toQString(server->windowsReason));
            m_connectionLabel->setText(text);
            storeInKeychain(remembered);
        } else {
            m_connectionLabel->setStyleSheet(style::colorRule(style::errorTextColor()));
            m_connectionLabel->setText(tr("✗ %1").arg(toQString(info.error().message)));
        }
        growToFit();
        emit connectionTested(info.ok(), m_connectionLabel->text());
    });
    watcher->setFuture(QtConcurrent::run([ps = std::move(ps), cancel] {
        Progress progress;
        progress.cancelled = [cancel] { return cancel->load(); };
        return PrometheusClient(ps).buildInfo(progress);
    }));
}

void TimelineSourceDialog::accept() {
    startFetch();
}

void TimelineSourceDialog::reject() {
    if (m_fetching) {
        // Returns at once: the worker sees the flag at its next progress check and its result is dropped.
        if (m_fetchCancel) m_fetchCancel->store(true);
        ++m_fetchGeneration;
        setFetching(false, tr("Cancelled. Nothing was changed."));
        emit fetchCancelled();
        return;
    }
    if (m_testCancel) m_testCancel->store(true);
    QDialog::reject();
}

void TimelineSourceDialog::startFetch() {
    if (m_fetching) return;
    auto r = request();
    if (!r) {
        showError(toQString(r.error().message));
        emit fetchFailed(m_errorLabel->text());
        return;
    }
    m_errorLabel->hide();
    m_fetchAfterLookup = false;
    Request req = std::move(r).value();
    const bool usesPrometheus = req.settings.fetchThroughput || req.settings.qualitySource == QualitySource::Prometheus;
    m_fetchRemember = rememberedFor(usesPrometheus, req.settings.qualitySource == QualitySource::Langfuse);
    const quint64 generation = ++m_fetchGeneration;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_fetchCancel = cancel;
    const QString where = toQString(!req.settings.prometheusUrl.empty() ? req.settings.prometheusUrl
                                                                        : req.settings.langfuseUrl);
    setFetching(true, tr("Fetching from %1…").arg(where));

    using Outcome = Result<TimelineData>;
    auto* watcher = new QFutureWatcher<Outcome>(this);
    // The future's progress signals arrive queued on the GUI thread; stale ones (after Cancel) are ignored.
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this, [this, generation](int value) {
        if (generation != m_fetchGeneration) return;
        if (m_progress->maximum() == 0) m_progress->setRange(0, kProgressSteps);  // the first report ends "busy"
        m_progress->setValue(value);
    });
    connect(watcher, &QFutureWatcherBase::progressTextChanged, this, [this, generation](const QString& text) {
        if (generation == m_fetchGeneration && !text.isEmpty()) m_statusLabel->setText(text);
    });
    // The servers' notices (a deprecated endpoint, a long fetch ahead, a rate-limit wait): shown as progress text
    // as they come, and handed to the main window's notice area with the result. Shared with the worker, which may
    // outlive the dialog.
    struct Notices {
        std::mutex mutex;
        QStringList lines;
    };
    auto notices = std::make_shared<Notices>();
    m_notices.clear();
    TimelineCredentials credentials = req.credentials;
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, credentials, notices] {
        watcher->deleteLater();
        if (generation != m_fetchGeneration) return;  // cancelled or superseded
        {
            std::lock_guard lock(notices->mutex);
            m_notices = notices->lines;
        }
        finishFetch(watcher->future().takeResult(), credentials);
    });
    watcher->setFuture(QtConcurrent::run([req = std::move(req), cancel, notices](QPromise<Outcome>& promise) {
        promise.setProgressRange(0, kProgressSteps);
        auto last = std::make_shared<std::atomic<int>>(0);
        Progress progress;
        progress.cancelled = [cancel] { return cancel->load(); };
        progress.report = [&promise, last](double fraction, const std::string& what) {
            const int value = static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * kProgressSteps));
            *last = value;
            promise.setProgressValueAndText(value, QString::fromStdString(what));
        };
        TimelineCredentials withNotices = req.credentials;
        withNotices.notice = [&promise, last, notices](const std::string& text) {
            const QString line = QString::fromStdString(text);
            {
                std::lock_guard lock(notices->mutex);
                if (!notices->lines.contains(line)) notices->lines << line;
            }
            promise.setProgressValueAndText(last->load(), line);
        };
        promise.addResult(fetchTimeline(req.settings, withNotices, progress));
    }));
}

void TimelineSourceDialog::startFetchAfterKeychain() {
    if (m_fetching) return;
    if (!request() && isLookingUpKeychain()) {
        // The credentials may be on their way from the keychain; lookUpKeychain() starts the fetch once it answers.
        m_fetchAfterLookup = true;
        m_statusLabel->setText(tr("Looking up the credentials in the system keychain…"));
        if (m_lookupTimer->isActive()) {
            m_lookupTimer->stop();
            lookUpKeychain();
        }
        return;
    }
    startFetch();
}

void TimelineSourceDialog::finishFetch(Result<TimelineData> outcome, TimelineCredentials credentials) {
    setFetching(false);
    if (!outcome) {
        showError(toQString(outcome.error().message));
        emit fetchFailed(m_errorLabel->text());
        return;
    }
    m_result = std::move(outcome).value();
    m_resultCredentials = std::move(credentials);
    // The write outlives the dialog (which closes now): the keychain job runs on and only its answer is dropped.
    storeInKeychain(std::exchange(m_fetchRemember, {}));
    QDialog::accept();
}

void TimelineSourceDialog::setFetching(bool fetching, const QString& status) {
    m_fetching = fetching;
    for (QWidget* w : std::as_const(m_inputs)) w->setEnabled(!fetching);
    m_changeEdit->setEnabled(!fetching && m_changeKnown->isChecked());
    m_testButton->setEnabled(!fetching && !m_testing);
    m_fetchButton->setEnabled(!fetching);
    // Busy (moving) until core reports the first fraction: a silent server still shows the fetch is alive.
    m_progress->setRange(0, fetching ? 0 : kProgressSteps);
    m_progress->setValue(0);
    m_progress->setVisible(fetching);
    m_cancelButton->setToolTip(fetching ? tr("Stop the fetch; the window stays as it was") : QString());
    m_statusLabel->setText(status);
    updateVisibility();
}

void TimelineSourceDialog::showError(const QString& message) {
    m_errorLabel->setText(message);
    m_errorLabel->show();
    m_statusLabel->clear();
    growToFit();
}

void TimelineSourceDialog::growToFit() {
    // A window does not grow by itself when wrapped text needs more lines; its layout would squeeze the fixed-height
    // rows instead. Take the height the layout needs at this width.
    QLayout* l = layout();
    if (!l || !isVisible()) return;
    const int needed = l->hasHeightForWidth() ? l->totalHeightForWidth(width()) : l->totalSizeHint().height();
    if (needed > height()) resize(width(), needed);
}

QString TimelineSourceDialog::errorText() const {
    return m_errorLabel->isHidden() ? QString() : m_errorLabel->text();
}

QString TimelineSourceDialog::statusText() const {
    return m_statusLabel->text();
}

QString TimelineSourceDialog::connectionText() const {
    return m_connectionLabel->text();
}

int TimelineSourceDialog::progressPermille() const {
    return std::max(0, m_progress->value());
}

// The keychain. Blobs: {"auth": "basic"|"bearer", "user", "password", "token", "headers": [[name, value], ...]} for
// Prometheus, {"publicKey", "secretKey"} for Langfuse; only fields that hold something.

bool TimelineSourceDialog::isLookingUpKeychain() const {
    return !m_keychainUnavailable && (m_lookupTimer->isActive() || m_lookupsPending > 0);
}

QString TimelineSourceDialog::keychainText() const {
    return m_keychainLabel->text();
}

void TimelineSourceDialog::lookUpKeychain() {
    m_lookupTimer->stop();
    const QString keys[2] = {CredentialStore::prometheusKey(m_urlEdit->text()),
                             CredentialStore::langfuseKey(m_langfuseUrl->text())};
    // What the keychain filled in belongs to the URL it was stored for.
    for (int i = 0; i < 2; ++i) {
        if (!m_keychainKey[i].isEmpty() && m_keychainKey[i] != keys[i]) clearKeychainFilled(static_cast<Source>(i));
    }
    const quint64 generation = ++m_lookupGeneration;
    m_lookupsPending = 0;
    auto roundDone = [this] {
        emit keychainLookedUp();
        if (std::exchange(m_fetchAfterLookup, false)) startFetch();
    };
    if (!m_keychainUnavailable) {
        for (int i = 0; i < 2; ++i) {
            if (keys[i].isEmpty() || keys[i] == m_keychainKey[i]) continue;
            ++m_lookupsPending;
            const auto source = static_cast<Source>(i);
            auto answered = [this, generation, source, key = keys[i], roundDone](const CredentialStore::Reply& reply) {
                if (generation != m_lookupGeneration) return;  // the URLs changed since: a newer round counts
                switch (reply.outcome) {
                    case CredentialStore::Outcome::Done:
                        fillFromKeychain(source, key, reply.data);
                        break;
                    case CredentialStore::Outcome::NotFound:
                        break;
                    case CredentialStore::Outcome::Unavailable:
                        keychainUnavailable(reply.error);
                        break;
                    case CredentialStore::Outcome::Failed:
                        showKeychainNote(tr("The system keychain refused the lookup: %1").arg(reply.error), true);
                        break;
                }
                if (--m_lookupsPending == 0) roundDone();
            };
            m_store->read(keys[i], this, std::move(answered));
        }
    }
    if (m_lookupsPending == 0) roundDone();
}

bool TimelineSourceDialog::fillIfEmpty(QLineEdit* edit, const QString& value, Source source) {
    if (value.isEmpty() || !edit->text().isEmpty()) return false;  // typed beats stored
    edit->setText(value);
    m_keychainFilled[static_cast<int>(source)].insert(edit, value);
    return true;
}

void TimelineSourceDialog::fillFromKeychain(Source source, const QString& key, const QByteArray& blob) {
    const QJsonObject o = QJsonDocument::fromJson(blob).object();
    const auto text = [&o](const char* name) { return o.value(QLatin1String(name)).toString(); };
    bool filled = false;
    if (source == Source::Prometheus) {
        const QString auth = text("auth");
        const int kind = auth == QStringLiteral("basic")    ? AuthBasic
                         : auth == QStringLiteral("bearer") ? AuthBearer
                                                            : AuthNone;
        // The stored method wins over a default (the environment's, the file's) but not over typed credentials.
        const int current = m_authCombo->currentIndex();
        const bool typedBasic = !m_userEdit->text().isEmpty() || !m_passwordEdit->text().isEmpty();
        const bool typedForCurrent = current == AuthBasic    ? typedBasic
                                     : current == AuthBearer ? !m_tokenEdit->text().isEmpty()
                                                             : false;
        if (kind != AuthNone && kind != current && !typedForCurrent) m_authCombo->setCurrentIndex(kind);
        if (kind == AuthBasic) {
            filled |= fillIfEmpty(m_userEdit, text("user"), source);
            filled |= fillIfEmpty(m_passwordEdit, text("password"), source);
        } else if (kind == AuthBearer) {
            filled |= fillIfEmpty(m_tokenEdit, text("token"), source);
        }
        QStringList lines;
        for (const QJsonValue& h : o.value(QLatin1String("headers")).toArray()) {
            const QJsonArray pair = h.toArray();
            if (pair.size() == 2) lines << pair[0].toString() + QStringLiteral(": ") + pair[1].toString();
        }
        if (!lines.isEmpty() && m_headersEdit->toPlainText().trimmed().isEmpty()) {
            const QString headers = lines.join(QLatin1Char('\n'));
            m_headersEdit->setPlainText(headers);
            m_keychainFilled[static_cast<int>(source)].insert(m_headersEdit, headers);
            filled = true;
        }
    } else {
        filled |= fillIfEmpty(m_publicKey, text("publicKey"), source);
        filled |= fillIfEmpty(m_secretKey, text("secretKey"), source);
    }
    m_keychainKey[static_cast<int>(source)] = key;
    m_rememberCheck->setChecked(true);  // remembered already: a later success keeps the entry up to date
    const QString url = key.section(QLatin1Char(' '), 1);
    showKeychainNote(filled ? tr("Filled in from the system keychain: the credentials for %1.").arg(url)
                            : tr("The system keychain holds credentials for %1; the typed ones are used.").arg(url));
}

void TimelineSourceDialog::clearKeychainFilled(Source source) {
    auto& filled = m_keychainFilled[static_cast<int>(source)];
    for (auto it = filled.cbegin(); it != filled.cend(); ++it) {
        // Only what still holds the stored value: an edited field is the user's now.
        if (auto* line = qobject_cast<QLineEdit*>(it.key()); line && line->text() == it.value()) line->clear();
        if (auto* plain = qobject_cast<QPlainTextEdit*>(it.key()); plain && plain->toPlainText() == it.value()) {
            plain->clear();
        }
    }
    filled.clear();
    m_keychainKey[static_cast<int>(source)].clear();
}

TimelineSourceDialog::Remembered TimelineSourceDialog::rememberedFor(bool prometheus, bool langfuse) const {
    Remembered out;
    if (!m_rememberCheck->isChecked() || m_keychainUnavailable) return out;
    const auto put = [&out](const QString& key, const QJsonObject& o) {
        if (!key.isEmpty() && !o.isEmpty()) out.entries.insert(key, QJsonDocument(o).toJson(QJsonDocument::Compact));
    };
    if (prometheus) {
        // Only what is typed (or came from the keychain): the environment's values stay in the environment.
        QJsonObject o;
        const auto add = [&o](const char* name, const QString& value) {
            if (!value.trimmed().isEmpty()) o.insert(QLatin1String(name), value.trimmed());
        };
        if (m_authCombo->currentIndex() == AuthBasic) {
            add("user", m_userEdit->text());
            add("password", m_passwordEdit->text());
        } else if (m_authCombo->currentIndex() == AuthBearer) {
            add("token", m_tokenEdit->text());
        }
        QJsonArray headers;
        if (auto parsed = parseHeaders(m_headersEdit->toPlainText())) {
            for (const auto& [name, value] : *parsed) headers.append(QJsonArray{toQString(name), toQString(value)});
        }
        if (!headers.isEmpty()) o.insert(QStringLiteral("headers"), headers);
        if (!o.isEmpty()) {
            o.insert(QStringLiteral("auth"), m_authCombo->currentIndex() == AuthBasic    ? QStringLiteral("basic")
                                             : m_authCombo->currentIndex() == AuthBearer ? QStringLiteral("bearer")
                                                                                         : QStringLiteral("none"));
        }
        put(CredentialStore::prometheusKey(m_urlEdit->text()), o);
    }
    if (langfuse) {
        QJsonObject o;
        const QString publicKey = m_publicKey->text().trimmed();
        const QString secretKey = m_secretKey->text().trimmed();
        if (!publicKey.isEmpty()) o.insert(QStringLiteral("publicKey"), publicKey);
        if (!secretKey.isEmpty()) o.insert(QStringLiteral("secretKey"), secretKey);
        put(CredentialStore::langfuseKey(m_langfuseUrl->text()), o);
    }
    return out;
}

namespace {
// One answer for several keychain calls.
struct KeychainBatch {
    int pending = 0;
    bool ok = true;
    QString error;
    QStringList urls;
};
}  // namespace

void TimelineSourceDialog::storeInKeychain(const Remembered& remembered) {
    if (remembered.entries.isEmpty()) return;
    auto batch = std::make_shared<KeychainBatch>();
    batch->pending = static_cast<int>(remembered.entries.size());
    for (auto it = remembered.entries.cbegin(); it != remembered.entries.cend(); ++it) {
        batch->urls << it.key().section(QLatin1Char(' '), 1);
        m_store->write(it.key(), it.value(), this, [this, batch](const CredentialStore::Reply& reply) {
            if (reply.outcome == CredentialStore::Outcome::Unavailable) keychainUnavailable(reply.error);
            if (reply.outcome != CredentialStore::Outcome::Done && batch->ok) {
                batch->ok = false;
                batch->error = reply.error;
            }
            if (--batch->pending > 0) return;
            if (batch->ok) {
                const QString urls = batch->urls.join(QStringLiteral(", "));
                showKeychainNote(tr("Saved in the system keychain for %1.").arg(urls));
            } else if (!m_keychainUnavailable) {
                showKeychainNote(tr("The system keychain did not store the credentials: %1").arg(batch->error), true);
            }
            emit keychainStored(batch->ok);
        });
    }
}

void TimelineSourceDialog::forgetCredentials() {
    clearKeychainFilled(Source::Prometheus);
    clearKeychainFilled(Source::Langfuse);
    m_rememberCheck->setChecked(false);
    QStringList keys;
    for (const QString& key : {CredentialStore::prometheusKey(m_urlEdit->text()),
                               CredentialStore::langfuseKey(m_langfuseUrl->text())}) {
        if (!key.isEmpty()) keys << key;
    }
    if (keys.isEmpty()) {
        showKeychainNote(tr("No URL given: nothing to forget."));
        emit keychainForgotten(true);
        return;
    }
    auto batch = std::make_shared<KeychainBatch>();
    batch->pending = static_cast<int>(keys.size());
    for (const QString& key : std::as_const(keys)) {
        batch->urls << key.section(QLatin1Char(' '), 1);
        m_store->remove(key, this, [this, batch](const CredentialStore::Reply& reply) {
            if (reply.outcome == CredentialStore::Outcome::Unavailable) keychainUnavailable(reply.error);
            const bool ok = reply.outcome == CredentialStore::Outcome::Done ||
                            reply.outcome == CredentialStore::Outcome::NotFound;
            if (!ok && batch->ok) {
                batch->ok = false;
                batch->error = reply.error;
            }
            if (--batch->pending > 0) return;
            if (batch->ok) {
                showKeychainNote(tr("Forgotten: the system keychain holds no credentials for %1.")
                                     .arg(batch->urls.join(QStringLiteral(", "))));
            } else if (!m_keychainUnavailable) {
                showKeychainNote(tr("The system keychain did not remove the credentials: %1").arg(batch->error), true);
            }
            emit keychainForgotten(batch->ok);
        });
    }
}

void TimelineSourceDialog::keychainUnavailable(const QString& error) {
    if (m_keychainUnavailable) return;
    m_keychainUnavailable = true;
    // Nothing to remember into and nothing to forget; the dialog works on with typed and environment credentials.
    m_inputs.removeAll(m_rememberCheck);
    m_inputs.removeAll(m_forgetButton);
    m_rememberCheck->setChecked(false);
    m_rememberCheck->setEnabled(false);
    m_forgetButton->setEnabled(false);
    showKeychainNote(tr("The system keychain is not available: %1; credentials stay in memory for this session.")
                         .arg(error.isEmpty() ? tr("no reason given") : error),
                     true);
}

void TimelineSourceDialog::showKeychainNote(const QString& text, bool problem) {
    m_keychainLabel->setStyleSheet(problem ? style::colorRule(style::cautionTextColor()) : QString());
    m_keychainLabel->setText(text);
    growToFit();
}

}  // namespace fp8dash::ui
