#include "fp8dash/ui/verdict_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalBlocker>
#include <QTextDocumentFragment>
#include <QToolButton>
#include <QVBoxLayout>

#include <QEvent>

#include <algorithm>

#include "fp8dash/core/verdict_certainty.h"
#include "fp8dash/core/verdict_headline.h"
#include "fp8dash/ui/guide_window.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

namespace {

QString bannerPlainOf(const QLabel* label) {
    if (label->textFormat() == Qt::RichText) return QTextDocumentFragment::fromHtml(label->text()).toPlainText();
    return label->text();
}

QString number(double v) {
    return QString::number(v, 'g', 6);
}

}  // namespace

namespace {

// The details' scroll area: as tall as the details need up to the banner's cap (its size hint), shrinkable to a few
// lines where the window is short of room (its minimum); VerdictBanner::fitDetailsHeight sets both.
class BannerDetailsScroll : public QScrollArea {
public:
    using QScrollArea::QScrollArea;
    void setHints(int hint, int minimum) {
        if (hint == m_hint && minimum == m_minimum) return;
        m_hint = hint;
        m_minimum = minimum;
        updateGeometry();
    }
    QSize sizeHint() const override { return {QScrollArea::sizeHint().width(), m_hint}; }
    QSize minimumSizeHint() const override { return {QScrollArea::minimumSizeHint().width(), m_minimum}; }

private:
    int m_hint = 0;
    int m_minimum = 0;
};

const QString kDetailsKey = QStringLiteral("view/bannerDetails");  // QSettings: the banner shows its details

}  // namespace

VerdictBanner::VerdictBanner(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("verdictBanner"));
    setFrameShape(QFrame::NoFrame);

    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(16, 8, 12, 8);
    outer->setSpacing(8);
    outer->addLayout(buildHeadline());
    m_details = buildDetails();
    outer->addWidget(m_details);
    showReview(nullptr, std::nullopt);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    // Collapsed unless this user left it open: one line keeps the tables on a laptop's screen.
    setDetailsShown(QSettings().value(kDetailsKey, false).toBool(), false);
}

// One line, always shown: the verdict, the counts and the decision, the button that shows the rest, and the button
// that records a decision.
QHBoxLayout* VerdictBanner::buildHeadline() {
    auto* row = new QHBoxLayout;
    row->setSpacing(16);
    m_verdictLabel = plainLabel(QString(), this);
    m_verdictLabel->setObjectName(QStringLiteral("verdictTitle"));
    QFont big = m_verdictLabel->font();
    big.setPointSizeF(big.pointSizeF() * 2.0);
    big.setBold(true);
    big.setLetterSpacing(QFont::PercentageSpacing, 104);
    m_verdictLabel->setFont(big);
    m_verdictLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->addWidget(m_verdictLabel, 0, Qt::AlignVCenter);
    // Beside the verdict: how sure it is (core's verdictCertainty, the report's words), then the counts and the
    // decision. Both wrap where the window is narrow: nothing is cut, the recorded decision least of all.
    auto* beside = new QVBoxLayout;
    beside->setSpacing(2);
    // What the verdict is about (the deciding variant) and what it rests on, then why it is not clean.
    const auto wrapped = [this](const QString& name, bool bold) {
        auto* label = new QLabel(this);
        label->setObjectName(name);
        label->setTextFormat(Qt::PlainText);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        QFont f = label->font();
        f.setBold(bold);
        label->setFont(f);
        return label;
    };
    m_headlineLabel = wrapped(QStringLiteral("bannerHeadline"), true);
    beside->addWidget(m_headlineLabel);
    m_caveatLabel = wrapped(QStringLiteral("bannerCaveat"), true);
    m_caveatLabel->hide();
    beside->addWidget(m_caveatLabel);
    m_shownLabel = wrapped(QStringLiteral("bannerShownCandidate"), false);
    m_shownLabel->hide();
    beside->addWidget(m_shownLabel);
    m_certaintyLabel = wrapped(QStringLiteral("bannerCertainty"), true);
    beside->addWidget(m_certaintyLabel);
    m_summaryLabel = wrapped(QStringLiteral("bannerSummary"), false);
    beside->addWidget(m_summaryLabel);
    row->addLayout(beside, 1);
    m_detailsButton = new QToolButton(this);
    m_detailsButton->setObjectName(QStringLiteral("bannerDetails"));
    m_detailsButton->setCheckable(true);
    m_detailsButton->setCursor(Qt::PointingHandCursor);
    m_detailsButton->setToolTip(tr("The advice, every reason, the thresholds and the decision's text"));
    connect(m_detailsButton, &QToolButton::toggled, this, [this](bool shown) { setDetailsShown(shown, true); });
    row->addWidget(m_detailsButton, 0, Qt::AlignVCenter);
    m_recordButton = new QPushButton(tr("Record Decision…"), this);
    m_recordButton->setObjectName(QStringLiteral("bannerRecordDecision"));
    m_recordButton->setCursor(Qt::PointingHandCursor);
    connect(m_recordButton, &QPushButton::clicked, this, &VerdictBanner::recordDecisionRequested);
    row->addWidget(m_recordButton, 0, Qt::AlignVCenter);
    return row;
}

// A click away: the counts by signal, the advice, every reason, the thresholds in use and the reviewer's decision
// in a strip of its own (so the evidence's verdict and the decision are never confused).
// They scroll inside the banner, no taller than kDetailsSharePct of the window (fitDetailsHeight): at 1366 × 768 every
// reason and the glossary links stay reachable and the plot and the table below keep their rows.
QWidget* VerdictBanner::buildDetails() {
    m_detailsScroll = new BannerDetailsScroll(this);
    m_detailsScroll->setObjectName(QStringLiteral("bannerDetailsScroll"));
    m_detailsScroll->setFrameShape(QFrame::NoFrame);
    m_detailsScroll->setWidgetResizable(true);
    m_detailsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the labels wrap instead
    m_detailsScroll->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    auto* details = new QWidget(m_detailsScroll);
    details->setObjectName(QStringLiteral("bannerDetailsPane"));
    auto* outer = new QVBoxLayout(details);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(8);
    auto* layout = new QHBoxLayout;
    layout->setSpacing(24);
    outer->addLayout(layout);
    m_countsLabel = plainLabel(QString(), details);
    layout->addWidget(m_countsLabel, 0, Qt::AlignTop);

    auto* right = new QVBoxLayout;
    right->setSpacing(6);
    m_adviceLabel = plainLabel(QString(), details);
    QFont adviceFont = m_adviceLabel->font();
    adviceFont.setBold(true);
    adviceFont.setPointSizeF(adviceFont.pointSizeF() * 1.15);
    m_adviceLabel->setFont(adviceFont);
    m_adviceLabel->setWordWrap(true);
    m_adviceLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    right->addWidget(m_adviceLabel);
    m_reasonsLabel = new QLabel(details);
    m_reasonsLabel->setObjectName(QStringLiteral("bannerReasons"));
    m_reasonsLabel->setTextFormat(Qt::RichText);
    m_reasonsLabel->setWordWrap(true);
    m_reasonsLabel->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse |
                                            Qt::LinksAccessibleByKeyboard);
    m_reasonsLabel->setOpenExternalLinks(false);
    connect(m_reasonsLabel, &QLabel::linkActivated, this, [this](const QString& link) {
        if (const QString term = glossaryTermOf(link); !term.isEmpty()) emit glossaryRequested(term);
    });
    right->addWidget(m_reasonsLabel);
    m_thresholdsLabel = plainLabel(QString(), details);
    m_thresholdsLabel->setWordWrap(true);
    right->addWidget(m_thresholdsLabel);
    // The rules behind the verdict can be changed here (the main window's Verdict rules panel).
    auto* rules = new QPushButton(tr("Change the Verdict Rules…"), details);
    rules->setObjectName(QStringLiteral("bannerVerdictRules"));
    rules->setCursor(Qt::PointingHandCursor);
    rules->setToolTip(tr("The thresholds, the policy and the recommendation gate: every verdict follows at once"));
    connect(rules, &QPushButton::clicked, this, &VerdictBanner::verdictRulesRequested);
    right->addWidget(rules, 0, Qt::AlignLeft);
    layout->addLayout(right, 1);

    auto* strip = new QFrame(details);
    strip->setObjectName(QStringLiteral("decisionStrip"));
    auto* stripLayout = new QHBoxLayout(strip);
    stripLayout->setContentsMargins(10, 6, 6, 6);
    m_decisionLabel = new QLabel(strip);
    m_decisionLabel->setObjectName(QStringLiteral("bannerDecision"));
    m_decisionLabel->setWordWrap(true);
    m_decisionLabel->setTextFormat(Qt::RichText);
    m_decisionLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    stripLayout->addWidget(m_decisionLabel, 1);
    outer->addWidget(strip);
    m_detailsScroll->setWidget(details);
    // The banner's colour shows through (setWidget turns the pane's own background on).
    for (QWidget* w : {static_cast<QWidget*>(m_detailsScroll), m_detailsScroll->viewport(), details})
        w->setAutoFillBackground(false);
    m_detailsPane = details;
    details->installEventFilter(this);  // a label's new text: the height the pane needs changes
    return m_detailsScroll;
}

void VerdictBanner::fitDetailsHeight() {
    if (!m_detailsPane) return;
    const QWidget* top = window();
    // Alone (a test, a preview), the banner is its own window: nothing to share with, no cap.
    const int cap = top == this ? QWIDGETSIZE_MAX : top->height() * kDetailsSharePct / 100;
    const QMargins margins = layout() ? layout()->contentsMargins() : QMargins();
    const int width = std::max(contentsRect().width() - margins.left() - margins.right(), 100);
    const auto heightAt = [this](int w) {
        return m_detailsPane->hasHeightForWidth() ? m_detailsPane->heightForWidth(w)
                                                  : m_detailsPane->sizeHint().height();
    };
    int wanted = heightAt(width);
    // Taller than the cap: the scroll bar takes its width, the text wraps a little more.
    if (wanted > cap) wanted = heightAt(width - m_detailsScroll->verticalScrollBar()->sizeHint().width());
    auto* scroll = static_cast<BannerDetailsScroll*>(m_detailsScroll);
    scroll->setMaximumHeight(std::max(1, std::min(wanted, cap)));
    // Where the window is short of room, the layout may shrink the details down to four lines (they scroll), so the
    // table below keeps its rows.
    scroll->setHints(std::min(wanted, cap), std::min({wanted, cap, fontMetrics().height() * 4}));
}

bool VerdictBanner::eventFilter(QObject* watched, QEvent* event) {
    if ((watched == m_detailsPane && event->type() == QEvent::LayoutRequest) ||
        (watched == m_watchedWindow && event->type() == QEvent::Resize))
        fitDetailsHeight();
    return QFrame::eventFilter(watched, event);
}

void VerdictBanner::resizeEvent(QResizeEvent* event) {
    QFrame::resizeEvent(event);
    fitDetailsHeight();  // another width: the text wraps to another height
}

void VerdictBanner::showEvent(QShowEvent* event) {
    QFrame::showEvent(event);
    // The cap follows the window the banner is shown in.
    if (QWidget* top = window(); top != this && top != m_watchedWindow) {
        if (m_watchedWindow) m_watchedWindow->removeEventFilter(this);
        m_watchedWindow = top;
        top->installEventFilter(this);
    }
    fitDetailsHeight();
}

void VerdictBanner::setDetailsShown(bool shown, bool remember) {
    m_details->setVisible(shown);
    if (shown) fitDetailsHeight();
    {
        const QSignalBlocker block(m_detailsButton);
        m_detailsButton->setChecked(shown);
    }
    m_detailsButton->setText(shown ? tr("Hide Details ▴") : tr("Details ▾"));
    m_detailsButton->setAccessibleName(shown ? tr("Hide the banner's details") : tr("Show the banner's details"));
    if (remember) QSettings().setValue(kDetailsKey, shown);
}

void VerdictBanner::updateSummary() {
    QString counts = m_countsLabel->text();
    counts.replace(QLatin1Char('\n'), QStringLiteral(" · "));
    const QString line = counts.isEmpty() ? m_decisionSummary : counts + QStringLiteral("  —  ") + m_decisionSummary;
    m_summaryLabel->setText(line);
    m_summaryLabel->setToolTip(escapedTip(line));
}

void VerdictBanner::showReview(const ReviewDecision* decision, std::optional<Verdict> current, const Decision* now) {
    if (!decision) {
        m_decisionLabel->setText(tr("<b>Decision:</b> none recorded yet"));
        m_recordButton->setText(tr("Record Decision…"));
        m_decisionSummary = tr("Decision: none recorded yet");
        updateSummary();
        return;
    }
    QString html = tr("<b>Decision: %1</b>").arg(style::escaped(std::string(reviewOutcomeTitle(decision->outcome))));
    html += QStringLiteral(" — ") +
            tr("by %1, %2").arg(style::escaped(decision->by), style::escaped(readableTimestamp(decision->at)));
    if (!decision->why.empty())
        html += QStringLiteral("<br>“") + style::escaped(excerpt(toQString(decision->why))) + QStringLiteral("”");
    // Against the whole decision where there is one: the approved variant is checked too (review.h).
    const std::vector<std::string> warnings =
        now ? assessReview(*decision, *now).warnings : assessReview(*decision, current).warnings;
    for (const std::string& w : warnings)
        html += QStringLiteral("<br><b>⚠ ") + style::escaped(w) + QStringLiteral("</b>");
    m_decisionLabel->setText(html);
    m_recordButton->setText(tr("Revise Decision…"));
    // The one-line form: the outcome and who; a warning is flagged (its words are in the details).
    m_decisionSummary =
        tr("Decision: %1 — by %2")
            .arg(toQString(std::string(reviewOutcomeTitle(decision->outcome))), toQString(decision->by));
    if (!warnings.empty()) {
        m_decisionSummary += warnings.size() == 1 ? tr("  ⚠ 1 warning") : tr("  ⚠ %1 warnings").arg(warnings.size());
    }
    updateSummary();
}

QString VerdictBanner::decisionText() const {
    return bannerPlainOf(m_decisionLabel);
}

QColor VerdictBanner::colorFor(Verdict v) {
    return style::verdictColor(v);
}

void VerdictBanner::showVerdict(std::optional<Verdict> v, const QString& noVerdictAdvice, bool clean) {
    m_verdict = v;
    // Grey when nothing gives a verdict yet (a timeline without quality series or change time). A verdict that is not
    // clean (compared past a blocking problem, a candidate without a low-precision layer) is never a solid verdict
    // colour: a dark grey banner outlined by a dashed border in the verdict's colour, the word in a light tint of it,
    // so it cannot pass for a clean GO in either theme.
    const QColor colour = v ? colorFor(*v) : QColor(0x5f, 0x63, 0x68);
    const QString frame =
        clean ? QStringLiteral("QFrame#verdictBanner { background-color: %1; border-radius: 8px; }").arg(colour.name())
              : QStringLiteral(
                    "QFrame#verdictBanner { background-color: #2f3336; border: 4px dashed %1;"
                    " border-radius: 8px; }")
                    .arg(colour.lighter(150).name());
    const QString title = clean ? QString()
                                : QStringLiteral(" QFrame#verdictBanner QLabel#verdictTitle { color: %1; }")
                                      .arg(colour.lighter(185).name());
    setStyleSheet(frame +
                  QStringLiteral(" QFrame#verdictBanner QLabel { color: white; background: transparent; }"
                                 " QFrame#decisionStrip { background-color: rgba(0, 0, 0, 56); border-radius: 6px; }"
                                 " QFrame#verdictBanner QPushButton, QFrame#verdictBanner QToolButton { color: white;"
                                 " background: transparent; border: 1px solid rgba(255, 255, 255, 170);"
                                 " border-radius: 4px; padding: 3px 10px; }"
                                 " QFrame#verdictBanner QPushButton:hover, QFrame#verdictBanner QToolButton:hover"
                                 " { background: rgba(255, 255, 255, 40); }"
                                 " QFrame#verdictBanner QPushButton:focus, QFrame#verdictBanner QToolButton:focus"
                                 " { border: 2px solid white; }") +
                  title);
    m_verdictLabel->setText(v ? toQString(verdictTitle(*v)) : tr("NO VERDICT"));
    m_verdictLabel->setAccessibleName(tr("Verdict: %1").arg(m_verdictLabel->text()));
    m_adviceLabel->setText(v ? toQString(verdictAdvice(*v))
                           : !noVerdictAdvice.isEmpty()
                               ? noVerdictAdvice
                               : tr("Nothing gives a verdict yet: the production timeline needs a quality series "
                                    "and the time FP8 went on."));
}

void VerdictBanner::showReasons(const std::vector<std::string>& reasons) {
    m_reasons = reasons;
    // Every reason, the report's list in its order (the worst signal's first): the details are a click away, so
    // they hold all of it, as the PDF does.
    // A list keeps long reasons readable: wrapped lines stay indented under their bullet.
    QString html = QStringLiteral(
        "<ul style=\"margin-top:0px; margin-bottom:0px; margin-left:0px;"
        " -qt-list-indent:1;\">");
    for (const std::string& reason : reasons)
        html += QStringLiteral("<li style=\"margin-bottom:2px;\">") + style::escaped(reason) + QStringLiteral("</li>");
    html += QStringLiteral("</ul>");
    // The words a newcomer meets here, one click from the glossary (Help › Glossary).
    QStringList help;
    if (m_verdict) help << glossaryLink(toQString(verdictTitle(*m_verdict)), QStringLiteral("color:white;"));
    const bool unsettled = std::any_of(reasons.begin(), reasons.end(), [](const std::string& r) {
        return QString::fromStdString(r).contains(QStringLiteral("unsettled"), Qt::CaseInsensitive);
    });
    if (unsettled) help << glossaryLink(QStringLiteral("unsettled"), QStringLiteral("color:white;"));
    if (!help.isEmpty())
        html +=
            QStringLiteral("<p style=\"margin-top:4px;\">") + help.join(QStringLiteral(" · ")) + QStringLiteral("</p>");
    m_reasonsLabel->setText(reasons.empty() ? QString() : html);
    m_reasonsLabel->setVisible(!reasons.empty());
}

void VerdictBanner::showCertainty(const VerdictCertainty& certainty) {
    m_certainty = toQString(certainty.sentence());
    m_certaintyLabel->setText(visibleText(toQString(certainty.qualifier)));  // task names: their controls shown
    m_certaintyLabel->setVisible(!certainty.qualifier.empty());
    m_certaintyLabel->setToolTip(certainty.inconclusive
                                     ? tr("The verdict follows the estimate. Unsettled: a 95 % interval crosses a "
                                          "band edge, so the noise could move the verdict; the cautious policy "
                                          "(New Comparison, or the Verdict rules) counts each at the worst band it "
                                          "reaches.")
                                     : QString());
}

namespace {

QString taskCounts(const ComparisonReport& report) {
    int counts[3] = {0, 0, 0};
    for (const TaskComparison& t : report.tasks) ++counts[static_cast<int>(t.verdict)];
    const int n = static_cast<int>(report.tasks.size());
    QStringList parts;
    if (counts[2] > 0) parts << VerdictBanner::tr("%1 investigate").arg(counts[2]);
    if (counts[1] > 0) parts << VerdictBanner::tr("%1 monitor").arg(counts[1]);
    if (counts[0] > 0) parts << VerdictBanner::tr("%1 go").arg(counts[0]);
    // Two short lines: the left column stays narrow and nothing wraps mid-phrase.
    return (n == 1 ? VerdictBanner::tr("1 task compared") : VerdictBanner::tr("%1 tasks compared").arg(n)) +
           QLatin1Char('\n') + parts.join(QStringLiteral(" · "));
}

QString thresholdsLine(const Thresholds& t) {
    return VerdictBanner::tr("Degradation thresholds: GO below %1% · MONITOR %1–%2% · INVESTIGATE above %2%")
        .arg(number(t.goBelow), number(t.investigateAbove));
}

QString bandsLine(const TimelineBands& b) {
    return VerdictBanner::tr(
               "Production: throughput expected +%1–%2% · quality within ±%3 points (MONITOR beyond, "
               "INVESTIGATE below −%4 or when the quality alert fires after the change)")
        .arg(number(b.throughputLowPct), number(b.throughputHighPct), number(b.qualityTolerance),
             number(b.qualityProblem));
}

}  // namespace

void VerdictBanner::showCaveats(const std::vector<std::string>& caveats) {
    QStringList lines;
    for (const std::string& c : caveats) lines << QStringLiteral("⚠ ") + visibleText(toQString(c));
    m_caveatLabel->setText(lines.join(QLatin1Char('\n')));
    m_caveatLabel->setVisible(!lines.isEmpty());
}

void VerdictBanner::setReport(const ComparisonReport& report) {
    const std::vector<std::string> caveats = verdictCaveats(report);
    showVerdict(report.verdict, {}, caveats.empty());
    showCaveats(caveats);
    m_headline = toQString(std::string(verdictTitle(report.verdict)));
    for (const std::string& c : caveats) m_headline += QStringLiteral(" — ") + toQString(c);
    m_deciding.clear();
    m_headlineLabel->hide();
    setShownCandidate(QString());
    showCertainty(verdictCertainty(report));
    m_countsLabel->setText(taskCounts(report));
    updateSummary();
    showReasons(report.reasons);
    m_thresholdsLabel->setText(thresholdsLine(report.thresholds));
}

void VerdictBanner::setDecision(const Decision& decision, const ComparisonDocument& doc) {
    // Without a verdict, say what is missing: a timeline that cannot give one yet, or a document whose evidence
    // (local benchmarks, capacity) informs the decision without deciding it.
    QString noVerdictAdvice;
    if (!decision.verdict && !doc.timeline) {
        noVerdictAdvice =
            tr("No verdict: local benchmarks and the capacity plan inform the decision but do not "
               "decide it. A verdict comes from offline evals (two lm-eval runs), domain judge scores "
               "(File › New Comparison…) or a production timeline (Timeline › Connect…).");
    }
    // The first line, the same rule as every report's (core's verdictHeadline): what the verdict is about, what it
    // rests on, and why it is not clean.
    const VerdictHeadline headline = verdictHeadline(decision);
    showVerdict(decision.verdict, noVerdictAdvice, headline.clean());
    m_headline = toQString(headline.text());
    m_deciding = toQString(headline.deciding);
    QStringList about;
    if (!headline.subject.empty()) about << toQString(headline.subject);
    if (!headline.basis.empty()) about << toQString(headline.basis);
    m_headlineLabel->setText(visibleText(about.join(QStringLiteral(" — "))));  // run labels: controls shown
    m_headlineLabel->setVisible(!about.isEmpty());
    showCaveats(headline.caveats);
    if (decision.variants && decision.verdict && !headline.subject.empty()) {
        QString advice = toQString(headline.subject);
        advice[0] = advice[0].toUpper();
        m_adviceLabel->setText(visibleText(advice) + QLatin1Char('.'));
    }
    setShownCandidate(QString());
    showCertainty(verdictCertainty(decision, doc.options.thresholds, doc.options.cautious));
    QStringList counts;
    if (decision.evals) {
        counts << (decision.variants ? visibleText(m_deciding) + QStringLiteral(": ") + taskCounts(*decision.evals)
                                     : taskCounts(*decision.evals));
    }
    if (decision.judge) {
        const JudgeComparison& j = *decision.judge;
        counts << tr("domain judge: %1 (%2 %3)")
                      .arg(toQString(verdictTitle(j.verdict)))
                      .arg(j.paired ? j.nPairs : std::min(j.nBaseline, j.nCandidate))
                      .arg(j.paired ? tr("pairs") : tr("samples"));
    }
    if (decision.timeline) {
        const TimelineReport& t = *decision.timeline;
        counts << (t.verdict ? tr("production: %1").arg(toQString(verdictTitle(*t.verdict)))
                             : tr("production: no verdict"));
    }
    m_countsLabel->setText(counts.join(QLatin1Char('\n')));
    updateSummary();
    // With one candidate's evals alone, their own reasons read best (no "offline evals:" prefix on every line); with
    // several, the recommendation's lines come first.
    showReasons(!doc.timeline && !decision.judge && decision.evals && !decision.variants ? decision.evals->reasons
                                                                                         : decision.reasons);
    QStringList lines;
    if (decision.evals) {
        lines << thresholdsLine(decision.evals->thresholds);
    } else if (decision.judge) {
        lines << thresholdsLine(doc.options.thresholds);
    }
    if (decision.variants)
        lines << tr("Recommendation gate: %1").arg(toQString(gateWords(decision.variants->recommendation.options)));
    if ((decision.evals || decision.judge) && doc.options.cautious) {
        lines << tr("Cautious policy: an interval that straddles a band edge takes the worst band it reaches.");
    }
    if (doc.timeline) lines << bandsLine(doc.timeline->settings.bands);
    m_thresholdsLabel->setText(lines.join(QLatin1Char('\n')));
    showReview(doc.currentDecision(), decision.verdict, &decision);
}

void VerdictBanner::setShownCandidate(const QString& label) {
    const bool other = !label.isEmpty() && !m_deciding.isEmpty() && label != m_deciding;
    m_shownLabel->setText(other ? tr("The Offline evals tab shows %1; the verdict is about %2.")
                                      .arg(visibleText(label), visibleText(m_deciding))
                                : QString());
    m_shownLabel->setVisible(other);
}

QString VerdictBanner::shownCandidateText() const {
    return m_shownLabel->isHidden() ? QString() : m_shownLabel->text();
}

QString VerdictBanner::headlineText() const {
    return m_headline;
}

QString VerdictBanner::caveatText() const {
    return m_caveatLabel->isHidden() ? QString() : m_caveatLabel->text();
}

bool VerdictBanner::cleanVerdict() const {
    return m_caveatLabel->isHidden();
}

QString VerdictBanner::verdictText() const {
    return m_verdictLabel->text();
}
QString VerdictBanner::certaintyText() const {
    return m_certainty;
}
QString VerdictBanner::adviceText() const {
    return m_adviceLabel->text();
}
QString VerdictBanner::reasonsText() const {
    QStringList lines;
    for (const std::string& r : m_reasons) lines << toQString(r);
    return lines.join(QLatin1Char('\n'));
}
QString VerdictBanner::thresholdsText() const {
    return m_thresholdsLabel->text();
}
QString VerdictBanner::countsText() const {
    return m_countsLabel->text();
}
QString VerdictBanner::summaryText() const {
    return m_summaryLabel->text();
}
bool VerdictBanner::detailsShown() const {
    return !m_details->isHidden();
}

}  // namespace fp8dash::ui
