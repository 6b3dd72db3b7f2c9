#include "fp8dash/ui/forest_plot.h"

#include <QAbstractItemModel>
#include <QApplication>
#include <QEvent>
#include <QHelpEvent>
#include <QItemSelectionModel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QToolTip>
#include <QTreeView>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "fp8dash/core/nice_ticks.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/number_text.h"
#include "fp8dash/ui/task_table_model.h"
#include "fp8dash/ui/task_table_view.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

namespace {
constexpr int kRightMargin = 14;
constexpr int kArrowLength = 8;  // the arrow head of an interval cut at the axis' edge
constexpr int kArrowHalf = 4;

// Enough decimals to tell the ticks apart: 0.5 -> 1, 0.25 -> 2, 2 -> 0.
int decimalsFor(double step) {
    int d = 0;
    while (d < 4 && std::abs(step * std::pow(10.0, d) - std::round(step * std::pow(10.0, d))) > 1e-9) ++d;
    return d;
}

QString tickText(double v, int decimals) {
    return fixedText(std::abs(v) < 1e-12 ? 0.0 : v, decimals);
}

QString percentText(double v) {
    return fixedText(v, 2) + QStringLiteral(" %");
}

// The band names' font: a little smaller than the widget's, bold.
QFont forestBandFont(const QFont& base) {
    QFont f = base;
    f.setPointSizeF(f.pointSizeF() * 0.85);
    f.setBold(true);
    return f;
}

struct ForestColours {
    QColor background, text, muted, grid;
};
ForestColours forestColours(bool dark) {
    const QPalette pal = QApplication::palette();
    return {dark ? pal.color(QPalette::Base) : QColor(Qt::white),
            dark ? pal.color(QPalette::Text) : QColor(0x20, 0x21, 0x24),
            dark ? QColor(0x9a, 0xa0, 0xa6) : QColor(0x5f, 0x63, 0x68),
            dark ? QColor(255, 255, 255, 28) : QColor(0, 0, 0, 22)};
}
}  // namespace

ForestPlot::ForestPlot(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("forestPlot"));
    setAccessibleName(tr("Forest plot of the tasks' degradation"));
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    m_scroll = new QScrollBar(Qt::Vertical, this);
    m_scroll->setObjectName(QStringLiteral("forestPlotScroll"));
    m_scroll->setAccessibleName(tr("Scroll the forest plot's rows"));
    m_scroll->hide();
    connect(m_scroll, &QScrollBar::valueChanged, this, [this] { update(); });
    style::onThemeChange(this, [this] { update(); });
}

ForestPlot::Entry ForestPlot::entryOf(const TaskComparison& t) {
    Entry e;
    e.task = toQString(t.task);
    e.verdict = t.verdict;
    // The table's sign convention: degradation is the loss in the metric's good direction (verdict.h).
    if (t.deltaPct) e.loss = t.higherIsBetter ? -*t.deltaPct : *t.deltaPct;
    if (t.confidence) {
        e.low = t.confidence->lowPct;
        e.high = t.confidence->highPct;
    }
    return e;
}

void ForestPlot::attach(TaskTableView* table) {
    if (m_table) disconnect(m_table->proxyModel(), nullptr, this, nullptr);
    m_table = table;
    if (!table) return;
    QSortFilterProxyModel* proxy = table->proxyModel();
    const auto rebuild = [this] { rebuildFromTable(); };
    // The proxy's own signals: a sort is a layout change, a filter removes or inserts rows, a new report resets.
    connect(proxy, &QAbstractItemModel::modelReset, this, [this] {
        m_scroll->setValue(0);  // another report (a candidate picked): from its first row
        rebuildFromTable();
    });
    connect(proxy, &QAbstractItemModel::layoutChanged, this, rebuild);
    connect(proxy, &QAbstractItemModel::rowsInserted, this, rebuild);
    connect(proxy, &QAbstractItemModel::rowsRemoved, this, rebuild);
    connect(proxy, &QAbstractItemModel::rowsMoved, this, rebuild);
    connect(proxy, &QAbstractItemModel::dataChanged, this, rebuild);
    connect(table->treeView()->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                QModelIndex row = current.siblingAtColumn(TaskTableModel::TaskColumn);
                while (row.parent().isValid()) row = row.parent();  // a subtask: its task's row
                m_current = row.data(TaskTableModel::TaskPathRole).toString();
                // The table's current task is in view in the plot too.
                for (std::size_t i = 0; i < m_entries.size(); ++i)
                    if (m_entries[i].task == m_current) scrollToRow(static_cast<int>(i));
                update();
            });
    connect(this, &ForestPlot::taskClicked, table, [table](const QString& task) { table->selectTask(task); });
    rebuildFromTable();
}

void ForestPlot::rebuildFromTable() {
    if (!m_table) return;
    const QSortFilterProxyModel* proxy = m_table->proxyModel();
    const TaskTableModel* model = m_table->model();
    m_thresholds = model->report().thresholds;
    m_entries.clear();
    for (int r = 0; r < proxy->rowCount(); ++r) {
        const QModelIndex source = proxy->mapToSource(proxy->index(r, TaskTableModel::TaskColumn));
        if (const TaskComparison* t = model->comparisonAt(source)) m_entries.push_back(entryOf(*t));
    }
    fitHeight();
}

void ForestPlot::setReport(const ComparisonReport& report) {
    attach(nullptr);
    m_thresholds = report.thresholds;
    m_entries.clear();
    for (const TaskComparison& t : report.tasks) m_entries.push_back(entryOf(t));
    // Worst first: by verdict, then by loss (a task without one last), then by name for a stable order.
    std::stable_sort(m_entries.begin(), m_entries.end(), [](const Entry& a, const Entry& b) {
        if (a.verdict != b.verdict) return static_cast<int>(a.verdict) > static_cast<int>(b.verdict);
        if (a.loss.has_value() != b.loss.has_value()) return a.loss.has_value();
        return a.loss && *a.loss > *b.loss;
    });
    fitHeight();
}

// No taller than its rows need (the table below keeps the rest); shorter, the rows scroll.
void ForestPlot::fitHeight() {
    setMaximumHeight(naturalHeight());
    updateScrollBar();
    layoutAxis();
    updateGeometry();
    update();
}

void ForestPlot::setAlwaysLight(bool light) {
    m_alwaysLight = light;
    update();
}

// The rule of the header: zero, the bands to twice the investigate edge, every estimate, and the interval ends
// within the cap (twice the larger of that and the largest |estimate|); a little go band left of zero.
void ForestPlot::layoutAxis() {
    const double inv = m_thresholds.investigateAbove;
    double lo = 0, hi = inv > 0 && std::isfinite(inv) ? 2 * inv : 1;
    double largest = hi;
    for (const Entry& e : m_entries) {
        if (e.loss && std::isfinite(*e.loss)) {
            lo = std::min(lo, *e.loss), hi = std::max(hi, *e.loss);
            largest = std::max(largest, std::abs(*e.loss));
        }
    }
    const double cap = 2 * largest;
    for (const Entry& e : m_entries) {
        for (const auto& v : {e.low, e.high}) {
            if (v && std::isfinite(*v) && std::abs(*v) <= cap) lo = std::min(lo, *v), hi = std::max(hi, *v);
        }
    }
    // A little go band left of zero, so the zero line is not the frame.
    lo = std::min(lo, -(hi - lo) * 0.06);
    const int plotWidth = std::max(120, plotRect().width());
    const NiceTicks t = niceTicks(lo, hi, std::clamp(plotWidth / 70, 3, 10));
    m_low = t.low;
    m_high = t.high;
    m_step = t.step;
}

std::vector<double> ForestPlot::ticks() const {
    NiceTicks t;
    t.low = m_low, t.high = m_high, t.step = m_step;
    return t.values();
}

int ForestPlot::nameWidth() const {
    const QFontMetrics fm(font());
    int widest = 0;
    for (const Entry& e : m_entries) widest = std::max(widest, fm.horizontalAdvance(visibleText(e.task)));
    // Long names are elided (the tooltip has them whole): the plot keeps most of the width.
    return std::clamp(widest + 16, 60, std::max(60, std::min(240, width() * 28 / 100)));
}

int ForestPlot::rowHeight() const {
    // A line of the font with a margin above and below: room for the name, the dot and the whisker's caps.
    return std::max(QFontMetrics(font()).height() + 8, 18);
}

int ForestPlot::topHeight() const {
    return QFontMetrics(forestBandFont(font())).height() + 8;
}

int ForestPlot::bottomHeight() const {
    return 2 * QFontMetrics(font()).height() + 12;  // the tick labels, then the axis title
}

int ForestPlot::scrollBarWidth() const {
    const int rows = std::max<int>(1, static_cast<int>(m_entries.size()));
    const bool needed = rows * rowHeight() > height() - topHeight() - bottomHeight();
    return needed ? m_scroll->sizeHint().width() : 0;
}

// Whole rows (no name cut in half above the axis); the little that is left stays blank below the axis.
QRect ForestPlot::rowsViewport() const {
    const int rows = std::max<int>(1, static_cast<int>(m_entries.size()));
    const int room = std::max(0, height() - topHeight() - bottomHeight()), h = rowHeight();
    const int shown = room >= h ? std::min(rows, room / h) * h : room;
    return QRect(0, topHeight(), std::max(0, width() - scrollBarWidth()), shown);
}

int ForestPlot::scrollOffset() const {
    return scrollBarWidth() > 0 ? m_scroll->value() : 0;
}

void ForestPlot::updateScrollBar() {
    const int rows = static_cast<int>(m_entries.size());
    const int sbw = scrollBarWidth();
    if (sbw == 0) {
        m_scroll->hide();
        m_scroll->setValue(0);
        return;
    }
    const QRect view = rowsViewport();
    m_scroll->setGeometry(width() - sbw, view.top(), sbw, view.height());
    m_scroll->setRange(0, std::max(0, rows * rowHeight() - view.height()));
    m_scroll->setPageStep(std::max(1, view.height()));
    m_scroll->setSingleStep(rowHeight());
    m_scroll->show();
}

void ForestPlot::scrollToRow(int i) {
    if (i < 0 || i >= static_cast<int>(m_entries.size()) || scrollBarWidth() == 0) return;
    const QRect view = rowsViewport();
    const int top = i * rowHeight(), bottom = top + rowHeight();
    if (top < m_scroll->value()) {
        m_scroll->setValue(top);
    } else if (bottom > m_scroll->value() + view.height()) {
        m_scroll->setValue(bottom - view.height());
    }
}

QRect ForestPlot::plotRect() const {
    const int left = nameWidth();
    const QRect view = rowsViewport();
    return QRect(left, view.top(), std::max(40, view.width() - left - kRightMargin), std::max(1, view.height()));
}

double ForestPlot::xFor(double lossPct) const {
    const QRect p = plotRect();
    return p.left() + (lossPct - m_low) / (m_high - m_low) * p.width();
}

double ForestPlot::valueAt(double x) const {
    const QRect p = plotRect();
    return m_low + (x - p.left()) / p.width() * (m_high - m_low);
}

QRect ForestPlot::rowRect(int i) const {
    const int h = rowHeight();
    return QRect(0, topHeight() + i * h - scrollOffset(), rowsViewport().width(), h);
}

QRect ForestPlot::labelRect(int i) const {
    const QRect row = rowRect(i);
    const int lineHeight = QFontMetrics(font()).height();
    return QRect(6, row.top() + (row.height() - lineHeight) / 2, std::max(0, plotRect().left() - 12), lineHeight);
}

int ForestPlot::rowAt(const QPoint& pos) const {
    if (m_entries.empty() || !rowsViewport().contains(pos)) return -1;
    const int i = (pos.y() - topHeight() + scrollOffset()) / rowHeight();
    return i < static_cast<int>(m_entries.size()) ? i : -1;
}

int ForestPlot::clippedEnds(int i) const {
    if (i < 0 || i >= static_cast<int>(m_entries.size())) return NoEndClipped;
    const Entry& e = m_entries[static_cast<std::size_t>(i)];
    int flags = NoEndClipped;
    if (e.loss && e.low && e.high) {
        if (*e.low < m_low) flags |= LowEndClipped;
        if (*e.high > m_high) flags |= HighEndClipped;
    }
    return flags;
}

int ForestPlot::naturalHeight() const {
    return topHeight() + bottomHeight() + std::max<int>(1, static_cast<int>(m_entries.size())) * rowHeight();
}

QSize ForestPlot::sizeHint() const {
    return {640, naturalHeight()};
}

QSize ForestPlot::minimumSizeHint() const {
    // Three rows at least (the rest a scroll away): on a small screen the table keeps its room.
    const int rows = std::clamp(static_cast<int>(m_entries.size()), 1, 3);
    return {320, topHeight() + bottomHeight() + rows * rowHeight()};
}

// The bands' tints and names, the grid, the band edges, the zero line, the ticks and the axis title.
void ForestPlot::paintBands(QPainter& p, const QRect& plot, bool dark) {
    const ForestColours c = forestColours(dark);
    const QFontMetrics fm(font());
    const int top = topHeight();
    struct Band {
        Verdict v;
        double from, to;
        QString name;
    };
    const double go = m_thresholds.goBelow, inv = m_thresholds.investigateAbove;
    const Band bands[] = {
        {Verdict::Go, m_low, go, tr("GO < %1 %").arg(tickText(go, decimalsFor(go)))},
        {Verdict::Monitor, go, inv,
         tr("MONITOR %1–%2 %").arg(tickText(go, decimalsFor(go)), tickText(inv, decimalsFor(inv)))},
        {Verdict::Investigate, inv, m_high, tr("INVESTIGATE > %1 %").arg(tickText(inv, decimalsFor(inv)))},
    };
    const QFont bandFont = forestBandFont(font());
    const QFontMetrics bandMetrics(bandFont);
    // Each band's tint over its part of the axis; the names above it: the monitor band's centred on it (spilling
    // over its edges when it is narrow), go's and investigate's in what is left of their bands beside it.
    double x0s[3], x1s[3];
    for (int k = 0; k < 3; ++k) {
        const Band& b = bands[k];
        x0s[k] = std::clamp(xFor(b.from), double(plot.left()), double(plot.right() + 1));
        x1s[k] = std::clamp(xFor(b.to), double(plot.left()), double(plot.right() + 1));
        if (x1s[k] - x0s[k] >= 1)
            p.fillRect(QRectF(x0s[k], plot.top(), x1s[k] - x0s[k], plot.height()), style::verdictTint(b.v, dark));
    }
    p.setFont(bandFont);
    const auto drawName = [&](const Band& b, double from, double to) {
        if (to - from < 8) return;
        const QString name = bandMetrics.horizontalAdvance(b.name) <= to - from
                                 ? b.name
                                 : bandMetrics.elidedText(b.name.section(QLatin1Char(' '), 0, 0), Qt::ElideRight,
                                                          static_cast<int>(to - from));
        p.setPen(style::verdictTextColor(b.v, dark));
        p.drawText(QRectF(from, 2, to - from, top - 4), Qt::AlignHCenter | Qt::AlignVCenter, name);
    };
    double monitorLeft = x0s[1], monitorRight = x0s[1];
    if (x1s[1] - x0s[1] >= 1) {
        const double w = std::min<double>(bandMetrics.horizontalAdvance(bands[1].name) + 4, plot.width());
        monitorLeft = std::clamp((x0s[1] + x1s[1]) / 2 - w / 2, double(plot.left()), plot.right() + 1 - w);
        monitorRight = monitorLeft + w;
        drawName(bands[1], monitorLeft, monitorRight);
    }
    drawName(bands[0], x0s[0], std::min(x1s[0], monitorLeft - 8));
    drawName(bands[2], std::max(x0s[2], monitorRight + 8), x1s[2]);
    p.setFont(font());

    // Grid at the ticks, the band edges dashed, the zero line solid.
    const int decimals = decimalsFor(m_step);
    for (double v : ticks()) {
        const double x = xFor(v);
        p.setPen(QPen(c.grid, 1));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom() + 1));
        p.setPen(c.muted);
        p.drawLine(QPointF(x, plot.bottom() + 1), QPointF(x, plot.bottom() + 4));
        const QString label = tickText(v, decimals).replace(QLatin1Char('-'), QChar(0x2212));
        const int w = fm.horizontalAdvance(label);
        p.drawText(QRectF(x - w / 2.0 - 2, plot.bottom() + 4, w + 4, fm.height()), Qt::AlignCenter, label);
    }
    for (const auto& [edge, v] : {std::pair{go, Verdict::Go}, std::pair{inv, Verdict::Investigate}}) {
        if (edge < m_low || edge > m_high) continue;
        QPen pen(style::verdictColor(v == Verdict::Go ? Verdict::Monitor : Verdict::Investigate), 1, Qt::DashLine);
        p.setPen(pen);
        p.drawLine(QPointF(xFor(edge), plot.top()), QPointF(xFor(edge), plot.bottom() + 1));
    }
    if (m_low <= 0 && m_high >= 0) {
        p.setPen(QPen(c.text, 1.5));
        p.drawLine(QPointF(xFor(0), plot.top()), QPointF(xFor(0), plot.bottom() + 1));
    }
    p.setPen(c.muted);
    p.drawText(QRectF(plot.left(), plot.bottom() + 6 + fm.height(), plot.width(), fm.height() + 2),
               Qt::AlignHCenter | Qt::AlignVCenter,
               fm.elidedText(tr("Degradation in % of the baseline (dot: estimate, bar: 95 % interval, arrow: beyond "
                                "the axis; left of 0: better) · worse →"),
                             Qt::ElideMiddle, plot.width()));
}

// One row: the current one highlighted, the name at the left (elided), the whisker with caps (an arrow head where
// it is cut at the axis' edge), the dot.
void ForestPlot::paintRow(QPainter& p, int i, const QRect& plot, bool dark) {
    const ForestColours c = forestColours(dark);
    const QFontMetrics fm(font());
    const Entry& e = m_entries[static_cast<std::size_t>(i)];
    const QRect row = rowRect(i);
    const int h = row.height();
    const double cy = row.center().y() + 0.5;
    if (!m_table.isNull() && e.task == m_current) {
        QColor highlight = QApplication::palette().color(QPalette::Highlight);
        highlight.setAlpha(60);
        p.fillRect(row, highlight);
    }
    const QRect label = labelRect(i);
    p.setPen(c.text);
    p.drawText(label, Qt::AlignRight | Qt::AlignVCenter,
               fm.elidedText(visibleText(e.task), Qt::ElideMiddle, label.width()));
    if (!e.loss) {
        p.setPen(c.muted);
        p.drawText(QRect(plot.left() + 6, row.top(), plot.width() - 6, row.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   tr("no relative change (the baseline is 0)"));
        return;
    }
    if (e.low && e.high) {
        const int clipped = clippedEnds(i);
        const double left = plot.left(), right = plot.right() + 1;
        const double x0 = std::clamp(xFor(*e.low), left, right), x1 = std::clamp(xFor(*e.high), left, right);
        p.setPen(QPen(c.text, 1.6));
        p.drawLine(QPointF(x0, cy), QPointF(x1, cy));
        const double cap = std::clamp(h * 0.22, 1.0, 5.0);
        if (!(clipped & LowEndClipped)) p.drawLine(QPointF(x0, cy - cap), QPointF(x0, cy + cap));
        if (!(clipped & HighEndClipped)) p.drawLine(QPointF(x1, cy - cap), QPointF(x1, cy + cap));
        p.setPen(Qt::NoPen);
        p.setBrush(c.text);
        for (const auto& [flag, tip, dir] :
             {std::tuple{LowEndClipped, left, -1.0}, std::tuple{HighEndClipped, right, 1.0}}) {
            if (!(clipped & flag)) continue;
            const QPointF arrow[] = {
                {tip, cy}, {tip - dir * kArrowLength, cy - kArrowHalf}, {tip - dir * kArrowLength, cy + kArrowHalf}};
            p.drawPolygon(arrow, 3);
        }
    }
    p.setPen(QPen(c.background, 1.5));
    // The verdict's colour; on a dark palette its light tone (the strong one would sink into the dark tints).
    p.setBrush(dark ? style::verdictTextColor(e.verdict, true) : style::verdictColor(e.verdict));
    const double radius = std::clamp(h * 0.22, 1.5, 5.0);
    p.drawEllipse(QPointF(xFor(*e.loss), cy), radius + 1, radius + 1);
    p.setBrush(Qt::NoBrush);
}

void ForestPlot::paintEvent(QPaintEvent*) {
    // The axis depends on the width (how many ticks fit): recomputed here, cheap.
    layoutAxis();
    const bool dark = !m_alwaysLight && style::darkPalette();
    const ForestColours c = forestColours(dark);
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), c.background);
    const QRect plot = plotRect();
    paintBands(p, plot, dark);
    // The rows, clipped to their viewport (scrolled, the band names and the axis stay).
    const QRect view = rowsViewport();
    p.setClipRect(view);
    const int first = std::max(0, scrollOffset() / rowHeight());
    for (int i = first; i < static_cast<int>(m_entries.size()) && rowRect(i).top() < view.bottom() + 1; ++i)
        paintRow(p, i, plot, dark);
    if (m_entries.empty()) {
        p.setPen(c.muted);
        p.drawText(plot, Qt::AlignCenter, tr("No task matches the filter."));
    }
}

void ForestPlot::mousePressEvent(QMouseEvent* event) {
    const int i = rowAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && i >= 0) {
        emit taskClicked(m_entries[static_cast<std::size_t>(i)].task);
        event->accept();
        return;
    }
    QWidget::mousePressEvent(event);
}

void ForestPlot::mouseMoveEvent(QMouseEvent* event) {
    setCursor(rowAt(event->position().toPoint()) >= 0 && m_table ? Qt::PointingHandCursor : Qt::ArrowCursor);
    QWidget::mouseMoveEvent(event);
}

void ForestPlot::wheelEvent(QWheelEvent* event) {
    if (scrollBarWidth() > 0) {
        QCoreApplication::sendEvent(m_scroll, event);
        return;
    }
    QWidget::wheelEvent(event);
}

void ForestPlot::resizeEvent(QResizeEvent* event) {
    updateScrollBar();
    layoutAxis();
    QWidget::resizeEvent(event);
}

QString ForestPlot::toolTipHtml(int i) const {
    if (i < 0 || i >= static_cast<int>(m_entries.size())) return {};
    const Entry& e = m_entries[static_cast<std::size_t>(i)];
    QString html = QStringLiteral("<b>%1</b><br>").arg(style::escaped(e.task));
    if (e.loss) {
        html += tr("Degradation %1").arg(percentText(*e.loss));
        if (e.low && e.high) html += tr(" (95 % interval %1 to %2)").arg(percentText(*e.low), percentText(*e.high));
        if (clippedEnds(i) != NoEndClipped)
            html += QStringLiteral("<br>") + tr("The interval reaches beyond the axis (%1 to %2): its bar is cut at "
                                                "the edge, where the arrow is.")
                                                 .arg(percentText(m_low), percentText(m_high));
    } else {
        html += tr("No relative change: the baseline is 0.");
    }
    html += QStringLiteral("<br>") + tr("Verdict: %1").arg(toQString(verdictTitle(e.verdict)));
    if (m_table) html += QStringLiteral("<br>") + tr("Click to select the task in the table.");
    return html;
}

bool ForestPlot::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int i = rowAt(help->pos());
        if (i < 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        QToolTip::showText(help->globalPos(), richTip(toolTipHtml(i)), this, rowRect(i));
        return true;
    }
    return QWidget::event(event);
}

}  // namespace fp8dash::ui
