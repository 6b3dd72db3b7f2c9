#pragma once
// MainWindow: one comparison document on screen (overall verdict banner with the recorded decision, the offline
// evals, domain judge, production timeline, local benchmarks, capacity and the review: decision and notes). Menus:
// File (New Comparison, New Window, Open, Open Recent, Open Demo, Save, Save As, Export Report as PDF, HTML,
// Markdown, text or JSON, Close Window, Quit), Edit (Copy, Copy as Markdown),
// View (Go to Tab, task table, theme), Timeline, Bench, Review (Add Note, Record Decision), Help (the guide, the
// glossary, the keyboard shortcuts, About); drag-and-drop of *.fp8cmp.
// GUI thread only. Files load on a QtConcurrent worker; a newer load makes older ones stale and their results are
// dropped. Opening a file the user asked for (menus, drop, another fp8dash start) raises the window that already
// shows it, uses this window when nothing unsaved would be replaced, else opens a new window: nothing is lost.
// Anything that changes the document (a fetched timeline, a change time, benchmark results, capacity inputs, judge
// scores, a note, a decision) marks it modified until saved, and is autosaved with the text still being typed (the
// note composer, an open note or decision dialog) to a crash-recovery file (RecoveryStore) a moment later; the
// file goes when the changes are saved or discarded. Credentials used for a fetch stay in memory for this window's
// session (for Refresh) and are never saved to a file, QSettings or a recovery file; the dialogs remember them in
// the CredentialStore (the system keychain by default) when the user asks them to. Window geometry and recent files
// are kept in QSettings. Owns its child widgets through Qt parenting.

#include <QMainWindow>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <QPointer>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/live_sources.h"
#include "fp8dash/core/report_document.h"
#include "fp8dash/core/timeline.h"
#include "fp8dash/core/timeline_follower.h"
#include "fp8dash/core/verdict_rules.h"
#include "fp8dash/ui/document_controller.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/recovery_store.h"

class QAction;
class QDockWidget;
class QUndoStack;
class QFileSystemWatcher;
class QLabel;
class QPushButton;
class QMenu;
class QMessageBox;
class QMimeData;
class QAbstractItemView;
class QProgressBar;
class QStackedWidget;
class QTimer;
template <typename T>
class QFutureWatcher;

namespace fp8dash::ui {

class BackgroundJob;
class ComparisonView;
class CredentialStore;
class DesktopNotifier;
class GuideWindow;
class KeyboardShortcutsDialog;
class LiveTimeline;
class NoteDialog;
class RecordDecisionDialog;
class PresentationWindow;
class RunJudgeDialog;
class TimelineSourceDialog;
class VerdictRulesPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Shows a document; path is empty for the demo or an unsaved document, displayName then names it in the title
    // (defaults to the document's title). An error while evaluating it is shown, and the previous document stays.
    void showDocument(fp8dash::ComparisonDocument doc, const QString& path, const QString& displayName = {});
    // Loads a *.fp8cmp file into this window off the GUI thread; on failure a message box names the file, the
    // current document stays.
    void openFileAsync(const QString& path);
    // What the user's "open" does (File › Open, Open Recent, a drop, a file handed over by another fp8dash start):
    // the window already showing the file comes to the front; else this window loads it when that replaces nothing
    // unsaved; else a new window does. Returns the window that shows (or loads) it.
    MainWindow* openFile(const QString& path);
    void openDemo();  // here, or in a new window when this one has unsaved changes
    // File › New Comparison…'s result (NewComparisonDialog): a new document here; savedPath "" means not saved yet:
    // then it is modified (the title says unsaved, closing asks, Save asks where, autosave keeps it recoverable).
    void showNewComparison(const LoadedComparison& result, const QString& savedPath);
    // Where File › Save As… writes: asks with a file dialog unless a chooser is set (tests, automation); it gets the
    // suggested path and returns the chosen one ("" = declined).
    void setSavePathChooser(std::function<QString(const QString& suggested)> chooser);

    // Every main window of the application, oldest first; the one showing `path` (absolute), or nullptr.
    static QList<MainWindow*> windows();
    static MainWindow* windowShowing(const QString& path);
    MainWindow* newWindow();  // File › New Window: an empty window, shown, deleted when closed
    // True when showing something else here loses nothing: no document, or one without unsaved changes.
    bool canReplaceDocument() const;

    // Review › Add Note… (about `task`, "" = the whole comparison) and a note's Edit…: window-modal dialogs; an
    // accepted one adds or changes the note. The functions below do it directly (tests, the Review tab's composer).
    NoteDialog* openNoteDialog(const QString& task = {});
    NoteDialog* openEditNoteDialog(const QString& noteId);
    NoteDialog* noteDialog() const;  // the open one, or nullptr
    void addNote(const QString& text, const QString& task, const QString& author);
    bool editNote(const QString& noteId, const QString& text, const QString& task);
    bool deleteNote(const QString& noteId);
    void requestDeleteNote(const QString& noteId);  // asks first (window-modal)
    // Review › Record Decision…: the dialog; an accepted one is recorded (the earlier decision stays on record).
    RecordDecisionDialog* recordDecision();
    RecordDecisionDialog* decisionDialog() const;  // the open one, or nullptr
    void applyDecision(ReviewDecision decision);
    // Review › Verdict Rules… and the banner's "Change the Verdict Rules…" (main_window_rules.cpp): the Verdict rules
    // panel, a dock. applyVerdictRules puts other rules into the document as one step of the undo stack (Edit › Undo
    // / Redo): every verdict is re-derived from the figures stored in it and it is marked changed; false when the
    // rules are invalid or the same. Undo puts the earlier rules back (unchanged again when that is what was saved).
    // Another document shown starts an empty undo stack.
    QDockWidget* showVerdictRules();
    bool applyVerdictRules(const VerdictRules& rules);
    QDockWidget* verdictRulesDock() const { return m_rulesDock; }
    VerdictRulesPanel* verdictRulesPanel() const { return m_rulesPanel; }
    QUndoStack* undoStack() const { return m_undoStack; }

    // Timeline › Connect…: the data-source dialog, filled from the current timeline (or defaults and the range
    // picked on the timeline tab). A fetched timeline joins the current document, or starts a timeline-only one.
    TimelineSourceDialog* connectTimeline();
    // Timeline › Refresh: fetches the current timeline's series again for [from, to] with the session's credentials
    // (the dialog opens, showing progress and any error). Without a timeline it is Connect….
    TimelineSourceDialog* refreshTimeline(double from, double to);
    TimelineSourceDialog* refreshTimeline();  // for the range picked on the timeline tab
    // Puts a fetched timeline into the document (replacing any earlier one) and marks it modified.
    void applyTimeline(fp8dash::TimelineData data);
    // The user confirmed when FP8 went on: re-evaluates the timeline and the overall verdict; marks it modified.
    void setTimelineChangeTime(double unixSeconds);
    TimelineSourceDialog* sourceDialog() const;  // the open one, or nullptr

    // Live timeline (main_window_live.cpp; issue 28): the timeline tab's refresh picker starts a LiveTimeline over the
    // document's timeline settings with the session's credentials (else the environment's). Each refresh replaces
    // the document's timeline with the followed one (the change time the user set stays) and marks the document
    // modified: nothing is written to the user's file on its own (Save writes the snapshot; autosave as ever). Each
    // alert transition (pending, firing, resolved) becomes a note with its time, once, and a desktop notification
    // through the notifier (makeDesktopNotifier by default; tests inject one). A failed refresh shows in the notice
    // area, never in a dialog, and the series stay. Another document shown turns live mode off.
    LiveTimeline* liveTimeline() const { return m_live; }
    void setDesktopNotifier(std::shared_ptr<DesktopNotifier> notifier);
    // The notice area's live line: the last refresh's failure, else the last transition told ("" when none).
    QString liveNoticeText() const { return m_liveError.isEmpty() ? m_liveNotice : m_liveError; }
    // File › Export Monitoring Rules…: a folder, then exportMonitoringInto. That writes core's exportMonitoring
    // files (rules, promtool test, Grafana dashboard) into `dir` off the GUI thread; where files of those names exist
    // it first asks (window-modal, "monitoringOverwriteBox", returned; Yes writes). monitoringExported() follows a
    // write with its error ("" when written). Disabled, with a tooltip saying why, without a production timeline.
    QMessageBox* exportMonitoringInto(const QString& dir);
    QAction* exportMonitoringAction() const { return m_exportMonitoringAction; }

    // Bench › Show Local Benchmarks / Show Capacity: the tab in front; without a document, a new one for local
    // evidence (no evals) first. Bench › Run Benchmarks: the same, then a run with the tab's settings.
    void showBenchmarks();
    void showCapacity();
    void runBenchmarks();
    // Puts benchmark results into the document (replacing earlier ones) and marks it modified. A run that finishes
    // after another document was opened is dropped, not applied to it.
    void applyBenchmarks(fp8dash::BenchResults results);
    // Timeline › Run Domain Eval…: the dialog that runs the LLM-judge eval (window-modal). Its finished run's scores
    // go into the current document's judge section (or a new judge-only document) via applyJudge.
    RunJudgeDialog* runDomainEval();
    RunJudgeDialog* judgeDialog() const;  // the open one, or nullptr
    // Puts judge scores into the document (keeping an earlier section's options), marks it modified and shows the
    // Domain judge tab. The labels name the sides of a new judge-only document.
    void applyJudge(fp8dash::JudgeSection section, const QString& baselineLabel, const QString& candidateLabel);
    // Where the source dialogs remember credentials; the system keychain unless replaced (tests use memory).
    void setCredentialStore(std::shared_ptr<CredentialStore> store);
    std::shared_ptr<CredentialStore> credentialStore() const { return m_credentialStore; }

    // View › Presentation Mode (F11, Ctrl+Shift+P): the current document as full-screen slides; Esc comes back
    // here. nullptr without a document. A second call brings the running presentation to the front.
    PresentationWindow* startPresentation();
    PresentationWindow* presentationWindow() const;  // the running one, or nullptr

    // Help (main_window_help.cpp). Help › fp8dash Guide (F1): the guide window (one per main window, non-modal) at
    // `page` ("" the first) and its heading `anchor` (a slug or the heading's text). Help › Glossary (Shift+F1): the
    // guide at glossary.md; openGlossary(term) at that term's entry ("Inconclusive", "GO", "Sigma (σ)"): what the
    // banner's "What does … mean?" links do. The guide's pages come from the built-in resources unless a test points
    // setGuideRoot at a folder of its own.
    GuideWindow* openGuide(const QString& page = {}, const QString& anchor = {});
    GuideWindow* openGlossary(const QString& term = {});
    GuideWindow* guideWindow() const;  // the open one, or nullptr
    void setGuideRoot(const QUrl& root);
    // Help › Keyboard Shortcuts (Ctrl+/): every menu action with a key, read from the menus as they are now.
    KeyboardShortcutsDialog* showKeyboardShortcuts();
    // View › Go to Tab: Ctrl+1 … Ctrl+9 bring the Nth visible tab to the front (the browser convention); the entries
    // follow the tabs' visibility, so the keys the menus show are the keys that work.
    QMenu* goToTabMenu() const { return m_goToTabMenu; }
    QAction* tabAction(
        int tab) const;  // ComparisonView::Tab; the same action stands in the Timeline, Bench, Review menus
    // Edit › Copy (Ctrl+C) and Copy as Markdown (Ctrl+Shift+C): the selected rows of copyTarget() (export_actions.h).
    QAction* copyAction() const { return m_copyAction; }
    QAction* copyMarkdownAction() const { return m_copyMarkdownAction; }
    // The table the Edit menu copies from: the focused table or tree of the current tab, else the tab's main table
    // (the one with a selection first); nullptr without a document.
    QAbstractItemView* copyTarget() const;

    bool isModified() const { return m_doc.isModified(); }
    // Writes the document to path (atomically); clears the modified mark. An error is shown and returned. When path
    // is the open file and something else changed it since it was read or saved here, a window-modal question
    // ("diskChangedBox") comes first: Merge (mergeFromDisk, then save), Overwrite, Reload (reloadFromDisk) or
    // Cancel; all but Overwrite return an error saying the file was not written.
    Status saveTo(const QString& path);
    // Save As once the path is chosen (File › Save As… asks for it first). When the document holds changed answers
    // (the questions and both runs' responses from the sample logs: changed_answers.h), a window-modal question
    // ("answerExamplesBox") says how many, from how many tasks, and offers "Keep only the counts" ("keepOnlyCounts"):
    // ticked, the documents leave this window's document (dropAnswerExamples; modified, the open Changed Answers
    // windows close) before it is written. Cancel returns an error saying the file was not written. Then saveTo.
    Status saveAsTo(const QString& path);

    // The open file changed on disk (a QFileSystemWatcher on the file and its folder, re-armed after an atomic
    // replacement): the notice bar ("diskChangedBar") offers the same choices without blocking. Saves from this
    // window never raise it.
    bool diskChangeNoticed() const;
    // Reload: the file as it is on disk replaces this document (its unsaved changes are dropped).
    void reloadFromDisk();
    // Merge: the file is read off the GUI thread and merged into this document (comparison_merge.h: notes and
    // decisions of both, the sections only the file has; mine where both have one), which stays modified; then
    // saved when thenSave. diskMergeFinished() follows, with the error when it failed.
    void mergeFromDisk(bool thenSave);
    // Overwrite: this document replaces the file as it is on disk.
    Status overwriteOnDisk();
    // File › Export Report… once the path is chosen: the whole report in that format (report_exporter.h), with a busy
    // cursor; the status bar names the file, an error is shown (and returned).
    Status exportReportTo(const QString& path, fp8dash::ReportFileFormat format);

    // Crash recovery. The store defaults to RecoveryStore's default folder. autosaveNow() writes the recovery file
    // at once (when there is something unsaved or a draft) or removes it (when there is nothing); the timer calls it
    // a moment after each change. recover() shows an orphan's document here as it was, modified, with its drafts.
    void setRecoveryStore(std::shared_ptr<RecoveryStore> store);
    Status autosaveNow();
    QString recoveryFile() const;  // the file this window autosaves to ("" until the first autosave)
    bool recover(const RecoveryOrphan& orphan);
    std::map<std::string, std::string> drafts() const;  // the text being typed: "note", "note_dialog", "decision_why"

    // The live sources a saved timeline names, checked when a document is shown (off the GUI thread), and this
    // machine's GPU: what the offline notice says is unavailable here. Empty while nothing is unavailable.
    QString offlineNoticeText() const;

    // nullptr: none shown
    const LoadedComparison* current() const { return m_doc.current() ? &*m_doc.current() : nullptr; }
    QString documentPath() const { return m_doc.path(); }  // empty for the demo or an unsaved document
    QString displayName() const { return m_doc.displayName(); }
    bool isLoading() const { return m_loadingPath.has_value(); }
    ComparisonView* comparisonView() const { return m_view; }

    // True when the data holds at least one local *.fp8cmp file (what a drop onto the window accepts).
    static bool canOpenDrop(const QMimeData* data);
    static QStringList comparisonFilesIn(const QMimeData* data);

signals:
    void documentShown(const QString& path);
    void loadFailed(const QString& path, const QString& message);
    void timelineApplied();
    void benchmarksApplied();
    void judgeApplied();
    void reviewChanged();  // a note or a decision was added, edited or deleted
    void autosaved(const QString& recoveryFile);
    void liveSourcesChecked();
    void diskChangeShown();                        // the notice bar appeared
    void diskMergeFinished(const QString& error);  // empty: merged (and saved when asked)
    void liveRefreshed();                          // a live refresh went into the document
    void monitoringExported(const QString& dir, const QString& error);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void buildStatusBar();
    QWidget* buildEmptyPage();
    // derived: the same document with new content (keeps runs started for it valid); otherwise a new document.
    void display(LoadedComparison loaded, const QString& path, const QString& displayName, bool derived = false);
    void ensureDocument();  // a new local-evidence document when none is shown
    void benchRunFinished(const fp8dash::BenchResults& results);
    void showError(const QString& title, const QString& text, const QString& details);
    void setLoading(const QString& path);
    void clearLoading();
    void updateActions();
    void newComparison();
    void openWithDialog();
    void save();
    void saveAs();
    void updateTitle();
    void setModified(bool modified);
    // Shows a document derived from the current one (same path and name), e.g. with a new timeline.
    bool showDerived(ComparisonDocument doc);
    TimelineSourceDialog* openSourceDialog(const TimelineSettings& settings, bool fetchNow);
    void exportReport();
    void showAbout();
    // Help, Edit and View › Go to Tab (main_window_help.cpp).
    void buildTabActions();  // before the menus that hold them
    void buildEditMenu();
    void buildHelpMenu();
    void updateTabActions();   // the keys and visibility follow the tabs shown
    void updateCopyActions();  // enabled while the copy target has a selected row
    // Live timeline and monitoring export (main_window_live.cpp).
    void setUpLive();   // in the constructor
    void updateLive();  // the timeline tab's live picker changed (or the timeline did)
    void applyLiveRefresh(const TimelineData& data, const std::vector<AlertTransition>& transitions);
    void liveRefreshFailed(const QString& message, int failures, double retryInS);
    void exportMonitoringRules();
    void writeMonitoring(const QString& dir);
    // The notice's items that are not dismissed for good; `keys` gets theirs (QSettings "notices/dismissed").
    QString offlineNoticeHtml(QStringList* keys = nullptr) const;
    void buildNoticeActions(QMenu* view);  // View › Show Closed Notices, and the notice's close button
    // The Verdict rules panel and the undo stack (main_window_rules.cpp).
    void setUpVerdictRules();                                 // in the constructor, before the menus
    void addVerdictRulesActions(QMenu* edit, QMenu* review);  // Edit › Undo / Redo, Review › Verdict Rules…
    void putVerdictRules(const VerdictRules& rules);          // what an undo step's redo and undo do
    // Review: a document derived from the current one with a change to its notes or decisions.
    bool applyReviewChange(ComparisonDocument doc, const QString& message);
    QStringList taskNames() const;
    // Autosave.
    void setUpAutosave();  // in the constructor
    void scheduleAutosave();
    void autosaveInBackground();  // what the timer runs: the record prepared here, written on a worker
    // The record to autosave now (true), or false when nothing is unsaved (the recovery file is then removed).
    Result<bool> prepareAutosave(RecoveryRecord& record);
    void discardRecovery();
    // The offline notice: what cannot be done here, from the last checks.
    void checkLiveSources();
    void updateOfflineNotice();
    // The open file changed on disk (main_window_disk.cpp).
    QWidget* buildDiskBar();
    void watchDiskFile();                 // the watcher follows the open file (none: nothing watched)
    void checkDiskFile();                 // what the watcher calls: the bar when the file is not as read or saved here
    Status writeTo(const QString& path);  // saveTo without the question
    // Opens `path` in a new window when this one cannot take it (see openFile).
    MainWindow* windowFor(const QString& path);
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    QString lastDirectory() const;
    void rememberDirectory(const QString& fileOrDir);

    QStackedWidget* m_stack = nullptr;
    ComparisonView* m_view = nullptr;
    QLabel* m_busyLabel = nullptr;
    QProgressBar* m_busyBar = nullptr;
    QLabel* m_summaryLabel = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_saveAsAction = nullptr;
    QAction* m_connectAction = nullptr;
    QAction* m_refreshAction = nullptr;
    QAction* m_exportAction = nullptr;
    QAction* m_exportMonitoringAction = nullptr;
    QAction* m_expandAllAction = nullptr;
    QAction* m_collapseAllAction = nullptr;
    QAction* m_cancelBenchAction = nullptr;
    QAction* m_addNoteAction = nullptr;
    QAction* m_recordDecisionAction = nullptr;
    QAction* m_presentAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_goToTabMenu = nullptr;
    QList<QAction*> m_tabActions;  // by ComparisonView::Tab
    QAction* m_copyAction = nullptr;
    QAction* m_copyMarkdownAction = nullptr;
    QPointer<QAbstractItemView> m_copyView;  // the copy target whose selection the copy actions follow
    QMetaObject::Connection m_copySelection;
    QPointer<GuideWindow> m_guide;
    QUndoStack* m_undoStack = nullptr;
    QDockWidget* m_rulesDock = nullptr;
    VerdictRulesPanel* m_rulesPanel = nullptr;
    QAction* m_verdictRulesAction = nullptr;
    quint64 m_rulesSerial = 0;                    // the document the undo stack's steps belong to
    std::optional<std::size_t> m_rulesCleanHash;  // the content last saved or opened, once a rules change needed it
    QUrl m_guideRoot;

    DocumentController m_doc;  // the document shown: its path, name, modified mark (no widgets)
    std::optional<QString> m_loadingPath;
    std::optional<TimelineCredentials> m_sessionCredentials;
    QStringList m_sourceNotices;  // the live servers' notices of the last timeline fetch (deprecations, ...)  // used
                                  // by the last fetch; memory only
    std::shared_ptr<CredentialStore> m_credentialStore;  // shared with the source dialogs
    QPointer<TimelineSourceDialog> m_sourceDialog;
    QPointer<RunJudgeDialog> m_judgeDialog;
    QPointer<NoteDialog> m_noteDialog;
    QPointer<RecordDecisionDialog> m_decisionDialog;
    QString m_decisionDraft;
    std::function<QString(const QString&)> m_savePathChooser;  // Save As' path; null: a QFileDialog  // a recovered
                                                               // reason, offered by the next Record Decision…

    std::shared_ptr<RecoveryStore> m_recoveryStore;
    std::unique_ptr<RecoverySlot> m_recoverySlot;
    QTimer* m_autosaveTimer = nullptr;
    QFutureWatcher<Status>* m_autosaveWatcher = nullptr;  // the background write in flight, if any
    bool m_autosaveAgain = false;                         // a change came during that write: write again after it
    bool m_discardAfterWrite = false;                     // saved or discarded during that write: remove what it wrote

    BackgroundJob* m_liveCheck = nullptr;    // the reachability check of the shown document's live sources
    BackgroundJob* m_deviceQuery = nullptr;  // whether GPU benchmarks can run here
    std::vector<LiveSourceCheck> m_liveChecks;
    std::optional<QString> m_gpuUnavailable;  // why GPU benchmarks cannot run here, once known
    QPointer<PresentationWindow> m_presentation;
    LiveTimeline* m_live = nullptr;
    std::shared_ptr<DesktopNotifier> m_notifier;
    QString m_liveNotice;                      // the notice area's line for the last transition told
    QString m_liveError;                       // the notice area's line for a failed refresh ("" after a success)
    BackgroundJob* m_monitoringJob = nullptr;  // File › Export Monitoring Rules… writing
    BackgroundJob* m_load = nullptr;           // the file openFileAsync reads; cancelled by any newer document
    quint64 m_benchSerial = 0;  // the document (DocumentController::serial) a benchmark run was started for

    QFileSystemWatcher* m_diskWatcher = nullptr;
    QWidget* m_diskBar = nullptr;
    QLabel* m_diskLabel = nullptr;
    QPushButton* m_diskReload = nullptr;
    QPushButton* m_diskMerge = nullptr;
    std::optional<DiskStamp> m_diskNoticeFor;  // the state of the file the bar was shown for (shown once each)
    std::optional<DiskStamp> m_pendingStamp;   // the file's state before the load that display() shows next
};

}  // namespace fp8dash::ui
