#include "fp8dash/ui/verdict_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

#include "fp8dash/ui/loaded_comparison.h"
#include "ui_style.h"

namespace fp8dash::ui {

namespace {

QString plainOf(const QLabel* label) {
    if (label->textFormat() == Qt::RichText) return QTextDocumentFragment::fromHtml(label->text()).toPlainText();
    return label->text();
}

QString number(double v) {
    return QString::number(v, 'g', 6);
}

}  // namespace

VerdictBanner::VerdictBanner(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("verdictBanner"));
    setFrameShape(QFrame::NoFrame);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(20, 14, 20, 14);
    layout->setSpacing(24);

    auto* left = new QVBoxLayout;
    left->setSpacing(4);
    m_verdictLabel = new QLabel(this);
    m_verdictLabel->setObjectName(QStringLiteral("verdictTitle"));
    QFont big = m_verdictLabel->font();
    big.setPointSizeF(big.pointSizeF() * 2.4);
    big.setBold(true);
    big.setLetterSpacing(QFont::PercentageSpacing, 104);
    m_verdictLabel->setFont(big);
    m_verdictLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    left->addWidget(m_verdictLabel);
    m_countsLabel = new QLabel(this);
    left->addWidget(m_countsLabel);
    left->addStretch(1);
    layout->addLayout(left, 0);

    auto* right = new QVBoxLayout;
    right->setSpacing(6);
    m_adviceLabel = new QLabel(this);
    QFont adviceFont = m_adviceLabel->font();
    adviceFont.setBold(true);
    adviceFont.setPointSizeF(adviceFont.pointSizeF() * 1.15);
    m_adviceLabel->setFont(adviceFont);
    m_adviceLabel->setWordWrap(true);
    m_adviceLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    right->addWidget(m_adviceLabel);
    m_reasonsLabel = new QLabel(this);
    m_reasonsLabel->setTextFormat(Qt::RichText);
    m_reasonsLabel->setWordWrap(true);
    m_reasonsLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    right->addWidget(m_reasonsLabel);
    m_thresholdsLabel = new QLabel(this);
    m_thresholdsLabel->setWordWrap(true);
    right->addWidget(m_thresholdsLabel);
    layout->addLayout(right, 1);

    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
}

QColor VerdictBanner::colorFor(Verdict v) {
    return style::verdictColor(v);
}

void VerdictBanner::setReport(const ComparisonReport& report) {
    m_verdict = report.verdict;
    setStyleSheet(QStringLiteral("QFrame#verdictBanner { background-color: %1; border-radius: 8px; }"
                                 " QFrame#verdictBanner QLabel { color: white; background: transparent; }")
                      .arg(colorFor(report.verdict).name()));

    m_verdictLabel->setText(toQString(verdictTitle(report.verdict)));
    m_verdictLabel->setAccessibleName(tr("Verdict: %1").arg(m_verdictLabel->text()));

    int counts[3] = {0, 0, 0};
    for (const TaskComparison& t : report.tasks) ++counts[static_cast<int>(t.verdict)];
    const int n = static_cast<int>(report.tasks.size());
    QStringList parts;
    if (counts[2] > 0) parts << tr("%1 investigate").arg(counts[2]);
    if (counts[1] > 0) parts << tr("%1 monitor").arg(counts[1]);
    if (counts[0] > 0) parts << tr("%1 go").arg(counts[0]);
    // Two short lines: the left column stays narrow and nothing wraps mid-phrase.
    m_countsLabel->setText((n == 1 ? tr("1 task compared") : tr("%1 tasks compared").arg(n)) + QLatin1Char('\n') +
                           parts.join(QStringLiteral(" · ")));

    m_adviceLabel->setText(toQString(verdictAdvice(report.verdict)));

    // A list keeps long reasons readable: wrapped lines stay indented under their bullet.
    QString html = QStringLiteral(
        "<ul style=\"margin-top:0px; margin-bottom:0px; margin-left:0px;"
        " -qt-list-indent:1;\">");
    for (const std::string& reason : report.reasons) {
        html += QStringLiteral("<li style=\"margin-bottom:2px;\">") + style::escaped(reason) + QStringLiteral("</li>");
    }
    html += QStringLiteral("</ul>");
    m_reasonsLabel->setText(report.reasons.empty() ? QString() : html);
    m_reasonsLabel->setVisible(!report.reasons.empty());

    const Thresholds& t = report.thresholds;
    m_thresholdsLabel->setText(tr("Degradation thresholds: GO below %1% · MONITOR %1–%2% · INVESTIGATE above %2%")
                                   .arg(number(t.goBelow), number(t.investigateAbove)));
}

QString VerdictBanner::verdictText() const {
    return m_verdictLabel->text();
}
QString VerdictBanner::adviceText() const {
    return m_adviceLabel->text();
}
QString VerdictBanner::reasonsText() const {
    return plainOf(m_reasonsLabel);
}
QString VerdictBanner::thresholdsText() const {
    return m_thresholdsLabel->text();
}
QString VerdictBanner::countsText() const {
    return m_countsLabel->text();
}

}  // namespace fp8dash::ui
