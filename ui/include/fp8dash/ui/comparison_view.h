#pragma once
// ComparisonView: the document page of the main window. The verdict banner on top, the runs underneath, then a
// splitter with the task table (main area) and a scrollable side panel (FP8 layers, risk flags, tasks not compared,
// notes). GUI thread only; owns its children through Qt parenting.

#include <QWidget>

#include "fp8dash/ui/loaded_comparison.h"

class QLabel;
class QScrollArea;
class QSplitter;

namespace fp8dash::ui {

class VerdictBanner;
class TaskTableView;
class Fp8LayersPanel;
class RiskFlagsPanel;
class MissingTasksPanel;
class NotesPanel;

class ComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonView(QWidget* parent = nullptr);

    void setComparison(const LoadedComparison& loaded);

    VerdictBanner* verdictBanner() const { return m_banner; }
    TaskTableView* taskTable() const { return m_table; }
    Fp8LayersPanel* layersPanel() const { return m_layers; }
    RiskFlagsPanel* riskFlagsPanel() const { return m_risks; }
    MissingTasksPanel* missingTasksPanel() const { return m_missing; }
    NotesPanel* notesPanel() const { return m_notes; }
    QLabel* runsLabel() const { return m_runs; }
    QSplitter* splitter() const { return m_splitter; }

private:
    VerdictBanner* m_banner = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_runs = nullptr;
    QSplitter* m_splitter = nullptr;
    TaskTableView* m_table = nullptr;
    QScrollArea* m_sideScroll = nullptr;
    Fp8LayersPanel* m_layers = nullptr;
    RiskFlagsPanel* m_risks = nullptr;
    MissingTasksPanel* m_missing = nullptr;
    NotesPanel* m_notes = nullptr;
};

}  // namespace fp8dash::ui
