#pragma once
// VariantsView: the "Which layers" tab of a comparison with several candidates (README "Variants and layer steps").
// On top the recommendation (the variant to enable, why, what it buys, why each more aggressive one fails), then the
// variants matrix (tasks x variants: each cell the variant's value and its recovery against the baseline, tinted by
// its verdict; each variant's header its verdict and average recovery, the recommended one starred; sortable, worst
// task first), then the layer steps (steps x tasks: what the one layer changed costs each task, with its 95%
// interval) and, for each task, the step that costs it most. Double-clicking a variant's cell asks to show that
// variant's task in the evals tab (variantActivated). The words are those of the report (fp8dash/core/variant_text.h).
// With serving benchmarks (docs/serving.md) the page also says what each variant buys, measured on the team's server
// (ServingGain::sentence, toned like the Serving tab's card: a gain, within the noise, a loss), each variant that is
// set aside because it buys nothing measurable over a less aggressive one, and the matrix's headers carry the gain.
// GUI thread only.

#include <QList>
#include <QStringList>
#include <QWidget>

#include <optional>

#include "fp8dash/core/serving_comparison.h"
#include "fp8dash/core/variant_comparison.h"

class QLabel;
class QTableWidget;
class QFrame;

namespace fp8dash::ui {

class VariantsView : public QWidget {
    Q_OBJECT
public:
    explicit VariantsView(QWidget* parent = nullptr);

    // Shows a copy of the variants (null: clears the view) and, when given, the serving comparison their gains come
    // from (null: no serving results; the measured-gain section is hidden).
    void setVariants(const VariantComparison* variants, const ServingComparison* serving = nullptr);

    const VariantComparison* variants() const { return m_variants ? &*m_variants : nullptr; }
    QTableWidget* matrix() const { return m_matrix; }
    QTableWidget* stepsTable() const { return m_steps; }
    QString recommendationText() const;  // the recommendation card's text, plain
    // The measured-gain lines, one per candidate in order (a set-aside variant's says so); empty without serving.
    QStringList gainTexts() const;
    // A variant's header in the matrix (plain text, its lines joined by '\n'); "" out of range.
    QString variantHeaderText(int variant) const;

    // The matrix's columns: the task, the baseline, then one per variant.
    static constexpr int TaskColumn = 0;
    static constexpr int BaselineColumn = 1;
    static constexpr int FirstVariantColumn = 2;

signals:
    // A variant's cell was double-clicked: its index among the candidates and the row's task.
    void variantActivated(int variant, const QString& task);

private:
    void repaint();
    void fillGains();

    std::optional<VariantComparison> m_variants;
    std::optional<ServingComparison> m_serving;
    QLabel* m_gainsTitle = nullptr;
    QWidget* m_gains = nullptr;
    QList<QLabel*> m_gainLabels;
    QFrame* m_card = nullptr;
    QLabel* m_recommendation = nullptr;
    QLabel* m_details = nullptr;
    QTableWidget* m_matrix = nullptr;
    QLabel* m_stepsTitle = nullptr;
    QLabel* m_stepsCaption = nullptr;
    QTableWidget* m_steps = nullptr;
    QLabel* m_costliest = nullptr;
};

}  // namespace fp8dash::ui
