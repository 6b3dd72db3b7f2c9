#include "fp8dash/ui/forest_plot.h"

#include <QAbstractItemModel>
#include <QApplication>
#include <QEvent>
#include <QHelpEvent>
#include <QItemSelectionModel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QSortFilterProxyModel>
#include <QToolTip>
#include <QTreeView>

#include <algorithm>
#include <cmath>

#include "fp8dash/core/nice_ticks.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/number_text.h"
#include "fp8dash/ui/task_table_model.h"
#include "fp8dash/ui/task_table_view.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

namespace {
constexpr int kTop = 22;     // the band names above the rows
constexpr int kBottom = 38;  // tick labels and the axis title below them
constexpr int kRightMargin = 14;
constexpr int kNaturalRow = 24;  // a row's height when there is room
constexpr int kMinRow = 16;

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
}  // namespace

ForestPlot::ForestPlot(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("forestPlot"));
    setAccessibleName(tr("Forest plot of the tasks' degradation"));
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
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
    connect(proxy, &QAbstractItemModel::modelReset, this, rebuild);
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

// Rows grow to a comfortable height where there is room (a big screen) and no further: the table keeps the rest.
void ForestPlot::fitHeight() {
    layoutAxis();
    setMaximumHeight(kTop + kBottom + std::max<int>(1, static_cast<int>(m_entries.size())) * (kNaturalRow + 12) + 4);
    updateGeometry();
    update();
}

void ForestPlot::setAlwaysLight(bool light) {
    m_alwaysLight = light;
    update();
}

// The range covers every estimate and interval, zero, and the investigate edge with room beyond it, so that the
// three bands are always seen; nice ticks widen it to whole steps.
void ForestPlot::layoutAxis() {
    double lo = 0, hi = m_thresholds.investigateAbove * 1.3;
    if (hi <= 0) hi = 1;
    for (const Entry& e : m_entries) {
        for (const auto& v : {e.loss, e.low, e.high}) {
            if (v && std::isfinite(*v)) lo = std::min(lo, *v), hi = std::max(hi, *v);
        }
    }
    // A little go band left of zero, so the zero line is not the frame.
    lo = std::min(lo, -(hi - lo) * 0.06);
    const int plotWidth = std::max(120, width() - nameWidth() - kRightMargin);
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
    if (m_entries.empty()) return kNaturalRow;
    const int room = (height() - kTop - kBottom) / static_cast<int>(m_entries.size());
    // Many tasks in a short pane: thinner rows, every task still drawn (the names thinned out, paintEvent).
    return std::clamp(room, 3, kNaturalRow + 12);
}

QRect ForestPlot::plotRect() const {
    const int left = nameWidth();
    const int rows = static_cast<int>(m_entries.size());
    return QRect(left, kTop, std::max(40, width() - left - kRightMargin), std::max(1, rows) * rowHeight());
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
    return QRect(0, kTop + i * h, width(), h);
}

int ForestPlot::rowAt(const QPoint& pos) const {
    if (m_entries.empty() || pos.y() < kTop) return -1;
    const int i = (pos.y() - kTop) / rowHeight();
    return i < static_cast<int>(m_entries.size()) ? i : -1;
}

int ForestPlot::naturalHeight() const {
    return kTop + kBottom + std::max<int>(1, static_cast<int>(m_entries.size())) * kNaturalRow + 4;
}

QSize ForestPlot::sizeHint() const {
    return {640, naturalHeight()};
}

QSize ForestPlot::minimumSizeHint() const {
    // At most a short strip: on a small screen the table keeps its room (rows thin out below kMinRow).
    return {320, std::min(kTop + kBottom + std::max<int>(1, static_cast<int>(m_entries.size())) * kMinRow, 180)};
}

void ForestPlot::paintEvent(QPaintEvent*) {
    // The axis depends on the width (how many ticks fit): recomputed here, cheap.
    const_cast<ForestPlot*>(this)->layoutAxis();
    const bool dark = !m_alwaysLight && style::darkPalette();
    const QPalette pal = QApplication::palette();
    const QColor background = dark ? pal.color(QPalette::Base) : QColor(Qt::white);
    const QColor text = dark ? pal.color(QPalette::Text) : QColor(0x20, 0x21, 0x24);
    const QColor muted = dark ? QColor(0x9a, 0xa0, 0xa6) : QColor(0x5f, 0x63, 0x68);
    const QColor grid = dark ? QColor(255, 255, 255, 28) : QColor(0, 0, 0, 22);

    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), background);
    const QRect plot = plotRect();
    const QFontMetrics fm(font());

    // The bands, clipped to the axis: go up to goBelow, monitor to investigateAbove, investigate beyond.
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
    QFont bandFont = font();
    bandFont.setPointSizeF(bandFont.pointSizeF() * 0.85);
    bandFont.setBold(true);
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
        p.drawText(QRectF(from, 2, to - from, kTop - 4), Qt::AlignHCenter | Qt::AlignVCenter, name);
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
    const std::vector<double> tickValues = ticks();
    const int decimals = decimalsFor(m_step);
    for (double v : tickValues) {
        const double x = xFor(v);
        p.setPen(QPen(grid, 1));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom() + 1));
        p.setPen(muted);
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
        p.setPen(QPen(text, 1.5));
        p.drawLine(QPointF(xFor(0), plot.top()), QPointF(xFor(0), plot.bottom() + 1));
    }
    p.setPen(muted);
    p.drawText(QRectF(plot.left(), plot.bottom() + 4 + fm.height(), plot.width(), fm.height() + 2),
               Qt::AlignHCenter | Qt::AlignVCenter,
               tr("Degradation in % of the baseline (dot: estimate, bar: 95 % interval; left of 0: better) · worse →"));

    // The rows: the current one highlighted, the name at the left (elided), the whisker with caps, the dot.
    const int h = rowHeight();
    const double radius = std::clamp(h * 0.22, 1.5, 5.0);
    const int nameStride = std::max(1, (fm.height() + h - 1) / h);  // rows thinner than a line: every n-th name
    for (int i = 0; i < static_cast<int>(m_entries.size()); ++i) {
        const Entry& e = m_entries[static_cast<std::size_t>(i)];
        const QRect row = rowRect(i);
        const double cy = row.center().y() + 0.5;
        if (!m_table.isNull() && e.task == m_current) {
            QColor highlight = pal.color(QPalette::Highlight);
            highlight.setAlpha(60);
            p.fillRect(QRect(0, row.top(), width(), row.height()), highlight);
        }
        if (i % nameStride == 0) {
            p.setPen(text);
            const QString name = fm.elidedText(visibleText(e.task), Qt::ElideMiddle, plot.left() - 12);
            p.drawText(QRect(6, static_cast<int>(cy) - fm.height() / 2, plot.left() - 12, fm.height()),
                       Qt::AlignRight | Qt::AlignVCenter, name);
        }
        if (!e.loss) {
            p.setPen(muted);
            if (h >= fm.height())
                p.drawText(QRect(plot.left() + 6, row.top(), plot.width() - 6, row.height()),
                           Qt::AlignLeft | Qt::AlignVCenter, tr("no relative change (the baseline is 0)"));
            continue;
        }
        if (e.low && e.high) {
            const double x0 = xFor(*e.low), x1 = xFor(*e.high);
            p.setPen(QPen(text, 1.6));
            p.drawLine(QPointF(x0, cy), QPointF(x1, cy));
            const double cap = std::clamp(h * 0.22, 1.0, 5.0);
            p.drawLine(QPointF(x0, cy - cap), QPointF(x0, cy + cap));
            p.drawLine(QPointF(x1, cy - cap), QPointF(x1, cy + cap));
        }
        p.setPen(QPen(background, 1.5));
        // The verdict's colour; on a dark palette its light tone (the strong one would sink into the dark tints).
        p.setBrush(dark ? style::verdictTextColor(e.verdict, true) : style::verdictColor(e.verdict));
        p.drawEllipse(QPointF(xFor(*e.loss), cy), radius + 1, radius + 1);
        p.setBrush(Qt::NoBrush);
    }
    if (m_entries.empty()) {
        p.setPen(muted);
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

bool ForestPlot::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int i = rowAt(help->pos());
        if (i < 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        const Entry& e = m_entries[static_cast<std::size_t>(i)];
        QString html = QStringLiteral("<b>%1</b><br>").arg(style::escaped(e.task));
        if (e.loss) {
            html += tr("Degradation %1").arg(percentText(*e.loss));
            if (e.low && e.high) html += tr(" (95 % interval %1 to %2)").arg(percentText(*e.low), percentText(*e.high));
        } else {
            html += tr("No relative change: the baseline is 0.");
        }
        html += QStringLiteral("<br>") + tr("Verdict: %1").arg(toQString(verdictTitle(e.verdict)));
        if (m_table) html += QStringLiteral("<br>") + tr("Click to select the task in the table.");
        QToolTip::showText(help->globalPos(), richTip(html), this, rowRect(i));
        return true;
    }
    if (event->type() == QEvent::Resize) layoutAxis();
    return QWidget::event(event);
}

}  // namespace fp8dash::ui
