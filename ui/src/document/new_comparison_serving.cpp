// The New Comparison dialog's serving benchmarks (docs/serving.md): each run row's serving results (a file or a
// folder of vLLM bench serve, GuideLLM or AIPerf results: typed, chosen with File… or Folder…, or dropped onto the
// row), previewed under the row from a worker, and the "What FP8 buys" group: the team's latency SLO, the load to
// serve, the GPU-hour price, the GPUs per replica and the noise threshold. They go into the request
// (NewComparisonRequest::servingPaths and
// ::serving), and from there into ComparisonInputs::servingPaths under each run's label.
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMimeData>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <set>

#include "document/new_comparison_parts.h"
#include "fp8dash/core/serving_comparison.h"
#include "fp8dash/core/serving_results.h"
#include "fp8dash/ui/new_comparison_dialog.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

namespace {

// A local file or folder dropped onto a field: its path goes into `target` (a line edit would insert the URL's text
// instead). Anything else is refused, so the cursor says so.
class ServingRowDropFilter : public QObject {
public:
    ServingRowDropFilter(QLineEdit* target, QObject* parent) : QObject(parent), m_target(target) {}

    static QString droppedPath(const QMimeData* mime) {
        if (!mime || !mime->hasUrls()) return {};
        const QList<QUrl> urls = mime->urls();
        return urls.size() == 1 && urls.front().isLocalFile() ? urls.front().toLocalFile() : QString();
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        switch (event->type()) {
            case QEvent::DragEnter:
            case QEvent::DragMove: {
                auto* drag = static_cast<QDragMoveEvent*>(event);
                if (droppedPath(drag->mimeData()).isEmpty() || !m_target->isEnabled()) return false;
                drag->acceptProposedAction();
                return true;
            }
            case QEvent::Drop: {
                auto* drop = static_cast<QDropEvent*>(event);
                const QString path = droppedPath(drop->mimeData());
                if (path.isEmpty() || !m_target->isEnabled()) return false;
                m_target->setText(QDir::toNativeSeparators(path));
                drop->acceptProposedAction();
                return true;
            }
            default:
                return QObject::eventFilter(watched, event);
        }
    }

private:
    QLineEdit* m_target;
};

void acceptDropsInto(QWidget* widget, QLineEdit* target) {
    widget->setAcceptDrops(true);
    widget->installEventFilter(new ServingRowDropFilter(target, widget));
}

// "4", "2.5": a load without trailing zeros.
QString servingPreviewNumber(double v) {
    return QString::number(v, 'g', 6);
}

// "concurrency 4–512", "2–16 req/s", "all at once", or several of them.
QString servingLoadRange(const std::vector<ServingRun>& runs) {
    QStringList parts;
    for (const LoadAxis axis : {LoadAxis::Concurrency, LoadAxis::RequestRate, LoadAxis::Unbounded}) {
        std::set<double> loads;
        for (const ServingRun& r : runs)
            if (r.load.axis == axis) loads.insert(r.load.value);
        if (loads.empty()) continue;
        const QString range = loads.size() == 1 ? servingPreviewNumber(*loads.begin())
                                                : QStringLiteral("%1–%2").arg(servingPreviewNumber(*loads.begin()),
                                                                              servingPreviewNumber(*loads.rbegin()));
        if (axis == LoadAxis::Concurrency) parts << QObject::tr("concurrency %1").arg(range);
        if (axis == LoadAxis::RequestRate) parts << QObject::tr("%1 req/s").arg(range);
        if (axis == LoadAxis::Unbounded) parts << QObject::tr("all requests at once");
    }
    return parts.join(QStringLiteral(", "));
}

}  // namespace

NewComparisonDialog::ServingPreview NewComparisonDialog::previewServingAt(const QString& path) {
    ServingPreview out;
    ServingReadOptions options;
    options.keepRequests = false;  // a preview: the per-request arrays are not needed
    auto runs = readServingPath(toFsPath(path), options);
    if (!runs) {
        out.error = true;
        // One line under the row: the file by its name, so that what is wrong shows before the line is cut; the
        // tooltip has the whole message.
        const QString full = toQString(runs.error().message);
        const QString name = QFileInfo(path).fileName();
        QString message = full;
        message.replace(QFileInfo(path).absoluteFilePath(), name);
        message.replace(path, name);
        if (!message.contains(name)) message = name + QStringLiteral(": ") + message;
        out.text = QObject::tr("Cannot read it: %1").arg(message);
        out.toolTip = full.contains(path) ? full : path + QStringLiteral(": ") + full;
        return out;
    }
    if (runs->empty()) {
        out.error = true;
        out.text = QObject::tr("No serving results in %1").arg(path);
        return out;
    }
    std::set<std::pair<int, double>> points;
    QStringList tools, models, sources, served, warnings, toolSlos;
    int allFailed = 0;
    for (const ServingRun& r : *runs) {
        points.insert({static_cast<int>(r.load.axis), r.load.value});
        const QString tool = toQString(std::string(servingToolName(r.tool)));
        if (!tools.contains(tool)) tools << tool;
        const QString model = toQString(servingModelDisplayName(r.model));
        if (!model.isEmpty() && !models.contains(model)) models << model;
        const QString source = toQString(r.source);
        if (!sources.contains(source)) sources << source;
        if (!r.servedEvidence.empty()) {
            const QString what = QStringLiteral("%1 (%2)").arg(
                toQString(r.quantization.empty() && r.kvCacheDtype.empty()
                              ? std::string("?")
                              : "quantization " + (r.quantization.empty() ? std::string("-") : r.quantization) +
                                    ", KV cache " + (r.kvCacheDtype.empty() ? std::string("-") : r.kvCacheDtype)),
                toQString(r.servedEvidence));
            if (!served.contains(what)) served << what;
        }
        if (!r.goodputSloMs.empty()) {
            QStringList limits;
            for (const auto& [metric, ms] : r.goodputSloMs)
                limits << QObject::tr("%1 ≤ %2 ms")
                              .arg(metric == ServingMetric::Ttft   ? QStringLiteral("TTFT")
                                   : metric == ServingMetric::Tpot ? QStringLiteral("TPOT")
                                                                   : QObject::tr("E2E latency"),
                                   servingPreviewNumber(ms));
            const QString slo = limits.join(QStringLiteral(", "));
            if (!toolSlos.contains(slo)) toolSlos << slo;
        }
        for (const std::string& w : r.warnings) warnings << toQString(w);
        if (r.allFailed()) ++allFailed;
    }
    const int n = static_cast<int>(points.size());
    const int count = static_cast<int>(runs->size());
    QStringList parts;
    parts << (count == n ? (n == 1 ? QObject::tr("1 load point") : QObject::tr("%1 load points").arg(n))
                         : QObject::tr("%1 runs at %2 load points").arg(count).arg(n));
    parts << tools.join(QStringLiteral(" + "));
    parts << servingLoadRange(*runs);
    if (!models.isEmpty()) parts << (models.size() == 1 ? models.front() : QObject::tr("%1 models").arg(models.size()));
    if (allFailed > 0) parts << QObject::tr("every request failed in %1 of them").arg(allFailed);
    out.text = parts.join(QStringLiteral(" · "));
    QStringList tip;
    tip << QObject::tr("Files: %1").arg(sources.join(QStringLiteral(", ")));
    if (!models.isEmpty()) tip << QObject::tr("Models: %1").arg(models.join(QStringLiteral(", ")));
    tip << QObject::tr("Served: %1")
               .arg(served.isEmpty() ? QObject::tr("not recorded; the run's label says which variant it is")
                                     : served.join(QStringLiteral("; ")));
    if (!toolSlos.isEmpty())
        tip << QObject::tr("The tool's own goodput was measured per request at %1; capacity is judged at your SLO.")
                   .arg(toolSlos.join(QStringLiteral("; ")));
    if (!warnings.isEmpty()) tip << warnings.mid(0, 5);
    out.toolTip = tip.join(QLatin1Char('\n'));
    return out;
}

// The row's third line: its serving results (optional), with the preview under it.
void NewComparisonDialog::addServingField(RunRow* row, QGridLayout* grid, int gridRow) {
    row->servingField = new QWidget(row->widget);
    row->servingField->setObjectName(QStringLiteral("servingField"));
    auto* h = new QHBoxLayout(row->servingField);
    h->setContentsMargins(0, 0, 0, 0);
    auto* caption = new QLabel(tr("Serving:"), row->servingField);
    row->servingPath = new QLineEdit(row->servingField);
    row->servingPath->setObjectName(QStringLiteral("servingPath"));
    row->servingPath->setAccessibleName(tr("Serving benchmark results"));
    row->servingPath->setPlaceholderText(
        tr("optional: vLLM bench serve, GuideLLM or AIPerf results, or drop them here"));
    row->servingPath->setClearButtonEnabled(true);
    row->servingPath->setToolTip(
        tr("The run's serving-benchmark results on your staging server: a results file, or a folder (a vllm bench "
           "sweep serve tree, several result files of one benchmark, an AIPerf artifacts folder). What FP8 buys is "
           "measured from them and weighed in the recommendation, never in the verdict."));
    caption->setBuddy(row->servingPath);
    auto* button = new QPushButton(tr("Serving results…"), row->servingField);
    button->setObjectName(QStringLiteral("servingResultsButton"));
    button->setToolTip(tr("Choose the run's serving results: a file, or a folder"));
    auto* menu = new QMenu(button);
    QLineEdit* target = row->servingPath;
    const auto choose = [this, target](bool folder) {
        QString start = target->text().trimmed();
        if (start.isEmpty()) start = m_startDirectory;
        const QString chosen =
            folder ? QFileDialog::getExistingDirectory(this, tr("Choose a Serving Results Folder"), start)
                   : QFileDialog::getOpenFileName(this, tr("Choose a Serving Results File"), start,
                                                  tr("Serving results (*.json *.yaml *.yml);;All files (*)"));
        if (chosen.isEmpty()) return;
        target->setText(QDir::toNativeSeparators(chosen));
        m_startDirectory = folder ? chosen : QFileInfo(chosen).absolutePath();
    };
    menu->addAction(tr("File…"), this, [choose] { choose(false); });
    menu->addAction(tr("Folder (a sweep, several files)…"), this, [choose] { choose(true); });
    button->setMenu(menu);
    h->addWidget(caption);
    h->addWidget(row->servingPath, 1);
    h->addWidget(button);
    grid->addWidget(row->servingField, gridRow, 1, 1, 3);
    row->servingPreview = style::caption(QString(), row->widget);
    row->servingPreview->setObjectName(QStringLiteral("servingPreview"));
    row->servingPreview->setTextFormat(Qt::PlainText);
    row->servingPreview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->servingPreview->setWordWrap(false);  // one line, cut at the row's end; the tooltip has the rest
    row->servingPreview->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    row->servingPreview->hide();
    grid->addWidget(row->servingPreview, gridRow + 1, 1, 1, 3);
    // Dropped onto the serving line: the serving results; onto the rest of the row: the run's lm-eval results.
    acceptDropsInto(row->servingField, row->servingPath);
    acceptDropsInto(row->servingPath, row->servingPath);
    acceptDropsInto(row->widget, row->path);
    acceptDropsInto(row->path, row->path);
    row->servingTimer = new QTimer(row->widget);
    row->servingTimer->setSingleShot(true);
    row->servingTimer->setInterval(350);
    connect(row->servingTimer, &QTimer::timeout, this, [this, row] { previewServing(row); });
    connect(row->servingPath, &QLineEdit::textChanged, this, [this, row](const QString& text) {
        ++row->servingGeneration;
        row->servingPath->setToolTip(text.isEmpty() ? QString() : escapedTip(text));
        const QString path = text.trimmed();
        if (const auto cached = m_servingCache.value(path)) {
            showServingPreview(row, *cached);
        } else {
            row->servingPreview->hide();
            if (!path.isEmpty()) row->servingTimer->start();
        }
        updateServingBox();
    });
}

void NewComparisonDialog::previewServing(RunRow* row) {
    const QString path = row->servingPath->text().trimmed();
    if (path.isEmpty()) return;
    const quint64 generation = row->servingGeneration;
    auto* watcher = new QFutureWatcher<ServingPreview>(row->widget);  // goes with the row
    connect(watcher, &QFutureWatcher<ServingPreview>::finished, this, [this, row, watcher, path, generation] {
        const ServingPreview preview = watcher->result();
        watcher->deleteLater();
        m_servingCache.insert(path, std::make_shared<ServingPreview>(preview));
        if (row->servingGeneration == generation) showServingPreview(row, preview);
    });
    watcher->setFuture(QtConcurrent::run([path] { return previewServingAt(path); }));
}

void NewComparisonDialog::showServingPreview(RunRow* row, const ServingPreview& preview) {
    row->servingPreview->setText(visibleText(preview.text));
    row->servingPreview->setToolTip(escapedTip(preview.toolTip));
    style::setTextTone(row->servingPreview, preview.error ? std::optional(style::TextTone::Error) : std::nullopt);
    row->servingPreview->show();
}

void NewComparisonDialog::setServingPath(int run, const QString& path) {
    if (run >= 0 && run < m_rows.size()) m_rows[run]->servingPath->setText(path);
}
QString NewComparisonDialog::servingPath(int run) const {
    return run >= 0 && run < m_rows.size() ? m_rows[run]->servingPath->text() : QString();
}
QLineEdit* NewComparisonDialog::servingPathEdit(int run) const {
    return run >= 0 && run < m_rows.size() ? m_rows[run]->servingPath : nullptr;
}
QString NewComparisonDialog::servingPreviewText(int run) const {
    if (run < 0 || run >= m_rows.size() || m_rows[run]->servingPreview->isHidden()) return {};
    return m_rows[run]->servingPreview->text();
}
bool NewComparisonDialog::isServingPreviewError(int run) const {
    if (run < 0 || run >= m_rows.size() || m_rows[run]->servingPath->text().trimmed().isEmpty()) return false;
    const auto cached = m_servingCache.value(m_rows[run]->servingPath->text().trimmed());
    return cached && cached->error;
}

// The group is shown once a run has serving results: without them it would ask for an SLO nothing is measured at.
void NewComparisonDialog::updateServingBox() {
    if (!m_servingBox) return;
    const bool any = std::any_of(m_rows.begin(), m_rows.end(),
                                 [](const RunRow* r) { return !r->servingPath->text().trimmed().isEmpty(); });
    m_servingBox->setVisible(any);
}

ServingSlo NewComparisonDialog::chosenSlo() const {
    ServingSlo slo;
    const double percentile = m_sloPercentile->currentData().toDouble();
    const std::pair<ServingMetric, const QDoubleSpinBox*> targets[] = {
        {ServingMetric::Ttft, m_sloTtft}, {ServingMetric::Tpot, m_sloTpot}, {ServingMetric::E2el, m_sloE2el}};
    for (const auto& [metric, spin] : targets)
        if (spin->value() > 0) slo.targets.push_back({metric, percentile, spin->value()});
    return slo;
}

QString NewComparisonDialog::sloWords() const {
    return m_sloWords->text();
}

QGroupBox* NewComparisonDialog::buildServingBox() {
    m_servingBox = new QGroupBox(tr("What FP8 buys: serving benchmarks"), this);
    m_servingBox->setObjectName(QStringLiteral("servingBox"));
    auto* form = new QFormLayout(m_servingBox);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // The SLO as a team states it: one percentile, a limit per latency. Three spin boxes (0: no such target) rather
    // than a line of "ttft_p99=2000ms,…": nothing to learn or mistype, and the words under them say what is meant.
    auto* sloRow = new QWidget(m_servingBox);
    auto* sloLayout = new QHBoxLayout(sloRow);
    sloLayout->setContentsMargins(0, 0, 0, 0);
    m_sloPercentile = new QComboBox(sloRow);
    m_sloPercentile->setObjectName(QStringLiteral("sloPercentile"));
    m_sloPercentile->setAccessibleName(tr("The SLO's percentile"));
    for (const int p : {50, 90, 95, 99}) m_sloPercentile->addItem(QStringLiteral("p%1").arg(p), double(p));
    m_sloPercentile->setCurrentIndex(3);
    const auto msSpin = [sloRow](const QString& name, const QString& accessible) {
        auto* spin = new QDoubleSpinBox(sloRow);
        spin->setObjectName(name);
        spin->setAccessibleName(accessible);
        spin->setRange(0, 600000);
        spin->setDecimals(0);
        spin->setSingleStep(10);
        spin->setSuffix(QStringLiteral(" ms"));
        spin->setSpecialValueText(QObject::tr("none"));
        spin->setAlignment(Qt::AlignRight);
        return spin;
    };
    m_sloTtft = msSpin(QStringLiteral("sloTtft"), tr("Time to first token at most, ms"));
    m_sloTpot = msSpin(QStringLiteral("sloTpot"), tr("Time per output token at most, ms"));
    m_sloE2el = msSpin(QStringLiteral("sloE2el"), tr("End-to-end latency at most, ms"));
    sloLayout->addWidget(m_sloPercentile);
    sloLayout->addWidget(new QLabel(tr("TTFT ≤"), sloRow));
    sloLayout->addWidget(m_sloTtft);
    sloLayout->addSpacing(8);
    sloLayout->addWidget(new QLabel(tr("TPOT ≤"), sloRow));
    sloLayout->addWidget(m_sloTpot);
    sloLayout->addSpacing(8);
    sloLayout->addWidget(new QLabel(tr("E2E ≤"), sloRow));
    sloLayout->addWidget(m_sloE2el);
    sloLayout->addStretch(1);
    auto* sloLabel = new QLabel(tr("&Latency SLO:"), m_servingBox);
    sloLabel->setBuddy(m_sloPercentile);
    form->addRow(sloLabel, sloRow);
    m_sloWords = style::caption(QString(), m_servingBox);
    m_sloWords->setObjectName(QStringLiteral("sloWords"));
    // At the top of its row: the form sizes a wrapped caption's row for a narrower width than it gets, and a centred
    // line then floats away from the controls it speaks of.
    m_sloWords->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    form->addRow(QString(), m_sloWords);
    const auto sayTheSlo = [this] {
        const ServingSlo slo = chosenSlo();
        m_sloWords->setText(slo.empty() ? tr("No SLO: the gain is quoted at the highest load every variant measured.")
                                        : tr("Capacity is the highest load within %1.").arg(toQString(slo.words())));
    };
    connect(m_sloPercentile, &QComboBox::currentIndexChanged, this, sayTheSlo);
    for (QDoubleSpinBox* spin : {m_sloTtft, m_sloTpot, m_sloE2el})
        connect(spin, &QDoubleSpinBox::valueChanged, this, sayTheSlo);
    sayTheSlo();

    auto* costRow = new QWidget(m_servingBox);
    auto* costLayout = new QHBoxLayout(costRow);
    costLayout->setContentsMargins(0, 0, 0, 0);
    m_targetLoad = new QDoubleSpinBox(costRow);
    m_targetLoad->setObjectName(QStringLiteral("targetLoad"));
    m_targetLoad->setAccessibleName(tr("Load to serve"));
    m_targetLoad->setRange(0, 1e7);
    m_targetLoad->setDecimals(1);
    m_targetLoad->setSpecialValueText(tr("none"));
    m_targetLoad->setToolTip(
        tr("Concurrent requests to serve (requests/s where the benchmarks set a request rate): "
           "the replicas each variant needs at its capacity"));
    m_gpuHourCost = new QDoubleSpinBox(costRow);
    m_gpuHourCost->setObjectName(QStringLiteral("gpuHourCost"));
    m_gpuHourCost->setAccessibleName(tr("Price of a GPU-hour"));
    m_gpuHourCost->setRange(0, 1e5);
    m_gpuHourCost->setDecimals(2);
    m_gpuHourCost->setSpecialValueText(tr("none"));
    m_gpuHourCost->setToolTip(tr("Any currency: the cost of a million output tokens at each variant's capacity"));
    m_gpusPerReplica = new QSpinBox(costRow);
    m_gpusPerReplica->setObjectName(QStringLiteral("gpusPerReplica"));
    m_gpusPerReplica->setAccessibleName(tr("GPUs per replica"));
    m_gpusPerReplica->setRange(0, 1024);
    m_gpusPerReplica->setSpecialValueText(tr("from the runs"));
    m_gpusPerReplica->setToolTip(tr("GPUs per replica where the runs do not say (else 1)"));
    costLayout->addWidget(m_targetLoad);
    costLayout->addSpacing(12);
    costLayout->addWidget(new QLabel(tr("GPU-hour price:"), costRow));
    costLayout->addWidget(m_gpuHourCost);
    costLayout->addSpacing(12);
    costLayout->addWidget(new QLabel(tr("GPUs per replica:"), costRow));
    costLayout->addWidget(m_gpusPerReplica);
    costLayout->addStretch(1);
    auto* loadLabel = new QLabel(tr("Load to ser&ve:"), m_servingBox);
    loadLabel->setBuddy(m_targetLoad);
    form->addRow(loadLabel, costRow);
    buildNoiseRow(form);
    QLabel* verdictWords = style::caption(tr("The verdict stays the quality verdict: the measured gain only orders "
                                             "the variants that pass, in the recommendation."),
                                          m_servingBox);
    verdictWords->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    form->addRow(QString(), verdictWords);
    m_inputs << m_sloPercentile << m_sloTtft << m_sloTpot << m_sloE2el << m_targetLoad << m_gpuHourCost
             << m_gpusPerReplica << m_noisePct;
    m_servingBox->hide();
    return m_servingBox;
}

// The noise threshold (ServingOptions::noisePct): one spin box, said in words beside it.
void NewComparisonDialog::buildNoiseRow(QFormLayout* form) {
    auto* row = new QWidget(m_servingBox);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    m_noisePct = new QDoubleSpinBox(row);
    m_noisePct->setObjectName(QStringLiteral("noisePct"));
    m_noisePct->setAccessibleName(tr("Noise threshold, percent"));
    m_noisePct->setRange(0.1, 50);
    m_noisePct->setDecimals(1);
    m_noisePct->setSingleStep(0.5);
    m_noisePct->setSuffix(QStringLiteral(" %"));
    m_noisePct->setAlignment(Qt::AlignRight);
    m_noisePct->setValue(ServingOptions{}.noisePct);
    const QString tip =
        tr("With one run per variant, a measured gain smaller than this cannot be told from run-to-run spread "
           "(identical vLLM benchmark runs differ by 1–3 %): the variant buys nothing measurable, and a more "
           "aggressive variant is not recommended for it. Where the runs have replicates, the 95 % interval of the "
           "gain decides instead.");
    m_noisePct->setToolTip(tip);
    m_noiseWords = style::caption(QString(), row);
    m_noiseWords->setObjectName(QStringLiteral("noiseWords"));
    m_noiseWords->setToolTip(tip);
    layout->addWidget(m_noisePct);
    layout->addSpacing(8);
    layout->addWidget(m_noiseWords, 1);
    auto* label = new QLabel(tr("Noise t&hreshold:"), m_servingBox);
    label->setBuddy(m_noisePct);
    form->addRow(label, row);
    const auto sayTheNoise = [this] {
        m_noiseWords->setText(tr("Gains smaller than ±%1 % count as noise (one run per variant)")
                                  .arg(QLocale().toString(m_noisePct->value(), 'f', 1)));
    };
    connect(m_noisePct, &QDoubleSpinBox::valueChanged, this, sayTheNoise);
    sayTheNoise();
}

QString NewComparisonDialog::noiseWords() const {
    return m_noiseWords->text();
}

// The runs' serving results and the group's options; a run with serving results but no lm-eval run is refused.
Status NewComparisonDialog::addServingToRequest(NewComparisonRequest& r) const {
    for (int i = 0; i < m_rows.size(); ++i) {
        const QString serving = m_rows[i]->servingPath->text().trimmed();
        if (!serving.isEmpty() && m_rows[i]->path->text().trimmed().isEmpty()) {
            const QString which = i == 0 ? tr("The baseline") : tr("Candidate %1").arg(i);
            return Error{tr("%1 has serving results but no lm-eval run: choose its results, or clear the serving "
                            "results.")
                             .arg(which)
                             .toStdString()};
        }
        r.servingPaths << serving;
    }
    if (!r.hasServing()) {
        r.servingPaths.clear();
        return success();
    }
    r.serving.slo = chosenSlo();
    if (m_targetLoad->value() > 0) r.serving.targetLoad = m_targetLoad->value();
    if (m_gpuHourCost->value() > 0) r.serving.gpuHourCost = m_gpuHourCost->value();
    if (m_gpusPerReplica->value() > 0) r.serving.gpusPerReplica = m_gpusPerReplica->value();
    r.serving.noisePct = m_noisePct->value();
    return success();
}

}  // namespace fp8dash::ui
