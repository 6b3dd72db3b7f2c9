#include "fp8dash/ui/variants_view.h"

#include <QFrame>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTableWidget>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

#include <algorithm>

#include "fp8dash/core/number_format.h"
#include "fp8dash/core/paired_tasks.h"
#include "fp8dash/core/variant_text.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {
namespace {

using numfmt::fixed;

// A cell that sorts by a number (the degradation; a missing figure sorts last) instead of its text.
class NumberItem : public QTableWidgetItem {
public:
    NumberItem(const QString& text, double key) : QTableWidgetItem(text), m_key(key) {}
    bool operator<(const QTableWidgetItem& other) const override {
        if (const auto* o = dynamic_cast<const NumberItem*>(&other)) return m_key < o->m_key;
        return QTableWidgetItem::operator<(other);
    }

private:
    double m_key;
};

constexpr double kNoFigure = -1e300;  // below every degradation: "—" sorts after every figure, worst first

QTableWidget* newTable(const QString& name, QWidget* parent) {
    auto* table = new QTableWidget(parent);
    table->setObjectName(name);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectItems);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->verticalHeader()->hide();
    table->setWordWrap(true);
    table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the page scrolls, not each table
    table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    return table;
}

void tint(QTableWidgetItem* item, Verdict v) {
    item->setBackground(style::verdictTint(v));
    item->setForeground(style::verdictTextColor(v));
}

// A table as tall as its rows: the page's scroll area scrolls, so nothing hides behind a table's own scroll bar.
void fitHeight(QTableWidget* table) {
    table->resizeRowsToContents();
    // The header's hint, not its height: before the table is first shown the header has no height of its own.
    int h = table->horizontalHeader()->sizeHint().height() + 2 * table->frameWidth();
    for (int r = 0; r < table->rowCount(); ++r) h += table->rowHeight(r);
    table->setFixedHeight(h);
}

}  // namespace

VariantsView::VariantsView(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("variantsScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto* page = new QWidget(scroll);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 8, 8, 8);
    layout->setSpacing(10);

    m_card = new QFrame(page);
    m_card->setObjectName(QStringLiteral("recommendationCard"));
    auto* cardLayout = new QVBoxLayout(m_card);
    cardLayout->setContentsMargins(14, 10, 14, 10);
    cardLayout->setSpacing(4);
    m_recommendation = plainLabel(QString(), m_card);  // names a variant by its label
    m_recommendation->setObjectName(QStringLiteral("recommendationTitle"));
    m_recommendation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_recommendation->setWordWrap(true);
    QFont big = m_recommendation->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    m_recommendation->setFont(big);
    cardLayout->addWidget(m_recommendation);
    m_details = new QLabel(m_card);
    m_details->setObjectName(QStringLiteral("recommendationDetails"));
    m_details->setTextFormat(Qt::RichText);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setWordWrap(true);
    cardLayout->addWidget(m_details);
    layout->addWidget(m_card);

    // What each variant buys on the team's server (serving benchmarks): hidden without them.
    m_gainsTitle = style::sectionTitle(tr("What each variant buys, measured on your server"), page);
    m_gainsTitle->setObjectName(QStringLiteral("variantGainsTitle"));
    layout->addWidget(m_gainsTitle);
    m_gains = new QWidget(page);
    m_gains->setObjectName(QStringLiteral("variantGains"));
    auto* gainsLayout = new QVBoxLayout(m_gains);
    gainsLayout->setContentsMargins(0, 0, 0, 0);
    gainsLayout->setSpacing(2);
    layout->addWidget(m_gains);
    m_gainsTitle->hide();
    m_gains->hide();

    layout->addWidget(style::sectionTitle(tr("Variants"), page));
    layout->addWidget(style::caption(tr("Each cell: the variant's value and its recovery against the baseline, "
                                        "coloured by its verdict. Click a header to sort; double-click a cell to "
                                        "see that variant's task in Offline evals."),
                                     page));
    m_matrix = newTable(QStringLiteral("variantsMatrix"), page);
    m_matrix->setAccessibleName(tr("Variants: tasks by variant"));
    connect(m_matrix, &QTableWidget::cellDoubleClicked, this, [this](int row, int column) {
        if (column < FirstVariantColumn) return;
        const QTableWidgetItem* task = m_matrix->item(row, TaskColumn);
        emit variantActivated(column - FirstVariantColumn, task ? task->text() : QString());
    });
    layout->addWidget(m_matrix);

    m_stepsTitle = style::sectionTitle(tr("Layer steps"), page);
    layout->addWidget(m_stepsTitle);
    m_stepsCaption = style::caption(QString(), page);  // its words depend on whether there are steps
    layout->addWidget(m_stepsCaption);
    m_steps = newTable(QStringLiteral("stepsTable"), page);
    m_steps->setAccessibleName(tr("Layer steps: steps by task"));
    layout->addWidget(m_steps);
    m_costliest = style::caption(QString(), page);
    m_costliest->setObjectName(QStringLiteral("costliestSteps"));
    m_costliest->setTextFormat(Qt::RichText);
    layout->addWidget(m_costliest);
    layout->addStretch(1);
    scroll->setWidget(page);

    style::onThemeChange(this, [this] { repaint(); });
}

QString VariantsView::recommendationText() const {
    return m_recommendation->text() + QLatin1Char('\n') +
           QTextDocumentFragment::fromHtml(m_details->text()).toPlainText();
}

void VariantsView::setVariants(const VariantComparison* variants, const ServingComparison* serving) {
    if (variants)
        m_variants = *variants;
    else
        m_variants.reset();
    if (serving)
        m_serving = *serving;
    else
        m_serving.reset();
    repaint();
}

QStringList VariantsView::gainTexts() const {
    QStringList out;
    for (const QLabel* label : m_gainLabels) out << label->text();
    return out;
}

QString VariantsView::variantHeaderText(int variant) const {
    const QTableWidgetItem* h = m_matrix->horizontalHeaderItem(FirstVariantColumn + variant);
    return variant >= 0 && h ? h->text() : QString();
}

namespace {

// The gain in a few words for a matrix header: "+14.9% tok/s", "+0.8% tok/s, noise".
QString variantGainShort(const ServingGain& g) {
    if (!g.measured || !g.pct) return QObject::tr("gain not measured");
    const QString pct = toQString(numfmt::signedFixed(*g.pct, 1)) + QStringLiteral("%");
    if (g.withinNoise) return QObject::tr("%1 tok/s, within the noise").arg(pct);
    return QObject::tr("%1 tok/s").arg(pct);
}

std::optional<style::TextTone> variantGainTone(const ServingGain& g) {
    if (!g.measured) return std::nullopt;
    if (g.negative) return style::TextTone::Error;
    if (g.withinNoise) return style::TextTone::Caution;
    return style::TextTone::Success;
}

}  // namespace

// One line per candidate: its measured gain (ServingGain::sentence), or that it is set aside and why, or that its
// gain was not measured; a blocked serving comparison says it weighs nothing.
void VariantsView::fillGains() {
    qDeleteAll(m_gainLabels);
    m_gainLabels.clear();
    const bool show = m_variants && m_serving;
    m_gainsTitle->setVisible(show);
    m_gains->setVisible(show);
    if (!show) return;
    const auto add = [this](const QString& text, std::optional<style::TextTone> tone) {
        QLabel* label = plainLabel(text, m_gains);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        style::setTextTone(label, tone, tone.has_value());
        m_gains->layout()->addWidget(label);
        m_gainLabels << label;
    };
    if (m_serving->blocked()) {
        for (const ServingProblem& p : m_serving->problems)
            if (p.blocking)
                add(tr("Not comparable, so not weighed: %1").arg(toQString(p.text)), style::TextTone::Error);
    }
    const Recommendation& rec = m_variants->recommendation;
    for (const VariantResult& variant : m_variants->variants) {
        const auto aside = std::find_if(rec.buysNothing.begin(), rec.buysNothing.end(),
                                        [&](const Recommendation::Rejected& r) { return r.label == variant.label; });
        const ServingVariantResult* measured = m_serving->find(variant.label);
        if (aside != rec.buysNothing.end()) {
            add(tr("%1 is set aside: %2").arg(toQString(variant.label), toQString(aside->reason)),
                style::TextTone::Caution);
        } else if (measured && measured->gain && !measured->gain->sentence.empty()) {
            // A gain of a variant that fails the quality gate buys nothing the team can take: said with it.
            // (When none passes, the best of them is weighed like a passing one: no such words then.)
            const bool failsGate = !variant.passes && rec.label.has_value();
            QString text = toQString(measured->gain->sentence);
            if (failsGate) text += tr(" (it does not pass the gate, so the gain is not weighed)");
            add(text, failsGate ? std::nullopt : variantGainTone(*measured->gain));
        } else {
            add(tr("%1: the serving gain was not measured (no serving results for this run).")
                    .arg(toQString(variant.label)),
                std::nullopt);
        }
    }
}

void VariantsView::repaint() {
    // Keep the user's sort across a theme change or a re-evaluation.
    const int sortColumn = m_matrix->horizontalHeader()->sortIndicatorSection();
    const Qt::SortOrder sortOrder = m_matrix->horizontalHeader()->sortIndicatorOrder();
    const bool userSorted = m_matrix->isSortingEnabled() && m_matrix->columnCount() > 0;
    m_matrix->setSortingEnabled(false);
    m_matrix->clear();
    m_matrix->setRowCount(0);
    m_steps->clear();
    m_steps->setRowCount(0);
    if (!m_variants) {
        m_matrix->setColumnCount(0);
        m_steps->setColumnCount(0);
        m_recommendation->clear();
        m_details->clear();
        m_costliest->clear();
        fillGains();
        return;
    }
    const VariantComparison& v = *m_variants;
    const Recommendation& rec = v.recommendation;

    // The recommendation.
    // Labels and task names come from the files: shown with their controls visible (untrusted_ui.h), in the labels
    // and in the table items (QTableWidgetItem text is shown as it is).
    const auto shown = [](const std::string& data) { return visibleText(toQString(data)); };
    // None passing: the verdict is the best (deciding) variant's; "stay on" only where even that one is INVESTIGATE.
    m_recommendation->setText(
        rec.label ? tr("Enable %1").arg(shown(*rec.label))
        : rec.verdict == Verdict::Investigate || v.variants.empty()
            ? tr("No FP8 variant passes: stay on %1").arg(shown(v.baselineLabel))
            : tr("No variant passes the gate; the best is %1").arg(shown(v.decidingVariant().label)));
    const Verdict tone = rec.verdict;
    m_card->setStyleSheet(QStringLiteral("QFrame#recommendationCard { background: %1; border-radius: 6px; }"
                                         " QFrame#recommendationCard QLabel { color: %2; background: transparent; }")
                              .arg(style::verdictTint(tone).name(), style::verdictTextColor(tone).name()));
    QStringList lines;
    for (const std::string& line : variant_text::recommendationLines(v))
        lines << QStringLiteral("• ") + style::escaped(line);
    lines << tr("Gate: %1 (a variant passes at that verdict or better).")
                 .arg(style::escaped(variant_text::gate(rec.options)));
    m_details->setText(lines.join(QStringLiteral("<br>")));
    fillGains();

    // The matrix: a row per task, the baseline's value, each variant's cell.
    const std::vector<std::string> tasks = variant_text::taskOrder(v);
    m_matrix->setColumnCount(FirstVariantColumn + static_cast<int>(v.variants.size()));
    QStringList header{tr("Task"), shown(v.baselineLabel)};
    for (const VariantResult& variant : v.variants) {
        const bool recommended = rec.recommends(variant.label);
        QString text =
            QStringLiteral("%1%2\n%3 · avg %4")
                .arg(recommended ? QStringLiteral("★ ") : QString(), shown(variant.label),
                     toQString(verdictTitle(variant.verdict)),
                     variant.averageRecoveryPct ? toQString(fixed(*variant.averageRecoveryPct, 2)) + "%" : tr("n/a"));
        // The measured gain, where serving benchmarks were given: a third line.
        if (m_serving) {
            const ServingVariantResult* measured = m_serving->find(variant.label);
            const bool aside = std::any_of(rec.buysNothing.begin(), rec.buysNothing.end(),
                                           [&](const Recommendation::Rejected& r) { return r.label == variant.label; });
            text += QLatin1Char('\n') +
                    (measured && measured->gain ? variantGainShort(*measured->gain) : tr("gain not measured")) +
                    (aside ? tr(" · set aside") : QString());
        }
        header << text;
    }
    m_matrix->setHorizontalHeaderLabels(header);
    for (int c = 0; c < static_cast<int>(v.variants.size()); ++c) {
        const VariantResult& variant = v.variants[c];
        QString tip = toQString(variant.label) + QStringLiteral(": ") + toQString(verdictTitle(variant.verdict));
        if (!variant.passes && !variant.failReason.empty())
            tip += tr("; does not pass: %1").arg(toQString(variant.failReason));
        if (!variant.buys.empty()) tip += tr("\nIt buys: %1").arg(toQString(variant.buys));
        if (const ServingVariantResult* measured = m_serving ? m_serving->find(variant.label) : nullptr;
            measured && measured->gain && !measured->gain->sentence.empty())
            tip += tr("\nMeasured on your server: %1").arg(toQString(measured->gain->sentence));
        if (QTableWidgetItem* h = m_matrix->horizontalHeaderItem(FirstVariantColumn + c))
            h->setToolTip(escapedTip(tip));
    }
    m_matrix->setRowCount(static_cast<int>(tasks.size()));
    for (int r = 0; r < static_cast<int>(tasks.size()); ++r) {
        const std::string& task = tasks[r];
        double worst = kNoFigure;
        const TaskComparison* any = nullptr;
        for (int c = 0; c < static_cast<int>(v.variants.size()); ++c) {
            const TaskComparison* t = variant_text::taskOf(v.variants[c], task);
            if (!t) {
                m_matrix->setItem(r, FirstVariantColumn + c, new NumberItem(QStringLiteral("—"), kNoFigure));
                continue;
            }
            if (!any) any = t;
            const double degradation = t->degradationPct.value_or(kNoFigure);
            worst = std::max(worst, degradation);
            auto* item = new NumberItem(toQString(variant_text::cellValue(*t)), degradation);
            tint(item, t->verdict);
            QString cellTip = QStringLiteral("%1 · %2: %3")
                                  .arg(toQString(v.variants[c].label), toQString(task), toQString(t->reason));
            if (t->paired && t->paired->changed && t->paired->changed->n() > 0)  // the answers it changed
                cellTip += QStringLiteral("\n") +
                           toQString(changedAnswersSentence(*t->paired->changed, v.variants[c].label)) +
                           QStringLiteral(".");
            item->setToolTip(escapedTip(cellTip));
            item->setData(Qt::AccessibleTextRole,
                          item->text() + QStringLiteral(", ") + toQString(verdictTitle(t->verdict)));
            m_matrix->setItem(r, FirstVariantColumn + c, item);
        }
        // The task's own column sorts by its worst degradation across the variants.
        auto* name = new NumberItem(shown(task), worst);
        m_matrix->setItem(r, TaskColumn, name);
        m_matrix->setItem(r, BaselineColumn,
                          new NumberItem(any ? toQString(fixed(any->baseline, 4)) : QStringLiteral("—"),
                                         any ? any->baseline : kNoFigure));
    }
    m_matrix->resizeColumnsToContents();
    m_matrix->setSortingEnabled(true);
    if (userSorted && sortColumn >= 0 && sortColumn < m_matrix->columnCount())
        m_matrix->sortByColumn(sortColumn, sortOrder);
    else
        m_matrix->sortByColumn(TaskColumn, Qt::DescendingOrder);  // worst task first
    fitHeight(m_matrix);

    // The layer steps: a row per step, a column per task.
    const bool hasSteps = !v.steps.empty();
    m_stepsCaption->setText(hasSteps ? tr("Two runs that differ in exactly one layer, compared directly (paired "
                                          "where both have sample logs): what that layer costs each task, with its "
                                          "95% interval.")
                                     : tr("No two runs differ in exactly one FP8 layer, so no layer's cost is "
                                          "measured on its own."));
    m_steps->setVisible(hasSteps);
    if (hasSteps) {
        m_steps->setColumnCount(1 + static_cast<int>(tasks.size()));
        QStringList stepHeader{tr("Step")};
        for (const std::string& task : tasks) stepHeader << shown(task);
        m_steps->setHorizontalHeaderLabels(stepHeader);
        m_steps->setRowCount(static_cast<int>(v.steps.size()));
        for (int r = 0; r < static_cast<int>(v.steps.size()); ++r) {
            const LayerStep& step = v.steps[r];
            auto* title = new QTableWidgetItem(shown(variant_text::stepTitle(step)));
            m_steps->setItem(r, 0, title);
            for (int c = 0; c < static_cast<int>(tasks.size()); ++c) {
                const auto it = std::find_if(step.tasks.begin(), step.tasks.end(),
                                             [&](const LayerStepTask& t) { return t.task == tasks[c]; });
                if (it == step.tasks.end()) {
                    m_steps->setItem(r, 1 + c, new QTableWidgetItem(QStringLiteral("—")));
                    continue;
                }
                const variant_text::StepFigure f = variant_text::stepFigure(*it);
                auto* item =
                    new QTableWidgetItem(f.ci.empty() ? toQString(f.text) : toQString(f.text) + "\n" + toQString(f.ci));
                tint(item, it->verdict);
                item->setToolTip(escapedTip(
                    toQString(it->sentence) +
                    (it->paired ? tr(" (paired from the sample logs)") : tr(" (from lm-eval's standard errors)")) +
                    (it->changedSentence.empty() ? QString() : ". " + toQString(it->changedSentence))));
                m_steps->setItem(r, 1 + c, item);
            }
        }
        m_steps->setColumnWidth(0, 340);
        for (int c = 1; c < m_steps->columnCount(); ++c) m_steps->resizeColumnToContents(c);
        fitHeight(m_steps);
    }
    QStringList costliest;
    for (const auto& [task, step] : v.costliestStep)
        if (!step.empty())
            costliest << tr("<b>%1</b>: %2 costs it most").arg(style::escaped(task), style::escaped(step));
    m_costliest->setText(costliest.join(QStringLiteral("<br>")));
    m_costliest->setVisible(!costliest.isEmpty());
}

}  // namespace fp8dash::ui
