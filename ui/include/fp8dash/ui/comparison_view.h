#pragma once
// ComparisonView: the document page of the main window. The overall verdict banner (evals and production timeline)
// on top, the title, then the tabs: "Offline evals" (the runs, a splitter with the task table and a scrollable side
// panel: FP8 layers, risk flags, tasks not compared, notes), "Domain judge" (JudgeView), "Production timeline"
// (TimelineView), "Local benchmarks" (BenchView), "Capacity" (CapacityView) and "Review" (ReviewView: the decision
// and the notes). A document without evals hides the evals tab. GUI thread only; owns its
// children through Qt parenting.

#include <QWidget>

#include "fp8dash/ui/loaded_comparison.h"

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

class ComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonView(QWidget* parent = nullptr);

    enum Tab { EvalsTab = 0, JudgeTab = 1, TimelineTab = 2, BenchTab = 3, CapacityTab = 4, ReviewTab = 5 };

    // Shows a document. The tab in front is kept where both still exist; a document without evals that was showing
    // the evals shows its judge comparison when it has one, else its timeline.
    void setComparison(const LoadedComparison& loaded);
    void showTab(Tab tab);

    // The offline notice under the banner: what this machine cannot do with the document (rich text; "" hides it).
    // The user may dismiss it; a different text shows it again.
    void setOfflineNotice(const QString& html);
    QString offlineNoticeText() const;  // plain text; "" while hidden

    VerdictBanner* verdictBanner() const { return m_banner; }
    TaskTableView* taskTable() const { return m_table; }
    Fp8LayersPanel* layersPanel() const { return m_layers; }
    RiskFlagsPanel* riskFlagsPanel() const { return m_risks; }
    LongContextPanel* longContextPanel() const { return m_longContext; }  // hidden without per-length tasks
    MissingTasksPanel* missingTasksPanel() const { return m_missing; }
    NotesPanel* notesPanel() const { return m_notes; }
    QLabel* runsLabel() const { return m_runs; }
    QSplitter* splitter() const { return m_splitter; }
    QTabWidget* tabs() const { return m_tabs; }
    TimelineView* timelineView() const { return m_timeline; }
    BenchView* benchView() const { return m_bench; }
    CapacityView* capacityView() const { return m_capacity; }
    JudgeView* judgeView() const { return m_judge; }
    ReviewView* reviewView() const { return m_review; }

private:
    VerdictBanner* m_banner = nullptr;
    QFrame* m_offline = nullptr;
    QLabel* m_offlineLabel = nullptr;
    QString m_dismissedNotice;
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
};

}  // namespace fp8dash::ui
