#pragma once
// VerdictBanner: the overall verdict in large white letters on its colour (GO green, MONITOR amber, INVESTIGATE
// red; grey when nothing gives a verdict yet), with the advice, every reason and the thresholds in use. The overall
// verdict is the worst of the offline evals, the domain judge and the production timeline (core's decide()); local
// benchmarks and capacity inform but give none. Under it, in a strip of its own, the reviewer's recorded decision
// (with a warning when it overrides the verdict or the evidence changed since) and a button to record or revise
// it. GUI thread only.

#include <QFrame>
#include <QString>

#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/eval_comparison.h"

class QLabel;
class QPushButton;

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
    QString reasonsText() const;  // every reason, one per line (the banner shows the first few until expanded)
    bool reasonsExpanded() const { return m_reasonsExpanded; }
    void setReasonsExpanded(bool expanded);
    static constexpr std::size_t kReasonsShown = 3;
    QString thresholdsText() const;
    QString countsText() const;
    QString decisionText() const;  // the decision strip
    QPushButton* recordButton() const { return m_recordButton; }
    Verdict verdict() const { return m_verdict.value_or(Verdict::Go); }
    std::optional<Verdict> overallVerdict() const { return m_verdict; }  // nullopt: "NO VERDICT" is shown

    static QColor colorFor(Verdict v);  // the banner colour of a verdict

signals:
    void recordDecisionRequested();

private:
    // noVerdictAdvice: the advice line when v is nullopt (empty: the timeline's default).
    void showVerdict(std::optional<Verdict> v, const QString& noVerdictAdvice);
    void showReasons(const std::vector<std::string>& reasons);
    void showReview(const ReviewDecision* decision, std::optional<Verdict> current);

    std::optional<Verdict> m_verdict = Verdict::Go;
    QLabel* m_verdictLabel = nullptr;
    QLabel* m_countsLabel = nullptr;
    QLabel* m_adviceLabel = nullptr;
    QLabel* m_reasonsLabel = nullptr;
    QLabel* m_thresholdsLabel = nullptr;
    QLabel* m_decisionLabel = nullptr;
    std::vector<std::string> m_reasons;
    bool m_reasonsExpanded = false;
    QPushButton* m_recordButton = nullptr;
};

}  // namespace fp8dash::ui
