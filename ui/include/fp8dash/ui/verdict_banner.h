#pragma once
// VerdictBanner: the overall verdict in large white letters on its colour (GO green, MONITOR amber, INVESTIGATE
// red), with the advice, every reason and the thresholds in use. GUI thread only.

#include <QFrame>
#include <QString>

#include "fp8dash/core/eval_comparison.h"

class QLabel;

namespace fp8dash::ui {

class VerdictBanner : public QFrame {
    Q_OBJECT
public:
    explicit VerdictBanner(QWidget* parent = nullptr);

    void setReport(const ComparisonReport& report);

    // What the banner shows, read back from its labels (plain text).
    QString verdictText() const;
    QString adviceText() const;
    QString reasonsText() const;  // one reason per line
    QString thresholdsText() const;
    QString countsText() const;
    Verdict verdict() const { return m_verdict; }

    static QColor colorFor(Verdict v);  // the banner colour of a verdict

private:
    Verdict m_verdict = Verdict::Go;
    QLabel* m_verdictLabel = nullptr;
    QLabel* m_countsLabel = nullptr;
    QLabel* m_adviceLabel = nullptr;
    QLabel* m_reasonsLabel = nullptr;
    QLabel* m_thresholdsLabel = nullptr;
};

}  // namespace fp8dash::ui
