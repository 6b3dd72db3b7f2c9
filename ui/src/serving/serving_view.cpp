#include "fp8dash/ui/serving_view.h"

#include <QApplication>
#include <QBoxLayout>
#include <QComboBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

#include "fp8dash/core/serving_format.h"
#include "fp8dash/ui/export_actions.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/serving_table_model.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {
namespace {

constexpr int kServingStatisticScale = 1000;  // combo item data: int(metric) * 1000 + percentile

int servingStatisticKey(ServingChart::Statistic s) {
    return static_cast<int>(s.metric) * kServingStatisticScale + static_cast<int>(s.percentile);
}

ServingChart::Statistic servingStatisticOfKey(int key) {
    return {static_cast<ServingMetric>(key / kServingStatisticScale), double(key % kServingStatisticScale)};
}

// The tone of a gain: a gain beyond the noise, one within it, a loss; nullopt where nothing was measured.
std::optional<style::TextTone> servingGainTone(const ServingGain& g) {
    if (!g.measured) return std::nullopt;
    if (g.negative) return style::TextTone::Error;
    if (g.withinNoise) return style::TextTone::Caution;
    return style::TextTone::Success;
}

// A splitter that says when it has been resized (after it laid out its children), so that the view can split the new
// height: the view's own resize comes before its children's when it is first shown.
class ServingSplitter : public QSplitter {
public:
    using QSplitter::QSplitter;
    std::function<void()> resized;

protected:
    void resizeEvent(QResizeEvent* event) override {
        QSplitter::resizeEvent(event);
        if (resized) resized();
    }
};

QLabel* servingWrappedLabel(const QString& text, const QString& objectName, QWidget* parent) {
    QLabel* label = plainLabel(text, parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

}  // namespace

ServingView::ServingView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("servingView"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    outer->addWidget(m_stack);

    auto* emptyPage = new QWidget(m_stack);
    auto* emptyLayout = new QVBoxLayout(emptyPage);
    emptyLayout->addStretch(1);
    QLabel* emptyTitle = style::sectionTitle(tr("No serving benchmarks in this comparison"), emptyPage);
    emptyTitle->setAlignment(Qt::AlignHCenter);
    emptyLayout->addWidget(emptyTitle);
    m_empty = style::caption(emptyStateText(), emptyPage);
    m_empty->setObjectName(QStringLiteral("servingEmpty"));
    m_empty->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_empty->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A readable line length on a wide window: at most 640 pixels, centred by stretches (an aligned wrapped label
    // would get only its narrow size hint, and its lines would be cut off).
    m_empty->setMaximumWidth(640);
    auto* emptyRow = new QHBoxLayout;
    emptyRow->addStretch(1);
    emptyRow->addWidget(m_empty, 4);
    emptyRow->addStretch(1);
    emptyLayout->addLayout(emptyRow);
    emptyLayout->addStretch(2);
    m_stack->addWidget(emptyPage);

    // The page: the chart with the card beside it (above it in a narrow window), over the per-load table, with a
    // splitter between them. Nothing scrolls as a page: the table scrolls its rows where the window is short, the card
    // its text where it is taller than the chart.
    auto* page = new QWidget(m_stack);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(8, 8, 8, 8);
    auto* splitter = new ServingSplitter(Qt::Vertical, page);
    splitter->resized = [this] { splitTheHeight(); };
    m_splitter = splitter;
    m_splitter->setObjectName(QStringLiteral("servingSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setHandleWidth(9);
    auto* top = new QWidget(m_splitter);
    m_topLayout = new QBoxLayout(QBoxLayout::LeftToRight, top);
    m_topLayout->setContentsMargins(0, 0, 0, 4);
    m_topLayout->setSpacing(10);
    m_cardScroll = new QScrollArea(top);
    m_cardScroll->setObjectName(QStringLiteral("servingCardScroll"));
    m_cardScroll->setFrameShape(QFrame::NoFrame);
    m_cardScroll->setWidgetResizable(true);
    m_cardScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* cardHolder = new QWidget(m_cardScroll);  // the card as tall as its text, at the column's top
    auto* cardHolderLayout = new QVBoxLayout(cardHolder);
    cardHolderLayout->setContentsMargins(0, 0, 0, 0);
    cardHolderLayout->addWidget(buildCard());
    m_sideReadout =
        servingWrappedLabel(tr("Hover a point for its figures."), QStringLiteral("servingSideReadout"), cardHolder);
    m_sideReadout->setContentsMargins(4, 6, 4, 0);
    cardHolderLayout->addWidget(m_sideReadout);
    cardHolderLayout->addStretch(1);
    m_cardScroll->setWidget(cardHolder);
    m_topLayout->addWidget(buildChartPanel(), 1);
    connect(m_chart, &ServingChart::pointHovered, this, [this](const QString& text) {
        setPlainText(m_sideReadout, text);
        m_sideReadout->parentWidget()->layout()->activate();  // its new height now, not at the next layout pass
    });
    m_topLayout->addWidget(m_cardScroll, 0);
    m_splitter->addWidget(top);
    m_tablePanel = buildTablePanel();
    m_splitter->addWidget(m_tablePanel);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 0);
    // Once the user drags the handle, the split is theirs.
    connect(m_splitter, &QSplitter::splitterMoved, this, [this] { m_userSplit = true; });
    layout->addWidget(m_splitter);
    m_stack->addWidget(page);
    m_stack->setCurrentIndex(0);
    style::onThemeChange(this, [this] { paintCard(); });
}

ServingView::~ServingView() = default;

QString ServingView::emptyStateText() {
    return tr(
        "Add serving benchmark results (vLLM bench serve, GuideLLM, AIPerf) to each run in New Comparison to "
        "see what FP8 buys on your server: throughput and latency at each load, and how many users each "
        "variant serves within your latency SLO.");
}

QWidget* ServingView::buildCard() {
    m_card = new QFrame(this);
    m_card->setObjectName(QStringLiteral("servingCard"));
    auto* layout = new QVBoxLayout(m_card);
    layout->setContentsMargins(14, 8, 12, 8);
    layout->setSpacing(4);
    m_cardTitle = plainLabel(tr("What FP8 buys on your server"), m_card);
    m_cardTitle->setObjectName(QStringLiteral("servingCardTitle"));
    QFont f = m_cardTitle->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    m_cardTitle->setFont(f);
    layout->addWidget(m_cardTitle);
    m_cardRows = new QVBoxLayout;
    m_cardRows->setSpacing(3);
    layout->addLayout(m_cardRows);
    m_slo = style::caption(QString(), m_card);
    m_slo->setObjectName(QStringLiteral("servingSlo"));
    m_slo->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_slo);
    paintCard();
    return m_card;
}

QWidget* ServingView::buildChartPanel() {
    auto* panel = new QWidget(this);
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    auto* controls = new QHBoxLayout;
    QLabel* title = style::sectionTitle(tr("Throughput and latency against load"), panel);
    title->setWordWrap(false);
    controls->addWidget(title);
    controls->addStretch(1);
    QLabel* plotLabel = plainLabel(tr("Plot:"), panel);
    controls->addWidget(plotLabel);
    m_quantity = new QComboBox(panel);
    m_quantity->setObjectName(QStringLiteral("servingQuantity"));
    m_quantity->setAccessibleName(tr("What the chart plots against load"));
    m_quantity->addItem(tr("Latency"), static_cast<int>(ServingChart::Quantity::Latency));
    m_quantity->addItem(tr("Output tokens/s"), static_cast<int>(ServingChart::Quantity::OutputTokensPerS));
    plotLabel->setBuddy(m_quantity);
    controls->addWidget(m_quantity);
    m_statistic = new QComboBox(panel);
    m_statistic->setObjectName(QStringLiteral("servingStatistic"));
    m_statistic->setAccessibleName(tr("Latency statistic"));
    m_statistic->setToolTip(
        tr("TTFT: time to first token. TPOT: time per output token after the first, per request. "
           "ITL: the gaps between streamed chunks. E2E: the whole request."));
    for (ServingMetric m : {ServingMetric::Ttft, ServingMetric::Tpot, ServingMetric::Itl, ServingMetric::E2el})
        for (double p : {50.0, 90.0, 99.0, 0.0}) {
            const ServingChart::Statistic s{m, p};
            m_statistic->addItem(ServingChart::statisticName(s), servingStatisticKey(s));
        }
    controls->addWidget(m_statistic);
    layout->addLayout(controls);
    m_chart = new ServingChart(panel);
    layout->addWidget(m_chart, 1);
    connect(m_quantity, &QComboBox::currentIndexChanged, this, [this] { chartControlsChanged(); });
    connect(m_statistic, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_filling) m_userChoseStatistic = true;
        chartControlsChanged();
    });
    return panel;
}

QWidget* ServingView::buildTablePanel() {
    auto* panel = new QWidget(this);
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(4);
    auto* head = new QHBoxLayout;
    QLabel* title = style::sectionTitle(tr("Per load"), panel);
    title->setWordWrap(false);
    head->addWidget(title);
    QLabel* forLabel = plainLabel(tr("Table for:"), panel);
    head->addSpacing(12);
    head->addWidget(forLabel);
    m_tableVariant = new QComboBox(panel);
    m_tableVariant->setObjectName(QStringLiteral("servingTableVariant"));
    m_tableVariant->setAccessibleName(tr("The variant whose load points the table shows"));
    m_tableVariant->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    forLabel->setBuddy(m_tableVariant);
    head->addWidget(m_tableVariant);
    m_variantDetails = style::caption(QString(), panel);
    m_variantDetails->setObjectName(QStringLiteral("servingVariantDetails"));
    m_variantDetails->setTextInteractionFlags(Qt::TextSelectableByMouse);
    head->addWidget(m_variantDetails, 1);
    layout->addLayout(head);
    m_table = new QTableView(panel);
    m_table->setObjectName(QStringLiteral("servingTable"));
    m_table->setAccessibleName(tr("Serving figures per load"));
    m_tableModel = new ServingTableModel(m_table);
    m_table->setModel(m_tableModel);
    m_table->setSortingEnabled(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);  // compact rows
    exporting::installTableExportMenu(m_table, QStringLiteral("fp8dash-serving"));
    layout->addWidget(m_table, 1);
    m_capacity = servingWrappedLabel(QString(), QStringLiteral("servingCapacity"), panel);
    layout->addWidget(m_capacity);
    m_replicas = servingWrappedLabel(QString(), QStringLiteral("servingReplicas"), panel);
    layout->addWidget(m_replicas);
    connect(m_tableVariant, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (!m_filling) showTableFor(i);
    });
    return panel;
}

void ServingView::setComparison(const ServingComparison& c) {
    if (c.variants.empty()) {
        clear();
        return;
    }
    m_c = c;
    m_filling = true;
    if (!m_userChoseStatistic) chooseStatistic(defaultStatistic());
    m_tableVariant->clear();
    for (std::size_t i = 0; i < c.variants.size(); ++i)
        m_tableVariant->addItem(visibleText(toQString(c.variants[i].label)) + (i == 0 ? tr(" (baseline)") : QString()));
    const int tableFor = c.variants.size() > 1 ? 1 : 0;
    m_tableVariant->setCurrentIndex(tableFor);
    m_filling = false;
    fillCard();
    m_sideReadout->setText(tr("Hover a point for its figures."));
    arrangeForWidth();  // a narrow window's card is as tall as its text
    m_chart->setComparison(c);
    chartControlsChanged();
    showTableFor(tableFor);
    m_stack->setCurrentIndex(1);
}

void ServingView::clear() {
    m_c.reset();
    m_filling = true;
    m_tableVariant->clear();
    m_filling = false;
    m_chart->clear();
    m_tableModel->clear();
    fillCard();
    m_stack->setCurrentIndex(0);
}

bool ServingView::isEmptyShown() const {
    return m_stack->currentIndex() == 0;
}

ServingChart::Statistic ServingView::defaultStatistic() const {
    // The SLO's first target's, as the reports' and the slide's picture (one rule: ServingChart::openingStatistic).
    return m_c ? ServingChart::openingStatistic(*m_c) : ServingChart::Statistic{ServingMetric::Ttft, 99};
}

bool ServingView::chooseStatistic(ServingChart::Statistic s) {
    const int i = m_statistic->findData(servingStatisticKey(s));
    if (i < 0) return false;
    m_statistic->setCurrentIndex(i);
    return true;
}

void ServingView::chartControlsChanged() {
    const auto quantity = static_cast<ServingChart::Quantity>(m_quantity->currentData().toInt());
    m_statistic->setEnabled(quantity == ServingChart::Quantity::Latency);
    m_chart->setStatistic(servingStatisticOfKey(m_statistic->currentData().toInt()));
    m_chart->setQuantity(quantity);
}

void ServingView::addCardLabel(QLabel* label) {
    m_cardRows->addWidget(label);
}

void ServingView::fillCard() {
    style::clearLayout(m_cardRows);
    m_gainLabels.clear();
    m_problemTexts.clear();
    m_noteTexts.clear();
    if (!m_c) {
        m_slo->clear();
        paintCard();
        return;
    }
    const ServingComparison& c = *m_c;
    // A blocking problem first: the figures below it do not compare like with like.
    for (const ServingProblem& p : c.problems) {
        if (!p.blocking) continue;
        QString problem = toQString(p.text);
        const QString lead = QStringLiteral("not comparable: ");  // core's blocking problems may say it themselves
        if (problem.startsWith(lead, Qt::CaseInsensitive)) problem = problem.mid(lead.size());
        const QString text = tr("Not comparable: %1").arg(problem);
        QLabel* label = servingWrappedLabel(text, QStringLiteral("servingBlockingProblem"), m_card);
        style::setTextTone(label, style::TextTone::Error, true);
        m_problemTexts << text;
        addCardLabel(label);
    }
    for (std::size_t i = 1; i < c.variants.size(); ++i) {
        const auto& gain = c.variants[i].gain;
        if (!gain) continue;
        QLabel* label = servingWrappedLabel(toQString(gain->sentence), QStringLiteral("servingGain"), m_card);
        style::setTextTone(label, servingGainTone(*gain), servingGainTone(*gain).has_value());
        m_gainLabels << label;
        addCardLabel(label);
    }
    if (c.variants.size() == 1) {
        QLabel* label = servingWrappedLabel(
            tr("Only the baseline has serving results: add a candidate's to see what FP8 buys against it."),
            QStringLiteral("servingOnlyBaseline"), m_card);
        m_noteTexts << label->text();
        addCardLabel(label);
    }
    // Each variant's flags (failed requests, a load where every request failed): said for every variant, not only the
    // one whose table is shown.
    for (const ServingVariantResult& v : c.variants)
        for (const std::string& flag : v.flags) {
            const QString text = toQString(v.label + ": " + flag);
            QLabel* label = style::iconRow(style::RowIcon::Warning, style::escaped(text), m_card);
            label->setObjectName(QStringLiteral("servingFlag"));
            m_problemTexts << text;
            addCardLabel(label);
        }
    for (const ServingProblem& p : c.problems) {
        if (p.blocking) continue;
        QLabel* label = style::iconRow(style::RowIcon::Warning, style::escaped(p.text), m_card);
        label->setObjectName(QStringLiteral("servingProblem"));
        m_problemTexts << toQString(p.text);
        addCardLabel(label);
    }
    for (const std::string& n : c.notes) {
        QLabel* label = style::iconRow(style::RowIcon::Info, style::escaped(n), m_card);
        label->setObjectName(QStringLiteral("servingNote"));
        m_noteTexts << toQString(n);
        addCardLabel(label);
    }
    setPlainText(m_slo, c.slo.empty() ? tr("No latency SLO was given: capacity is not judged, and each gain is output "
                                           "tokens/s at the highest load both variants measured.")
                                      : tr("Capacity is judged at your SLO: %1.").arg(toQString(c.slo.words())));
    paintCard();
}

void ServingView::paintCard() {
    // The card's edge says the outcome at a glance: not comparable, a gain, or nothing measurable.
    std::optional<Verdict> level;
    if (m_c) {
        if (m_c->blocked()) {
            level = Verdict::Investigate;
        } else {
            for (std::size_t i = 1; i < m_c->variants.size(); ++i) {
                const auto& g = m_c->variants[i].gain;
                if (g && g->measured && !g->withinNoise && !g->negative) level = Verdict::Go;
            }
        }
    }
    // The application's palette: a theme change reaches Theme::changed before the widgets' own palettes follow.
    const QColor back = QApplication::palette().color(QPalette::AlternateBase);
    const QColor edge = level ? style::verdictColor(*level) : style::secondaryTextColor();
    m_card->setStyleSheet(
        QStringLiteral("QFrame#servingCard { background: %1; border: 1px solid %2;"
                       " border-left: 5px solid %3; border-radius: 6px; }"
                       " QFrame#servingCard QLabel { background: transparent; border: none; }"
                       // The caption's own palette colour does not survive the style sheet: the
                       // dark theme showed it near the background's colour.
                       " QFrame#servingCard QLabel#servingSlo { color: %4; }")
            .arg(back.name(), style::secondaryTextColor().name(), edge.name(), style::secondaryTextColor().name()));
}

void ServingView::showTableFor(int variant) {
    if (!m_c || variant < 0 || variant >= static_cast<int>(m_c->variants.size())) {
        m_tableModel->clear();
        m_capacity->clear();
        m_replicas->clear();
        m_variantDetails->clear();
        return;
    }
    const ServingComparison& c = *m_c;
    const ServingVariantResult& v = c.variants[std::size_t(variant)];
    m_tableModel->setVariant(c, v);
    QStringList details;
    if (!v.model.empty()) details << toQString(v.model);
    QStringList tools;
    for (const std::string& t : v.tools) tools << toQString(t);
    if (!tools.isEmpty()) details << tools.join(QStringLiteral(", "));
    if (v.gpus) details << tr("%n GPU(s) per replica", "", *v.gpus);
    setPlainText(m_variantDetails, details.join(QStringLiteral(" · ")));
    setPlainText(m_capacity, tr("Capacity: %1").arg(toQString(servingCapacityWords(c, v))));
    const std::string replicas = servingReplicaWords(c, v);
    setPlainText(m_replicas, replicas.empty() ? QString() : tr("Replicas: %1").arg(toQString(replicas)));
    m_replicas->setVisible(!replicas.empty());
    m_table->resizeColumnsToContents();
    fitTableHeight();
}

void ServingView::fitTableHeight() {
    // As tall as its rows need (up to 16; more scroll), never shorter than 3 rows: the splitter gives it up to 8
    // (a sweep 1..128, 4..512) where the window has the height, the chart the rest.
    const int header = m_table->horizontalHeader()->sizeHint().height();
    const int frame = 2 * m_table->frameWidth();
    // Room for the horizontal scroll bar only where the columns are wider than the table.
    // (The table spans the view's width, less the page's margins; its own width is not laid out yet here.)
    int columns = 0;
    const QHeaderView* h = m_table->horizontalHeader();
    for (int c = 0; c < m_tableModel->columnCount(); ++c)  // the last one stretches: its content's width
        columns +=
            c + 1 < m_tableModel->columnCount()
                ? h->sectionSize(c)
                : std::max(h->sectionSizeHint(c), static_cast<const QAbstractItemView*>(m_table)->sizeHintForColumn(c));
    const int scrollBar = columns + frame > width() - 16 ? m_table->horizontalScrollBar()->sizeHint().height() : 0;
    const int row = m_table->verticalHeader()->defaultSectionSize();
    const int rows = m_tableModel->rowCount();
    m_table->setMinimumHeight(header + std::clamp(rows, 1, 3) * row + frame + scrollBar);
    m_table->setMaximumHeight(header + std::clamp(rows, 3, 16) * row + frame + scrollBar);
    m_tableWantedHeight = header + std::clamp(rows, 3, 8) * row + frame + scrollBar;
    splitTheHeight();
}

void ServingView::arrangeForWidth() {
    // Wide: the card beside the chart, a column a third as wide at most; narrow: above it, at most a few lines tall
    // (its text scrolls).
    const bool wide = width() >= 1100;
    m_topLayout->setDirection(wide ? QBoxLayout::LeftToRight : QBoxLayout::BottomToTop);  // narrow: the card on top
    m_chart->setReadoutShown(!wide);
    m_sideReadout->setVisible(wide);
    if (wide) {
        m_cardScroll->setFixedWidth(std::clamp(width() * 3 / 10, 340, 520));
        m_cardScroll->setMinimumHeight(0);
        m_cardScroll->setMaximumHeight(QWIDGETSIZE_MAX);
    } else {
        m_cardScroll->setMinimumWidth(0);
        m_cardScroll->setMaximumWidth(QWIDGETSIZE_MAX);
        const int text = m_card->heightForWidth(std::max(200, width() - 16));
        m_cardScroll->setFixedHeight(std::min(text > 0 ? text : m_card->sizeHint().height(), 170));
    }
}

void ServingView::splitTheHeight() {
    if (m_userSplit || !m_splitter || m_splitter->height() <= 0) return;
    const int total = m_splitter->height() - m_splitter->handleWidth();
    // The table panel's height for m_tableWantedHeight of table: its title row and the capacity lines besides.
    const int besides = std::max(0, m_tablePanel->minimumSizeHint().height() - m_table->minimumHeight());
    const int topMinimum = m_splitter->widget(0)->minimumSizeHint().height();
    const int wanted = besides + m_tableWantedHeight;
    const int table = std::max(std::min(wanted, total - topMinimum), m_tablePanel->minimumSizeHint().height());
    m_splitter->setSizes({std::max(0, total - table), table});
}

void ServingView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    arrangeForWidth();
    fitTableHeight();  // the scroll bar's room depends on the width; the split on the height
}

QLabel* ServingView::readoutLabel() const {
    return m_sideReadout->isVisibleTo(this) ? m_sideReadout
                                            : m_chart->findChild<QLabel*>(QStringLiteral("servingHover"));
}

QString ServingView::cardTitle() const {
    return m_cardTitle->text();
}

QString ServingView::sloText() const {
    return m_slo->text();
}

QStringList ServingView::gainTexts() const {
    QStringList out;
    for (const QLabel* l : m_gainLabels) out << l->text();
    return out;
}

QStringList ServingView::problemTexts() const {
    return m_problemTexts;
}

QStringList ServingView::noteTexts() const {
    return m_noteTexts;
}

QString ServingView::capacityText() const {
    return m_capacity->text();
}

QString ServingView::replicaText() const {
    return m_replicas->text();
}

}  // namespace fp8dash::ui
