#include "fp8dash/ui/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "bench_charts.h"
#include "fp8dash/core/demo.h"
#include "fp8dash/core/live_sources.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/version.h"
#include "fp8dash/ui/background_job.h"
#include "fp8dash/ui/bench_view.h"
#include "fp8dash/ui/capacity_view.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/keychain_credential_store.h"
#include "fp8dash/ui/new_comparison_dialog.h"
#include "fp8dash/ui/notes_panel.h"
#include "fp8dash/ui/review_dialogs.h"
#include "fp8dash/ui/review_view.h"
#include "fp8dash/ui/presentation_window.h"
#include "fp8dash/ui/report_exporter.h"
#include "fp8dash/ui/run_judge_dialog.h"
#include "fp8dash/ui/task_table_view.h"
#include "fp8dash/ui/theme.h"
#include "fp8dash/ui/verdict_banner.h"
#include "fp8dash/ui/time_range_picker.h"
#include "fp8dash/ui/timeline_source_dialog.h"
#include "fp8dash/ui/timeline_view.h"
#include "ui_style.h"

namespace fp8dash::ui {

namespace {

constexpr int kMaxRecentFiles = 8;
constexpr int kAutosaveDelayMs = 1500;  // after the last change: typing a note does not write on every key

QList<MainWindow*>& allWindows() {
    static QList<MainWindow*> list;
    return list;
}
const QString kComparisonSuffix = QStringLiteral("fp8cmp");

QString comparisonFilter() {
    return MainWindow::tr("fp8dash comparisons (*.fp8cmp);;All files (*)");
}

QString withSuffix(QString path, const QString& suffix) {
    if (!path.isEmpty() && QFileInfo(path).suffix().compare(suffix, Qt::CaseInsensitive) != 0) {
        path += QLatin1Char('.') + suffix;
    }
    return path;
}

// A new document without eval runs, for what is added to it next (a production timeline, local benchmarks and
// capacity): created now by this build.
ComparisonDocument documentWithoutRuns(const QString& title) {
    ComparisonDocument doc;
    doc.hasEvals = false;
    doc.created = nowIso8601Utc();
    doc.toolVersion = FP8DASH_VERSION;
    doc.title = title.toStdString();
    return doc;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      m_credentialStore(std::make_shared<KeychainCredentialStore>()),
      m_recoveryStore(std::make_shared<RecoveryStore>()) {
    initUiResources();
    allWindows().append(this);
    Theme::instance();  // the saved theme is applied before the first window is drawn
    m_load = new BackgroundJob(this);
    m_liveCheck = new BackgroundJob(this);
    m_deviceQuery = new BackgroundJob(this);
    m_autosaveTimer = new QTimer(this);
    m_autosaveTimer->setSingleShot(true);
    m_autosaveTimer->setInterval(kAutosaveDelayMs);
    connect(m_autosaveTimer, &QTimer::timeout, this, &MainWindow::autosaveInBackground);
    m_autosaveWatcher = new QFutureWatcher<Status>(this);
    connect(m_autosaveWatcher, &QFutureWatcherBase::finished, this, [this] {
        const Status written = m_autosaveWatcher->future().result();
        if (m_discardAfterWrite) {
            // Saved or discarded while the write ran: what it wrote is not wanted any more.
            m_discardAfterWrite = false;
            if (m_recoverySlot) m_recoverySlot->discard();
        } else if (!written) {
            statusBar()->showMessage(tr("Autosave failed: %1").arg(toQString(written.error().message)), 10000);
        } else if (m_recoverySlot) {
            emit autosaved(m_recoverySlot->filePath());
        }
        if (m_autosaveAgain) {
            m_autosaveAgain = false;
            autosaveInBackground();
        }
    });
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("fp8dash"));
    setAcceptDrops(true);
    setMinimumSize(900, 600);

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(buildEmptyPage());
    m_view = new ComparisonView(m_stack);
    m_stack->addWidget(m_view);
    setCentralWidget(m_stack);

    TimelineView* timeline = m_view->timelineView();
    connect(timeline, &TimelineView::connectRequested, this, &MainWindow::connectTimeline);
    connect(timeline, &TimelineView::refreshRequested, this,
            [this](double from, double to) { refreshTimeline(from, to); });
    connect(timeline, &TimelineView::changeTimeChosen, this, &MainWindow::setTimelineChangeTime);

    BenchView* bench = m_view->benchView();
    connect(bench, &BenchView::runStarted, this, [this] {
        m_benchSerial = m_documentSerial;
        m_cancelBenchAction->setEnabled(true);
    });
    connect(bench, &BenchView::runFinished, this, &MainWindow::benchRunFinished);
    connect(bench, &BenchView::runFailed, this, [this](const QString& message) {
        m_cancelBenchAction->setEnabled(false);
        statusBar()->showMessage(tr("The benchmark run failed: %1").arg(message), 10000);
    });
    connect(m_view->capacityView(), &CapacityView::settingsEdited, this, [this](const CapacitySettings& settings) {
        if (!m_current) return;
        // The verdict does not depend on the capacity inputs: no re-evaluation, just keep them in the document.
        m_current->document.capacity = settings;
        setModified(true);
    });

    ReviewView* review = m_view->reviewView();
    connect(review, &ReviewView::recordDecisionRequested, this, [this] { recordDecision(); });
    connect(m_view->verdictBanner(), &VerdictBanner::recordDecisionRequested, this, [this] { recordDecision(); });
    connect(review, &ReviewView::noteSubmitted, this, [this](const QString& text, const QString& task,
                                                             const QString& author) {
        addNote(text, task, author);
        m_view->reviewView()->clearComposer();
    });
    connect(review, &ReviewView::editNoteRequested, this, [this](const QString& id) { openEditNoteDialog(id); });
    connect(review, &ReviewView::deleteNoteRequested, this, &MainWindow::requestDeleteNote);
    connect(review, &ReviewView::draftChanged, this, &MainWindow::scheduleAutosave);
    connect(m_view->taskTable(), &TaskTableView::addNoteRequested, this, [this](const QString& task) {
        m_view->showTab(ComparisonView::ReviewTab);
        m_view->reviewView()->focusComposer(task);
    });
    connect(Theme::instance(), &Theme::changed, this, [this] {
        if (m_current) m_view->setComparison(*m_current);  // the views' own colours follow the palette
    });

    buildMenus();
    buildStatusBar();
    updateActions();

    QSettings settings;
    if (allWindows().size() > 1) {
        // A further window: the size of the last one, a little down and right of it.
        const MainWindow* previous = allWindows().at(allWindows().size() - 2);
        resize(previous->size());
        move(previous->pos() + QPoint(32, 32));
    } else if (!restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray())) {
        QSize size(1280, 820);
        if (const QScreen* screen = QGuiApplication::primaryScreen()) {
            size = size.boundedTo(screen->availableGeometry().size() * 0.92);
        }
        resize(size);
    }
    m_view->splitter()->restoreState(settings.value(QStringLiteral("mainWindow/splitter")).toByteArray());
}

MainWindow::~MainWindow() {
    allWindows().removeAll(this);
    m_autosaveWatcher->waitForFinished();  // a recovery file being written is finished, whole
    // A window destroyed without being closed (the application torn down) keeps its recovery file: the slot's lock is
    // released and the next start offers the file, as after a crash.
}

QList<MainWindow*> MainWindow::windows() {
    return allWindows();
}

MainWindow* MainWindow::windowShowing(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (MainWindow* w : allWindows()) {
        if ((!w->m_path.isEmpty() && w->m_path == absolute) || (w->m_loadingPath && *w->m_loadingPath == absolute))
            return w;
    }
    return nullptr;
}

MainWindow* MainWindow::newWindow() {
    auto* window = new MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->setCredentialStore(m_credentialStore);
    window->setRecoveryStore(m_recoveryStore);
    window->show();
    return window;
}

bool MainWindow::canReplaceDocument() const {
    return !m_modified && drafts().empty();  // a load still running is superseded, like any other
}

MainWindow* MainWindow::windowFor(const QString& path) {
    if (MainWindow* showing = path.isEmpty() ? nullptr : windowShowing(path)) return showing;
    return canReplaceDocument() ? this : newWindow();
}

MainWindow* MainWindow::openFile(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    MainWindow* target = windowFor(absolute);
    if (target->m_path == absolute || (target->m_loadingPath && *target->m_loadingPath == absolute)) {
        target->statusBar()->showMessage(tr("%1 is open in this window").arg(QFileInfo(absolute).fileName()), 5000);
    } else {
        target->openFileAsync(absolute);
    }
    target->show();
    target->raise();
    target->activateWindow();
    return target;
}

QWidget* MainWindow::buildEmptyPage() {
    auto* page = new QWidget(this);
    page->setObjectName(QStringLiteral("emptyPage"));
    auto* outer = new QVBoxLayout(page);
    outer->addStretch(1);
    auto* icon = new QLabel(page);
    icon->setPixmap(QIcon(QStringLiteral(":/icons/fp8dash-128.png")).pixmap(96, 96));
    icon->setAlignment(Qt::AlignCenter);
    outer->addWidget(icon);
    auto* title = style::sectionTitle(tr("No comparison open"), page);
    title->setAlignment(Qt::AlignCenter);
    outer->addWidget(title);
    auto* text = style::caption(tr("Open a comparison file (*.fp8cmp), drop one onto this window, or build a new one "
                                   "from the lm-eval results of a BF16 baseline and an FP8 candidate."),
                                page);
    text->setAlignment(Qt::AlignCenter);
    // A fixed width and the matching height: the stacked page does not pass height-for-width down to the label.
    text->setFixedWidth(520);
    text->setMinimumHeight(text->heightForWidth(520));
    outer->addWidget(text, 0, Qt::AlignHCenter);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    auto* newButton = new QPushButton(tr("New Comparison…"), page);
    auto* openButton = new QPushButton(tr("Open…"), page);
    auto* demoButton = new QPushButton(tr("Open Demo"), page);
    auto* timelineButton = new QPushButton(tr("Production Timeline…"), page);
    auto* benchButton = new QPushButton(tr("Local Benchmarks"), page);
    benchButton->setToolTip(tr("Measure what FP8 buys on this machine's GPU, and plan KV-cache capacity"));
    connect(benchButton, &QPushButton::clicked, this, &MainWindow::showBenchmarks);
    timelineButton->setToolTip(tr("Connect to Prometheus / Langfuse and plot throughput and quality around the FP8 "
                                  "switch"));
    connect(newButton, &QPushButton::clicked, this, &MainWindow::newComparison);
    connect(openButton, &QPushButton::clicked, this, &MainWindow::openWithDialog);
    connect(demoButton, &QPushButton::clicked, this, &MainWindow::openDemo);
    connect(timelineButton, &QPushButton::clicked, this, &MainWindow::connectTimeline);
    buttons->addWidget(newButton);
    buttons->addWidget(openButton);
    buttons->addWidget(demoButton);
    buttons->addWidget(timelineButton);
    buttons->addWidget(benchButton);
    buttons->addStretch(1);
    outer->addSpacing(8);
    outer->addLayout(buttons);
    outer->addStretch(2);
    return page;
}

void MainWindow::buildMenus() {
    // Every action has a shortcut (the recent files have their numbers as mnemonics); the ui tests check it.
    const auto shortcut = [](QAction* action, const char* keys) {
        action->setShortcut(QKeySequence(QString::fromLatin1(keys)));
        return action;
    };
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* newAction = shortcut(file->addAction(tr("&New Comparison…"), this, &MainWindow::newComparison), "Ctrl+N");
    newAction->setStatusTip(tr("Compare two lm-eval runs and save the comparison"));
    shortcut(file->addAction(tr("New &Window"), this, [this] { newWindow(); }), "Ctrl+Shift+N")
        ->setStatusTip(tr("Another window, for a second comparison side by side"));
    shortcut(file->addAction(tr("&Open…"), this, &MainWindow::openWithDialog), "Ctrl+O");
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    rebuildRecentMenu();
    shortcut(file->addAction(tr("Open &Demo"), this, &MainWindow::openDemo), "Ctrl+Shift+O")
        ->setStatusTip(tr("The bundled Meta-Llama-3-8B-Instruct BF16 vs FP8 comparison"));
    file->addSeparator();
    m_saveAction = shortcut(file->addAction(tr("&Save"), this, &MainWindow::save), "Ctrl+S");
    m_saveAsAction = shortcut(file->addAction(tr("Save &As…"), this, &MainWindow::saveAs), "Ctrl+Shift+S");
    m_exportAction = shortcut(file->addAction(tr("&Export Report…"), this, &MainWindow::exportReport), "Ctrl+E");
    m_exportAction->setStatusTip(
        tr("Write the whole report (verdict, review, evals, judge, timeline, benchmarks, "
           "capacity, notes) as PDF, HTML, Markdown, text or JSON"));
    file->addSeparator();
    shortcut(file->addAction(tr("&Close Window"), this, &QWidget::close), "Ctrl+W");
    QAction* quit = shortcut(file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows), "Ctrl+Q");
    quit->setMenuRole(QAction::QuitRole);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    m_expandAllAction = shortcut(
        view->addAction(tr("&Expand All Groups"), this, [this] { m_view->taskTable()->expandAll(); }), "Ctrl+Alt+E");
    m_collapseAllAction = shortcut(
        view->addAction(tr("&Collapse All Groups"), this, [this] { m_view->taskTable()->collapseAll(); }),
        "Ctrl+Alt+C");
    shortcut(view->addAction(tr("&Filter Tasks"), this,
                             [this] { m_view->taskTable()->filterEdit()->setFocus(Qt::ShortcutFocusReason); }),
             "Ctrl+F");
    view->addSeparator();
    QMenu* theme = view->addMenu(tr("&Theme"));
    auto* themes = new QActionGroup(theme);
    const std::pair<ThemeMode, const char*> modes[] = {
        {ThemeMode::System, "Ctrl+Alt+1"}, {ThemeMode::Light, "Ctrl+Alt+2"}, {ThemeMode::Dark, "Ctrl+Alt+3"}};
    for (const auto& [mode, keys] : modes) {
        const QString text = mode == ThemeMode::System  ? tr("Follow the &System")
                             : mode == ThemeMode::Light ? tr("&Light")
                                                        : tr("&Dark");
        QAction* action = shortcut(theme->addAction(text), keys);
        action->setCheckable(true);
        action->setChecked(Theme::instance()->mode() == mode);
        action->setObjectName(QStringLiteral("theme-") + themeModeName(mode));
        themes->addAction(action);
        connect(action, &QAction::triggered, this, [m = mode] { Theme::instance()->setMode(m); });
    }
    // Another window (or a test) may change the theme: keep the check marks right.
    connect(Theme::instance(), &Theme::changed, theme, [theme] {
        for (QAction* a : theme->actions())
            a->setChecked(a->objectName() == QStringLiteral("theme-") + themeModeName(Theme::instance()->mode()));
    });
    view->addSeparator();
    // F5 starts the show, as in slide software and on presentation clickers ("start show"); F11 is full screen in
    // most apps. Timeline › Refresh keeps Ctrl+R.
    m_presentAction = view->addAction(tr("&Presentation Mode"), this, [this] { startPresentation(); });
    m_presentAction->setShortcuts({QKeySequence(QStringLiteral("F11")), QKeySequence(QStringLiteral("F5")),
                                   QKeySequence(QStringLiteral("Ctrl+Shift+P"))});
    m_presentAction->setToolTip(tr("Present this comparison full screen, one step per slide (Esc leaves)"));

    QMenu* timeline = menuBar()->addMenu(tr("&Timeline"));
    m_connectAction = shortcut(timeline->addAction(tr("&Connect…"), this, &MainWindow::connectTimeline), "Ctrl+T");
    m_connectAction->setStatusTip(tr("Fetch serving throughput (Prometheus) and judge quality (Langfuse or Prometheus) "
                                     "around the FP8 switch"));
    m_refreshAction = timeline->addAction(tr("&Refresh"), this, [this] { refreshTimeline(); });
    m_refreshAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+R")));
    m_refreshAction->setStatusTip(tr("Fetch the timeline's series again for the range picked on the timeline tab"));
    timeline->addSeparator();
    shortcut(timeline->addAction(tr("Show &Timeline"), this, [this] { m_view->showTab(ComparisonView::TimelineTab); }),
             "Ctrl+2");
    shortcut(timeline->addAction(tr("Show Offline &Evals"), this, [this] { m_view->showTab(ComparisonView::EvalsTab); }),
             "Ctrl+1");
    shortcut(timeline->addAction(tr("Show Domain &Judge"), this, [this] { m_view->showTab(ComparisonView::JudgeTab); }),
             "Ctrl+J");
    QAction* runJudge = shortcut(timeline->addAction(tr("Run &Domain Eval…"), this, [this] { runDomainEval(); }),
                                 "Ctrl+Shift+J");
    runJudge->setStatusTip(tr("Ask the BF16 and FP8 deployments your domain prompts and have a judge model score "
                              "the answers"));

    QMenu* bench = menuBar()->addMenu(tr("&Bench"));
    shortcut(bench->addAction(tr("Show &Local Benchmarks"), this, &MainWindow::showBenchmarks), "Ctrl+3");
    QAction* run = shortcut(bench->addAction(tr("&Run Benchmarks"), this, &MainWindow::runBenchmarks), "Ctrl+B");
    run->setStatusTip(tr("GEMM BF16 vs FP8, memory bandwidth and the KV-cache FP8 error on this machine"));
    shortcut(bench->addAction(tr("&Measure My Model's KV Cache…"), this,
                              [this] {
                                  showBenchmarks();
                                  if (m_current) m_view->benchView()->measureKvDump();
                              }),
             "Ctrl+Alt+B");
    m_cancelBenchAction = shortcut(
        bench->addAction(tr("&Cancel Benchmark Run"), this, [this] { m_view->benchView()->cancelRun(); }),
        "Ctrl+Shift+B");
    m_cancelBenchAction->setEnabled(false);
    bench->addSeparator();
    shortcut(bench->addAction(tr("Show &Capacity"), this, &MainWindow::showCapacity), "Ctrl+4");

    QMenu* review = menuBar()->addMenu(tr("&Review"));
    shortcut(review->addAction(tr("Show &Review"), this, [this] { m_view->showTab(ComparisonView::ReviewTab); }),
             "Ctrl+5");
    m_addNoteAction = shortcut(review->addAction(tr("Add &Note…"), this, [this] { openNoteDialog(); }), "Ctrl+Shift+M");
    m_addNoteAction->setStatusTip(tr("A note for whoever reviews this comparison, about it or one task"));
    m_recordDecisionAction =
        shortcut(review->addAction(tr("Record &Decision…"), this, [this] { recordDecision(); }), "Ctrl+Shift+D");
    m_recordDecisionAction->setStatusTip(tr("Approve FP8 (go, or monitor with quality alerting) or reject it"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    shortcut(help->addAction(tr("&About fp8dash"), this, &MainWindow::showAbout), "F1")
        ->setMenuRole(QAction::AboutRole);
    shortcut(help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt), "Shift+F1")
        ->setMenuRole(QAction::AboutQtRole);
}

void MainWindow::buildStatusBar() {
    m_busyLabel = new QLabel(this);
    m_busyBar = new QProgressBar(this);
    m_busyBar->setObjectName(QStringLiteral("busyIndicator"));
    m_busyBar->setRange(0, 0);  // indeterminate: reading a file reports no progress
    m_busyBar->setMaximumWidth(140);
    m_busyBar->setMaximumHeight(16);
    m_busyBar->setTextVisible(false);
    m_summaryLabel = new QLabel(this);
    statusBar()->addWidget(m_busyLabel);
    statusBar()->addWidget(m_busyBar);
    statusBar()->addPermanentWidget(m_summaryLabel);
    m_busyLabel->hide();
    m_busyBar->hide();
}

void MainWindow::updateActions() {
    const bool haveDocument = m_current.has_value();
    const bool haveEvals = haveDocument && m_current->document.hasEvals;
    m_saveAction->setEnabled(haveDocument);
    m_saveAsAction->setEnabled(haveDocument);
    m_refreshAction->setEnabled(haveDocument && m_current->document.timeline.has_value());
    m_exportAction->setEnabled(haveDocument);
    m_expandAllAction->setEnabled(haveEvals);
    m_collapseAllAction->setEnabled(haveEvals);
    m_addNoteAction->setEnabled(haveDocument);
    m_recordDecisionAction->setEnabled(haveDocument);
    m_presentAction->setEnabled(haveDocument);
}

PresentationWindow* MainWindow::presentationWindow() const {
    return m_presentation;
}

PresentationWindow* MainWindow::startPresentation() {
    if (!m_current) return nullptr;
    if (m_presentation) {
        m_presentation->raise();
        m_presentation->activateWindow();
        return m_presentation;
    }
    // A copy of the document: edits or loads here while presenting do not pull slides from under the presenter.
    m_presentation = new PresentationWindow(*m_current, this);
    connect(m_presentation, &PresentationWindow::finished, this, [this] {
        if (isMinimized()) showNormal();
        raise();
        activateWindow();
    });
    m_presentation->start(screen());
    return m_presentation;
}

void MainWindow::showDocument(ComparisonDocument doc, const QString& path, const QString& displayName) {
    // An explicit document supersedes any file still loading.
    m_load->cancel();
    clearLoading();
    const QString source = path.isEmpty() ? (displayName.isEmpty() ? tr("the comparison") : displayName) : path;
    auto loaded = evaluateForDisplay(std::move(doc), source);
    if (!loaded) {
        const QString message = toQString(loaded.error().message);
        showError(tr("Could not show the comparison"), tr("Could not evaluate %1.").arg(source), message);
        emit loadFailed(path, message);
        return;
    }
    display(std::move(loaded).value(), path, displayName);
}

void MainWindow::openFileAsync(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    setLoading(absolute);
    using Outcome = Result<LoadedComparison>;
    // A newer load or document cancels this one (m_load->cancel()): its result is then dropped.
    auto read = [absolute](JobControl&) { return loadComparisonForDisplay(absolute); };
    m_load->start(std::move(read), [this, absolute](Outcome outcome) {
        clearLoading();
        if (!outcome) {
            const QString message = toQString(outcome.error().message);
            showError(tr("Could not open comparison"), tr("Could not open “%1”.").arg(QFileInfo(absolute).fileName()),
                      message);
            statusBar()->showMessage(tr("Could not open %1").arg(QDir::toNativeSeparators(absolute)), 8000);
            emit loadFailed(absolute, message);
            return;
        }
        display(std::move(outcome).value(), absolute, {});
        statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(absolute)), 5000);
    });
}

void MainWindow::openDemo() {
    if (!canReplaceDocument()) {
        newWindow()->openDemo();
        return;
    }
    auto demo = loadDemoComparison();
    if (!demo) {
        showError(tr("Could not open the demo"), tr("The bundled demo comparison could not be read."),
                  toQString(demo.error().message));
        return;
    }
    showDocument(std::move(demo).value(), {}, toQString(kDemoName));
}

void MainWindow::display(LoadedComparison loaded, const QString& path, const QString& displayName, bool derived) {
    if (!derived) ++m_documentSerial;
    m_current = std::move(loaded);
    m_path = path;
    if (!displayName.isEmpty()) {
        m_displayName = displayName;
    } else if (!path.isEmpty()) {
        m_displayName = QFileInfo(path).fileName();
    } else if (!m_current->document.title.empty()) {
        m_displayName = toQString(m_current->document.title);
    } else {
        m_displayName = tr("Untitled comparison");
    }
    m_modified = false;
    m_view->setComparison(*m_current);
    m_stack->setCurrentWidget(m_view);
    updateTitle();
    if (!derived) {
        scheduleAutosave();  // a new document: whatever the old one left in the recovery file goes
        checkLiveSources();
    }
    m_summaryLabel->setText(path.isEmpty() ? tr("Not saved to a file") : QDir::toNativeSeparators(path));
    if (!path.isEmpty()) {
        addRecentFile(path);
        rememberDirectory(path);
    }
    updateActions();
    emit documentShown(path);
}

void MainWindow::showError(const QString& title, const QString& text, const QString& details) {
    // Window-modal and non-blocking: the event loop (and any other load) keeps running while it is open.
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("errorBox"));
    box->setInformativeText(details);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::setLoading(const QString& path) {
    m_loadingPath = path;
    m_busyLabel->setText(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    m_busyLabel->show();
    m_busyBar->show();
}

void MainWindow::clearLoading() {
    m_loadingPath.reset();
    m_busyLabel->hide();
    m_busyBar->hide();
}

void MainWindow::newComparison() {
    auto* dialog = new NewComparisonDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setStartDirectory(lastDirectory());
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (const LoadedComparison* result = dialog->result()) {
            if (!canReplaceDocument()) {
                // The new comparison is saved already; what this window shows is not: it stays.
                newWindow()->openFileAsync(dialog->savedPath());
                return;
            }
            m_load->cancel();
            clearLoading();
            display(*result, dialog->savedPath(), {});
            QString message = tr("Saved %1").arg(QDir::toNativeSeparators(dialog->savedPath()));
            if (!result->buildNotes.isEmpty()) message += QStringLiteral(" · ") + result->buildNotes.first();
            statusBar()->showMessage(message, 8000);
        }
    });
    dialog->open();
}

void MainWindow::openWithDialog() {
    const QStringList paths =
        QFileDialog::getOpenFileNames(this, tr("Open Comparison"), lastDirectory(), comparisonFilter());
    for (const QString& path : paths) openFile(path);
}

void MainWindow::saveAs() {
    if (!m_current) return;
    QString suggested = m_path;
    if (suggested.isEmpty()) {
        QString base = toQString(m_current->document.title).trimmed();
        base.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
        if (base.isEmpty()) base = QStringLiteral("comparison");
        suggested = QDir(lastDirectory()).filePath(base + QLatin1Char('.') + kComparisonSuffix);
    }
    QString path = QFileDialog::getSaveFileName(this, tr("Save Comparison As"), suggested, comparisonFilter());
    if (path.isEmpty()) return;
    (void)saveTo(withSuffix(path, kComparisonSuffix));
}

void MainWindow::save() {
    if (!m_current) return;
    if (m_path.isEmpty()) {
        saveAs();
        return;
    }
    (void)saveTo(m_path);
}

Status MainWindow::saveTo(const QString& path) {
    if (!m_current) return Error{"no comparison to save"};
    // The document holds the timeline's settings and series only: credentials never enter it.
    const Status saved = saveComparisonFile(m_current->document, toFsPath(path));
    if (!saved) {
        showError(tr("Could not save"), tr("Could not save “%1”.").arg(QFileInfo(path).fileName()),
                  toQString(saved.error().message));
        return saved;
    }
    m_path = QFileInfo(path).absoluteFilePath();
    m_displayName = QFileInfo(path).fileName();
    m_modified = false;
    updateTitle();
    scheduleAutosave();  // nothing unsaved now: the recovery file goes (drafts still typed keep it)
    m_summaryLabel->setText(QDir::toNativeSeparators(m_path));
    addRecentFile(m_path);
    rememberDirectory(m_path);
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(m_path)), 5000);
    return saved;
}

void MainWindow::updateTitle() {
    setWindowTitle(QStringLiteral("%1%2 — fp8dash").arg(m_displayName, m_modified ? QStringLiteral("*") : QString()));
}

void MainWindow::setModified(bool modified) {
    m_modified = modified;
    updateTitle();
    scheduleAutosave();
    if (modified) {
        m_summaryLabel->setText(tr("%1 — modified, not saved")
                                    .arg(m_path.isEmpty() ? m_displayName : QDir::toNativeSeparators(m_path)));
    }
}

bool MainWindow::showDerived(ComparisonDocument doc) {
    const QString path = m_current ? m_path : QString();
    const QString name = m_current && path.isEmpty() ? m_displayName : QString();
    const QString source = path.isEmpty() ? (name.isEmpty() ? tr("the comparison") : name) : path;
    auto loaded = evaluateForDisplay(std::move(doc), source);
    if (!loaded) {
        showError(tr("Could not show the timeline"), tr("Could not evaluate %1.").arg(source),
                  toQString(loaded.error().message));
        return false;
    }
    // Not a new load: any file still loading must not replace it.
    m_load->cancel();
    clearLoading();
    display(std::move(loaded).value(), path, name, m_current.has_value());
    return true;
}

void MainWindow::applyTimeline(TimelineData data) {
    ComparisonDocument doc = m_current ? m_current->document : documentWithoutRuns(tr("Production timeline"));
    doc.timeline = std::move(data);
    if (!showDerived(std::move(doc))) return;
    setModified(true);
    m_view->showTab(ComparisonView::TimelineTab);
    statusBar()->showMessage(tr("Timeline fetched; save the comparison to keep it"), 8000);
    emit timelineApplied();
}

void MainWindow::setTimelineChangeTime(double unixSeconds) {
    if (!m_current || !m_current->document.timeline) return;
    ComparisonDocument doc = m_current->document;
    doc.timeline->settings.changeAt = unixSeconds;
    if (!showDerived(std::move(doc))) return;
    setModified(true);
    m_view->showTab(ComparisonView::TimelineTab);
    statusBar()->showMessage(tr("FP8 change time set to %1").arg(toQString(formatTimeUtc(unixSeconds))), 8000);
}

void MainWindow::ensureDocument() {
    if (!m_current) showDocument(documentWithoutRuns(tr("Local FP8 evidence")), {}, {});
}

void MainWindow::showBenchmarks() {
    ensureDocument();
    if (m_current) m_view->showTab(ComparisonView::BenchTab);
}

void MainWindow::showCapacity() {
    ensureDocument();
    if (m_current) m_view->showTab(ComparisonView::CapacityTab);
}

void MainWindow::runBenchmarks() {
    showBenchmarks();
    if (m_current) m_view->benchView()->startRun();
}

void MainWindow::benchRunFinished(const BenchResults& results) {
    m_cancelBenchAction->setEnabled(false);
    if (!m_current || m_benchSerial != m_documentSerial) {
        // Measured for a document that is no longer shown: it must not land in another one.
        statusBar()->showMessage(tr("Benchmark results dropped: another comparison was opened during the run"), 10000);
        return;
    }
    applyBenchmarks(results);
}

void MainWindow::applyBenchmarks(BenchResults results) {
    ComparisonDocument doc = m_current ? m_current->document : documentWithoutRuns(tr("Local FP8 evidence"));
    const bool cancelled = results.cancelled;
    doc.benchmarks = std::move(results);
    if (!showDerived(std::move(doc))) return;
    setModified(true);
    m_view->showTab(ComparisonView::BenchTab);
    statusBar()->showMessage(cancelled ? tr("Benchmarks cancelled; the partial results are in the comparison")
                                       : tr("Benchmarks finished; save the comparison to keep them"),
                             8000);
    emit benchmarksApplied();
}

TimelineSourceDialog* MainWindow::openSourceDialog(const TimelineSettings& settings, bool fetchNow) {
    if (m_sourceDialog && m_sourceDialog->isVisible()) {
        m_sourceDialog->raise();
        m_sourceDialog->activateWindow();
        return m_sourceDialog;
    }
    auto* dialog = new TimelineSourceDialog(this, m_credentialStore);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setSettings(settings);
    if (m_sessionCredentials) dialog->setCredentials(*m_sessionCredentials);
    // "Last 6 hours" stays "the last 6 hours" when fetched again later.
    const TimeRangePicker* viewPicker = m_view->timelineView()->rangePicker();
    if (viewPicker->preset() != TimeRangePicker::Custom) dialog->rangePicker()->setPreset(viewPicker->preset());
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const TimelineData* data = dialog->result();
        if (!data) return;
        m_sessionCredentials = dialog->resultCredentials();
        m_sourceNotices = dialog->sourceNotices();  // shown in the notice area until the next fetch
        if (dialog->rangePicker()->preset() != TimeRangePicker::Custom) {
            m_view->timelineView()->rangePicker()->setPreset(dialog->rangePicker()->preset());
        }
        applyTimeline(*data);
    });
    // A closed dialog is deleted later; from now on it is not "the open one".
    connect(dialog, &QDialog::finished, this, [this, dialog] {
        if (m_sourceDialog == dialog) m_sourceDialog = nullptr;
    });
    m_sourceDialog = dialog;
    dialog->open();
    // Refresh in a new session: the credentials may still be on their way from the keychain.
    if (fetchNow) dialog->startFetchAfterKeychain();
    return dialog;
}

RunJudgeDialog* MainWindow::runDomainEval() {
    if (m_judgeDialog && m_judgeDialog->isVisible()) {
        m_judgeDialog->raise();
        m_judgeDialog->activateWindow();
        return m_judgeDialog;
    }
    auto* dialog = new RunJudgeDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RunJudgeDialog::scoresReady, this, [this, dialog] {
        const JudgeSection* scores = dialog->scores();
        const JudgeRunSummary* summary = dialog->summary();
        if (!scores || !summary) return;
        applyJudge(*scores, toQString(summary->baseline.model), toQString(summary->candidate.model));
    });
    connect(dialog, &QDialog::finished, this, [this, dialog] {
        if (m_judgeDialog == dialog) m_judgeDialog = nullptr;
    });
    m_judgeDialog = dialog;
    dialog->open();
    return dialog;
}

RunJudgeDialog* MainWindow::judgeDialog() const {
    return m_judgeDialog.data();
}

void MainWindow::applyJudge(JudgeSection section, const QString& baselineLabel, const QString& candidateLabel) {
    ComparisonDocument doc;
    if (m_current) {
        doc = m_current->document;
    } else {
        const std::string baseline = baselineLabel.isEmpty() ? "BF16" : baselineLabel.toStdString();
        const std::string candidate = candidateLabel.isEmpty() ? "FP8" : candidateLabel.toStdString();
        doc = makeComparisonDocument({baseline, "", {}}, {candidate, "", {}}, {});
        doc.hasEvals = false;
        doc.title = baseline + " vs " + candidate + ": domain judge";
    }
    // A new run replaces the scores, not how the document reads them (scale, policy, bootstrap).
    section.options = doc.judge ? doc.judge->options : JudgeOptions{};
    if (!doc.judge) section.options.cautious = doc.options.cautious;
    doc.judge = std::move(section);
    if (!showDerived(std::move(doc))) return;
    setModified(true);
    m_view->showTab(ComparisonView::JudgeTab);
    statusBar()->showMessage(tr("Domain eval scores added; save the comparison to keep them"), 8000);
    emit judgeApplied();
}

void MainWindow::setCredentialStore(std::shared_ptr<CredentialStore> store) {
    m_credentialStore = store ? std::move(store) : std::make_shared<KeychainCredentialStore>();
}

TimelineSourceDialog* MainWindow::sourceDialog() const {
    return m_sourceDialog.data();
}

TimelineSourceDialog* MainWindow::connectTimeline() {
    if (m_current && m_current->document.timeline) return openSourceDialog(m_current->document.timeline->settings, false);
    TimelineSettings settings;
    const auto [from, to] = m_view->timelineView()->rangePicker()->range();
    settings.from = from;
    settings.to = to;
    return openSourceDialog(settings, false);
}

TimelineSourceDialog* MainWindow::refreshTimeline() {
    const auto [from, to] = m_view->timelineView()->rangePicker()->range();
    return refreshTimeline(from, to);
}

TimelineSourceDialog* MainWindow::refreshTimeline(double from, double to) {
    if (!m_current || !m_current->document.timeline) {
        TimelineSettings settings;
        settings.from = from;
        settings.to = to;
        return openSourceDialog(settings, false);
    }
    TimelineSettings settings = m_current->document.timeline->settings;
    settings.from = from;
    settings.to = to;
    return openSourceDialog(settings, true);
}

void MainWindow::exportReport() {
    if (!m_current) return;
    // Filter order: what a reviewer sends on first; the extension typed wins over the filter picked.
    const std::vector<std::pair<QString, ReportFileFormat>> filters = {
        {tr("PDF document (*.pdf)"), ReportFileFormat::Pdf},
        {tr("HTML page, charts included (*.html *.htm)"), ReportFileFormat::Html},
        {tr("Markdown (*.md)"), ReportFileFormat::Markdown},
        {tr("Plain text (*.txt)"), ReportFileFormat::Text},
        {tr("JSON, as fp8dash report --format json (*.json)"), ReportFileFormat::Json}};
    QStringList names;
    for (const auto& f : filters) names << f.first;
    QString selected = names.front();
    const QString base =
        m_path.isEmpty() ? QDir(lastDirectory()).filePath(QStringLiteral("fp8-report"))
                         : QFileInfo(m_path).absolutePath() + QLatin1Char('/') + QFileInfo(m_path).completeBaseName();
    QString path = QFileDialog::getSaveFileName(this, tr("Export Report"), base + QStringLiteral(".pdf"),
                                                names.join(QStringLiteral(";;")), &selected);
    if (path.isEmpty()) return;
    auto format = reportFormatForPath(path.toStdString());
    if (!format) {
        format = ReportFileFormat::Pdf;
        for (const auto& f : filters)
            if (f.first == selected) format = f.second;
        path = withSuffix(path, toQString(reportFormatSuffix(*format)));
    }
    rememberDirectory(path);
    (void)exportReportTo(path, *format);
}

Status MainWindow::exportReportTo(const QString& path, ReportFileFormat format) {
    if (!m_current) return Error{"no comparison to export"};
    const QString source = m_path.isEmpty() ? m_displayName : QDir::toNativeSeparators(m_path);
    statusBar()->showMessage(tr("Writing the report to %1…").arg(QDir::toNativeSeparators(path)));
    QApplication::setOverrideCursor(Qt::WaitCursor);
    // On the GUI thread: the charts are drawn by widgets. A report takes well under a second.
    const Status written = writeReportFile(*m_current, path, format, source);
    QApplication::restoreOverrideCursor();
    if (!written) {
        statusBar()->clearMessage();
        showError(tr("Could not export"), tr("Could not write the report “%1”.").arg(QFileInfo(path).fileName()),
                  toQString(written.error().message));
        return written;
    }
    statusBar()->showMessage(tr("Exported the report to %1").arg(QDir::toNativeSeparators(path)), 8000);
    return written;
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About fp8dash"),
        tr("<h3>fp8dash %1</h3>"
           "<p>Should this LLM deployment run in FP8? fp8dash compares the lm-evaluation-harness results of a BF16 "
           "baseline and an FP8 candidate task by task and gives a verdict: <b>GO</b>, <b>MONITOR</b> or "
           "<b>INVESTIGATE</b>, with every reason spelled out.</p>"
           "<p>Built with Qt %2.</p>")
            .arg(QCoreApplication::applicationVersion().toHtmlEscaped(), QString::fromLatin1(qVersion())));
}

void MainWindow::addRecentFile(const QString& path) {
    QSettings settings;
    QStringList files = settings.value(QStringLiteral("recentFiles")).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles) files.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), files);
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList files = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    int n = 0;
    for (const QString& file : files) {
        ++n;
        QAction* action = m_recentMenu->addAction(QStringLiteral("&%1  %2").arg(n).arg(QFileInfo(file).fileName()),
                                                  this, [this, file] { openFile(file); });
        action->setStatusTip(QDir::toNativeSeparators(file));
        action->setToolTip(QDir::toNativeSeparators(file));
    }
    if (files.isEmpty()) {
        m_recentMenu->addAction(tr("No recent files"))->setEnabled(false);
    } else {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear List"), this, [] { QSettings().remove(QStringLiteral("recentFiles")); });
    }
}

QString MainWindow::lastDirectory() const {
    const QString dir = QSettings().value(QStringLiteral("lastDirectory")).toString();
    return !dir.isEmpty() && QFileInfo(dir).isDir() ? dir : QDir::homePath();
}

void MainWindow::rememberDirectory(const QString& fileOrDir) {
    const QFileInfo info(fileOrDir);
    QSettings().setValue(QStringLiteral("lastDirectory"), info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

bool MainWindow::canOpenDrop(const QMimeData* data) {
    return !comparisonFilesIn(data).isEmpty();
}

QStringList MainWindow::comparisonFilesIn(const QMimeData* data) {
    QStringList files;
    if (!data || !data->hasUrls()) return files;
    for (const QUrl& url : data->urls()) {
        if (!url.isLocalFile()) continue;
        const QString path = url.toLocalFile();
        if (QFileInfo(path).suffix().compare(kComparisonSuffix, Qt::CaseInsensitive) == 0) files << path;
    }
    return files;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (canOpenDrop(event->mimeData())) {
        event->acceptProposedAction();
    } else {
        event->ignore();
    }
}

void MainWindow::dragMoveEvent(QDragMoveEvent* event) {
    if (canOpenDrop(event->mimeData())) {
        event->acceptProposedAction();
    } else {
        event->ignore();
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QStringList files = comparisonFilesIn(event->mimeData());
    if (files.isEmpty()) {
        event->ignore();
        return;
    }
    event->acceptProposedAction();
    // The first file here (unless that would replace unsaved changes), each further one in a window of its own.
    MainWindow* first = openFile(files.first());
    for (qsizetype i = 1; i < files.size(); ++i) {
        if (MainWindow* showing = windowShowing(files[i])) {
            showing->raise();
        } else {
            first->newWindow()->openFileAsync(files[i]);
        }
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (m_modified && m_current) {
        // A fetched timeline, a benchmark run or a note exists nowhere else: offer to keep it.
        const auto answer = QMessageBox::question(
            this, tr("Unsaved changes"),
            tr("“%1” has changes that are not saved (notes or a decision, a production timeline or change time, "
               "judge scores, benchmark results or capacity inputs). Save it first?")
                .arg(m_displayName),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        if (answer == QMessageBox::Cancel) {
            event->ignore();
            return;
        }
        if (answer == QMessageBox::Save) {
            save();
            if (m_modified) {  // declined the file dialog, or the save failed
                event->ignore();
                return;
            }
        }
    }
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/splitter"), m_view->splitter()->saveState());
    // Saved or discarded on purpose: nothing to recover from this window.
    m_autosaveTimer->stop();
    m_autosaveWatcher->waitForFinished();
    discardRecovery();
    m_recoverySlot.reset();
    event->accept();
}

// ---- review

QStringList MainWindow::taskNames() const {
    QStringList names;
    if (m_current)
        for (const TaskComparison& t : m_current->report.tasks) names << toQString(t.task);
    return names;
}

bool MainWindow::applyReviewChange(ComparisonDocument doc, const QString& message) {
    if (!showDerived(std::move(doc))) return false;
    setModified(true);
    statusBar()->showMessage(message, 6000);
    emit reviewChanged();
    return true;
}

NoteDialog* MainWindow::openNoteDialog(const QString& task) {
    if (!m_current) return nullptr;
    if (m_noteDialog && m_noteDialog->isVisible()) {
        m_noteDialog->raise();
        return m_noteDialog;
    }
    auto* dialog = new NoteDialog(taskNames(), task, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { addNote(dialog->text(), dialog->task(), dialog->author()); });
    connect(dialog->textEdit(), &QPlainTextEdit::textChanged, this, &MainWindow::scheduleAutosave);
    m_noteDialog = dialog;
    dialog->open();
    return dialog;
}

NoteDialog* MainWindow::openEditNoteDialog(const QString& noteId) {
    if (!m_current) return nullptr;
    const auto& notes = m_current->document.notes;
    const auto it = std::find_if(notes.begin(), notes.end(), [&](const Note& n) { return toQString(n.id) == noteId; });
    if (it == notes.end()) return nullptr;
    auto* dialog = new NoteDialog(taskNames(), toQString(it->task), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setNote(*it);
    dialog->authorEdit()->setReadOnly(true);  // a note keeps its author; the edit time says it changed
    connect(dialog, &QDialog::accepted, this,
            [this, dialog, noteId] { editNote(noteId, dialog->text(), dialog->task()); });
    connect(dialog->textEdit(), &QPlainTextEdit::textChanged, this, &MainWindow::scheduleAutosave);
    m_noteDialog = dialog;
    dialog->open();
    return dialog;
}

NoteDialog* MainWindow::noteDialog() const {
    return m_noteDialog.data();
}

void MainWindow::addNote(const QString& text, const QString& task, const QString& author) {
    if (!m_current || text.trimmed().isEmpty()) return;
    ComparisonDocument doc = m_current->document;
    Note note;
    note.id = doc.newNoteId();
    note.text = text.trimmed().toStdString();
    note.author = author.trimmed().toStdString();
    note.created = nowIso8601Utc();
    note.task = task.toStdString();
    doc.notes.push_back(std::move(note));
    applyReviewChange(std::move(doc), task.isEmpty() ? tr("Note added; save the comparison to keep it")
                                                     : tr("Note about %1 added; save the comparison to keep it").arg(task));
}

bool MainWindow::editNote(const QString& noteId, const QString& text, const QString& task) {
    if (!m_current || text.trimmed().isEmpty()) return false;
    ComparisonDocument doc = m_current->document;
    auto it = std::find_if(doc.notes.begin(), doc.notes.end(), [&](const Note& n) { return toQString(n.id) == noteId; });
    if (it == doc.notes.end()) return false;
    if (toQString(it->text) == text.trimmed() && toQString(it->task) == task) return true;  // nothing changed
    it->text = text.trimmed().toStdString();
    it->task = task.toStdString();
    it->edited = nowIso8601Utc();
    return applyReviewChange(std::move(doc), tr("Note changed; save the comparison to keep it"));
}

bool MainWindow::deleteNote(const QString& noteId) {
    if (!m_current) return false;
    ComparisonDocument doc = m_current->document;
    const auto before = doc.notes.size();
    std::erase_if(doc.notes, [&](const Note& n) { return toQString(n.id) == noteId; });
    if (doc.notes.size() == before) return false;
    return applyReviewChange(std::move(doc), tr("Note deleted; save the comparison to make it final"));
}

void MainWindow::requestDeleteNote(const QString& noteId) {
    auto* box = new QMessageBox(QMessageBox::Question, tr("Delete Note"), tr("Delete this note from the comparison?"),
                                QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("deleteNoteBox"));
    box->setInformativeText(tr("Until the comparison is saved, the file keeps the note."));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, noteId](int result) {
        if (result == QMessageBox::Yes) deleteNote(noteId);
    });
    box->open();
}

RecordDecisionDialog* MainWindow::recordDecision() {
    if (!m_current) return nullptr;
    if (m_decisionDialog && m_decisionDialog->isVisible()) {
        m_decisionDialog->raise();
        return m_decisionDialog;
    }
    auto* dialog = new RecordDecisionDialog(m_current->decision.verdict, m_current->document.currentDecision(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!m_decisionDraft.isEmpty()) {
        dialog->reasonEdit()->setPlainText(m_decisionDraft);
        m_decisionDraft.clear();
    }
    connect(dialog, &QDialog::accepted, this, [this, dialog] { applyDecision(dialog->decision()); });
    connect(dialog, &RecordDecisionDialog::reasonEdited, this, &MainWindow::scheduleAutosave);
    connect(dialog, &QDialog::finished, this, &MainWindow::scheduleAutosave);
    m_decisionDialog = dialog;
    dialog->open();
    return dialog;
}

RecordDecisionDialog* MainWindow::decisionDialog() const {
    return m_decisionDialog.data();
}

void MainWindow::applyDecision(ReviewDecision decision) {
    if (!m_current || !decision.validate()) return;
    ComparisonDocument doc = m_current->document;
    const QString title = toQString(reviewOutcomeTitle(decision.outcome));
    doc.decisions.push_back(std::move(decision));
    if (applyReviewChange(std::move(doc), tr("Decision recorded: %1; save the comparison to keep it").arg(title)))
        m_view->showTab(ComparisonView::ReviewTab);
}

// ---- autosave and crash recovery

void MainWindow::setRecoveryStore(std::shared_ptr<RecoveryStore> store) {
    if (!store) store = std::make_shared<RecoveryStore>();
    if (m_recoverySlot) {
        discardRecovery();
        m_recoverySlot.reset();
    }
    m_recoveryStore = std::move(store);
}

std::map<std::string, std::string> MainWindow::drafts() const {
    std::map<std::string, std::string> out;
    const auto put = [&](const char* key, const QString& text) {
        if (!text.trimmed().isEmpty()) out[key] = text.toStdString();
    };
    put("note", m_view->reviewView()->draft());
    if (m_noteDialog) put("note_dialog", m_noteDialog->textEdit()->toPlainText());
    if (m_decisionDialog) put("decision_why", m_decisionDialog->reasonEdit()->toPlainText());
    else put("decision_why", m_decisionDraft);
    return out;
}

void MainWindow::scheduleAutosave() {
    m_autosaveTimer->start();
}

void MainWindow::discardRecovery() {
    if (m_autosaveWatcher->isRunning()) m_discardAfterWrite = true;  // and again once the write in flight ends
    if (m_recoverySlot) m_recoverySlot->discard();
}

QString MainWindow::recoveryFile() const {
    return m_recoverySlot ? m_recoverySlot->filePath() : QString();
}

Result<bool> MainWindow::prepareAutosave(RecoveryRecord& record) {
    const auto typed = drafts();
    if (!m_current || (!m_modified && typed.empty())) {
        discardRecovery();
        return false;
    }
    if (!m_recoverySlot) {
        QString error;
        m_recoverySlot = m_recoveryStore->claim(&error);
        if (!m_recoverySlot) return Error{error.toStdString()};
    }
    record.document = m_current->document;
    record.originalPath = m_path.toStdString();
    record.displayName = m_displayName.toStdString();
    record.savedAt = nowIso8601Utc();
    record.pid = static_cast<long long>(QCoreApplication::applicationPid());
    record.drafts = typed;
    return true;
}

Status MainWindow::autosaveNow() {
    m_autosaveTimer->stop();
    m_autosaveWatcher->waitForFinished();
    RecoveryRecord record;
    const auto needed = prepareAutosave(record);
    if (!needed) return needed.error();
    if (!*needed) return success();
    const Status written = m_recoverySlot->write(record);
    if (written) emit autosaved(m_recoverySlot->filePath());
    return written;
}

void MainWindow::autosaveInBackground() {
    // One write at a time; a change during it is written right after.
    if (m_autosaveWatcher->isRunning()) {
        m_autosaveAgain = true;
        return;
    }
    RecoveryRecord record;
    const auto needed = prepareAutosave(record);
    if (!needed) {
        statusBar()->showMessage(tr("Autosave failed: %1").arg(toQString(needed.error().message)), 10000);
        return;
    }
    if (!*needed) return;
    // The document is copied here; serialising and writing it (seconds for a timeline of millions of points) runs
    // on a worker, so typing is never held up by it.
    const std::filesystem::path file = toFsPath(m_recoverySlot->filePath());
    m_autosaveWatcher->setFuture(QtConcurrent::run(
        [record = std::move(record), file]() { return saveRecoveryFile(record, file); }));
}

bool MainWindow::recover(const RecoveryOrphan& orphan) {
    if (!orphan.record) return false;
    auto slot = m_recoveryStore->adopt(orphan.file);
    if (!slot) return false;  // another fp8dash recovered it meanwhile
    const RecoveryRecord& r = *orphan.record;
    const QString path = toQString(r.originalPath);
    const QString source = path.isEmpty() ? toQString(r.displayName) : path;
    auto loaded = evaluateForDisplay(r.document, source);
    if (!loaded) {
        showError(tr("Could not recover"), tr("Could not show the recovered “%1”.").arg(toQString(r.displayName)),
                  toQString(loaded.error().message));
        return false;
    }
    m_load->cancel();
    clearLoading();
    display(std::move(loaded).value(), path, path.isEmpty() ? toQString(r.displayName) : QString());
    m_recoverySlot = std::move(slot);
    // Typed text first: a note still being written goes back into the composer, a decision's reason into the next
    // Record Decision dialog.
    QString note = r.drafts.count("note") ? toQString(r.drafts.at("note")) : QString();
    if (r.drafts.count("note_dialog")) {
        const QString fromDialog = toQString(r.drafts.at("note_dialog"));
        note = note.isEmpty() ? fromDialog : note + QStringLiteral("\n\n") + fromDialog;
    }
    if (!note.isEmpty()) m_view->reviewView()->setDraft(note);
    if (r.drafts.count("decision_why")) m_decisionDraft = toQString(r.drafts.at("decision_why"));
    setModified(true);
    statusBar()->showMessage(tr("Recovered “%1” as it was at %2; save it to keep it")
                                 .arg(m_displayName, toQString(readableTimestamp(r.savedAt))),
                             15000);
    if (!note.isEmpty() || !m_decisionDraft.isEmpty()) m_view->showTab(ComparisonView::ReviewTab);
    return true;
}

// ---- the offline notice

void MainWindow::checkLiveSources() {
    m_liveCheck->cancel();  // another document: the check of the last one is dropped
    m_liveChecks.clear();
    updateOfflineNotice();
    if (!m_current) return;
    if (m_current->document.timeline) {
        const TimelineSettings settings = m_current->document.timeline->settings;
        m_liveCheck->start([settings](JobControl&) { return checkTimelineSources(settings); },
                           [this](std::vector<LiveSourceCheck> checks) {
                               m_liveChecks = std::move(checks);
                               updateOfflineNotice();
                               emit liveSourcesChecked();
                           });
    }
    // The device does not change with the document: a query still running is kept.
    if (m_current->document.benchmarks && !m_gpuUnavailable && !m_deviceQuery->isRunning()) {
        m_deviceQuery->watch(bench::localDeviceQuery(), [this](const LocalDeviceStatus& status) {
            m_gpuUnavailable = status.available ? QString() : toQString(status.reason);
            updateOfflineNotice();
        });
    }
}

void MainWindow::updateOfflineNotice() {
    if (!m_current) {
        m_view->setOfflineNotice({});
        return;
    }
    QStringList items;
    // One line for the timeline's sources that cannot be reached (their errors in the tooltip); placeholders (the
    // demo's .invalid addresses) are not real servers and are not mentioned.
    QStringList unreachable, details;
    for (const LiveSourceCheck& c : m_liveChecks) {
        if (c.reachable || c.placeholder) continue;
        unreachable << tr("%1 at %2").arg(style::escaped(c.what), style::escaped(c.url));
        details << QStringLiteral("%1: %2").arg(toQString(c.what), toQString(c.detail));
    }
    if (!unreachable.isEmpty()) {
        items << tr("<b>Refresh the production timeline</b>: %1 cannot be reached from this machine (%2).")
                     .arg(unreachable.join(tr(" and ")), style::escaped(details.join(QStringLiteral("; "))));
    }
    if (m_current->document.benchmarks && m_gpuUnavailable && !m_gpuUnavailable->isEmpty()) {
        items << tr("<b>GPU benchmarks</b>: %1; Run Benchmarks measures the KV-cache error on the CPU only.")
                     .arg(style::escaped(*m_gpuUnavailable));
    }
    // What the live servers said on the last fetch (a deprecated Langfuse endpoint and its replacement, ...).
    QStringList said;
    for (const QString& n : std::as_const(m_sourceNotices)) said << style::escaped(n);
    if (items.isEmpty() && said.isEmpty()) {
        m_view->setOfflineNotice({});
        return;
    }
    if (items.isEmpty()) {
        QString html = tr("From the live sources on the last fetch:");
        html += QStringLiteral("<ul style=\"margin-top:2px; margin-bottom:0px; -qt-list-indent:1;\">");
        for (const QString& item : said) html += QStringLiteral("<li>") + item + QStringLiteral("</li>");
        m_view->setOfflineNotice(html + QStringLiteral("</ul>"));
        return;
    }
    items << said;
    QString html = tr("Everything saved in this comparison is shown. Not available on this machine:");
    html += QStringLiteral("<ul style=\"margin-top:2px; margin-bottom:0px; -qt-list-indent:1;\">");
    for (const QString& item : items) html += QStringLiteral("<li>") + item + QStringLiteral("</li>");
    html += QStringLiteral("</ul>");
    m_view->setOfflineNotice(html);
}

QString MainWindow::offlineNoticeText() const {
    return m_view->offlineNoticeText();
}

}  // namespace fp8dash::ui
