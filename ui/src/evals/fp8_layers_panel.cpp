#include "fp8dash/ui/fp8_layers_panel.h"

#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "fp8dash/core/kv_scales_advice.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

Fp8LayersPanel::Fp8LayersPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(8);
    layout->addWidget(style::sectionTitle(tr("Runs and FP8 layers"), this));
    m_cards = new QVBoxLayout;
    m_cards->setSpacing(10);
    layout->addLayout(m_cards);
}

void Fp8LayersPanel::setReport(const ComparisonReport& report) {
    style::clearLayout(m_cards);
    m_cards->addWidget(buildRunCard(tr("Baseline"), toQString(report.baselineLabel), report.baselineConfig));
    m_cards->addWidget(buildRunCard(tr("Candidate"), toQString(report.candidateLabel), report.candidateConfig));
}

QWidget* Fp8LayersPanel::buildRunCard(const QString& role, const QString& label, const Fp8Config& config) {
    auto* card = new QFrame(this);
    card->setObjectName(QStringLiteral("runCard"));
    card->setFrameShape(QFrame::StyledPanel);
    card->setToolTip(escapedTip(toQString(fp8LayersSummary(config))));
    auto* layout = new QVBoxLayout(card);
    layout->setContentsMargins(12, 10, 12, 10);
    layout->setSpacing(4);

    auto* heading = new QLabel(QStringLiteral("<b>%1</b> · %2").arg(style::escaped(label), style::escaped(role)), card);
    heading->setTextFormat(Qt::RichText);
    heading->setObjectName(QStringLiteral("runHeading"));
    // A variant's label is long ("FP8 W8A8 + FP8 KV (scales 1.0)"): it wraps in the side panel, never cut.
    heading->setWordWrap(true);
    layout->addWidget(heading);

    const QString model = config.model.empty() ? tr("(model not recorded)") : toQString(config.model);
    auto* modelLabel = plainLabel(style::breakable(model), card);  // the checkpoint name from the results file
    modelLabel->setObjectName(QStringLiteral("runModel"));
    modelLabel->setWordWrap(true);
    modelLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    modelLabel->setToolTip(escapedTip(model));
    layout->addWidget(modelLabel);

    QStringList facts;
    facts << (config.backend.empty() ? tr("backend not recorded") : tr("backend %1").arg(toQString(config.backend)));
    facts << (config.dtype.empty() ? tr("dtype not given") : tr("dtype %1").arg(toQString(config.dtype)));
    if (config.paramsBillions) facts << tr("%1B parameters").arg(QString::number(*config.paramsBillions, 'g', 4));
    layout->addWidget(style::caption(facts.join(QStringLiteral(" · ")), card));

    auto* grid = new QGridLayout;
    grid->setContentsMargins(0, 6, 0, 0);
    grid->setHorizontalSpacing(12);
    grid->setVerticalSpacing(6);
    grid->setColumnStretch(2, 1);
    int row = 0;
    auto addLayer = [&](const QString& name, bool on, const QString& toolTip) {
        auto* nameLabel = new QLabel(name, card);
        nameLabel->setToolTip(escapedTip(toolTip));
        grid->addWidget(nameLabel, row, 0);
        grid->addWidget(style::badge(on, on ? tr("FP8") : tr("not FP8"), toolTip, card), row, 1, Qt::AlignLeft);
        ++row;
    };

    QString weightsWhy;
    if (config.weights) {
        weightsWhy = tr("FP8 weights: %1").arg(toQString(config.weightsEvidence));
    } else if (!config.quantization.empty()) {
        weightsWhy = tr("Not FP8: quantization=%1").arg(toQString(config.quantization));
    } else {
        weightsWhy = tr("Not FP8: no quantization= in model_args and no FP8 marker in the checkpoint name");
    }
    addLayer(tr("Weights"), config.weights, weightsWhy);

    const QString kvWhy = config.kvCacheDtype.empty()
                              ? tr("kv_cache_dtype not given: vLLM's default \"auto\" keeps the model dtype")
                              : tr("kv_cache_dtype=%1").arg(toQString(config.kvCacheDtype));
    addLayer(tr("KV cache"), config.kvCache, kvWhy);
    addLayer(tr("Activations"), config.activations,
             tr("Inferred, not recorded by lm-eval: vLLM runs FP8 weights as W8A8 (FP8 activations, per-token "
                "dynamic scales) on GPUs of compute capability 8.9 and later (Ada, Hopper)"));

    auto* scalesName = new QLabel(tr("KV scales"), card);
    grid->addWidget(scalesName, row, 0);
    QString scales;
    QString scalesWhy;
    if (!config.kvCache) {
        scales = tr("n/a");
        scalesWhy = tr("Only relevant with an FP8 KV cache");
    } else if (config.kvScales) {
        scales = tr("calculated");
        scalesWhy = config.kvScalesEvidence.empty()
                        ? tr("calculate_kv_scales=true: per-layer K/V scales")
                        : tr("Per-layer K/V scales: %1").arg(toQString(config.kvScalesEvidence));
    } else {
        scales = tr("scales 1.0");
        scalesWhy = tr("No calculated or calibrated KV scales: vLLM scales K and V by 1.0, and long contexts (> 32K) "
                       "with an FP8 KV cache accumulate error. For scales, %1")
                        .arg(toQString(kvScalesAdvice()));
    }
    auto* scalesLabel = style::caption(scales, card);
    scalesLabel->setToolTip(escapedTip(scalesWhy));
    scalesName->setToolTip(escapedTip(scalesWhy));
    grid->addWidget(scalesLabel, row, 1, 1, 2);
    layout->addLayout(grid);
    return card;
}

}  // namespace fp8dash::ui
