#pragma once
// ServingView: the "Serving" tab (DESIGN.md "What FP8 buys"; docs/serving.md): what FP8 buys, measured on the user's
// server with serving benchmarks (vLLM bench serve, GuideLLM, AIPerf), for a ServingComparison of core
// (compareServing). The chart with the card beside it (above it in a window narrower than 1100 px), over the table,
// with a splitter between them that gives the table up to 8 rows and the chart the rest until the user moves it; the
// page itself never scrolls (at 1366 × 768 in the main window the chart keeps 230 px and the table its 8 rows):
//  - the "What FP8 buys" card: each candidate's gain in one sentence (ServingGain::sentence, the reports' and the
//    slide's), in the success colour where it is a gain beyond the noise, the caution colour where it is within the
//    noise, the error colour where it is a loss; the SLO in words; the comparison's problems (a blocking one first
//    and prominent: "Not comparable: …"), each variant's flags (failed requests) and the notes;
//  - the throughput–latency chart (serving_chart.h) with its controls: plot a latency statistic (TTFT, TPOT, ITL, E2E
//    latency × p50, p90, p99, mean; by default the SLO's first target's, else p99 TTFT) or output tokens/s;
//  - the per-load table of one variant (serving_table_model.h; "Table for" picks it, the first candidate by default)
//    with its capacity at the SLO and what it means in replicas under it.
// One variant's table at a time, not every variant's rows stacked: the table's Δ columns are a candidate's against
// the baseline, its rows line up with that variant's curve in the chart above, and 8 load points fit without
// scrolling at 1366 × 768 where three variants stacked (24 rows, the baseline's figures repeated between them) would
// not; the chart already compares the variants.
// Without serving results (clear(), or a comparison without variants) the tab says how to add them. The comparison is
// copied; nothing here reads a file or blocks (compareServing ran before). Follows theme changes in place (theme.h).
// GUI thread only.

#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>

#include "fp8dash/core/serving_comparison.h"
#include "fp8dash/ui/serving_chart.h"

class QBoxLayout;
class QComboBox;
class QFrame;
class QLabel;
class QScrollArea;
class QSplitter;
class QStackedWidget;
class QTableView;
class QVBoxLayout;

namespace fp8dash::ui {

class ServingTableModel;

class ServingView : public QWidget {
    Q_OBJECT
public:
    explicit ServingView(QWidget* parent = nullptr);
    ~ServingView() override;

    // Shows the comparison (a comparison without variants shows the empty state). The chart's statistic follows the
    // SLO's first target unless the user chose another one; the table shows the first candidate.
    void setComparison(const ServingComparison& c);
    // The empty state: no serving results in this comparison.
    void clear();
    const ServingComparison* comparison() const { return m_c ? &*m_c : nullptr; }

    bool isEmptyShown() const;
    static QString emptyStateText();  // what the empty state says

    // The card.
    QString cardTitle() const;
    QString sloText() const;
    QList<QLabel*> gainLabels() const { return m_gainLabels; }  // one per candidate with a gain, in variant order
    QStringList gainTexts() const;
    // The problems as shown: a blocking one "Not comparable: …", then each variant's flags ("FP8: 3.8% of requests
    // failed at 64 concurrent (12 of 320)"), then the other problems.
    QStringList problemTexts() const;
    QStringList noteTexts() const;

    // The chart and its controls.
    ServingChart* chart() const { return m_chart; }
    // The hover read-out as shown: under the card in a wide window (the column has the room; the chart keeps the
    // height), under the chart otherwise.
    QLabel* readoutLabel() const;
    QComboBox* quantityCombo() const { return m_quantity; }    // Latency, Output tokens/s
    QComboBox* statisticCombo() const { return m_statistic; }  // item data: int(metric) * 1000 + percentile
    // Picks the statistic as a user would (selects it in the combo); false when the combo has no such item.
    bool chooseStatistic(ServingChart::Statistic s);

    // The table and the words under it.
    QComboBox* tableVariantCombo() const { return m_tableVariant; }
    QTableView* table() const { return m_table; }
    ServingTableModel* tableModel() const { return m_tableModel; }
    QString capacityText() const;
    QString replicaText() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QWidget* buildCard();
    QWidget* buildChartPanel();
    QWidget* buildTablePanel();
    void fillCard();
    void addCardLabel(QLabel* label);
    void paintCard();
    void showTableFor(int variant);
    void fitTableHeight();
    void arrangeForWidth();
    void splitTheHeight();
    void chartControlsChanged();
    ServingChart::Statistic defaultStatistic() const;

    std::optional<ServingComparison> m_c;
    bool m_userChoseStatistic = false;
    bool m_filling = false;

    QStackedWidget* m_stack = nullptr;
    QSplitter* m_splitter = nullptr;      // the chart and card over the table
    QBoxLayout* m_topLayout = nullptr;    // the chart, and the card beside it (above it when narrow)
    QScrollArea* m_cardScroll = nullptr;  // the card, scrolling its text where it is taller than its room
    QLabel* m_sideReadout = nullptr;      // the chart's hover read-out under the card, in a wide window
    QWidget* m_tablePanel = nullptr;
    int m_tableWantedHeight = 0;  // the table with up to 8 rows
    bool m_userSplit = false;     // the user moved the splitter: their split stays
    QLabel* m_empty = nullptr;
    QFrame* m_card = nullptr;
    QLabel* m_cardTitle = nullptr;
    QLabel* m_slo = nullptr;
    QVBoxLayout* m_cardRows = nullptr;  // gains, problems and notes
    QList<QLabel*> m_gainLabels;
    QStringList m_problemTexts;  // the problems' and notes' texts as shown (plain)
    QStringList m_noteTexts;

    QComboBox* m_quantity = nullptr;
    QComboBox* m_statistic = nullptr;
    ServingChart* m_chart = nullptr;

    QComboBox* m_tableVariant = nullptr;
    QLabel* m_variantDetails = nullptr;
    QTableView* m_table = nullptr;
    ServingTableModel* m_tableModel = nullptr;
    QLabel* m_capacity = nullptr;
    QLabel* m_replicas = nullptr;
};

}  // namespace fp8dash::ui
