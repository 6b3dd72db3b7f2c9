#pragma once
// Fp8LayersPanel: for each run its label, model, backend and dtype, and the three FP8 layers (weights, KV cache,
// activations) as ✓/✗ badges whose tooltips give the evidence, plus whether KV scales are calculated.
// GUI thread only.

#include <QWidget>

#include "fp8dash/core/eval_comparison.h"

class QVBoxLayout;

namespace fp8dash::ui {

class Fp8LayersPanel : public QWidget {
    Q_OBJECT
public:
    explicit Fp8LayersPanel(QWidget* parent = nullptr);

    void setReport(const ComparisonReport& report);

private:
    QWidget* buildRunCard(const QString& role, const QString& label, const Fp8Config& config);
    QVBoxLayout* m_cards = nullptr;
};

}  // namespace fp8dash::ui
