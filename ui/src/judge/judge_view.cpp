#include "fp8dash/ui/judge_view.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFontMetricsF>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLegend>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTextDocumentFragment>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <map>
#include <set>
#include <vector>

#include "fp8dash/core/nice_ticks.h"
#include "fp8dash/ui/export_actions.h"
#include "fp8dash/ui/judge_drops_model.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/number_text.h"
#include "judge/judge_text.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

namespace {

// The same pair of colours the benchmark charts use for their first two series.
const QColor kBaselineColor(0x1a, 0x73, 0xe8);
const QColor kCandidateColor(0xd9, 0x48, 0x1c);

QString plainOf(const QLabel* label) {
    if (label->textFormat() == Qt::RichText) return QTextDocumentFragment::fromHtml(label->text()).toPlainText();
    return label->text();
}

QString mean3(double v) {
    return fixedText(v, 3);
}

QString fixed2(double v) {
    return fixedText(v, 2);
}

QString judgePValueText(double p) {
    if (!std::isfinite(p)) return QStringLiteral("p = —");
    if (p < 0.001) return QStringLiteral("p = %1").arg(QString::number(p, 'e', 1));
    return QStringLiteral("p = %1").arg(QString::number(p, 'g', 3));
}

// One side's scores over the samples the comparison used: the common ids when paired, every sample otherwise.
std::vector<double> comparedScores(const JudgeScores& side, const JudgeScores& other, bool paired) {
    std::vector<double> out;
    out.reserve(side.samples.size());
    if (!paired) {
        for (const JudgeScore& s : side.samples) out.push_back(s.score);
        return out;
    }
    std::set<std::string> otherIds;
    for (const JudgeScore& s : other.samples) otherIds.insert(s.id);
    for (const JudgeScore& s : side.samples) {
        if (otherIds.count(s.id)) out.push_back(s.score);
    }
    return out;
}

QString idList(const std::vector<std::string>& ids) {
    constexpr std::size_t kShown = 5;
    QStringList shown;
    for (std::size_t i = 0; i < ids.size() && i < kShown; ++i) shown << toQString(ids[i]);
    QString text = shown.join(QStringLiteral(", "));
    if (ids.size() > kShown) text += QStringLiteral(", …");
    return text;
}

QLabel* valueLabel(const QString& objectName, QWidget* parent) {
    auto* label = plainLabel(QString(), parent);  // labels, sources and sentences quoting them come from files
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Height for width, as setWordWrap had set it: a plain setSizePolicy cleared it, so the card's layout took the
    // labels' heights at their size hint's width and cut their last lines (at 1366 × 768, the FP8 mean).
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    policy.setHeightForWidth(true);
    label->setSizePolicy(policy);
    return label;
}

QLabel* rowTitle(const QString& text, QWidget* parent) {
    auto* label = plainLabel(text, parent);
    QFont f = label->font();
    f.setBold(true);
    label->setFont(f);
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    return label;
}

}  // namespace

JudgeView::JudgeView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("judgeView"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 8, 0, 0);
    m_stack = new QStackedWidget(this);
    outer->addWidget(m_stack);

    m_stack->addWidget(buildEmptyPage());

    // Content: chart and summary card on top, the biggest drops below.
    auto* content = new QSplitter(Qt::Vertical, m_stack);
    content->setObjectName(QStringLiteral("judgeSplitter"));
    content->setChildrenCollapsible(false);

    auto* top = new QWidget(content);
    auto* topLayout = new QHBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(12);

    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setTitle(tr("Judge score distribution"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    m_chartView = new QChartView(chart, top);
    m_chartView->setObjectName(QStringLiteral("judgeChart"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(360, 240);
    connect(chart, &QChart::plotAreaChanged, this, [this] { fitCountTicks(); });
    exporting::installChartExportMenu(m_chartView, tr("Domain judge: score distribution"),
                                      QStringLiteral("fp8dash-judge-distribution"));
    topLayout->addWidget(m_chartView, 3);

    topLayout->addWidget(buildCard(top), 2);

    QWidget* bottom = buildDrops(content);

    content->addWidget(top);
    content->addWidget(bottom);
    content->setStretchFactor(0, 3);
    content->setStretchFactor(1, 2);
    content->setSizes({540, 360});  // scaled to the height it gets: the drops keep room for several rows
    m_stack->addWidget(content);

    connect(m_dropsTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showDetail(current.isValid() ? current.row() : -1); });

    clear();
    style::onThemeChange(this, [this] { paintColours(); });
}

// The summary card: the verdict with its reason, then the figures in a form, then where the scores came from.
QWidget* JudgeView::buildCard(QWidget* parent) {
    // The card is as tall as its text; the space below it stays the page's colour.
    auto* cardHolder = new QWidget;
    cardHolder->setObjectName(QStringLiteral("judgeCardHolder"));
    // Its height is the card's height for the width it gets (the scroll area asks heightForWidth): not the minimum
    // size hint, which stacks every wrapped label at its narrowest and made the scroll area scroll an empty band.
    cardHolder->setMinimumHeight(1);
    auto* holderLayout = new QVBoxLayout(cardHolder);
    holderLayout->setContentsMargins(0, 0, 0, 0);
    auto* card = new QFrame(cardHolder);
    m_card = card;
    card->setObjectName(QStringLiteral("judgeCard"));
    card->setProperty("summaryCard", true);
    auto* cardLayout = new QVBoxLayout(card);
    cardLayout->setContentsMargins(14, 10, 12, 10);
    cardLayout->setSpacing(6);
    auto* verdictRow = new QHBoxLayout;
    verdictRow->setSpacing(10);
    m_verdict = plainLabel(QString(), card);
    m_verdict->setObjectName(QStringLiteral("judgeVerdict"));
    QFont verdictFont = m_verdict->font();
    verdictFont.setBold(true);
    verdictFont.setPointSizeF(verdictFont.pointSizeF() * 1.3);
    m_verdict->setFont(verdictFont);
    m_verdict->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Maximum);
    verdictRow->addWidget(m_verdict, 0, Qt::AlignTop);
    m_reason = valueLabel(QStringLiteral("judgeReason"), card);
    verdictRow->addWidget(m_reason, 1);
    cardLayout->addLayout(verdictRow);

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    form->setLabelAlignment(Qt::AlignLeft | Qt::AlignTop);
    form->setHorizontalSpacing(12);
    form->setVerticalSpacing(6);
    m_means = valueLabel(QStringLiteral("judgeMeans"), card);
    m_difference = valueLabel(QStringLiteral("judgeDifference"), card);
    m_test = valueLabel(QStringLiteral("judgeTest"), card);
    m_degradation = valueLabel(QStringLiteral("judgeDegradation"), card);
    m_confidence = valueLabel(QStringLiteral("judgeConfidence"), card);
    m_equivalence = valueLabel(QStringLiteral("judgeEquivalence"), card);
    m_samples = valueLabel(QStringLiteral("judgeSamples"), card);
    form->addRow(rowTitle(tr("Means"), card), m_means);
    form->addRow(rowTitle(tr("Difference"), card), m_difference);
    form->addRow(rowTitle(tr("Test"), card), m_test);
    form->addRow(rowTitle(tr("Degradation"), card), m_degradation);
    form->addRow(rowTitle(tr("Confidence"), card), m_confidence);
    form->addRow(rowTitle(tr("Equivalence"), card), m_equivalence);
    form->addRow(rowTitle(tr("Samples"), card), m_samples);
    cardLayout->addLayout(form);
    m_sources = valueLabel(QStringLiteral("judgeSources"), card);
    QFont small = m_sources->font();
    small.setPointSizeF(small.pointSizeF() * 0.92);
    m_sources->setFont(small);
    cardLayout->addWidget(m_sources);
    holderLayout->addWidget(card);
    holderLayout->addStretch(1);
    // Where the pane is shorter than the wrapped card (a laptop screen), the card scrolls: its text is never cut.
    auto* scroll = new QScrollArea(parent);
    scroll->setObjectName(QStringLiteral("judgeCardScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(380);
    scroll->setWidget(cardHolder);
    return scroll;
}

// The biggest drops: a note, the table and the selected drop's texts in full beside it.
QWidget* JudgeView::buildDrops(QWidget* parent) {
    auto* bottom = new QWidget(parent);
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 6, 0, 0);
    bottomLayout->setSpacing(4);
    bottomLayout->addWidget(style::sectionTitle(tr("Biggest drops"), bottom));
    m_dropsNote = style::caption(QString(), bottom);
    m_dropsNote->setObjectName(QStringLiteral("judgeDropsNote"));
    bottomLayout->addWidget(m_dropsNote);
    auto* dropsSplitter = new QSplitter(Qt::Horizontal, bottom);
    dropsSplitter->setChildrenCollapsible(false);
    m_dropsModel = new JudgeDropsModel(this);
    m_dropsTable = new QTableView(dropsSplitter);
    m_dropsTable->setObjectName(QStringLiteral("judgeDrops"));
    m_dropsTable->setAccessibleName(tr("Biggest drops"));
    m_dropsTable->setModel(m_dropsModel);
    m_dropsTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_dropsTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_dropsTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_dropsTable->setAlternatingRowColors(true);
    m_dropsTable->setWordWrap(false);
    m_dropsTable->setTextElideMode(Qt::ElideRight);
    m_dropsTable->verticalHeader()->hide();
    m_dropsTable->horizontalHeader()->setStretchLastSection(true);
    m_dropsTable->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_dropsTable->setMinimumSize(420, 150);
    exporting::installTableExportMenu(m_dropsTable, QStringLiteral("fp8dash-judge-drops"));
    m_detail = new QTextBrowser(dropsSplitter);
    m_detail->setObjectName(QStringLiteral("judgeDropDetail"));
    m_detail->setOpenLinks(false);
    m_detail->setLineWrapMode(QTextEdit::WidgetWidth);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_detail->setPlaceholderText(tr("Select a row to read its prompt and both answers in full."));
    m_detail->setMinimumWidth(300);
    dropsSplitter->addWidget(m_dropsTable);
    dropsSplitter->addWidget(m_detail);
    dropsSplitter->setStretchFactor(0, 3);
    dropsSplitter->setStretchFactor(1, 2);
    bottomLayout->addWidget(dropsSplitter, 1);
    return bottom;
}

// The page shown without judge scores: what they are and how to add them.
QWidget* JudgeView::buildEmptyPage() {
    auto* emptyPage = new QWidget;
    auto* emptyLayout = new QVBoxLayout(emptyPage);
    emptyLayout->setContentsMargins(24, 24, 24, 24);
    m_empty = new QLabel(emptyPage);
    m_empty->setObjectName(QStringLiteral("judgeEmpty"));
    m_empty->setTextFormat(Qt::RichText);
    m_empty->setWordWrap(true);
    m_empty->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_empty->setMaximumWidth(760);
    m_empty->setText(
        tr("<p><b>This comparison has no domain judge scores.</b></p>"
           "<p>An LLM judge rates the answers of both deployments to your own domain prompts (1–5); the scores of "
           "the baseline and of the candidate are compared here, sample by sample when they share ids.</p>"
           "<p>To add them:</p><ul>"
           "<li>choose the judge score files of both sides (JSON Lines, CSV or JSON) in <b>File › New "
           "Comparison…</b>;</li>"
           "<li>no scores yet? <b>Timeline › Run Domain Eval…</b> sends each of your prompts to both "
           "deployments and has a judge model rate the answers.</li></ul>"));
    // Centred by stretches, not by an alignment flag: an aligned label gets its size hint's width, narrower than the
    // width its height was computed for, and its last lines (the command) were cut.
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(m_empty, 8);
    row->addStretch(1);
    emptyLayout->addLayout(row);
    emptyLayout->addStretch(1);
    // A short pane scrolls the text rather than cutting it.
    auto* scroll = new QScrollArea(m_stack);
    scroll->setObjectName(QStringLiteral("judgeEmptyScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(emptyPage);
    return scroll;
}

void JudgeView::clear() {
    m_comparison.reset();
    m_chartView->chart()->removeAllSeries();
    const auto axes = m_chartView->chart()->axes();
    for (QAbstractAxis* axis : axes) {
        m_chartView->chart()->removeAxis(axis);
        delete axis;
    }
    m_baselineSet = nullptr;
    m_candidateSet = nullptr;
    m_dropsModel->setDrops(nullptr, {}, {});
    m_detail->clear();
    m_stack->setCurrentIndex(0);
}

bool JudgeView::isEmptyState() const {
    return m_stack->currentIndex() == 0;
}

QString JudgeView::emptyText() const {
    return plainOf(m_empty);
}

void JudgeView::setJudge(const JudgeSection* section, const JudgeComparison* comparison, const QString& baselineLabel,
                         const QString& candidateLabel) {
    clear();
    if (!section || !comparison) return;
    m_comparison = *comparison;
    m_baselineLabel = baselineLabel.isEmpty() ? tr("Baseline") : baselineLabel;
    m_candidateLabel = candidateLabel.isEmpty() ? tr("Candidate") : candidateLabel;
    showChart(*comparison, m_baselineLabel, m_candidateLabel);
    showSummary(*section, *comparison, m_baselineLabel, m_candidateLabel);
    showDrops(*comparison, m_baselineLabel, m_candidateLabel);
    m_stack->setCurrentIndex(1);
}

void JudgeView::showChart(const JudgeComparison& c, const QString& baselineLabel, const QString& candidateLabel) {
    QChart* chart = m_chartView->chart();
    if (c.baselineDistribution.empty() || c.candidateDistribution.empty()) {
        chart->setTitle(tr("Judge score distribution: the scale has too many steps to draw"));
        return;
    }
    chart->setTitle(tr("Judge score distribution"));
    auto* series = new QBarSeries;
    // The legend draws the sets' names as rich text: the runs' labels come from the files (untrusted_ui.h).
    m_baselineSet = new QBarSet(chartText(tr("%1 (n = %2)").arg(baselineLabel).arg(c.paired ? c.nPairs : c.nBaseline)));
    m_candidateSet =
        new QBarSet(chartText(tr("%1 (n = %2)").arg(candidateLabel).arg(c.paired ? c.nPairs : c.nCandidate)));
    m_baselineSet->setColor(kBaselineColor);
    m_baselineSet->setBorderColor(kBaselineColor.darker(120));
    m_candidateSet->setColor(kCandidateColor);
    m_candidateSet->setBorderColor(kCandidateColor.darker(120));
    QStringList categories;
    std::uint64_t highest = 0;
    const std::size_t bins = std::min(c.baselineDistribution.size(), c.candidateDistribution.size());
    for (std::size_t i = 0; i < bins; ++i) {
        categories << QString::number(c.distributionFrom + static_cast<int>(i));
        m_baselineSet->append(static_cast<qreal>(c.baselineDistribution[i]));
        m_candidateSet->append(static_cast<qreal>(c.candidateDistribution[i]));
        highest = std::max({highest, c.baselineDistribution[i], c.candidateDistribution[i]});
    }
    series->append(m_baselineSet);
    series->append(m_candidateSet);
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsFormat(QStringLiteral("@value"));
    chart->addSeries(series);

    auto* xAxis = new QBarCategoryAxis;
    xAxis->append(categories);
    xAxis->setTitleText(c.paired ? tr("Judge score (paired samples only)") : tr("Judge score"));
    chart->addAxis(xAxis, Qt::AlignBottom);
    series->attachAxis(xAxis);
    auto* yAxis = new QValueAxis;
    yAxis->setTitleText(tr("Samples"));
    yAxis->setLabelFormat(QStringLiteral("%d"));
    yAxis->setTickType(QValueAxis::TicksDynamic);
    yAxis->setTickAnchor(0);
    chart->addAxis(yAxis, Qt::AlignLeft);
    series->attachAxis(yAxis);
    m_highestBar = static_cast<double>(highest);
    fitCountTicks();
    style::adaptChart(chart);  // the value labels above the bars in the palette's text colour
}

// Head room for the value labels above the bars, then nice whole-number ticks (0 / 20 / 40 …): as many as fit the
// plot's height at about two text lines each, so that Qt Charts hides none of their labels (on a laptop screen the
// chart is short). The range ends on a tick.
void JudgeView::fitCountTicks() {
    QChart* chart = m_chartView->chart();
    const auto axes = chart->axes(Qt::Vertical);
    auto* y = axes.isEmpty() ? nullptr : qobject_cast<QValueAxis*>(axes.front());
    if (!y) return;
    const double lineHeight = QFontMetricsF(y->labelsFont()).height();
    const double plotHeight = chart->plotArea().height() > 0 ? chart->plotArea().height() : 300;
    const int fit = std::clamp(static_cast<int>(plotHeight / (2 * lineHeight)), 2, 6);
    const NiceTicks ticks = niceTicks(0, std::max(1.0, m_highestBar * 1.15), fit, true);
    if (y->max() == ticks.high && y->tickInterval() == ticks.step) return;  // also ends the re-layout it causes
    y->setRange(0, ticks.high);
    y->setTickInterval(ticks.step);
}

void JudgeView::showSummary(const JudgeSection& section, const JudgeComparison& c, const QString& baselineLabel,
                            const QString& candidateLabel) {
    // The verdict, in the colours of the banner and the task table.
    m_verdict->setText(toQString(verdictTitle(c.verdict)));
    m_reason->setText(toQString(c.reason));  // core's sentence says when the cautious policy moved the verdict

    // Each side's own 95 % interval (Student t over the compared samples; core gives the difference's).
    const std::vector<double> b = comparedScores(section.baseline, section.candidate, c.paired);
    const std::vector<double> k = comparedScores(section.candidate, section.baseline, c.paired);
    const ConfidenceInterval bCi = tMeanCi(b);
    const ConfidenceInterval kCi = tMeanCi(k);
    setPlainText(m_means, tr("%1: %2 (95 % CI %3 – %4)\n%5: %6 (95 % CI %7 – %8)")
                              .arg(baselineLabel, mean3(c.baselineMean), fixed2(bCi.low), fixed2(bCi.high),
                                   candidateLabel, mean3(c.candidateMean), fixed2(kCi.low), fixed2(kCi.high)));
    m_means->setToolTip(tr("Mean judge score of each side over the compared samples, with the Student t interval of "
                           "that mean (scale %1–%2).")
                            .arg(judge_text::score(c.scale.min), judge_text::score(c.scale.max)));

    m_difference->setText(tr("%1 points (95 % CI %2 to %3) · %4 %")
                              .arg(signedText(c.meanDiff, 3), signedText(c.meanDiffCi.low, 3),
                                   signedText(c.meanDiffCi.high, 3), signedText(c.deltaPct, 2)));
    m_difference->setToolTip(
        escapedTip(tr("%1 − %2 in score points; the interval is a seeded percentile bootstrap of the %3.")
                       .arg(candidateLabel, baselineLabel,
                            c.paired ? tr("paired differences") : tr("difference of the two means"))));

    const QString testName = c.testName == "wilcoxon"       ? tr("Wilcoxon signed-rank test (paired)")
                             : c.testName == "mann_whitney" ? tr("Mann-Whitney U test (unpaired)")
                                                            : toQString(c.testName);
    const QString method = c.test.exact ? tr("exact") : tr("normal approximation, z = %1").arg(signedText(c.test.z, 2));
    m_test->setText(tr("%1: %2 (%3)").arg(testName, judgePValueText(c.test.pValue), method));
    m_test->setToolTip(c.test.pValue < 0.05
                           ? tr("Below 0.05: a difference this large would be unlikely if both sides scored alike.")
                           : tr("0.05 or above: the difference is within what chance alone produces."));

    m_degradation->setText(
        tr("%1 % (95 % interval %2 % to %3 %)")
            .arg(fixed2(c.degradationPct), fixed2(c.confidence.lowPct), fixed2(c.confidence.highPct)));
    m_degradation->setToolTip(
        escapedTip(tr("The loss of mean score in % of the %1 mean; GO below %2 %, INVESTIGATE above %3 %.")
                       .arg(baselineLabel, judge_text::score(section.options.thresholds.goBelow),
                            judge_text::score(section.options.thresholds.investigateAbove))));

    QString confidence;
    if (c.confidence.confidence == Confidence::Clear) {
        confidence = tr("Clear. ");
    } else {
        confidence = c.confidence.samplesNeeded
                         ? tr("Unsettled (about %1 samples would settle it). ").arg(*c.confidence.samplesNeeded)
                         : tr("Unsettled. ");
    }
    m_confidence->setText(confidence + toQString(c.confidence.explanation));
    m_confidence->setToolTip(escapedTip(toQString(c.confidence.explanation)));

    const EquivalenceResult& e = c.equivalence;
    const QString interval = tr("%1 % to %2 %").arg(signedText(e.lowPct, 2), signedText(e.highPct, 2));
    const QString margin = judge_text::score(e.marginPct);
    QString equivalence;
    if (e.equivalent) {
        equivalence = tr("GO is shown: the 90 % interval of the change (%1) lies within ±%2 %.").arg(interval, margin);
    } else if (c.test.pValue >= 0.05) {
        equivalence = tr("No significant drop, but equivalence is not shown: the 90 % interval of the change (%1) "
                         "reaches beyond ±%2 %.")
                          .arg(interval, margin);
    } else if (c.meanDiff < 0) {
        equivalence = tr("A significant drop (%1): equivalence is not shown; the 90 % interval of the change is %2.")
                          .arg(judgePValueText(c.test.pValue), interval);
    } else {
        equivalence = tr("A significant improvement (%1); the 90 % interval of the change (%2) lies outside ±%3 %.")
                          .arg(judgePValueText(c.test.pValue), interval, margin);
    }
    m_equivalence->setText(equivalence);
    m_equivalence->setToolTip(tr("Two one-sided tests against ±%1 %: “go” is shown only when the whole 90 % interval "
                                 "of the change lies inside that margin, not merely when no drop is significant.")
                                  .arg(margin));

    QStringList samples;
    if (c.paired) {
        samples << tr("Paired by id: %1 pairs (%2 file: %3 samples, %4 file: %5).")
                       .arg(c.nPairs)
                       .arg(baselineLabel)
                       .arg(c.nBaseline)
                       .arg(candidateLabel)
                       .arg(c.nCandidate);
        if (!c.onlyInBaseline.empty()) {
            samples << tr("%n id(s) only in %1, left out: %2", nullptr, static_cast<int>(c.onlyInBaseline.size()))
                           .arg(baselineLabel, idList(c.onlyInBaseline));
        }
        if (!c.onlyInCandidate.empty()) {
            samples << tr("%n id(s) only in %1, left out: %2", nullptr, static_cast<int>(c.onlyInCandidate.size()))
                           .arg(candidateLabel, idList(c.onlyInCandidate));
        }
    } else {
        samples << tr("Unpaired (the files do not both have ids): %1 %2 and %3 %4 samples, compared as two groups.")
                       .arg(c.nBaseline)
                       .arg(baselineLabel)
                       .arg(c.nCandidate)
                       .arg(candidateLabel);
    }
    setPlainText(m_samples, samples.join(QLatin1Char('\n')));
    setPlainText(m_sources,
                 tr("Scores: %1 from %2 · %3 from %4")
                     .arg(baselineLabel, toQString(c.baselineSource), candidateLabel, toQString(c.candidateSource)));
    paintColours();
}

// The verdict's colours (the banner's and the task table's) and the captions', read from the palette: on showing a
// comparison and on every theme change, without rebuilding anything.
void JudgeView::paintColours() {
    style::adaptCharts(this);
    m_sources->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(style::secondaryTextColor().name()));
    if (!m_comparison) return;
    const Verdict verdict = m_comparison->verdict;
    const QColor strong = style::verdictColor(verdict);
    m_verdict->setStyleSheet(QStringLiteral("QLabel { color: white; background: %1; border-radius: 4px;"
                                            " padding: 3px 10px; }")
                                 .arg(strong.name()));
    m_card->setStyleSheet(QStringLiteral("QFrame#judgeCard { background: %1; border: 1px solid %2;"
                                         " border-left: 5px solid %2; border-radius: 6px; }"
                                         " QFrame#judgeCard QLabel { background: transparent; border: none; }")
                              .arg(style::verdictTint(verdict).name(), strong.name()));
}

void JudgeView::showDrops(const JudgeComparison& c, const QString& baselineLabel, const QString& candidateLabel) {
    m_dropsModel->setDrops(&c, baselineLabel, candidateLabel);
    if (!c.paired) {
        m_dropsNote->setText(
            tr("Drops are listed per sample, which needs ids on both sides to pair the samples; "
               "these files have none."));
        m_dropsTable->setEnabled(false);
        return;
    }
    m_dropsTable->setEnabled(true);
    if (c.biggestDrops.empty()) {
        m_dropsNote->setText(tr("No sample scored lower with %1.").arg(candidateLabel));
        return;
    }
    m_dropsNote->setText(tr("The paired samples whose score fell most, largest first (up to %1). Select a row for "
                            "the full texts.")
                             .arg(c.biggestDrops.size()));
    QHeaderView* header = m_dropsTable->horizontalHeader();
    for (int col = JudgeDropsModel::IdColumn; col <= JudgeDropsModel::ChangeColumn; ++col) {
        m_dropsTable->resizeColumnToContents(col);
    }
    for (int col = JudgeDropsModel::ChangeColumn + 1; col < m_dropsModel->columnCount(); ++col) {
        header->resizeSection(col, 200);
    }
}

void JudgeView::selectDrop(int row) {
    if (row < 0 || row >= m_dropsModel->rowCount()) return;
    m_dropsTable->setCurrentIndex(m_dropsModel->index(row, 0));
    m_dropsTable->selectRow(row);
}

void JudgeView::showDetail(int row) {
    if (!m_comparison || row < 0 || row >= static_cast<int>(m_comparison->biggestDrops.size())) {
        m_detail->clear();
        return;
    }
    const JudgeDrop& d = m_comparison->biggestDrops[static_cast<std::size_t>(row)];
    auto block = [](const QString& title, const QString& text) {
        return QStringLiteral(
                   "<p style=\"margin-top:10px; margin-bottom:2px;\"><b>%1</b></p>"
                   "<p style=\"white-space: pre-wrap; margin-top:0px;\">%2</p>")
            .arg(style::escaped(title), style::escaped(text));
    };
    QString html = QStringLiteral("<p style=\"margin-bottom:2px;\"><b>%1</b></p>")
                       .arg(style::escaped(tr("Sample %1").arg(toQString(d.id))));
    html += QStringLiteral("<p style=\"margin-top:0px;\">%1</p>")
                .arg(style::escaped(tr("%1 scored %2, %3 scored %4 (%5).")
                                        .arg(m_baselineLabel, judge_text::score(d.baseline), m_candidateLabel,
                                             judge_text::score(d.candidate),
                                             judge_text::changeText(d.candidate - d.baseline))));

    std::set<std::string> shown;
    const auto [basePrompt, basePromptKey] = judge_text::findField(d.baselineFields, judge_text::kPromptKeys);
    const auto [candPrompt, candPromptKey] = judge_text::findField(d.candidateFields, judge_text::kPromptKeys);
    if (!basePrompt.isEmpty() || !candPrompt.isEmpty()) {
        if (basePrompt.isEmpty() || candPrompt.isEmpty() || basePrompt == candPrompt) {
            html += block(tr("Prompt"), basePrompt.isEmpty() ? candPrompt : basePrompt);
        } else {
            html += block(tr("Prompt (%1)").arg(m_baselineLabel), basePrompt);
            html += block(tr("Prompt (%1)").arg(m_candidateLabel), candPrompt);
        }
    }
    struct Side {
        const Json* fields;
        QString label;
        std::string promptKey;
    };
    const Side sides[] = {{&d.baselineFields, m_baselineLabel, basePromptKey},
                          {&d.candidateFields, m_candidateLabel, candPromptKey}};
    for (const Side& side : sides) {
        const auto [answer, answerKey] = judge_text::findField(*side.fields, judge_text::kAnswerKeys);
        if (!answerKey.empty()) html += block(tr("%1 answer").arg(side.label), answer);
    }
    for (const Side& side : sides) {
        const auto [comment, commentKey] = judge_text::findField(*side.fields, judge_text::kCommentKeys);
        if (!commentKey.empty()) html += block(tr("Judge comment on %1").arg(side.label), comment);
    }
    // Every other field the files kept, so nothing of the drill-down is lost.
    for (const Side& side : sides) {
        if (!side.fields->is_object()) continue;
        const std::string answerKey = judge_text::findField(*side.fields, judge_text::kAnswerKeys).second;
        const std::string commentKey = judge_text::findField(*side.fields, judge_text::kCommentKeys).second;
        for (const auto& [key, value] : side.fields->items()) {
            if (key == side.promptKey || key == answerKey || key == commentKey) continue;
            html += block(tr("%1 (%2)").arg(toQString(key), side.label), judge_text::fieldValueText(value));
        }
    }
    m_detail->setHtml(html);
}

QStringList JudgeView::categories() const {
    const auto axes = m_chartView->chart()->axes(Qt::Horizontal);
    for (QAbstractAxis* axis : axes) {
        if (auto* categoryAxis = qobject_cast<QBarCategoryAxis*>(axis)) return categoryAxis->categories();
    }
    return {};
}

QString JudgeView::verdictText() const {
    return m_verdict->text();
}
QString JudgeView::meansText() const {
    return m_means->text();
}
QString JudgeView::differenceText() const {
    return m_difference->text();
}
QString JudgeView::testText() const {
    return m_test->text();
}
QString JudgeView::degradationText() const {
    return m_degradation->text();
}
QString JudgeView::confidenceText() const {
    return m_confidence->text();
}
QString JudgeView::equivalenceText() const {
    return m_equivalence->text();
}
QString JudgeView::samplesText() const {
    return m_samples->text();
}

}  // namespace fp8dash::ui
