#pragma once
// ComparisonView: the document page of the main window. The overall verdict banner (evals and production timeline)
// on top, the title, then the tabs: "Offline evals" (the runs, a splitter with the task table and a scrollable side
// panel: FP8 layers, risk flags, tasks not compared, notes; with several candidates a picker of the candidate they
// show), "Which layers" (VariantsView, only with several candidates), "Domain judge" (JudgeView), "Production timeline"
// (TimelineView), "Serving" (ServingView: what FP8 buys, measured on the team's server; its empty state without
// serving results), "Local benchmarks" (BenchView), "Capacity" (CapacityView) and "Review" (ReviewView: the decision
// and the notes). Serving sits after the measured evidence of what FP8 costs (evals, judge, production) and before the
// microbenchmarks and the model of what it buys (benchmarks, capacity): the measured gain first, the modelled one
// after, the sign-off last. A document without evals hides the evals tab. GUI thread only; owns its
// children through Qt parenting.

#include <QWidget>

#include "fp8dash/ui/loaded_comparison.h"

class QComboBox;
class QFrame;
class QLabel;
class QScrollArea;
class QSplitter;
class QTabWidget;

namespace fp8dash::ui {

class VerdictBanner;
class TaskTableView;
class Fp8LayersPanel;
class RiskFlagsPanel;
class LongContextPanel;
class MissingTasksPanel;
class NotesPanel;
class TimelineView;
class BenchView;
class CapacityView;
class JudgeView;
class ReviewView;
class VariantsView;
class ServingView;

class ComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonView(QWidget* parent = nullptr);

    enum Tab {
        EvalsTab = 0,
        LayersTab = 1,
        JudgeTab = 2,
        TimelineTab = 3,
        ServingTab = 4,
        BenchTab = 5,
        CapacityTab = 6,
        ReviewTab = 7
    };

    // Shows a document. The tab in front is kept where both still exist; a document without evals that was showing
    // the evals shows its judge comparison when it has one, else its timeline.
    void setComparison(const LoadedComparison& loaded);
    void showTab(Tab tab);
    // Before a new document (not one derived from the shown one): what the user did with the previous one's view
    // goes, so the new one opens at its own defaults: the timeline's range and zoom (TimelineView::resetView), the
    // side panel's scroll position.
    void resetViewState();

    // With several candidates: which candidate the evals tab shows (0 the first); the task table, the layers, the
    // risk flags and the tasks not compared follow it. Out of range: ignored.
    void showCandidate(int index);
    int shownCandidate() const;
    QComboBox* candidatePicker() const { return m_picker; }  // hidden with one candidate
    VariantsView* variantsView() const { return m_variants; }

    // The offline notice under the banner: what this machine cannot do with the document (rich text; "" hides it).
    // Its close button (✕, "offlineNoticeClose") hides it and emits offlineNoticeDismissed with `dismissKeys`, the
    // items the caller remembers as dismissed for good; a different text shows it again. clearDismissedNotice shows
    // the last text again.
    void setOfflineNotice(const QString& html, const QStringList& dismissKeys = {});
    QString offlineNoticeText() const;  // plain text; "" while hidden
    void clearDismissedNotice();

    VerdictBanner* verdictBanner() const { return m_banner; }
    TaskTableView* taskTable() const { return m_table; }
    Fp8LayersPanel* layersPanel() const { return m_layers; }
    RiskFlagsPanel* riskFlagsPanel() const { return m_risks; }
    LongContextPanel* longContextPanel() const { return m_longContext; }  // hidden without per-length tasks
    MissingTasksPanel* missingTasksPanel() const { return m_missing; }
    NotesPanel* notesPanel() const { return m_notes; }
    QLabel* runsLabel() const { return m_runs; }
    QSplitter* splitter() const { return m_splitter; }
    QScrollArea* sidePanel() const { return m_sideScroll; }
    QTabWidget* tabs() const { return m_tabs; }
    TimelineView* timelineView() const { return m_timeline; }
    BenchView* benchView() const { return m_bench; }
    CapacityView* capacityView() const { return m_capacity; }
    JudgeView* judgeView() const { return m_judge; }
    ReviewView* reviewView() const { return m_review; }
    ServingView* servingView() const { return m_serving; }

signals:
    void offlineNoticeDismissed(const QStringList& keys);

private:
    void showEvalsOf(int candidate);

    VerdictBanner* m_banner = nullptr;
    QWidget* m_pickerRow = nullptr;
    QComboBox* m_picker = nullptr;
    VariantsView* m_variants = nullptr;
    // What the evals tab shows: the document's own report (the first candidate; with several, the others' reports
    // are the variants view's), and each run's label and recorded model name for the runs line, the baseline first.
    ComparisonReport m_firstReport;
    std::vector<std::pair<std::string, std::string>> m_runNames;
    QFrame* m_offline = nullptr;
    QLabel* m_offlineLabel = nullptr;
    QString m_dismissedNotice;
    QStringList m_noticeKeys;  // what the notice shown now says, as setOfflineNotice's dismissKeys
    QLabel* m_title = nullptr;
    QLabel* m_runs = nullptr;
    QTabWidget* m_tabs = nullptr;
    QSplitter* m_splitter = nullptr;
    TaskTableView* m_table = nullptr;
    QScrollArea* m_sideScroll = nullptr;
    Fp8LayersPanel* m_layers = nullptr;
    RiskFlagsPanel* m_risks = nullptr;
    LongContextPanel* m_longContext = nullptr;
    MissingTasksPanel* m_missing = nullptr;
    NotesPanel* m_notes = nullptr;
    TimelineView* m_timeline = nullptr;
    BenchView* m_bench = nullptr;
    CapacityView* m_capacity = nullptr;
    JudgeView* m_judge = nullptr;
    ReviewView* m_review = nullptr;
    ServingView* m_serving = nullptr;
};

}  // namespace fp8dash::ui
