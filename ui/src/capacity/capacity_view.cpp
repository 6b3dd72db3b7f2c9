#include "fp8dash/ui/capacity_view.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

#include "bench/bench_charts.h"
#include "fp8dash/core/model_architecture.h"
#include "fp8dash/core/vllm_startup_log.h"
#include "fp8dash/ui/background_job.h"
#include "fp8dash/ui/capacity_measured.h"
#include "fp8dash/ui/capacity_table_model.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/model_notice.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

using bench::fixed;
using bench::groupedInteger;

namespace {

const QString kLocalGpu = QStringLiteral("local");

// vLLM's own accounting of the memory beside the weights and the KV cache, for the tooltips.
QString vllmAccountingTip() {
    return QCoreApplication::translate("CapacityView",
                                       "vLLM's accounting: the activation peak of its profiling run, non-torch memory "
                                       "by tensor parallelism, whole KV blocks");
}

QString dtypeTitle(StorageDtype d) {
    return d == StorageDtype::Fp8 ? QStringLiteral("FP8") : QStringLiteral("BF16");
}

QString tokensPerSecond(double v) {
    return groupedInteger(static_cast<std::uint64_t>(std::llround(v))) + QStringLiteral(" tok/s");
}

}  // namespace

CapacityView::CapacityView(QWidget* parent)
    : QWidget(parent), m_deviceJob(new BackgroundJob(this)), m_logJob(new BackgroundJob(this)) {
    setObjectName(QStringLiteral("capacityView"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 8, 0, 0);
    layout->setSpacing(16);

    layout->addWidget(buildInputs());
    layout->addWidget(buildResults(), 1);

    fillGpuCombo();
    setSettings(nullptr);

    for (QComboBox* combo : {m_model, m_gpu, m_weights, m_kv, m_accounting}) {
        connect(combo, &QComboBox::currentIndexChanged, this, &CapacityView::inputsChanged);
    }
    connect(m_gpus, &QSpinBox::valueChanged, this, &CapacityView::inputsChanged);
    connect(m_context, &QSpinBox::valueChanged, this, &CapacityView::inputsChanged);
    connect(m_utilization, &QDoubleSpinBox::valueChanged, this, &CapacityView::inputsChanged);
    connect(m_overhead, &QDoubleSpinBox::valueChanged, this, &CapacityView::inputsChanged);
}

// The inputs: model, GPU, group size, dtypes, utilisation, context, overhead, accounting and "Open vLLM Log…".
QWidget* CapacityView::buildInputs() {
    auto* inputs = new QWidget(this);
    inputs->setObjectName(QStringLiteral("capacityInputs"));
    auto* inputsLayout = new QVBoxLayout(inputs);
    inputsLayout->setContentsMargins(0, 0, 0, 0);
    inputsLayout->addWidget(style::sectionTitle(tr("Deployment"), inputs));
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    m_model = new QComboBox(inputs);
    m_model->setObjectName(QStringLiteral("capacityModel"));
    m_model->setAccessibleName(tr("Model"));
    for (const ModelArchitecture& m : modelPresets()) m_model->addItem(toQString(m.name), toQString(m.name));
    m_configButton = new QPushButton(tr("config.json…"), inputs);
    m_configButton->setObjectName(QStringLiteral("capacityConfigButton"));
    m_configButton->setAccessibleName(tr("Read the model from a Hugging Face config.json"));
    m_configButton->setToolTip(tr("Read a model's architecture from its Hugging Face config.json"));
    connect(m_configButton, &QPushButton::clicked, this, &CapacityView::chooseConfigFile);
    auto* modelRow = new QHBoxLayout;
    modelRow->addWidget(m_model, 1);
    modelRow->addWidget(m_configButton);
    auto* modelLabel = new QLabel(tr("&Model:"), inputs);
    modelLabel->setBuddy(m_model);  // the field is a layout: QFormLayout cannot set the buddy itself
    form->addRow(modelLabel, modelRow);
    m_modelInfo = style::caption(QString(), inputs);
    m_modelInfo->setObjectName(QStringLiteral("capacityModelInfo"));
    form->addRow(QString(), m_modelInfo);

    m_gpu = new QComboBox(inputs);
    m_gpu->setObjectName(QStringLiteral("capacityGpu"));
    m_gpu->setAccessibleName(tr("GPU"));
    form->addRow(tr("&GPU:"), m_gpu);
    m_gpuInfo = style::caption(QString(), inputs);
    m_gpuInfo->setObjectName(QStringLiteral("capacityGpuInfo"));
    form->addRow(QString(), m_gpuInfo);

    m_gpus = new QSpinBox(inputs);
    m_gpus->setObjectName(QStringLiteral("capacityGpus"));
    m_gpus->setAccessibleName(tr("GPUs in the tensor-parallel group"));
    m_gpus->setRange(1, 64);
    m_gpus->setToolTip(tr("GPUs of one tensor-parallel group (one vLLM replica, --tensor-parallel-size)"));
    form->addRow(tr("G&PUs (tensor parallel):"), m_gpus);

    auto dtypeCombo = [inputs](const QString& objectName, const QString& accessible) {
        auto* combo = new QComboBox(inputs);
        combo->setObjectName(objectName);
        combo->setAccessibleName(accessible);
        combo->addItem(QStringLiteral("BF16"), QStringLiteral("bf16"));
        combo->addItem(QStringLiteral("FP8 E4M3"), QStringLiteral("fp8"));
        return combo;
    };
    m_weights = dtypeCombo(QStringLiteral("capacityWeights"), tr("Weights dtype"));
    m_weights->setToolTip(tr("FP8: vLLM --quantization fp8 or an FP8 checkpoint (linear layers in 1 byte)"));
    form->addRow(tr("&Weights:"), m_weights);
    m_kv = dtypeCombo(QStringLiteral("capacityKv"), tr("KV cache dtype"));
    m_kv->setToolTip(tr("FP8: vLLM --kv-cache-dtype fp8 (halves the bytes per token)"));
    form->addRow(tr("&KV cache:"), m_kv);

    m_utilization = new QDoubleSpinBox(inputs);
    m_utilization->setObjectName(QStringLiteral("capacityUtilization"));
    m_utilization->setAccessibleName(tr("GPU memory utilisation"));
    m_utilization->setRange(0.01, 1.0);
    m_utilization->setDecimals(3);
    m_utilization->setSingleStep(0.01);
    m_utilization->setToolTip(tr("vLLM --gpu-memory-utilization: the fraction of each GPU's memory vLLM may use"));
    form->addRow(tr("Memory &utilisation:"), m_utilization);

    m_context = new QSpinBox(inputs);
    m_context->setObjectName(QStringLiteral("capacityContext"));
    m_context->setAccessibleName(tr("Context tokens per sequence"));
    m_context->setRange(1, static_cast<int>(kMaxContextTokens));
    m_context->setSingleStep(1024);
    m_context->setGroupSeparatorShown(true);
    m_context->setSuffix(tr(" tokens"));
    m_context->setToolTip(tr("One sequence's length (vLLM --max-model-len)"));
    form->addRow(tr("&Context:"), m_context);

    m_overhead = new QDoubleSpinBox(inputs);
    m_overhead->setObjectName(QStringLiteral("capacityOverhead"));
    m_overhead->setAccessibleName(tr("Runtime overhead per GPU in GiB"));
    m_overhead->setRange(0, 1024);
    m_overhead->setDecimals(2);
    m_overhead->setSingleStep(0.5);
    m_overhead->setSuffix(tr(" GiB"));
    m_overhead->setToolTip(tr("Per GPU, beside weights and KV cache: CUDA context, activation peak, CUDA graphs"));
    form->addRow(tr("&Overhead per GPU:"), m_overhead);

    m_accounting = new QComboBox(inputs);
    m_accounting->setObjectName(QStringLiteral("capacityAccounting"));
    m_accounting->setAccessibleName(tr("How the memory beside weights and KV cache is counted"));
    // Plain words on screen; how each is computed in its tooltip.
    m_accounting->addItem(tr("As vLLM %1 sizes it").arg(QString::fromLatin1(kDefaultVllmVersion)),
                          QString::fromLatin1(kDefaultVllmVersion));
    m_accounting->setItemData(0, vllmAccountingTip(), Qt::ToolTipRole);
    m_accounting->addItem(tr("One overhead figure per GPU (above)"), QString());
    m_accounting->setItemData(1,
                              tr("A flat overhead per GPU: the Overhead per GPU figure above stands for everything "
                                 "beside the weights and the KV cache (CUDA context, activation peak, CUDA graphs)"),
                              Qt::ToolTipRole);
    m_accounting->setToolTip(
        tr("How the memory beside the weights and the KV cache is counted: %1; or one flat overhead per GPU, the "
           "figure above")
            .arg(vllmAccountingTip()));
    form->addRow(tr("Other memor&y:"), m_accounting);
    inputsLayout->addLayout(form);

    m_logButton = new QPushButton(tr("Open vLLM Log…"), inputs);
    m_logButton->setObjectName(QStringLiteral("capacityVllmLogButton"));
    m_logButton->setAccessibleName(tr("Read a vLLM start-up log"));
    m_logButton->setToolTip(
        tr("Read what your vLLM server measured at start-up, and see the same server with an FP8 "
           "KV cache, FP8 weights, or the utilisation and context chosen here"));
    connect(m_logButton, &QPushButton::clicked, this, &CapacityView::chooseVllmLog);
    inputsLayout->addWidget(m_logButton);
    inputsLayout->addStretch(1);
    inputs->setMinimumWidth(340);
    inputs->setMaximumWidth(440);
    return inputs;
}

// The note about the model the figures are for, and its "Plan for …" (the compared model, when known).
QWidget* CapacityView::buildModelNote(QWidget* parent) {
    auto* note = new ModelNotice(QStringLiteral("capacityModelNote"), parent);
    m_modelNote = note;
    m_useCompared = note->button();
    connect(m_useCompared, &QPushButton::clicked, this, [this] {
        if (!m_compared.known()) return;
        const int index = modelIndexFor(m_compared.settingsModel);
        if (index != m_model->currentIndex()) m_model->setCurrentIndex(index);  // an edit: kept in the document
    });
    return note;
}

// The plan: the summary, the error, the table, the decode estimate and what a vLLM log said.
QWidget* CapacityView::buildResults() {
    auto* results = new QWidget(this);
    auto* resultsLayout = new QVBoxLayout(results);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    resultsLayout->setSpacing(8);
    resultsLayout->addWidget(style::sectionTitle(tr("KV-cache capacity: what FP8 buys"), results));
    resultsLayout->addWidget(buildModelNote(results));
    m_summary = new QLabel(results);
    m_summary->setTextFormat(Qt::RichText);  // markup of ours, names escaped
    m_summary->setObjectName(QStringLiteral("capacitySummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    resultsLayout->addWidget(m_summary);
    m_error = plainLabel(QString(), results);  // messages quote paths and values
    m_error->setObjectName(QStringLiteral("capacityError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    const auto paintError = [this] {  // in the palette's "look here" colour, again on a theme change
        QPalette p = m_error->palette();
        p.setColor(QPalette::WindowText, style::verdictTextColor(Verdict::Investigate));
        m_error->setPalette(p);
    };
    paintError();
    style::onThemeChange(this, paintError);
    m_error->hide();
    resultsLayout->addWidget(m_error);

    m_tableModel = new CapacityTableModel(this);
    m_table = new QTableView(results);
    m_table->setObjectName(QStringLiteral("capacityTable"));
    m_table->setAccessibleName(tr("Capacity plan: all BF16 beside the chosen dtypes"));
    m_table->setModel(m_tableModel);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setWordWrap(true);
    m_table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);  // as tall as its rows, no blank below
    resultsLayout->addWidget(m_table);
    m_decode = style::caption(QString(), results);
    m_decode->setObjectName(QStringLiteral("capacityDecode"));
    m_decode->setTextInteractionFlags(Qt::TextSelectableByMouse);
    resultsLayout->addWidget(m_decode);
    m_measuredTitle = style::sectionTitle(tr("Measured on your server"), results);
    m_measuredTitle->setObjectName(QStringLiteral("capacityMeasuredTitle"));
    resultsLayout->addWidget(m_measuredTitle);
    m_measuredText = plainLabel(QString(), results);  // run labels from the files
    m_measuredText->setObjectName(QStringLiteral("capacityMeasured"));
    m_measuredText->setWordWrap(true);
    m_measuredText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    resultsLayout->addWidget(m_measuredText);
    m_measuredTitle->hide();
    m_measuredText->hide();
    m_logResult = plainLabel(QString(), results);  // lines of the vLLM log
    m_logResult->setObjectName(QStringLiteral("capacityVllmLog"));
    m_logResult->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_logResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_logResult->hide();
    resultsLayout->addWidget(m_logResult);
    resultsLayout->addStretch(1);
    return results;
}

CapacityView::~CapacityView() = default;

void CapacityView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    queryDeviceOnce();
}

void CapacityView::queryDeviceOnce() {
    if (m_deviceQueryStarted || m_local) return;
    m_deviceQueryStarted = true;
    m_deviceJob->watch(bench::localDeviceQuery(), [this](const LocalDeviceStatus& status) {
        if (!m_local) setLocalDevice(status);
    });
}

void CapacityView::setLocalDevice(const LocalDeviceStatus& status) {
    m_local = status;
    m_deviceQueryStarted = true;
    const bool wasApplying = m_applying;
    m_applying = true;  // the same settings, with "This machine" now known: not an edit
    fillGpuCombo();
    m_applying = wasApplying;
    recompute();
}

void CapacityView::fillGpuCombo() {
    const QString current = m_gpu->count() > 0 ? m_gpu->currentData().toString() : QString();
    const QSignalBlocker block(m_gpu);
    m_gpu->clear();
    if (m_local && m_local->available && !m_local->gpus.empty()) {
        m_gpu->addItem(tr("This machine: %1").arg(visibleText(toQString(m_local->gpus.front().name))), kLocalGpu);
    }
    for (const std::string& name : gpuPresetNames()) {
        const auto preset = findGpuPreset(name);
        const QString display = preset ? toQString(preset->displayName) : toQString(name);
        m_gpu->addItem(QStringLiteral("%1 (%2)").arg(display, toQString(name)), toQString(name));
    }
    int index = m_gpu->findData(current);
    if (index < 0 && current == kLocalGpu) {
        // Saved with this machine's GPU, opened where there is none: keep the choice and say why it cannot plan.
        m_gpu->insertItem(0, tr("This machine (no usable GPU)"), kLocalGpu);
        index = 0;
    }
    m_gpu->setCurrentIndex(std::max(index, 0));
}

int CapacityView::modelIndexFor(const std::string& model) {
    const QString key = toQString(model);
    int index = m_model->findData(key);
    if (index >= 0) return index;
    if (model.empty()) {  // the compared model is not one fp8dash knows: Model says so first
        const QSignalBlocker block(m_model);
        m_model->insertItem(0, tr("Unknown: choose the model"), QString());
        m_model->setItemData(0, tr("fp8dash does not know the compared runs' model: choose its architecture here"),
                             Qt::ToolTipRole);
        return 0;
    }
    if (const ModelArchitecture* preset = findModelPreset(model)) return m_model->findData(toQString(preset->name));
    const QSignalBlocker block(m_model);
    m_model->addItem(tr("config: %1").arg(QFileInfo(key).fileName().isEmpty() ? key : QFileInfo(key).fileName()), key);
    index = m_model->count() - 1;
    m_model->setItemData(index, escapedTip(key), Qt::ToolTipRole);
    return index;
}

void CapacityView::setComparedModel(const ComparedModel& model) {
    m_compared = model;
    const int unknown = m_model->findData(QString());
    if (unknown >= 0 && m_model->currentIndex() != unknown) {
        const QSignalBlocker block(m_model);
        m_model->removeItem(unknown);
    }
}

void CapacityView::setSettings(const CapacitySettings* settings) {
    CapacitySettings fresh;
    fresh.vllmVersion = kDefaultVllmVersion;  // a new plan follows vLLM; a saved one keeps its accounting
    // A new plan is for the compared model; for none (an empty model) when fp8dash does not know it, never for
    // another model's figures shown as this one's.
    if (m_compared.named()) fresh.model = m_compared.settingsModel;
    const CapacitySettings s = settings ? *settings : fresh;
    m_applying = true;
    {
        const QSignalBlocker b1(m_model), b2(m_gpu), b3(m_gpus), b4(m_weights), b5(m_kv), b6(m_utilization),
            b7(m_context), b8(m_overhead), b9(m_accounting);
        int accounting = m_accounting->findData(toQString(s.vllmVersion));
        if (accounting < 0) {  // a release saved by another version of fp8dash
            m_accounting->addItem(tr("As vLLM %1 sizes it").arg(toQString(s.vllmVersion)), toQString(s.vllmVersion));
            accounting = m_accounting->count() - 1;
            m_accounting->setItemData(accounting, vllmAccountingTip(), Qt::ToolTipRole);
        }
        m_accounting->setCurrentIndex(accounting);
        m_model->setCurrentIndex(modelIndexFor(s.model));
        if (const int unknown = m_model->findData(QString()); unknown >= 0 && unknown != m_model->currentIndex())
            m_model->removeItem(unknown);  // kept for an earlier comparison
        m_gpu->clear();                    // drops a "This machine (no usable GPU)" kept for the previous settings
        fillGpuCombo();
        int gpu = m_gpu->findData(toQString(s.gpu));
        if (gpu < 0 && s.gpu == kLocalGpu.toStdString()) {
            m_gpu->insertItem(0, tr("This machine (no usable GPU)"), kLocalGpu);
            gpu = 0;
        }
        if (gpu < 0) {
            if (const auto preset = findGpuPreset(s.gpu)) gpu = m_gpu->findData(toQString(preset->name));
        }
        m_gpu->setCurrentIndex(std::max(gpu, 0));
        m_gpus->setValue(s.gpus);
        m_weights->setCurrentIndex(std::max(m_weights->findData(toQString(s.weights)), 0));
        m_kv->setCurrentIndex(std::max(m_kv->findData(toQString(s.kv)), 0));
        m_utilization->setValue(s.gpuUtilization);
        m_context->setValue(static_cast<int>(std::clamp<long long>(s.contextTokens, 1, kMaxContextTokens)));
        m_overhead->setValue(s.overheadGiB);
    }
    m_applying = false;
    recompute();
}

CapacitySettings CapacityView::settings() const {
    CapacitySettings s;
    s.model = m_model->currentData().toString().toStdString();
    s.gpu = m_gpu->currentData().toString().toStdString();
    s.gpus = m_gpus->value();
    s.weights = m_weights->currentData().toString().toStdString();
    s.kv = m_kv->currentData().toString().toStdString();
    s.gpuUtilization = m_utilization->value();
    s.contextTokens = m_context->value();
    s.overheadGiB = m_overhead->value();
    s.vllmVersion = m_accounting->currentData().toString().toStdString();
    return s;
}

Result<CapacityInputs> CapacityView::inputsFor(const CapacitySettings& s, const LocalDeviceStatus* local) {
    return capacityInputsFromSettings(s, local);
}

QString CapacityView::errorText() const {
    return m_errorText;
}

void CapacityView::showError(const QString& message) {
    m_errorText = message;
    m_error->setText(QStringLiteral("⚠ ") + message);
    m_error->setVisible(!message.isEmpty());
}

QString CapacityView::decodeText() const {
    return m_decode->text();
}

bool CapacityView::loadConfigFile(const QString& path) {
    auto model = readHfConfig(toFsPath(path));
    if (!model) {
        showError(toQString(model.error().message));
        return false;
    }
    const int index = modelIndexFor(QFileInfo(path).absoluteFilePath().toStdString());
    if (index == m_model->currentIndex()) {
        inputsChanged();  // the same file again (perhaps edited since): no index change announces it
    } else {
        m_model->setCurrentIndex(index);
    }
    return true;
}

void CapacityView::chooseConfigFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Read a model's config.json"), QString(),
                                                      tr("Hugging Face config (config.json *.json);;All files (*)"));
    if (!path.isEmpty()) loadConfigFile(path);
}

void CapacityView::chooseVllmLog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Read a vLLM start-up log"), QString(),
                                                      tr("Logs (*.log *.txt);;All files (*)"));
    if (!path.isEmpty()) openVllmLog(path);
}

void CapacityView::openVllmLog(const QString& path) {
    // The answers use the model chosen here (for FP8 weights) and the utilisation and context chosen here.
    VllmWhatIfRequest req;
    const CapacitySettings s = settings();
    if (auto model = resolveModel(s.model)) req.model = std::move(model).value();
    req.utilization = s.gpuUtilization;
    req.context = s.contextTokens;
    m_logButton->setEnabled(false);
    const std::string file = toFsPath(path).string();
    auto read = [file, req](JobControl&) -> Result<VllmCalibration> {
        auto log = readVllmStartupLog(file);
        if (!log) return log.error();
        return calibrateFromVllmLog(*log, req);
    };
    m_logJob->start(std::move(read), [this](Result<VllmCalibration> c) {
        m_logButton->setEnabled(true);
        if (!c) {
            m_logText.clear();
            m_logResult->hide();
            showError(toQString(c.error().message));
        } else {
            m_logText = toQString(vllmCalibrationToText(*c));
            m_logResult->setText(m_logText.trimmed());
            m_logResult->show();
            showError(QString());
        }
        emit vllmLogRead();
    });
}

void CapacityView::inputsChanged() {
    if (m_applying) return;
    recompute();
    const CapacitySettings s = settings();
    if (!s.model.empty()) emit settingsEdited(s);  // nothing to keep until a model is chosen
}

QString CapacityView::modelNoteText() const {
    return m_modelNote->text();
}

QString CapacityView::chosenModelName(const std::string& model) const {
    if (const ModelArchitecture* p = findModelPreset(model)) return toQString(p->name);
    const QString path = toQString(model);
    return visibleText(QFileInfo(path).fileName().isEmpty() ? path
                                                            : tr("the model in %1").arg(path));  // a path of the file
}

// Which model the figures are for, when it is not plainly the compared runs' model.
void CapacityView::updateModelNote(const CapacitySettings& s) {
    using Kind = ModelNotice::Kind;
    const QString compared = style::escaped(visibleText(toQString(m_compared.checkpoint)));  // from the runs
    const QString chosen = style::escaped(chosenModelName(s.model));
    const QString table = m_compared.known() && findModelPreset(m_compared.settingsModel)
                              ? tr(", %1 in fp8dash's table").arg(style::escaped(m_compared.settingsModel))
                              : QString();
    switch (modelMatch(s.model, m_compared)) {
        case ModelMatch::NoComparedModel:
        case ModelMatch::Same:
            m_modelNote->setNote(QString(), Kind::Information);
            return;
        case ModelMatch::SameShapes:
            m_modelNote->setNote(tr("<b>%1</b> has the same architecture as the compared runs' model, <b>%2</b>%3: "
                                    "these figures are its figures.")
                                     .arg(chosen, compared, table),
                                 Kind::Information);
            return;
        case ModelMatch::Unchecked:
            m_modelNote->setNote(tr("These figures are for %1; fp8dash cannot tell whether that is the compared runs' "
                                    "model, <b>%2</b>.")
                                     .arg(chosen, compared),
                                 Kind::Warning);
            return;
        case ModelMatch::Different:
            break;
    }
    if (s.model.empty()) {
        m_modelNote->setNote(tr("The compared runs' model, <b>%1</b>, is not in fp8dash's table of architectures, so "
                                "no plan is shown for it. Choose its architecture in Model, or read its config.json "
                                "with “config.json…”.")
                                 .arg(compared),
                             Kind::Warning);
        return;
    }
    const QString what = m_compared.known()
                             ? tr("the compared runs' model is <b>%1</b>%2").arg(compared, table)
                             : tr("the compared runs' model, <b>%1</b>, is not in fp8dash's table: choose its "
                                  "architecture in Model or read its config.json")
                                   .arg(compared);
    m_modelNote->setNote(
        tr("These figures are for <b>%1</b>, not the compared model: %2.").arg(chosen, what), Kind::Warning,
        m_compared.known()
            ? tr("Plan for %1")
                  .arg(visibleText(toQString(findModelPreset(m_compared.settingsModel) ? m_compared.settingsModel
                                                                                       : m_compared.checkpoint)))
            : QString());
}

void CapacityView::recompute() {
    m_selected.reset();
    m_bf16.reset();
    const CapacitySettings s = settings();
    m_overhead->setEnabled(s.vllmVersion.empty());  // vLLM's accounting models the overhead itself
    updateModelNote(s);
    if (s.model.empty()) {  // the compared model is unknown and none is chosen: the note asks for it
        m_modelInfo->clear();
        m_gpuInfo->clear();
        showError(QString());
        fillTable();
        return;
    }
    QString error;
    auto inputs = inputsFor(s, localDevice());
    if (!inputs) {
        error = toQString(inputs.error().message);
    } else {
        auto plans = planCapacityComparison(s, localDevice());
        if (!plans) {
            error = toQString(plans.error().message);
        } else {
            m_selected = std::move(plans->selected);
            m_bf16 = std::move(plans->bf16);
        }
        const ModelArchitecture& m = inputs->model;
        QString info = tr("%1 layers, %2 KV heads × %3, %4 B parameters")
                           .arg(m.layers)
                           .arg(m.kvHeads)
                           .arg(m.headDim)
                           .arg(fixed(static_cast<double>(m.parameterCount()) / 1e9, 2));
        if (modelMatch(s.model, m_compared) == ModelMatch::Same)
            info += tr(" · the compared runs' model (%1)").arg(visibleText(toQString(m_compared.checkpoint)));
        m_modelInfo->setText(info);
        const GpuSpec& g = inputs->gpu;
        QString gpuText = tr("%1, %2 per GPU").arg(toQString(g.displayName), toQString(formatBytes(g.memoryBytes)));
        if (g.source == "local") gpuText += tr(" free now");
        if (g.bandwidthBytesPerS) gpuText += tr(", %1").arg(bench::bytesPerSecondText(*g.bandwidthBytesPerS));
        m_gpuInfo->setText(gpuText);
    }
    if (!inputs) {
        m_modelInfo->clear();
        m_gpuInfo->clear();
    }
    showError(error);
    fillTable();
}

void CapacityView::setMeasured(const ServingComparison* serving) {
    if (serving)
        m_measured = *serving;
    else
        m_measured.reset();
    fillMeasured();
}

QString CapacityView::measuredText() const {
    return m_measuredText->isHidden() ? QString() : m_measuredText->text();
}

// The measured capacity beside the model's KV-token ratio (chosen dtypes over BF16), again after every edit.
void CapacityView::fillMeasured() {
    const bool show = m_measured && !m_measured->variants.empty();
    m_measuredTitle->setVisible(show);
    m_measuredText->setVisible(show);
    if (!show) return;
    const CapacityResult* sel = selectedResult();
    const CapacityResult* bf = bf16Result();
    std::optional<double> ratio;
    if (sel && bf && sel->fits && bf->maxTokens > 0) ratio = double(sel->maxTokens) / double(bf->maxTokens);
    const MeasuredCapacityWords words = measuredCapacityWords(*m_measured, ratio);
    QStringList lines;
    for (const QString& line : words.variants) lines << QStringLiteral("• ") + visibleText(line);
    if (!words.verdict.isEmpty()) lines << visibleText(words.verdict);
    m_measuredText->setText(lines.join(QLatin1Char('\n')));
}

void CapacityView::fillTable() {
    fillMeasured();
    const CapacityResult* sel = selectedResult();
    const CapacityResult* bf = bf16Result();
    m_tableModel->setPlans(bf, sel);
    if (!sel || !bf) {
        m_summary->setText(settings().model.empty() ? tr("No plan: choose the model in Model.")
                                                    : tr("Choose inputs that can be planned."));
        m_decode->clear();
        return;
    }

    const CapacitySettings s = settings();
    const QString context = groupedInteger(static_cast<std::uint64_t>(s.contextTokens));
    QString summary;
    if (sel->fits) {
        summary = tr("<b>%1</b> on %2 × %3: %4 weights and %5 KV hold <b>%6 tokens</b> (%7 sequences of %8)")
                      .arg(style::escaped(sel->inputs.model.name))
                      .arg(s.gpus)
                      .arg(style::escaped(sel->inputs.gpu.displayName), dtypeTitle(sel->inputs.weights),
                           dtypeTitle(sel->inputs.kv), groupedInteger(sel->maxTokens),
                           groupedInteger(sel->maxSequences), context);
        if (bf->maxTokens > 0 && (sel->inputs.weights != StorageDtype::Bf16 || sel->inputs.kv != StorageDtype::Bf16)) {
            summary +=
                tr(", against %1 in BF16: <b>×%2</b>.")
                    .arg(groupedInteger(bf->maxTokens), fixed(double(sel->maxTokens) / double(bf->maxTokens), 2));
        } else {
            summary += QLatin1Char('.');
        }
    } else {
        summary = tr("<b>Does not fit</b> with the chosen dtypes: %1").arg(style::escaped(sel->reason));
    }
    m_summary->setText(summary);

    if (sel->decode) {
        const DecodeEstimate& d = *sel->decode;
        m_decode->setText(
            tr("Decode estimate, an upper bound from memory bandwidth (batch %1 at %2 tokens, %3 in all): "
               "BF16 %4 · FP8 %5 · FP8 speedup ×%6. Real kernels reach a fraction of the bandwidth.")
                .arg(d.batch)
                .arg(groupedInteger(static_cast<std::uint64_t>(d.contextTokens)),
                     bench::bytesPerSecondText(d.bandwidthBytesPerS), tokensPerSecond(d.bf16.tokensPerS),
                     tokensPerSecond(d.fp8.tokensPerS), fixed(d.fp8Speedup, 2)));
        // A figure for a batch that does not fit is a bound the server cannot reach: say which.
        QStringList short_;
        if (!d.bf16.batchFits) short_ << QStringLiteral("BF16");
        if (!d.fp8.batchFits) short_ << QStringLiteral("FP8");
        if (!short_.isEmpty())
            m_decode->setText(m_decode->text() +
                              tr(" %1 sequences of %2 tokens do not fit in the %3 KV cache (the sequences above), so "
                                 "that figure is for a batch it cannot run.")
                                  .arg(d.batch)
                                  .arg(groupedInteger(static_cast<std::uint64_t>(d.contextTokens)),
                                       short_.join(QStringLiteral(" and "))));
    } else {
        m_decode->setText(tr("Decode estimate: this GPU's memory bandwidth is not in the datasheet table."));
    }
}

}  // namespace fp8dash::ui
