#include "fp8dash/ui/comparison_view.h"

#include <QComboBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QTextDocumentFragment>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

#include "fp8dash/core/variant_text.h"
#include "fp8dash/ui/bench_view.h"
#include "fp8dash/ui/capacity_view.h"
#include "fp8dash/ui/forest_plot.h"
#include "fp8dash/ui/fp8_layers_panel.h"
#include "fp8dash/ui/judge_view.h"
#include "fp8dash/ui/long_context_panel.h"
#include "fp8dash/ui/missing_tasks_panel.h"
#include "fp8dash/ui/notes_panel.h"
#include "fp8dash/ui/review_view.h"
#include "fp8dash/ui/risk_flags_panel.h"
#include "fp8dash/ui/serving_view.h"
#include "fp8dash/ui/task_table_view.h"
#include "fp8dash/ui/timeline_view.h"
#include "fp8dash/ui/variants_view.h"
#include "fp8dash/ui/verdict_banner.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

ComparisonView::ComparisonView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 8);
    layout->setSpacing(10);

    m_banner = new VerdictBanner(this);
    layout->addWidget(m_banner);

    m_offline = new QFrame(this);
    m_offline->setObjectName(QStringLiteral("offlineNotice"));
    // The theme's notice colours (light blue on light, deep blue on dark), again after each theme change.
    const auto paintNotice = [this] {
        const style::NoticeColors c = style::noticeColors();
        m_offline->setStyleSheet(
            QStringLiteral("QFrame#offlineNotice { background: %1; border: 1px solid %2; border-radius: 6px; }"
                           " QFrame#offlineNotice QLabel { color: %3; background: transparent; border: none; }"
                           " QFrame#offlineNotice QToolButton { color: %3; border: none; font-weight: bold; }")
                .arg(c.background.name(), c.border.name(), c.text.name()));
    };
    paintNotice();
    style::onThemeChange(m_offline, paintNotice);
    auto* offlineLayout = new QHBoxLayout(m_offline);
    offlineLayout->setContentsMargins(10, 6, 6, 6);
    m_offlineLabel = new QLabel(m_offline);
    m_offlineLabel->setObjectName(QStringLiteral("offlineNoticeText"));
    m_offlineLabel->setWordWrap(true);
    m_offlineLabel->setTextFormat(Qt::RichText);
    m_offlineLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    offlineLayout->addWidget(m_offlineLabel, 1);
    auto* dismiss = new QToolButton(m_offline);
    dismiss->setObjectName(QStringLiteral("offlineNoticeClose"));
    dismiss->setText(QStringLiteral("✕"));
    dismiss->setAccessibleName(tr("Close the offline notice"));
    dismiss->setToolTip(
        tr("Close this notice. What this machine cannot do is not said again on this machine; View › Show Closed "
           "Notices brings it back."));
    connect(dismiss, &QToolButton::clicked, this, [this] {
        m_dismissedNotice = m_offlineLabel->text();
        m_offline->hide();
        emit offlineNoticeDismissed(m_noticeKeys);
    });
    offlineLayout->addWidget(dismiss, 0, Qt::AlignTop);
    m_offline->hide();
    layout->addWidget(m_offline);

    auto* heading = new QVBoxLayout;
    heading->setSpacing(2);
    m_title = style::sectionTitle(QString(), this);
    m_title->setObjectName(QStringLiteral("comparisonTitle"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    heading->addWidget(m_title);
    layout->addLayout(heading);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("documentTabs"));
    m_tabs->setDocumentMode(true);
    auto* evalsPage = new QWidget(m_tabs);
    evalsPage->setObjectName(QStringLiteral("evalsPage"));
    auto* evalsLayout = new QVBoxLayout(evalsPage);
    evalsLayout->setContentsMargins(0, 8, 0, 0);
    evalsLayout->setSpacing(8);
    m_runs = style::caption(QString(), evalsPage);
    m_runs->setObjectName(QStringLiteral("comparisonRuns"));
    m_runs->setTextFormat(Qt::RichText);
    m_runs->setTextInteractionFlags(Qt::TextSelectableByMouse);
    evalsLayout->addWidget(m_runs);

    // Several candidates: the evals tab shows one at a time against the baseline.
    m_pickerRow = new QWidget(evalsPage);
    auto* pickerLayout = new QHBoxLayout(m_pickerRow);
    pickerLayout->setContentsMargins(0, 0, 0, 0);
    auto* pickerLabel = new QLabel(tr("&Candidate:"), m_pickerRow);
    m_picker = new QComboBox(m_pickerRow);
    m_picker->setObjectName(QStringLiteral("candidatePicker"));
    m_picker->setAccessibleName(tr("The candidate the offline evals show"));
    m_picker->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    pickerLabel->setBuddy(m_picker);
    pickerLayout->addWidget(pickerLabel);
    pickerLayout->addWidget(m_picker);
    pickerLayout->addStretch(1);
    connect(m_picker, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0) showEvalsOf(index);
    });
    m_pickerRow->hide();
    evalsLayout->addWidget(m_pickerRow);

    m_splitter = new QSplitter(Qt::Horizontal, evalsPage);
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    m_splitter->setChildrenCollapsible(false);

    // The table with its picture above it (a forest plot: each task's degradation and 95 % interval over the verdict
    // bands, in the table's order and filter; collapsible by dragging the handle up).
    auto* evalsColumn = new QSplitter(Qt::Vertical, m_splitter);
    evalsColumn->setObjectName(QStringLiteral("evalsColumn"));
    auto* forest = new ForestPlot(evalsColumn);
    m_table = new TaskTableView(evalsColumn);
    m_table->setMinimumWidth(420);
    forest->attach(m_table);
    evalsColumn->addWidget(forest);
    evalsColumn->addWidget(m_table);
    evalsColumn->setCollapsible(0, true);
    evalsColumn->setCollapsible(1, false);
    // Up to half for the plot, no taller than its rows need (ForestPlot's maximum; more rows scroll inside it, its
    // axis staying put): the demo's six rows whole at 1366 × 768, and the table keeps at least half.
    evalsColumn->setStretchFactor(0, 1);
    evalsColumn->setStretchFactor(1, 1);
    evalsColumn->setSizes({1000, 1000});

    m_sideScroll = new QScrollArea(m_splitter);
    m_sideScroll->setObjectName(QStringLiteral("sidePanel"));
    m_sideScroll->setWidgetResizable(true);
    m_sideScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the panels wrap their text instead
    m_sideScroll->setFrameShape(QFrame::NoFrame);
    m_sideScroll->setMinimumWidth(300);
    auto* side = new QWidget(m_sideScroll);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(8, 0, 8, 8);
    sideLayout->setSpacing(18);
    m_layers = new Fp8LayersPanel(side);
    m_risks = new RiskFlagsPanel(side);
    m_missing = new MissingTasksPanel(side);
    m_notes = new NotesPanel(side);
    sideLayout->addWidget(m_layers);
    sideLayout->addWidget(m_risks);
    m_longContext = new LongContextPanel(side);  // the degradation-by-context chart, with per-length tasks only
    sideLayout->addWidget(m_longContext);
    sideLayout->addWidget(m_missing);
    sideLayout->addWidget(m_notes);
    sideLayout->addStretch(1);
    m_sideScroll->setWidget(side);

    m_splitter->addWidget(evalsColumn);
    m_splitter->addWidget(m_sideScroll);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);
    // The table first: at 1366 pixels its Verdict column fits beside a side panel at its minimum (issue 29).
    m_splitter->setSizes({1000, 300});
    evalsLayout->addWidget(m_splitter, 1);

    m_timeline = new TimelineView(m_tabs);
    m_tabs->addTab(evalsPage, tr("Offline evals"));
    m_variants = new VariantsView(m_tabs);
    m_tabs->addTab(m_variants, tr("Which layers"));
    m_tabs->setTabVisible(LayersTab, false);
    connect(m_variants, &VariantsView::variantActivated, this, [this](int variant, const QString& task) {
        showCandidate(variant);
        showTab(EvalsTab);
        m_table->selectTask(task);
    });
    m_judge = new JudgeView(m_tabs);
    m_tabs->addTab(m_judge, tr("Domain judge"));
    m_tabs->addTab(m_timeline, tr("Production timeline"));
    m_serving = new ServingView(m_tabs);
    m_tabs->addTab(m_serving, tr("Serving"));
    m_bench = new BenchView(m_tabs);
    m_tabs->addTab(m_bench, tr("Local benchmarks"));
    m_capacity = new CapacityView(m_tabs);
    m_tabs->addTab(m_capacity, tr("Capacity"));
    m_review = new ReviewView(m_tabs);
    m_tabs->addTab(m_review, tr("Review"));
    layout->addWidget(m_tabs, 1);
    // Only the shown tab's minimum height counts (a tab widget takes its tallest page's): at 1366 × 768 the judge and
    // timeline pages' charts would otherwise squeeze the evals tab and the banner's details (issue 39).
    const auto minimumOfShownTabOnly = [this](int current) {
        for (int i = 0; i < m_tabs->count(); ++i) {
            QWidget* page = m_tabs->widget(i);
            if (!page->property("fp8dashPolicy").isValid())
                page->setProperty("fp8dashPolicy", QVariant::fromValue(page->sizePolicy()));
            QSizePolicy policy = page->property("fp8dashPolicy").value<QSizePolicy>();
            if (i != current) policy.setVerticalPolicy(QSizePolicy::Ignored);
            page->setSizePolicy(policy);
        }
    };
    minimumOfShownTabOnly(m_tabs->currentIndex());
    connect(m_tabs, &QTabWidget::currentChanged, this, minimumOfShownTabOnly);
}

void ComparisonView::setOfflineNotice(const QString& html, const QStringList& dismissKeys) {
    m_offlineLabel->setText(html);
    m_noticeKeys = dismissKeys;
    m_offline->setVisible(!html.isEmpty() && html != m_dismissedNotice);
}

void ComparisonView::clearDismissedNotice() {
    m_dismissedNotice.clear();
    m_offline->setVisible(!m_offlineLabel->text().isEmpty());
}

QString ComparisonView::offlineNoticeText() const {
    return m_offline->isHidden() ? QString() : QTextDocumentFragment::fromHtml(m_offlineLabel->text()).toPlainText();
}

void ComparisonView::showTab(Tab tab) {
    if (m_tabs->isTabVisible(tab)) m_tabs->setCurrentIndex(tab);
}

void ComparisonView::showCandidate(int index) {
    if (index >= 0 && index < m_picker->count()) m_picker->setCurrentIndex(index);
}

int ComparisonView::shownCandidate() const {
    return std::max(0, m_picker->currentIndex());
}

void ComparisonView::showEvalsOf(int candidate) {
    const VariantComparison* variants = m_variants->variants();
    const bool several = variants && candidate >= 0 && candidate < static_cast<int>(variants->variants.size()) &&
                         candidate + 1 < static_cast<int>(m_runNames.size());
    const ComparisonReport& report = several ? variants->variants[candidate].report : m_firstReport;
    // The banner tells the deciding variant's story: it says so when the table shows another.
    m_banner->setShownCandidate(several ? toQString(variants->variants[candidate].label) : QString());
    const auto& baseline = m_runNames.front();
    const auto& shown = m_runNames[several ? candidate + 1 : 1];
    auto runText = [](const std::pair<std::string, std::string>& run, const Fp8Config& config) {
        const std::string& model = !config.model.empty() ? config.model : run.second;
        QString text = QStringLiteral("<b>%1</b> %2")
                           .arg(style::escaped(run.first),
                                model.empty() ? QObject::tr("(model not recorded)") : style::escaped(model));
        if (!config.backend.empty()) text += QStringLiteral(" (%1)").arg(style::escaped(config.backend));
        return text;
    };
    m_runs->setText(tr("%1 &nbsp;vs&nbsp; %2")
                        .arg(runText(baseline, report.baselineConfig), runText(shown, report.candidateConfig)));
    m_table->setReport(report);
    m_layers->setReport(report);
    m_risks->setRisks(report.risks);
    m_longContext->setReport(report);
    m_missing->setReport(report);
}

void ComparisonView::resetViewState() {
    m_timeline->resetView();
    m_sideScroll->verticalScrollBar()->setValue(0);
}

void ComparisonView::setComparison(const LoadedComparison& loaded) {
    const ComparisonDocument& doc = loaded.document;
    const ComparisonReport& report = loaded.report;

    m_banner->setDecision(loaded.decision, doc);
    setPlainText(m_title, toQString(doc.title));
    m_title->setVisible(!doc.title.empty());

    // Hiding the current tab moves Qt to its neighbour (the judge tab): decide from where it was before.
    const bool wasOnEvals = m_tabs->currentIndex() == EvalsTab;
    const bool wasOnLayers = m_tabs->currentIndex() == LayersTab;
    const VariantComparison* variants = doc.hasEvals && loaded.decision.variants ? &*loaded.decision.variants : nullptr;
    m_tabs->setTabVisible(EvalsTab, doc.hasEvals);
    m_tabs->setTabVisible(LayersTab, variants != nullptr);
    if (!doc.hasEvals && (wasOnEvals || wasOnLayers)) {
        m_tabs->setCurrentIndex(doc.judge && !doc.timeline ? JudgeTab : TimelineTab);
    } else if (wasOnLayers && !variants) {
        m_tabs->setCurrentIndex(EvalsTab);
    }
    m_variants->setVariants(variants, loaded.decision.serving ? &*loaded.decision.serving : nullptr);
    m_tabs->setTabText(LayersTab, variants
                                      ? tr("Which layers · %1").arg(toQString(variant_text::recommended(*variants)))
                                      : tr("Which layers"));
    // The judge tab shows the judge scores the verdict used: the deciding variant's with several candidates.
    const std::size_t deciding = variants ? variants->deciding : 0;
    const std::optional<JudgeSection>& judgeSection =
        deciding == 0 || deciding > doc.moreCandidates.size() ? doc.judge : doc.moreCandidates[deciding - 1].judge;
    const QString baselineLabel = toQString(doc.baseline.label);
    const QString candidateLabel =
        toQString(deciding == 0 || deciding > doc.moreCandidates.size() ? doc.candidate.label
                                                                        : doc.moreCandidates[deciding - 1].run.label);
    m_judge->setJudge(judgeSection ? &*judgeSection : nullptr,
                      loaded.decision.judge ? &*loaded.decision.judge : nullptr, baselineLabel, candidateLabel);
    // Like the timeline's: the tab says at a glance what the judge found.
    m_tabs->setTabText(JudgeTab,
                       loaded.decision.judge
                           ? tr("Domain judge · %1").arg(toQString(verdictTitle(loaded.decision.judge->verdict)))
                           : tr("Domain judge"));
    // Capacity and benchmarks are about the compared runs' model: its architecture when fp8dash knows it, else
    // "unknown".
    const ComparedModel compared = comparedModelOf(doc);
    m_bench->setComparedModel(compared);
    m_bench->setResults(doc.benchmarks ? &*doc.benchmarks : nullptr);
    m_capacity->setComparedModel(compared);
    m_capacity->setSettings(doc.capacity ? &*doc.capacity : nullptr);
    m_capacity->setMeasured(loaded.decision.serving ? &*loaded.decision.serving : nullptr);
    m_review->setComparison(loaded);
    // The tab says whether someone signed off, and how many notes there are.
    QString reviewTitle = tr("Review");
    if (const ReviewDecision* d = doc.currentDecision()) {
        reviewTitle += QStringLiteral(" · ") + toQString(reviewOutcomeTitle(d->outcome));
    } else if (!doc.notes.empty()) {
        reviewTitle += doc.notes.size() == 1 ? tr(" · 1 note") : tr(" · %1 notes").arg(doc.notes.size());
    }
    m_tabs->setTabText(ReviewTab, reviewTitle);
    const TimelineReport* timelineReport = loaded.decision.timeline ? &*loaded.decision.timeline : nullptr;
    m_timeline->setTimeline(doc.timeline ? &*doc.timeline : nullptr, timelineReport);
    // The tab says at a glance whether production agrees.
    QString timelineTitle = tr("Production timeline");
    if (timelineReport && timelineReport->verdict) {
        timelineTitle += QStringLiteral(" · ") + toQString(verdictTitle(*timelineReport->verdict));
    }
    m_tabs->setTabText(TimelineTab, timelineTitle);
    // The serving benchmarks as decide() compared them (off the GUI thread, with the rest of the decision); without
    // serving results the tab's empty state says how to add them.
    // The same comparison again (a note, a decision, a re-evaluation) keeps what the user chose there: the table's
    // variant, the chart's statistic.
    if (!loaded.decision.serving) {
        m_serving->clear();
    } else if (const ServingComparison* shown = m_serving->comparison();
               !shown || servingToJson(*shown) != servingToJson(*loaded.decision.serving)) {
        m_serving->setComparison(*loaded.decision.serving);
    }
    m_tabs->setTabText(ServingTab, loaded.decision.serving && loaded.decision.serving->blocked()
                                       ? tr("Serving · not comparable")
                                       : tr("Serving"));
    style::adaptCharts(this);  // the charts were (re)built above: in the palette's colours
    // The candidates the evals tab can show: the first is the document's own report; the picker keeps the one shown
    // when the same candidates come back (a note, a decision, a theme switch).
    m_firstReport = report;
    m_runNames = {{doc.baseline.label, doc.baseline.results.modelName},
                  {doc.candidate.label, doc.candidate.results.modelName}};
    QStringList choices;
    if (variants) {
        for (const VariantResult& v : variants->variants) {
            const bool recommended = variants->recommendation.recommends(v.label);
            choices << QStringLiteral("%1%2 — %3")
                           .arg(recommended ? QStringLiteral("★ ") : QString(), toQString(v.label),
                                toQString(verdictTitle(v.verdict)));
        }
        for (const CandidateRecord& c : doc.moreCandidates)
            m_runNames.emplace_back(c.run.label, c.run.results.modelName);
    }
    for (QString& choice : choices) choice = visibleText(choice);  // run labels: their controls shown (untrusted_ui.h)
    QStringList before;
    for (int i = 0; i < m_picker->count(); ++i) before << m_picker->itemText(i);
    // Another comparison opens on the deciding variant (★ when it is the recommended one).
    const int keep = before == choices ? m_picker->currentIndex() : static_cast<int>(deciding);
    {
        const QSignalBlocker block(m_picker);
        m_picker->clear();
        m_picker->addItems(choices);
        m_picker->setCurrentIndex(choices.isEmpty() ? -1 : keep);
    }
    m_pickerRow->setVisible(choices.size() > 1);
    showEvalsOf(std::max(0, keep));
    // Without evals the tab is hidden, and cleared so nothing of a previous document lingers there.
    if (!doc.hasEvals) m_runs->clear();
    m_notes->setNotes(doc.notes);
}

}  // namespace fp8dash::ui
