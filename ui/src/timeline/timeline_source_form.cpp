// TimelineSourceDialog: the form, one builder per group (Prometheus, throughput, quality, time range, the keychain
// row, the feedback and buttons).
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
#include "fp8dash/ui/time_range_picker.h"
#include "timeline/model_pick_button.h"
#include "widgets/ui_style.h"

#include "timeline/timeline_source_parts.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

using namespace timeline_source_parts;

QGroupBox* TimelineSourceDialog::buildPrometheusBox() {
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
    m_headersEdit->setToolTip(tr("Header names are saved with the timeline; their values are not.") + QLatin1Char(' ') +
                              sessionOnlyTip());
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
    m_connectionLabel = plainLabel(QString(), promBox);  // the server's own words (untrusted_ui.h)
    m_connectionLabel->setObjectName(QStringLiteral("connectionResult"));
    m_connectionLabel->setWordWrap(true);
    m_connectionLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    test->addWidget(m_testButton, 0, Qt::AlignTop);
    test->addWidget(m_connectionLabel, 1);
    promLayout->addLayout(test);
    promLayout->addStretch(1);
    m_inputs << m_urlEdit << m_authCombo << m_userEdit << m_passwordEdit << m_tokenEdit << m_headersEdit << m_verifyTls
             << m_caFileEdit << caBrowse << m_testButton;
    return promBox;
}

QGroupBox* TimelineSourceDialog::buildThroughputBox() {
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
    return throughputBox;
}

QGroupBox* TimelineSourceDialog::buildQualityBox() {
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
    return qualityBox;
}

QGroupBox* TimelineSourceDialog::buildRangeBox() {
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
    rangeForm->addRow(QString(), lineCaption(tr("Unknown? Leave it off: the timeline uses the switch vLLM "
                                                "reports in vllm:cache_config_info (the first engine's), if any."),
                                             rangeBox));
    m_inputs << m_rangePicker << m_stepSpin << m_changeKnown << m_changeEdit;
    return rangeBox;
}

QHBoxLayout* TimelineSourceDialog::buildKeychainRow() {
    auto* keychainRow = new QHBoxLayout;
    m_rememberCheck = new QCheckBox(tr("Remember in the system &keychain"), this);
    m_rememberCheck->setObjectName(QStringLiteral("rememberInKeychain"));
    m_rememberCheck->setToolTip(
        tr("After a successful fetch or Test Connection, store the credentials typed here in "
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
    m_inputs << m_rememberCheck << m_forgetButton;
    return keychainRow;
}

void TimelineSourceDialog::buildFeedback(QVBoxLayout* layout) {
    m_errorLabel = plainLabel(QString(), this);
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
}

}  // namespace fp8dash::ui
