#include "fp8dash/ui/timeline_source_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <utility>

#include "fp8dash/core/prometheus_client.h"
#include "fp8dash/ui/background_job.h"
#include "fp8dash/ui/credential_store.h"
#include "fp8dash/ui/keychain_credential_store.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/screen_fit.h"
#include "fp8dash/ui/time_range_picker.h"
#include "timeline/model_pick_button.h"
#include "timeline/timeline_source_parts.h"
#include "widgets/ui_style.h"

namespace fp8dash::ui {

namespace {

using namespace timeline_source_parts;

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

Status checkUrl(const QString& text, const QString& field) {
    const QUrl url(text, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty() ||
        (scheme != QStringLiteral("http") && scheme != QStringLiteral("https"))) {
        return Error{
            TimelineSourceDialog::tr("%1: “%2” is not an http:// or https:// URL.").arg(field, text).toStdString()};
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
    m_testJob = new BackgroundJob(this);
    m_fetchJob = new BackgroundJob(this);
    connect(m_fetchJob, &BackgroundJob::progressed, this, &TimelineSourceDialog::showFetchProgress);

    auto* layout = new QVBoxLayout(this);
    layout->setSpacing(10);
    layout->addWidget(style::caption(
        tr("Throughput comes from Prometheus (or Thanos, Mimir, Cortex, VictoriaMetrics: the plain HTTP API); judge "
           "quality from Langfuse scores or a score metric exported to Prometheus. Either may be left out."),
        this));

    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(12);
    grid->setVerticalSpacing(10);
    grid->addWidget(buildPrometheusBox(), 0, 0);
    grid->addWidget(buildThroughputBox(), 1, 0);
    grid->addWidget(buildQualityBox(), 0, 1, 2, 1);
    grid->addWidget(buildRangeBox(), 2, 0, 1, 2);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    layout->addLayout(grid);
    layout->addLayout(buildKeychainRow());
    buildFeedback(layout);

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

// A worker still running stops at its next progress check; its result goes nowhere (the jobs are destroyed with
// the dialog).
TimelineSourceDialog::~TimelineSourceDialog() = default;

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
    for (const auto& [name, value] : c.prometheusHeaders)
        headers << toQString(name) + QStringLiteral(": ") + toQString(value);
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
        style::setTextTone(m_connectionLabel, style::TextTone::Error);
        m_connectionLabel->setText(toQString(settings.error().message));
        growToFit();
        emit connectionTested(false, m_connectionLabel->text());
        return;
    }
    PrometheusSettings ps = std::move(settings).value();

    const Remembered remembered = rememberedFor(true, false);
    m_testing = true;
    m_testButton->setEnabled(false);
    style::setTextTone(m_connectionLabel, std::nullopt);
    m_connectionLabel->setText(tr("Asking %1 for its build info…").arg(url));

    const std::string testedUrl = ps.baseUrl;
    auto ask = [ps = std::move(ps)](JobControl& job) { return PrometheusClient(ps).buildInfo(job.progress()); };
    m_testJob->start(std::move(ask), [this, remembered, testedUrl](const Result<std::string>& info) {
        m_testing = false;
        m_testButton->setEnabled(!m_fetching);
        if (info) {
            style::setTextTone(m_connectionLabel, style::TextTone::Success);
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
            style::setTextTone(m_connectionLabel, style::TextTone::Error);
            m_connectionLabel->setText(tr("✗ %1").arg(toQString(info.error().message)));
        }
        growToFit();
        emit connectionTested(info.ok(), m_connectionLabel->text());
    });
}

void TimelineSourceDialog::accept() {
    startFetch();
}

void TimelineSourceDialog::reject() {
    if (m_fetching) {
        // Returns at once: the worker sees the flag at its next progress check and its result is dropped.
        m_fetchJob->cancel();
        setFetching(false, tr("Cancelled. Nothing was changed."));
        emit fetchCancelled();
        return;
    }
    m_testJob->requestStop();
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
    const QString where =
        toQString(!req.settings.prometheusUrl.empty() ? req.settings.prometheusUrl : req.settings.langfuseUrl);
    setFetching(true, tr("Fetching from %1…").arg(where));

    using Outcome = Result<TimelineData>;
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
    auto fetch = [req = std::move(req), notices](JobControl& job) {
        auto last = std::make_shared<std::atomic<int>>(0);
        Progress progress = job.progress(kProgressSteps);
        progress.report = [job, last](double fraction, const std::string& what) {
            const int value = static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * kProgressSteps));
            *last = value;
            job.report(value, kProgressSteps, QString::fromStdString(what));
        };
        TimelineCredentials withNotices = req.credentials;
        withNotices.notice = [job, last, notices](const std::string& text) {
            const QString line = QString::fromStdString(text);
            {
                std::lock_guard lock(notices->mutex);
                if (!notices->lines.contains(line)) notices->lines << line;
            }
            job.report(last->load(), kProgressSteps, line);
        };
        return fetchTimeline(req.settings, withNotices, progress);
    };
    // A cancelled or superseded fetch is dropped by the job.
    m_fetchJob->start(std::move(fetch), [this, credentials, notices](Outcome outcome) {
        {
            std::lock_guard lock(notices->mutex);
            m_notices = notices->lines;
        }
        finishFetch(std::move(outcome), credentials);
    });
}

void TimelineSourceDialog::showFetchProgress(qint64 done, qint64, const QString& text) {
    if (!m_fetching) return;
    if (m_progress->maximum() == 0) m_progress->setRange(0, kProgressSteps);  // the first report ends "busy"
    m_progress->setValue(static_cast<int>(done));
    if (!text.isEmpty()) m_statusLabel->setText(text);
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
    // Never past the screen's available height (screen_fit.h): a 768-pixel laptop keeps the buttons on screen.
    if (needed > height()) resize(dialogSizeFor(QSize(width(), needed), availableGeometryFor(this)));
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

}  // namespace fp8dash::ui
