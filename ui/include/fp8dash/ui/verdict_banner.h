#pragma once
// VerdictBanner: the overall verdict in large white letters on its colour (GO green, MONITOR amber, INVESTIGATE
// red; grey when nothing gives a verdict yet). Always shown: the verdict; beside it how sure it is (core's
// verdictCertainty) and the counts with the reviewer's recorded decision (flagged when it has warnings), wrapped,
// never cut; a Details button and a button to record or revise the decision. The details, a click away: the advice,
// every reason, the thresholds in use and, in a strip of its own, the decision in full (with a warning when it
// overrides the verdict or the evidence changed since). Whether the details are shown is remembered per user (QSettings
// "view/bannerDetails"; collapsed at first, so a laptop's screen keeps the tables); shown, they scroll inside the
// banner, no taller than kDetailsSharePct of the window's height, so every reason stays reachable and the views below
// keep their room. The overall verdict is the worst of
// the offline evals, the domain judge and the production timeline (core's decide()); local benchmarks and capacity
// inform but give none. GUI thread only.

#include <QFrame>
#include <QPointer>
#include <QString>

#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/verdict_certainty.h"

class QHBoxLayout;
class QLabel;
class QPushButton;
class QScrollArea;
class QToolButton;

namespace fp8dash::ui {

class VerdictBanner : public QFrame {
    Q_OBJECT
public:
    explicit VerdictBanner(QWidget* parent = nullptr);

    // The offline evals alone.
    void setReport(const ComparisonReport& report);
    // Everything the document holds: evals (when doc.hasEvals), the judge comparison and the production timeline.
    void setDecision(const Decision& decision, const ComparisonDocument& doc);

    // What the banner shows, read back from its labels (plain text).
    QString verdictText() const;
    QString adviceText() const;
    QString reasonsText() const;  // every reason, one per line, as the details show them (the report's list)
    // How sure the verdict is, the whole sentence ("INVESTIGATE by the estimate — inconclusive: …"); beside the
    // verdict the banner shows what follows its first word.
    QString certaintyText() const;
    QString headlineText() const;  // the verdict's first line as every report words it (core's verdictHeadline)
    QString caveatText() const;    // "⚠ not comparable: …" beside a verdict that is not clean; "" when clean
    bool cleanVerdict() const;
    // Several candidates: the candidate the Evals tab shows, when it is not the deciding variant ("" otherwise).
    void setShownCandidate(const QString& label);
    QString shownCandidateText() const;
    QString thresholdsText() const;
    QString countsText() const;
    QString decisionText() const;  // the decision strip
    QString summaryText() const;   // beside the verdict, under how sure it is: counts and decision (wrapped)
    bool detailsShown() const;
    void setDetailsShown(bool shown) { setDetailsShown(shown, true); }  // and remembers it for this user
    QToolButton* detailsButton() const { return m_detailsButton; }
    QPushButton* recordButton() const { return m_recordButton; }
    Verdict verdict() const { return m_verdict.value_or(Verdict::Go); }
    std::optional<Verdict> overallVerdict() const { return m_verdict; }  // nullopt: "NO VERDICT" is shown

    static QColor colorFor(Verdict v);  // the banner colour of a verdict

signals:
    void recordDecisionRequested();
    void verdictRulesRequested();  // the details' "Change the Verdict Rules…" was clicked
    // A "What does … mean?" link of the details was clicked: the glossary's entry for `term` ("INVESTIGATE",
    // "Inconclusive"); the main window opens the guide there (glossaryLink).
    void glossaryRequested(const QString& term);

private:
    // noVerdictAdvice: the advice line when v is nullopt (empty: the timeline's default).
    void showVerdict(std::optional<Verdict> v, const QString& noVerdictAdvice, bool clean = true);
    void showReasons(const std::vector<std::string>& reasons);
    void showCertainty(const VerdictCertainty& certainty);
    void showCaveats(const std::vector<std::string>& caveats);
    void showReview(const ReviewDecision* decision, std::optional<Verdict> current, const Decision* now = nullptr);
    QHBoxLayout* buildHeadline();
    QWidget* buildDetails();
    void setDetailsShown(bool shown, bool remember);
    void updateSummary();  // the one line, from the counts and the decision

    std::optional<Verdict> m_verdict = Verdict::Go;
    QLabel* m_verdictLabel = nullptr;
    QLabel* m_countsLabel = nullptr;
    QLabel* m_adviceLabel = nullptr;
    QLabel* m_reasonsLabel = nullptr;
    QLabel* m_thresholdsLabel = nullptr;
    QLabel* m_decisionLabel = nullptr;
    QLabel* m_summaryLabel = nullptr;
    QLabel* m_certaintyLabel = nullptr;
    QLabel* m_headlineLabel = nullptr;  // what the verdict is about and rests on
    QLabel* m_caveatLabel = nullptr;    // why it is not clean
    QLabel* m_shownLabel = nullptr;     // the candidate the table shows, when not the deciding one
    QString m_headline;
    QString m_deciding;
    QString m_certainty;
    QToolButton* m_detailsButton = nullptr;
    QWidget* m_details = nullptr;  // the scroll area that holds the details pane (shown or hidden as a whole)
    QString m_decisionSummary;
    std::vector<std::string> m_reasons;
    QPushButton* m_recordButton = nullptr;

    // Layout at 1366 × 768 (issue 39): the details scroll, no taller than this share of the window's height.
    static constexpr int kDetailsSharePct = 30;
    void fitDetailsHeight();
    bool eventFilter(QObject* watched, QEvent* event) override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    QScrollArea* m_detailsScroll = nullptr;
    QWidget* m_detailsPane = nullptr;
    QPointer<QWidget> m_watchedWindow;
};

}  // namespace fp8dash::ui
