#include "bench/bench_charts.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QGraphicsLayout>
#include <QLabel>
#include <QLegend>
#include <QLogValueAxis>
#include <QMutex>
#include <QStackedWidget>
#include <QStandardItem>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

#include "fp8dash/ui/export_actions.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/number_text.h"
#include "widgets/ui_style.h"

namespace fp8dash::ui::bench {

QString groupedInteger(std::uint64_t v) {
    QString digits = QString::number(v);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3) digits.insert(i, QLatin1Char(','));
    return digits;
}

// A saved run may hold null (NaN here) where the writer had no finite value: shown as a dash (number_text.h).
QString fixed(double v, int decimals) {
    return fixedText(v, decimals, NonFinite::Dash);
}

QString significant(double v, int digits) {
    return std::isfinite(v) ? QString::number(v, 'g', digits) : QStringLiteral("—");
}

QString bytesPerSecondText(double bytesPerSecond) {
    if (bytesPerSecond >= 1e12) return fixed(bytesPerSecond / 1e12, 2) + QStringLiteral(" TB/s");
    if (bytesPerSecond >= 1e9) return fixed(bytesPerSecond / 1e9, 1) + QStringLiteral(" GB/s");
    return fixed(bytesPerSecond / 1e6, 1) + QStringLiteral(" MB/s");
}

QString bytesText(std::uint64_t bytes) {
    const double b = static_cast<double>(bytes);
    if (bytes >= (1ull << 30)) return fixed(b / double(1ull << 30), 2) + QStringLiteral(" GiB");
    if (bytes >= (1ull << 20)) return fixed(b / double(1ull << 20), 1) + QStringLiteral(" MiB");
    return groupedInteger(bytes) + QStringLiteral(" B");
}

QString smText(const std::string& computeCapability) {
    if (computeCapability.empty()) return {};
    QString cc = toQString(computeCapability);
    cc.remove(QLatin1Char('.'));
    return QStringLiteral("sm_") + cc;
}

QString createdText(const std::string& iso8601) {
    const QString text = toQString(iso8601);
    QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!t.isValid()) t = QDateTime::fromString(text, Qt::ISODate);
    if (!t.isValid()) return text;
    return t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")) + QStringLiteral(" UTC");
}

ChartPanel::ChartPanel(const QString& title, QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    layout->addWidget(m_stack);

    m_chart = new QChart;
    m_chart->setTitle(title);
    QFont titleFont = m_chart->titleFont();
    titleFont.setBold(true);
    m_chart->setTitleFont(titleFont);
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->setBackgroundRoundness(0);
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    QFont legendFont = m_chart->legend()->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);  // three charts share the width
    m_chart->legend()->setFont(legendFont);
    m_view = new QChartView(m_chart, m_stack);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setAccessibleName(title);
    ui::exporting::installChartExportMenu(m_view, title, {});
    m_view->setMinimumSize(280, 240);
    m_stack->addWidget(m_view);

    auto* emptyPage = new QWidget(m_stack);
    auto* emptyLayout = new QVBoxLayout(emptyPage);
    auto* emptyTitle = style::sectionTitle(title, emptyPage);
    emptyTitle->setAlignment(Qt::AlignHCenter);
    emptyLayout->addStretch(1);
    emptyLayout->addWidget(emptyTitle);
    m_empty = style::caption(QString(), emptyPage);
    m_empty->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_empty->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_empty->setAccessibleName(title + tr(": no data"));
    emptyLayout->addWidget(m_empty);
    emptyLayout->addStretch(2);
    m_stack->addWidget(emptyPage);
    m_stack->setCurrentIndex(1);
}

void ChartPanel::showChart() {
    m_empty->clear();
    m_stack->setCurrentIndex(0);
}

void ChartPanel::showEmpty(const QString& text) {
    m_empty->setText(text);
    m_stack->setCurrentIndex(1);
}

bool ChartPanel::isEmptyShown() const {
    return m_stack->currentIndex() == 1;
}

QString ChartPanel::emptyText() const {
    return isEmptyShown() ? m_empty->text() : QString();
}

void fitLogAxis(QLogValueAxis* axis, double lo, double hi) {
    const double base = axis->base();
    const double logBase = std::log(base);
    double a = std::floor(std::log(lo) / logBase + 1e-9);
    double b = std::ceil(std::log(hi) / logBase - 1e-9);
    if (b <= a) {
        a -= 1;
        b += 1;
    }
    // A hair outside the powers: the axis places its labels at the powers inside the range, and pow/log rounding
    // would otherwise drop the end labels.
    axis->setRange(std::pow(base, a) * (1 - 1e-9), std::pow(base, b) * (1 + 1e-9));
}

double log2Of(double v) {
    return std::log2(v);
}

QString tokenCountLabel(double v) {
    const auto n = static_cast<long long>(std::llround(v));
    if (n >= 1024 && n % 1024 == 0) return QString::number(n / 1024) + QLatin1Char('K');
    return QString::number(n);
}

QCategoryAxis* log2TokenAxis(const QString& title, std::vector<double> values) {
    auto* axis = new QCategoryAxis;
    axis->setTitleText(title);
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    if (values.empty()) return axis;
    const double lo = log2Of(values.front()) - 0.5;
    const double hi = log2Of(values.back()) + 0.5;
    axis->setStartValue(lo);
    double last = -INFINITY;
    for (double v : values) {
        const double at = log2Of(v);
        if (at - last < 0.9) continue;
        axis->append(tokenCountLabel(v), at);
        last = at;
    }
    axis->setRange(lo, hi);
    return axis;
}

QString percentLabel(double fraction) {
    return QString::number(fraction * 100, 'g', 3) + QLatin1Char('%');
}

QCategoryAxis* logPercentAxis(const QString& title, double lo, double hi) {
    auto* axis = new QCategoryAxis;
    axis->setTitleText(title);
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    if (!(lo > 0) || !(hi >= lo) || !std::isfinite(hi)) return axis;
    // The marks per decade: the narrower the span, the more of them (each mark at least ~a tenth of the span from
    // the next, so the labels do not collide).
    const double decades = std::log10(hi / lo);
    static const std::vector<double> kFine = {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8};
    static const std::vector<double> kMedium = {1, 1.5, 2, 3, 4, 5, 7};
    static const std::vector<double> kCoarse = {1, 2, 3, 5};
    static const std::vector<double> kDecade = {1, 2, 5};
    const std::vector<double>& steps = decades < 0.35  ? kFine
                                       : decades < 0.8 ? kMedium
                                       : decades < 2   ? kCoarse
                                                       : kDecade;
    std::vector<double> marks;
    const int first = static_cast<int>(std::floor(std::log10(lo))) - 1;
    const int last = static_cast<int>(std::ceil(std::log10(hi))) + 1;
    for (int e = first; e <= last; ++e)
        for (double m : steps) marks.push_back(m * std::pow(10.0, e));
    // The range: from the mark at or below lo to the mark at or above hi (a hair of slack for rounding); a single
    // value, or two on neighbouring marks, get one more mark each side, so at least three are labelled.
    std::size_t i = 0, j = marks.size() - 1;
    for (std::size_t k = 0; k < marks.size(); ++k)
        if (marks[k] <= lo * (1 + 1e-9)) i = k;
    for (std::size_t k = marks.size(); k-- > 0;)
        if (marks[k] >= hi * (1 - 1e-9)) j = k;
    while (j - i < 2 && (i > 0 || j + 1 < marks.size())) {
        if (i > 0) --i;
        if (j - i < 2 && j + 1 < marks.size()) ++j;
    }
    const double from = marks[i], to = marks[j];
    const double a = std::log10(from), b = std::log10(to);
    const double pad = (b - a) * 0.04;
    axis->setStartValue(a - pad);
    for (double m : marks)
        if (m >= from && m <= to) axis->append(percentLabel(m), std::log10(m));
    axis->setRange(a - pad, b + pad);
    return axis;
}

QFuture<LocalDeviceStatus> localDeviceQuery() {
    // Started once: the GPU does not come or go while the program runs, and a driver query is not free.
    static QMutex mutex;
    static QFuture<LocalDeviceStatus> future;
    static bool started = false;
    QMutexLocker lock(&mutex);
    if (!started) {
        started = true;
        future = QtConcurrent::run([] {
            try {
                return queryLocalDevices();
            } catch (const std::exception& e) {
                LocalDeviceStatus status;
                status.backend = "cpu";
                status.unavailableCode = "error";
                status.reason = std::string("the GPU query failed: ") + e.what();
                return status;
            }
        });
    }
    return future;
}

}  // namespace fp8dash::ui::bench
