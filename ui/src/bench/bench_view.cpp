#include "fp8dash/ui/bench_view.h"

#include <QApplication>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>

#include "bench/bench_charts.h"
#include "bench/bench_kv.h"
#include "bench/bench_view_parts.h"
#include "fp8dash/core/kv_headline.h"
#include "fp8dash/core/model_architecture.h"
#include "fp8dash/ui/background_job.h"
#include "fp8dash/ui/bench_table_models.h"
#include "fp8dash/ui/export_actions.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/model_notice.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

using bench::ChartPanel;
using bench::fixed;
using bench::groupedInteger;

namespace {

using namespace bench_view_parts;

QTableView* makeTable(QAbstractItemModel* model, const QString& accessibleName, QWidget* parent) {
    auto* table = new QTableView(parent);
    table->setModel(model);
    table->setSortingEnabled(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->horizontalHeader()->setSortIndicatorShown(true);
    table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // run order until the user picks a column
    table->setAccessibleName(accessibleName);
    QString base = accessibleName.toLower();
    base.replace(QLatin1Char(' '), QLatin1Char('-'));
    exporting::installTableExportMenu(table, QStringLiteral("fp8dash-") + base);
    return table;
}

}  // namespace

// The run in flight: shared by the GUI thread and the worker. cancel is read by the progress callback; the latest
// progress waits under the mutex until the GUI thread picks it up (at most one queued call at a time).
BenchView::BenchView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("benchView"));
    m_runJob = new BackgroundJob(this);
    connect(m_runJob, &BackgroundJob::progressed, this, [this](qint64 done, qint64 total, const QString& step) {
        showProgress(total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 0.0, step);
    });
    m_deviceJob = new BackgroundJob(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 8, 0, 0);
    layout->setSpacing(6);

    // The device card: this machine, and what the results on screen were measured on.
    auto* card = new QFrame(this);
    card->setObjectName(QStringLiteral("benchDeviceCard"));
    card->setFrameShape(QFrame::StyledPanel);
    auto* cardLayout = new QVBoxLayout(card);
    cardLayout->setContentsMargins(10, 6, 10, 6);
    cardLayout->setSpacing(2);
    m_deviceLabel = new QLabel(card);
    m_deviceLabel->setObjectName(QStringLiteral("benchDevice"));
    m_deviceLabel->setWordWrap(true);
    m_deviceLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_measuredLabel = style::caption(QString(), card);
    m_measuredLabel->setObjectName(QStringLiteral("benchMeasuredOn"));
    m_measuredLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runNote = style::caption(QString(), card);
    m_runNote->setObjectName(QStringLiteral("benchRunNote"));
    cardLayout->addWidget(m_deviceLabel);
    cardLayout->addWidget(m_measuredLabel);
    cardLayout->addWidget(m_runNote);
    layout->addWidget(card);
    m_modelNote = new ModelNotice(QStringLiteral("benchModelNote"), this);
    layout->addWidget(m_modelNote);

    layout->addWidget(buildControls());

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("benchStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->hide();
    layout->addWidget(m_status);
    m_warnings = style::caption(QString(), this);
    m_warnings->setObjectName(QStringLiteral("benchWarnings"));
    m_warnings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warnings->hide();
    layout->addWidget(m_warnings);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("benchSplitter"));
    splitter->setChildrenCollapsible(false);
    auto* chartsPage = new QWidget(splitter);
    auto* chartsLayout = new QVBoxLayout(chartsPage);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    chartsLayout->setSpacing(4);
    auto* chartsRow = new QHBoxLayout;
    chartsRow->setSpacing(6);
    m_roofline = new ChartPanel(tr("Roofline: GEMM throughput"), chartsPage);
    m_roofline->setObjectName(QStringLiteral("rooflineChart"));
    m_speedup = new ChartPanel(tr("FP8 speedup over BF16 by tokens"), chartsPage);
    m_speedup->setObjectName(QStringLiteral("speedupChart"));
    m_kvChart = new ChartPanel(tr("KV-cache FP8 error vs context"), chartsPage);
    m_kvChart->setObjectName(QStringLiteral("kvErrorChart"));
    m_chartsEmpty = style::caption(QString(), chartsPage);
    m_chartsEmpty->setObjectName(QStringLiteral("benchChartsEmpty"));
    m_chartsEmpty->setTextFormat(Qt::RichText);  // markup of ours, no data
    m_chartsEmpty->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_chartsEmpty->setAlignment(Qt::AlignCenter);
    m_chartsEmpty->setMargin(12);
    m_chartsEmpty->hide();
    chartsRow->addWidget(m_roofline, 1);
    chartsRow->addWidget(m_speedup, 1);
    chartsRow->addWidget(m_chartsEmpty, 1);
    chartsRow->addWidget(m_kvChart, 1);
    chartsLayout->addWidget(buildKvHeadline(chartsPage));
    chartsLayout->addLayout(chartsRow, 1);
    auto* belowCharts = new QHBoxLayout;
    m_hover = style::caption(tr("Point at a roofline marker to read its layer, shape and throughput."), chartsPage);
    m_hover->setObjectName(QStringLiteral("rooflineReadout"));
    m_hover->setTextInteractionFlags(Qt::TextSelectableByMouse);
    belowCharts->addWidget(m_hover, 1);
    belowCharts->addStretch(0);  // keeps the KV metric at the right while the roofline read-out is hidden
    auto* metricLabel = new QLabel(tr("KV chart shows:"), chartsPage);
    m_kvMetricLabel = metricLabel;
    m_kvMetric = new QComboBox(chartsPage);
    m_kvMetric->setObjectName(QStringLiteral("kvMetric"));
    m_kvMetric->addItem(tr("Attention-output error (headline)"));
    m_kvMetric->addItem(tr("K/V relative RMSE"));
    m_kvMetric->addItem(tr("Attention TVD"));
    m_kvMetric->setAccessibleName(tr("KV chart metric"));
    metricLabel->setBuddy(m_kvMetric);
    connect(m_kvMetric, &QComboBox::currentIndexChanged, this, [this] { rebuildKvChart(); });
    belowCharts->addWidget(metricLabel);
    belowCharts->addWidget(m_kvMetric);
    chartsLayout->addLayout(belowCharts);
    splitter->addWidget(chartsPage);
    splitter->addWidget(buildTables());
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    // Charts and tables each keep a readable height; on a short window the page scrolls rather than squeezing them.
    chartsPage->setMinimumHeight(300);
    m_tableTabs->setMinimumHeight(180);
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("benchScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(splitter);
    layout->addWidget(scroll, 1);

    updateDeviceCard();
    updateControls();
    rebuild();
    // A theme change re-styles the charts in place (zoom, tab, splitter, table sort and selection stay); the table
    // models repaint their own colours.
    style::onThemeChange(this, [this] { style::adaptCharts(this); });
}

// The worker keeps going until its next progress call; it then stops (the job is destroyed with the view), and
// nobody waits for its results.
BenchView::~BenchView() = default;

bool BenchView::isRunning() const {
    return m_runJob->isRunning();
}

QWidget* BenchView::buildControls() {
    auto* row = new QWidget(this);
    auto* layout = new QVBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    auto* controls = new QHBoxLayout;
    controls->setSpacing(10);

    auto* modelLabel = new QLabel(tr("Model shapes:"), row);
    m_model = new QComboBox(row);
    m_model->setObjectName(QStringLiteral("benchModel"));
    m_model->setAccessibleName(tr("Model whose layer shapes the GEMM benchmark uses"));
    m_model->setToolTip(tr("The GEMM shapes (qkv, o, gate_up, down) and the KV heads come from this model"));
    for (const ModelArchitecture& m : modelPresets()) m_model->addItem(toQString(m.name), toQString(m.name));
    modelLabel->setBuddy(m_model);
    connect(m_model, &QComboBox::currentIndexChanged, this, &BenchView::updateControls);  // Run needs a model
    controls->addWidget(modelLabel);
    controls->addWidget(m_model);

    m_gemm = new QCheckBox(tr("GEMM"), row);
    m_gemm->setObjectName(QStringLiteral("benchRunGemm"));
    m_gemm->setAccessibleName(tr("Run the GEMM benchmark"));
    m_gemm->setToolTip(tr("BF16 vs FP8 E4M3 matrix multiplications (cuBLASLt) for the model's layer shapes"));
    m_bandwidth = new QCheckBox(tr("Memory bandwidth"), row);
    m_bandwidth->setObjectName(QStringLiteral("benchRunBandwidth"));
    m_bandwidth->setAccessibleName(tr("Run the memory bandwidth benchmark"));
    m_kv = new QCheckBox(tr("KV cache"), row);
    m_kv->setObjectName(QStringLiteral("benchRunKv"));
    m_kv->setAccessibleName(tr("Run the KV-cache quantisation experiment"));
    m_kv->setToolTip(tr("FP8 E4M3 quantisation error of a K/V cache by scaling mode and context length"));
    m_cpuOnly = new QCheckBox(tr("CPU only"), row);
    m_cpuOnly->setObjectName(QStringLiteral("benchCpuOnly"));
    m_cpuOnly->setAccessibleName(tr("Run on the CPU only"));
    m_cpuOnly->setToolTip(tr("Use the CPU implementation even with a GPU: only the KV-cache error sweep runs"));
    for (QCheckBox* box : {m_gemm, m_bandwidth, m_kv}) {
        box->setChecked(true);
        connect(box, &QCheckBox::toggled, this, &BenchView::updateControls);
        controls->addWidget(box);
    }
    connect(m_cpuOnly, &QCheckBox::toggled, this, &BenchView::updateControls);
    controls->addWidget(m_cpuOnly);
    controls->addStretch(1);

    m_runButton = new QPushButton(tr("Run Benchmarks"), row);
    m_runButton->setObjectName(QStringLiteral("benchRun"));
    m_runButton->setAccessibleName(tr("Run the benchmarks"));
    m_runButton->setDefault(true);
    connect(m_runButton, &QPushButton::clicked, this, &BenchView::startRun);
    m_cancelButton = new QPushButton(tr("Cancel"), row);
    m_cancelButton->setObjectName(QStringLiteral("benchCancel"));
    m_cancelButton->setAccessibleName(tr("Cancel the benchmark run"));
    connect(m_cancelButton, &QPushButton::clicked, this, &BenchView::cancelRun);
    controls->addWidget(m_runButton);
    controls->addWidget(buildKvDumpButton(row));
    controls->addWidget(m_cancelButton);
    layout->addLayout(controls);

    auto* progressRow = new QHBoxLayout;
    m_progress = new QProgressBar(row);
    m_progress->setObjectName(QStringLiteral("benchProgress"));
    m_progress->setAccessibleName(tr("Benchmark progress"));
    m_progress->setRange(0, 1000);
    m_progress->setFixedWidth(220);
    m_progress->setTextVisible(false);
    m_step = style::caption(QString(), row);
    m_step->setObjectName(QStringLiteral("benchStep"));
    m_step->setWordWrap(false);
    progressRow->addWidget(m_progress);
    progressRow->addWidget(m_step, 1);
    layout->addLayout(progressRow);
    return row;
}

QWidget* BenchView::buildTables() {
    m_tableTabs = new QTabWidget(this);
    m_tableTabs->setObjectName(QStringLiteral("benchTables"));
    m_tableTabs->setDocumentMode(true);

    m_gemmModel = new GemmTableModel(this);
    m_gemmTable = makeTable(m_gemmModel, tr("GEMM results"), m_tableTabs);
    m_gemmTable->setObjectName(QStringLiteral("gemmTable"));

    m_bandwidthModel = new BandwidthTableModel(this);
    m_bandwidthTable = makeTable(m_bandwidthModel, tr("Memory bandwidth results"), m_tableTabs);
    m_bandwidthTable->setObjectName(QStringLiteral("bandwidthTable"));

    m_kvModel = new KvTableModel(this);  // headers with the metrics' definitions as tooltips
    m_kvTable = makeTable(m_kvModel, tr("KV-cache error results"), m_tableTabs);
    m_kvTable->setObjectName(QStringLiteral("kvTable"));

    m_tableTabs->addTab(m_gemmTable, tr("GEMM"));
    m_tableTabs->addTab(m_bandwidthTable, tr("Memory bandwidth"));
    m_tableTabs->addTab(m_kvTable, tr("KV-cache error"));
    return m_tableTabs;
}

void BenchView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    queryDeviceOnce();
}

void BenchView::queryDeviceOnce() {
    if (m_deviceQueryStarted || m_local) return;
    m_deviceQueryStarted = true;
    m_deviceJob->watch(bench::localDeviceQuery(), [this](const LocalDeviceStatus& status) {
        if (m_local) return;  // set meanwhile (tests)
        m_local = status;
        updateDeviceCard();
        updateControls();
        emit localDeviceKnown();
    });
}

void BenchView::setLocalDevice(const LocalDeviceStatus& status) {
    m_local = status;
    m_deviceQueryStarted = true;
    updateDeviceCard();
    updateControls();
    emit localDeviceKnown();
}

void BenchView::setResults(const BenchResults* results) {
    if (results) {
        m_results = *results;
    } else {
        m_results.reset();
    }
    chooseRunModel();
    if (!isRunning()) m_status->hide();  // the last run's outcome was about other results
    updateModelNote();
    updateDeviceCard();
    updateControls();
    rebuild();
}

void BenchView::setComparedModel(const ComparedModel& model) {
    const bool changed = model.checkpoint != m_compared.checkpoint || model.settingsModel != m_compared.settingsModel;
    m_compared = model;
    if (changed) chooseRunModel();
    updateModelNote();
    updateControls();
}

// The natural next run: the compared model when the runs name one (none chosen when fp8dash does not know it), else
// the model the results on screen were measured with.
void BenchView::chooseRunModel() {
    if (isRunning()) return;
    const QSignalBlocker block(m_model);
    QString want;
    if (m_compared.named()) {
        want = toQString(m_compared.settingsModel);
    } else if (m_results && m_model->findData(toQString(m_results->model)) >= 0) {
        want = toQString(m_results->model);
    } else {
        return;
    }
    int index = m_model->findData(want);
    if (index < 0 && want.isEmpty()) {
        m_model->insertItem(0, tr("Unknown: choose the model"), QString());
        m_model->setItemData(0, tr("fp8dash does not know the compared runs' model: choose whose shapes to measure"),
                             Qt::ToolTipRole);
        index = 0;
    } else if (index < 0) {  // a config.json beside the compared runs' checkpoint
        m_model->addItem(tr("config: %1").arg(QFileInfo(want).fileName()), want);
        index = m_model->count() - 1;
        m_model->setItemData(index, escapedTip(want), Qt::ToolTipRole);
    }
    m_model->setCurrentIndex(index);
    if (const int unknown = m_model->findData(QString()); unknown >= 0 && unknown != m_model->currentIndex())
        m_model->removeItem(unknown);  // kept for an earlier comparison
}

QString BenchView::modelNoteText() const {
    return m_modelNote->text();
}

// Which model's shapes the results on screen used, when that is not plainly the compared runs' model.
void BenchView::updateModelNote() {
    using Kind = ModelNotice::Kind;
    const QString compared = style::escaped(visibleText(toQString(m_compared.checkpoint)));  // from the runs
    const QString table = m_compared.known() && findModelPreset(m_compared.settingsModel)
                              ? tr(", %1 in fp8dash's table").arg(style::escaped(m_compared.settingsModel))
                              : QString();
    if (!m_compared.named()) {
        m_modelNote->setNote(QString(), Kind::Information);
        return;
    }
    if (!m_results) {
        m_modelNote->setNote(m_compared.known() ? QString()
                                                : tr("The compared runs' model, <b>%1</b>, is not in fp8dash's table "
                                                     "of architectures: choose in Model shapes the model whose layer "
                                                     "shapes and KV heads to measure.")
                                                      .arg(compared),
                             Kind::Warning);
        return;
    }
    const std::string& used = m_results->model;
    const QString usedName = style::escaped(visibleText(toQString(used)));  // from the file
    switch (used.empty() ? ModelMatch::Unchecked : modelMatch(used, m_compared)) {
        case ModelMatch::NoComparedModel:
        case ModelMatch::Same:
            m_modelNote->setNote(QString(), Kind::Information);
            return;
        case ModelMatch::SameShapes:
            m_modelNote->setNote(tr("These results use <b>%1</b>'s layer shapes and KV heads, the same architecture as "
                                    "the compared runs' model, <b>%2</b>%3: these figures are its figures.")
                                     .arg(usedName, compared, table),
                                 Kind::Information);
            return;
        case ModelMatch::Unchecked:
            m_modelNote->setNote(used.empty() ? tr("These results do not say whose layer shapes and KV heads they "
                                                   "used; the compared runs' model is <b>%1</b>.")
                                                    .arg(compared)
                                              : tr("These results use the shapes of the model in %1; fp8dash cannot "
                                                   "tell whether that is the compared runs' model, <b>%2</b>.")
                                                    .arg(usedName, compared),
                                 Kind::Warning);
            return;
        case ModelMatch::Different:
            break;
    }
    const QString what = m_compared.known() ? tr("the compared runs' model is <b>%1</b>%2").arg(compared, table)
                                            : tr("the compared runs' model, <b>%1</b>, is not in fp8dash's table of "
                                                 "architectures")
                                                  .arg(compared);
    m_modelNote->setNote(tr("These results use <b>%1</b>'s layer shapes and KV heads, not the compared model's: %2.")
                             .arg(usedName, what),
                         Kind::Warning);
}

void BenchView::updateDeviceCard() {
    // This machine.
    if (!m_local) {
        m_deviceLabel->setText(tr("<b>This machine:</b> looking for a GPU…"));
    } else {
        m_deviceLabel->setText(tr("<b>This machine:</b> %1").arg(style::escaped(m_local->summary())));
    }

    // What the results on screen were measured on.
    if (!m_results) {
        m_measuredLabel->setText(tr("No benchmark results in this comparison yet."));
    } else {
        const BenchResults& r = *m_results;
        QString on;
        if (r.device.available && !r.device.name.empty()) {
            on = tr("Measured on %1").arg(deviceDescription(r.device));
        } else {
            // The reason is worth its length only where it is news: not when this machine says the same.
            const bool sameAsHere = m_local && !m_local->available && m_local->reason == r.device.reason;
            on = tr("Measured on the CPU (%1)")
                     .arg(r.device.reason.empty() ? tr("no GPU")
                          : sameAsHere            ? tr("no GPU, as on this machine")
                                                  : tr("no GPU: %1").arg(toQString(r.device.reason)));
        }
        if (!r.created.empty()) on += tr(" on %1").arg(bench::createdText(r.created));
        QStringList details;
        if (!r.backend.empty()) details << tr("backend %1").arg(toQString(r.backend));
        if (!r.model.empty())
            details << (modelMatch(r.model, m_compared) == ModelMatch::Same
                            ? tr("shapes of %1, the compared runs' model").arg(toQString(r.model))
                            : tr("shapes of %1").arg(toQString(r.model)));
        if (!details.isEmpty()) on += QStringLiteral(" · ") + details.join(QStringLiteral(" · "));
        if (r.device.peak) {
            const BenchPeak& p = *r.device.peak;
            on += tr(" · roofs from the %1 datasheet: BF16 %2, FP8 %3 TFLOP/s, %4 GB/s")
                      .arg(p.name.empty() ? tr("GPU's") : toQString(p.name), fixed(p.bf16DenseTflops, 0),
                           fixed(p.fp8DenseTflops, 0), fixed(p.memoryBandwidthGBps, 0));
        }
        if (r.cancelled) on += tr(" · cancelled: partial results");
        m_measuredLabel->setText(on);
    }

    // What Run would do here.
    QString note;
    if (m_local && !m_local->available) {
        note = tr("Run would use the CPU only: the KV-cache error sweep runs; GEMM and memory bandwidth need a GPU.");
    } else if (m_local && m_cpuOnly->isChecked()) {
        note = tr("CPU only is on: the KV-cache error sweep runs; GEMM and memory bandwidth are skipped.");
    } else if (m_local) {
        note = tr("Run measures on this GPU (about a minute with every part on).");
    }
    m_runNote->setText(note);
    m_runNote->setVisible(!note.isEmpty());
}

void BenchView::updateControls() {
    const bool running = isRunning();
    const bool gpuHere = m_local && m_local->available;
    // Without a usable GPU the run is CPU-only whatever the box says; show it so.
    if (m_local && !gpuHere) {
        const QSignalBlocker block(m_cpuOnly);
        m_cpuOnly->setChecked(true);
    }
    m_cpuOnly->setEnabled(!running && gpuHere);
    m_model->setEnabled(!running);
    for (QCheckBox* box : {m_gemm, m_bandwidth, m_kv}) box->setEnabled(!running);
    const bool anyPart = m_gemm->isChecked() || m_bandwidth->isChecked() || m_kv->isChecked();
    const bool haveModel = !m_model->currentData().toString().isEmpty();
    m_runButton->setEnabled(!running && anyPart && haveModel);
    if (m_kvDumpButton) m_kvDumpButton->setEnabled(!running);
    m_runButton->setToolTip(!haveModel ? tr("Choose in Model shapes the model whose shapes to measure")
                            : anyPart  ? QString()
                                       : tr("Choose at least one part to run"));
    m_cancelButton->setVisible(running);
    m_cancelButton->setEnabled(running && !m_cancelRequested);
    m_progress->setVisible(running);
    m_step->setVisible(running);
    if (m_local) updateDeviceCard();
}

LocalBenchOptions BenchView::runOptions() const {
    LocalBenchOptions o;
    o.gemm = m_gemm->isChecked();
    o.bandwidth = m_bandwidth->isChecked();
    o.kv = m_kv->isChecked();
    o.cpuOnly = m_cpuOnly->isChecked();
    const QString model = m_model->currentData().toString();
    if (!model.isEmpty()) o.model = model.toStdString();
    o.kvContexts = m_kvContexts;
    o.gemmTokens = m_gemmTokens;
    if (m_kvLayers > 0) o.kvLayers = m_kvLayers;
    return o;
}

QString BenchView::stepText() const {
    return m_step->text();
}
QString BenchView::deviceText() const {
    return m_deviceLabel->text();
}
QString BenchView::measuredText() const {
    return m_measuredLabel->text();
}
QString BenchView::runNoteText() const {
    return m_runNote->isVisibleTo(const_cast<BenchView*>(this)) ? m_runNote->text() : QString();
}
QString BenchView::statusText() const {
    return m_status->isHidden() ? QString() : m_status->text();
}
QChart* BenchView::rooflineChart() const {
    return m_roofline->chart();
}
QChart* BenchView::speedupChart() const {
    return m_speedup->chart();
}
QChart* BenchView::kvChart() const {
    return m_kvChart->chart();
}
QChartView* BenchView::rooflineView() const {
    return m_roofline->chartView();
}
QChartView* BenchView::speedupView() const {
    return m_speedup->chartView();
}
QChartView* BenchView::kvView() const {
    return m_kvChart->chartView();
}
QString BenchView::rooflineMessage() const {
    return m_roofline->emptyText();
}
QString BenchView::speedupMessage() const {
    return m_speedup->emptyText();
}
QString BenchView::kvMessage() const {
    return m_kvChart->emptyText();
}
QString BenchView::chartsEmptyText() const {
    return m_chartsEmpty->isHidden() ? QString() : m_chartsEmpty->text();
}
QString BenchView::kvHeadlineText() const {
    return m_kvHeadline->isHidden() ? QString() : m_kvHeadline->text();
}
QLabel* BenchView::buildKvHeadline(QWidget* parent) {
    m_kvHeadline = style::caption(QString(), parent);
    m_kvHeadline->setTextFormat(Qt::RichText);  // kvHeadlineHtml: markup of ours
    m_kvHeadline->setObjectName(QStringLiteral("kvHeadline"));
    m_kvHeadline->setWordWrap(true);
    m_kvHeadline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_kvHeadline->setToolTip(escapedTip(toQString(kvMetricDefinition("attn_out_rel_rmse"))));
    return m_kvHeadline;
}
QString BenchView::hoverText() const {
    return m_hover->text();
}

void BenchView::startRun() {
    if (isRunning()) return;
    if (!(m_gemm->isChecked() || m_bandwidth->isChecked() || m_kv->isChecked())) return;
    if (m_model->currentData().toString().isEmpty()) return;  // the compared model is unknown and none is chosen
    runWith(runOptions());
}

void BenchView::runWith(const LocalBenchOptions& options) {
    m_cancelRequested = false;
    // Progress reaches the GUI through the job, coalesced (one update at a time); Cancel stops the run after its
    // current step and the parts finished before it still arrive.
    auto run = [options](JobControl& job) -> Result<BenchResults> {
        BenchProgressFn progress = [&job](double fraction, const std::string& step) {
            const double f = std::isfinite(fraction) ? std::clamp(fraction, 0.0, 1.0) : 0.0;
            job.report(std::llround(f * 1000), 1000, toQString(step));
            return !job.isCancelled();
        };
        try {
            return runLocalBench(options, progress);
        } catch (const std::exception& e) {
            return Error{std::string("the benchmark run failed: ") + e.what()};
        }
    };
    m_runJob->start(std::move(run), [this](Result<BenchResults> outcome) { finishRun(std::move(outcome)); });
    m_status->hide();
    m_runTimer.start();
    showProgress(0, tr("Starting…"));
    updateControls();
    emit runStarted();
}

void BenchView::cancelRun() {
    if (!isRunning()) return;
    m_cancelRequested = true;
    m_runJob->requestStop();
    m_step->setText(tr("Cancelling… (the current step finishes first)"));
    updateControls();
}

void BenchView::showProgress(double fraction, const QString& step) {
    m_progress->setValue(static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000)));
    if (isRunning() && m_cancelRequested) return;  // keep saying "Cancelling…"
    m_step->setText(step);
}

void BenchView::finishRun(Result<BenchResults> outcome) {
    const bool cancelled = m_cancelRequested;
    m_cancelRequested = false;
    const QString took = tr("%1 s").arg(fixed(static_cast<double>(m_runTimer.elapsed()) / 1000.0, 1));
    updateControls();
    // The outcome is said after the signal: the owner's setResults (the document's new results) comes first.
    if (!outcome) {
        const QString message = toQString(outcome.error().message);
        emit runFailed(message);
        m_status->setText(tr("<b>The benchmark run failed:</b> %1").arg(style::escaped(message)));
        m_status->show();
        return;
    }
    BenchResults results = std::move(outcome).value();
    const bool partial = results.cancelled || cancelled;
    emit runFinished(results);
    m_status->setText(partial ? tr("<b>Cancelled</b> after %1: the parts finished before Cancel are kept (partial "
                                   "results).")
                                    .arg(took)
                              : tr("<b>Finished</b> in %1.").arg(took));
    m_status->show();
}

void BenchView::rebuild() {
    m_warnings->setVisible(m_results && !m_results->warnings.empty());
    if (m_results && !m_results->warnings.empty()) {
        QStringList lines;
        for (const std::string& w : m_results->warnings) lines << toQString(w);
        m_warnings->setText(tr("Warnings: %1").arg(lines.join(QStringLiteral("; "))));
    }
    rebuildRoofline();
    rebuildSpeedup();
    rebuildKvChart();
    rebuildTables();
    showOnlyChartsWithData();
}

// A chart with nothing to draw is not shown as an empty frame: the GEMM charts (no GEMM measured) give their place to
// one empty state that says what to do, and so does everything without results. Why the GPU parts were skipped is
// said once, in the device card above (not again in each chart and table).
void BenchView::showOnlyChartsWithData() {
    const bool gemm = m_results && !m_roofline->isEmptyShown();
    const bool kv = m_results && !m_kvChart->isEmptyShown();
    m_roofline->setVisible(gemm);
    m_speedup->setVisible(gemm);
    m_kvChart->setVisible(kv);
    m_hover->setVisible(gemm);
    m_kvMetric->setVisible(kv);
    m_kvMetricLabel->setVisible(kv);
    QStringList empty;
    if (!m_results) {
        empty << tr(
            "<b>No benchmark results yet.</b><br>Run Benchmarks measures them on this machine (on the CPU "
            "without a GPU: the KV-cache error only); or open a comparison that holds them.");
    } else {
        if (!gemm)
            empty << tr(
                "<b>GEMM and memory bandwidth: not measured</b> (they need an NVIDIA GPU).<br>On a machine "
                "with one, open this comparison and press Run Benchmarks there.");
        if (!kv)
            empty << tr(
                "<b>KV-cache error: not measured.</b><br>Run Benchmarks with KV cache ticked measures it, "
                "on the CPU too.");
    }
    m_chartsEmpty->setText(empty.join(QStringLiteral("<br><br>")));
    m_chartsEmpty->setVisible(!empty.isEmpty());
    // The tables of the parts that have no row of their own (only "not run") step aside too.
    const bool bandwidth = m_results && (!m_results->bandwidth.empty() || !m_results->kvKernel.empty());
    const bool gemmRows = m_results && !m_results->gemm.empty();
    m_tableTabs->setTabVisible(0, !m_results || gemmRows);
    m_tableTabs->setTabVisible(1, !m_results || bandwidth);
    if (!m_tableTabs->isTabVisible(m_tableTabs->currentIndex())) m_tableTabs->setCurrentIndex(2);
}

void BenchView::rebuildTables() {
    // The models keep the user's sort across new rows (RowTableModel::setTable).
    const BenchResults* r = m_results ? &*m_results : nullptr;
    m_gemmModel->setResults(r);
    m_bandwidthModel->setResults(r);
    m_kvModel->setResults(r);
    m_kvTable->setColumnHidden(KvLegacyAttnError, !m_kvModel->hasLegacyColumn());
    for (QTableView* table : {m_gemmTable, m_bandwidthTable, m_kvTable}) table->resizeColumnsToContents();
}

}  // namespace fp8dash::ui
