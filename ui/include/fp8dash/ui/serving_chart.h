#pragma once
// ServingChart: the Serving tab's throughput–latency curve (DESIGN.md "What FP8 buys"): the load on x (concurrent
// requests or requests/s; a log₂ axis whose ticks sit on the measured loads when they span 8× or more, as sweeps
// 1..512 do), on y the chosen latency statistic (TTFT, TPOT, ITL or E2E latency at p50, p90, p99 or the mean) or
// output tokens/s. One line with its points per variant, the baseline first, in the variants' colours; a dashed
// horizontal line at the SLO's limit where the SLO has a target on the statistic shown; each variant's capacity at
// the SLO marked with a star labelled "capacity 24" ("capacity ≥ 512" where every measured load meets it); a load
// where every request failed drawn as a cross at the top, never as a fast point. Hovering a point shows its read-out
// (variant, load, value, Δ against the baseline at the same load) under the chart and as a tooltip. The chart's
// context menu exports it as PNG or SVG, as every chart of the app does. Unbounded loads (everything sent at once)
// have no place on the load axis: they are in the table only, and the caption says so. Follows theme changes in
// place. GUI thread only; the comparison is copied, nothing is read from disk.

#include <QColor>
#include <QImage>
#include <QSize>
#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

#include "fp8dash/core/serving_comparison.h"

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QPointF;
class QGraphicsSimpleTextItem;
class QScatterSeries;
class QXYSeries;

namespace fp8dash::ui {

class ServingChart : public QWidget {
    Q_OBJECT
public:
    enum class Quantity { Latency, OutputTokensPerS };
    // A latency statistic: percentile 50, 90 or 99, or 0 for the mean (SloTarget's convention).
    struct Statistic {
        ServingMetric metric = ServingMetric::Ttft;
        double percentile = 99;
        bool operator==(const Statistic&) const = default;
    };

    explicit ServingChart(QWidget* parent = nullptr);
    ~ServingChart() override;

    void setComparison(const ServingComparison& c);
    void clear();
    void setQuantity(Quantity q);
    void setStatistic(Statistic s);
    Quantity quantity() const { return m_quantity; }
    Statistic statistic() const { return m_statistic; }

    // Drawn in the light chart palette whatever the application's theme (pictures for reports and slides, which
    // print and project well; chart_snapshots.h).
    void setAlwaysLight(bool light);
    // The chart of c as a picture, light (chart_snapshots.h's renderChartImage: logicalSize × scale pixels), for a
    // report or a slide; the same chart the tab shows for that quantity and statistic.
    static QImage renderImage(const ServingComparison& c, Quantity quantity, Statistic statistic,
                              QSize logicalSize = {960, 480}, qreal scale = 2.0);

    // "p99 TTFT", "mean E2E latency"; "Output tokens/s" for the throughput.
    static QString statisticName(Statistic s);
    // The statistic the Serving tab opens with, and the reports' and the slide's picture shows: the SLO's first
    // target's (a percentile the chart has no statistic for, p99.9: that metric's p99), else p99 TTFT.
    static Statistic openingStatistic(const ServingComparison& c);
    // The colour of the i-th variant (the baseline is 0), the same in every view of the serving results.
    static QColor variantColor(int i);

    QChartView* chartView() const { return m_view; }
    QChart* chart() const;
    // The series of variant i (nullptr where it has none: no plotted point, no capacity, no all-failed load).
    QLineSeries* lineSeries(int variant) const;
    QScatterSeries* capacitySeries(int variant) const;
    QScatterSeries* failedSeries(int variant) const;
    // "capacity 24", "capacity ≥ 512" ("" without a star). Variants whose capacity is the same load share one label,
    // drawn by the highest star (capacityLabelShown is false for the others). The label is drawn beside its star where
    // it crosses neither the SLO line nor another capacity label nor a star (above it, else below, right, left, ...).
    QString capacityLabel(int variant) const;
    bool capacityLabelShown(int variant) const;
    QRectF capacityLabelRect(int variant) const;      // where it is drawn, in the chart's coordinates; empty: not shown
    QLineSeries* sloSeries() const { return m_slo; }  // nullptr: no SLO target on the statistic shown
    // The variant's points on its line: indexes into ServingVariantResult::points, in the line's order.
    std::vector<std::size_t> plottedPoints(int variant) const;
    // Where x comes from: log₂ of the load on a log axis, else the load itself.
    bool logLoadAxis() const { return m_logX; }
    double loadOfX(double x) const;
    // The value plotted for a point (nullopt: the files give no such figure).
    std::optional<double> valueOf(const ServingPoint& p) const;

    // The read-out of point `point` (an index into points) of variant `variant`; what hovering it shows.
    QString pointText(int variant, std::size_t point) const;
    QString hoverText() const;  // the latest read-out shown under the chart ("" before any hover)
    // Whether the read-out line is shown under the chart (a view that shows pointHovered's text elsewhere hides it).
    void setReadoutShown(bool shown);
    QString captionText() const;  // the note under the chart (unbounded loads, a variant with no point)

signals:
    void pointHovered(const QString& text);

private:
    struct VariantSeries {
        QLineSeries* line = nullptr;
        QScatterSeries* capacity = nullptr;
        QScatterSeries* failed = nullptr;
        std::vector<std::size_t> linePoints, failedPoints;
        std::optional<std::size_t> capacityPoint;
        bool sharedLabel = false;  // another variant's capacity is at the same load: one label in the text colour
        QGraphicsSimpleTextItem* label = nullptr;  // the capacity label (a child of the chart), placed by placeLabels
    };
    void rebuild();
    void addVariant(int i);
    void labelCapacities();
    void placeCapacityLabels();
    void addSloLine(double xLo, double xHi);
    void hideFromLegend(QXYSeries* s);
    void onHovered(int variant, QXYSeries* series, const QPointF& point, bool state);
    void restyle();
    double xOf(double load) const;

    std::optional<ServingComparison> m_c;
    Quantity m_quantity = Quantity::Latency;
    Statistic m_statistic;
    bool m_logX = false;
    bool m_alwaysLight = false;
    double m_yTop = 1;
    std::vector<VariantSeries> m_series;
    QLineSeries* m_slo = nullptr;
    QChartView* m_view = nullptr;
    QLabel* m_hover = nullptr;
    QLabel* m_caption = nullptr;
    QString m_hoverText;
};

}  // namespace fp8dash::ui
