// MainWindow: the Verdict rules panel (issue 39 "What-if gates") and Edit › Undo / Redo of its changes. A change of the
// rules is a document derived from the current one: decide() re-derives every verdict from the runs stored in it (no
// original file is read again), every view and the banner show it, and it is marked changed. Undo puts the earlier
// rules back; the document is then unchanged again when it holds what was last saved (or opened).
#include <QAction>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QScrollArea>
#include <QStatusBar>
#include <QUndoCommand>
#include <QUndoStack>

#include <functional>

#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/verdict_banner.h"
#include "fp8dash/ui/verdict_rules_panel.h"

namespace fp8dash::ui {
namespace {

// One change of the rules; redo and undo put `after` or `before` into the document shown.
class VerdictRulesCommand : public QUndoCommand {
public:
    VerdictRulesCommand(VerdictRules before, VerdictRules after, std::function<void(const VerdictRules&)> put,
                        const QString& text)
        : QUndoCommand(text), m_before(std::move(before)), m_after(std::move(after)), m_put(std::move(put)) {}
    void redo() override { m_put(m_after); }
    void undo() override { m_put(m_before); }

private:
    VerdictRules m_before, m_after;
    std::function<void(const VerdictRules&)> m_put;
};

std::size_t documentContentHash(const ComparisonDocument& doc) {
    return std::hash<std::string>{}(toJson(doc).dump());
}

}  // namespace

void MainWindow::setUpVerdictRules() {
    m_undoStack = new QUndoStack(this);
    m_rulesPanel = new VerdictRulesPanel;
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_rulesPanel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_rulesDock = new QDockWidget(tr("Verdict Rules"), this);
    m_rulesDock->setObjectName(QStringLiteral("verdictRulesDock"));
    m_rulesDock->setWidget(scroll);
    m_rulesDock->setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea);
    m_rulesDock->setMinimumWidth(300);
    addDockWidget(Qt::RightDockWidgetArea, m_rulesDock);
    m_rulesDock->hide();
    connect(m_rulesPanel, &VerdictRulesPanel::rulesEdited, this,
            [this](const VerdictRules& rules) { applyVerdictRules(rules); });
    connect(m_view->verdictBanner(), &VerdictBanner::verdictRulesRequested, this, [this] { showVerdictRules(); });
    // Each document shown: the panel follows it; another document (not one derived from this) starts a new history.
    connect(this, &MainWindow::documentShown, this, [this] {
        m_rulesPanel->setDocument(current());
        if (m_doc.serial() != m_rulesSerial) {
            m_rulesSerial = m_doc.serial();
            m_undoStack->clear();
            m_rulesCleanHash.reset();
        }
    });
}

void MainWindow::addVerdictRulesActions(QMenu* edit, QMenu* review) {
    QAction* undo = m_undoStack->createUndoAction(this, tr("&Undo"));
    undo->setObjectName(QStringLiteral("editUndo"));
    undo->setShortcut(QKeySequence(QKeySequence::Undo));
    QAction* redo = m_undoStack->createRedoAction(this, tr("&Redo"));
    redo->setObjectName(QStringLiteral("editRedo"));
    redo->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+Z")));
    QAction* first = edit->actions().isEmpty() ? nullptr : edit->actions().first();
    edit->insertAction(first, undo);
    edit->insertAction(first, redo);
    edit->insertSeparator(first);
    m_verdictRulesAction = review->addAction(tr("Verdict &Rules…"), this, [this] { showVerdictRules(); });
    m_verdictRulesAction->setObjectName(QStringLiteral("reviewVerdictRules"));
    m_verdictRulesAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+R")));
    m_verdictRulesAction->setStatusTip(
        tr("Change the thresholds, the policy and the recommendation gate; every verdict follows at once"));
}

QDockWidget* MainWindow::showVerdictRules() {
    m_rulesPanel->setDocument(current());
    m_rulesDock->show();
    m_rulesDock->raise();
    m_rulesPanel->goBelowEdit()->setFocus();
    return m_rulesDock;
}

bool MainWindow::applyVerdictRules(const VerdictRules& rules) {
    if (!m_doc.current() || !checkVerdictRules(rules).ok()) return false;
    const VerdictRules before = verdictRulesOf(m_doc.current()->document);
    if (before == rules) return false;
    const bool several = m_doc.current()->document.hasVariants();
    m_undoStack->push(new VerdictRulesCommand(
        before, rules, [this](const VerdictRules& r) { putVerdictRules(r); },
        tr("Verdict Rules: %1").arg(toQString(verdictRulesText(rules, several)))));
    return true;
}

void MainWindow::putVerdictRules(const VerdictRules& rules) {
    if (!m_doc.current()) return;
    // The content last saved or opened: the document is unchanged when it holds that again (an undone change).
    if (!m_doc.isModified()) m_rulesCleanHash = documentContentHash(m_doc.current()->document);
    ComparisonDocument doc = m_doc.current()->document;
    fp8dash::applyVerdictRules(doc, rules);
    if (!showDerived(std::move(doc))) return;
    setModified(!m_rulesCleanHash || documentContentHash(m_doc.current()->document) != *m_rulesCleanHash);
    statusBar()->showMessage(tr("Verdict rules: %1. Every verdict follows them now; Edit › Undo takes it back.")
                                 .arg(toQString(verdictRulesText(rules, m_doc.current()->document.hasVariants()))),
                             8000);
}

}  // namespace fp8dash::ui
