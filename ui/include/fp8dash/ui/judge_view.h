#pragma once
// JudgeView: the "Domain judge" tab (README "Domain eval with an LLM judge"): the LLM-as-judge scores of both sides as
// a grouped bar chart of the score distributions, a summary card (both means with their 95 % intervals, the mean
// difference with its interval, the rank test and its p-value, the degradation, the verdict, the confidence and
// equivalence answers in words, how the samples were paired) and the biggest drops with their prompts and answers, the
// selected one in full in a detail pane. Without a judge section it says how to add judge scores. GUI thread only; owns
// its children.

#include <QString>
#include <QWidget>

#include <optional>

#include "fp8dash/core/judge_scores.h"

class QBarSet;
class QChartView;
class QLabel;
class QStackedWidget;
class QTableView;
class QTextBrowser;

namespace fp8dash::ui {

class JudgeDropsModel;

class JudgeView : public QWidget {
    Q_OBJECT
public:
    explicit JudgeView(QWidget* parent = nullptr);

    // Shows a judge comparison; `section` holds the scores it was computed from (for each side's own interval).
    // nullptr for either shows the empty state. Labels name the sides ("BF16", "FP8").
    void setJudge(const JudgeSection* section, const JudgeComparison* comparison, const QString& baselineLabel,
                  const QString& candidateLabel);
    void clear();

    bool isEmptyState() const;
    QString emptyText() const;

    // What the summary card shows, plain text, for tests and accessibility.
    QString verdictText() const;
    QString meansText() const;       // both means with their intervals, one per line
    QString differenceText() const;  // the mean difference with its interval and in %
    QString testText() const;        // the rank test and its p-value
    QString degradationText() const;
    QString confidenceText() const;
    QString equivalenceText() const;
    QString samplesText() const;  // paired n, ids on one side only, or unpaired counts

    QChartView* chartView() const { return m_chartView; }
    QBarSet* baselineSet() const { return m_baselineSet; }  // nullptr in the empty state
    QBarSet* candidateSet() const { return m_candidateSet; }
    QStringList categories() const;  // the chart's score categories, "1".."5"
    QTableView* dropsTable() const { return m_dropsTable; }
    JudgeDropsModel* dropsModel() const { return m_dropsModel; }
    QTextBrowser* detailPane() const { return m_detail; }
    QLabel* dropsNote() const { return m_dropsNote; }

    void selectDrop(int row);  // selects a row of the drops table (and so fills the detail pane)

private:
    QWidget* buildEmptyPage();             // the constructor's page without scores
    QWidget* buildCard(QWidget* parent);   // the summary card
    QWidget* buildDrops(QWidget* parent);  // the biggest drops and the detail pane
    void showChart(const JudgeComparison& c, const QString& baselineLabel, const QString& candidateLabel);
    void showSummary(const JudgeSection& section, const JudgeComparison& c, const QString& baselineLabel,
                     const QString& candidateLabel);
    void showDrops(const JudgeComparison& c, const QString& baselineLabel, const QString& candidateLabel);
    void showDetail(int row);
    void paintColours();  // the palette's colours, again: after showSummary and on a theme change

    QStackedWidget* m_stack = nullptr;
    QLabel* m_empty = nullptr;
    QChartView* m_chartView = nullptr;
    QBarSet* m_baselineSet = nullptr;
    QBarSet* m_candidateSet = nullptr;
    double m_highestBar = 0;  // the tallest bar's count, for the y axis' ticks
    void fitCountTicks();     // nice ticks (nice_ticks.h), as many as the plot's height shows without hiding labels
    QWidget* m_card = nullptr;
    QLabel* m_verdict = nullptr;
    QLabel* m_reason = nullptr;
    QLabel* m_means = nullptr;
    QLabel* m_difference = nullptr;
    QLabel* m_test = nullptr;
    QLabel* m_degradation = nullptr;
    QLabel* m_confidence = nullptr;
    QLabel* m_equivalence = nullptr;
    QLabel* m_samples = nullptr;
    QLabel* m_sources = nullptr;
    QLabel* m_dropsNote = nullptr;
    QTableView* m_dropsTable = nullptr;
    JudgeDropsModel* m_dropsModel = nullptr;
    QTextBrowser* m_detail = nullptr;

    std::optional<JudgeComparison> m_comparison;  // the drops behind the table rows
    QString m_baselineLabel;
    QString m_candidateLabel;
};

}  // namespace fp8dash::ui
