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
#include <QTabWidget>
#include <QTimer>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <tuple>

#include "bench/bench_charts.h"
#include "fp8dash/core/demo.h"
#include "fp8dash/core/live_sources.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/version.h"
#include "fp8dash/ui/background_job.h"
#include "fp8dash/ui/bench_view.h"
#include "fp8dash/ui/capacity_view.h"
#include "fp8dash/ui/changed_answers_dialog.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/document_controller.h"
#include "fp8dash/ui/eliding_status_bar.h"
#include "fp8dash/ui/keychain_credential_store.h"
#include "fp8dash/ui/new_comparison_dialog.h"
#include "fp8dash/ui/notes_panel.h"
#include "fp8dash/ui/presentation_window.h"
#include "fp8dash/ui/report_exporter.h"
#include "fp8dash/ui/review_dialogs.h"
#include "fp8dash/ui/review_view.h"
#include "fp8dash/ui/run_judge_dialog.h"
#include "fp8dash/ui/screen_fit.h"
#include "fp8dash/ui/task_table_view.h"
#include "fp8dash/ui/theme.h"
#include "fp8dash/ui/time_range_picker.h"
#include "fp8dash/ui/timeline_source_dialog.h"
#include "fp8dash/ui/timeline_view.h"
#include "fp8dash/ui/verdict_banner.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"
#include "window/main_window_parts.h"

namespace fp8dash::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      m_credentialStore(std::make_shared<KeychainCredentialStore>()),
      m_recoveryStore(std::make_shared<RecoveryStore>()) {
    initUiResources();
    main_window_parts::allWindows().append(this);
    Theme::instance();  // the saved theme is applied before the first window is drawn
    m_load = new BackgroundJob(this);
    m_liveCheck = new BackgroundJob(this);
    m_deviceQuery = new BackgroundJob(this);
    m_monitoringJob = new BackgroundJob(this);
    setUpAutosave();
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("fp8dash"));
    setAcceptDrops(true);
    setMinimumSize(900, 600);

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(buildEmptyPage());
    m_view = new ComparisonView(m_stack);
    m_stack->addWidget(m_view);
    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(buildDiskBar());
    centralLayout->addWidget(m_stack, 1);
    setCentralWidget(central);

    TimelineView* timeline = m_view->timelineView();
    connect(timeline, &TimelineView::connectRequested, this, &MainWindow::connectTimeline);
    connect(timeline, &TimelineView::refreshRequested, this,
            [this](double from, double to) { refreshTimeline(from, to); });
    connect(timeline, &TimelineView::changeTimeChosen, this, &MainWindow::setTimelineChangeTime);
    setUpLive();

    BenchView* bench = m_view->benchView();
    connect(bench, &BenchView::runStarted, this, [this] {
        m_benchSerial = m_doc.serial();
        m_cancelBenchAction->setEnabled(true);
    });
    connect(bench, &BenchView::runFinished, this, &MainWindow::benchRunFinished);
    connect(bench, &BenchView::runFailed, this, [this](const QString& message) {
        m_cancelBenchAction->setEnabled(false);
        statusBar()->showMessage(tr("The benchmark run failed: %1").arg(message), 10000);
    });
    connect(m_view->capacityView(), &CapacityView::settingsEdited, this, [this](const CapacitySettings& settings) {
        LoadedComparison* current = m_doc.edit();
        if (!current) return;
        // The verdict does not depend on the capacity inputs: no re-evaluation, just keep them in the document.
        current->document.capacity = settings;
        setModified(true);
    });

    ReviewView* review = m_view->reviewView();
    connect(review, &ReviewView::recordDecisionRequested, this, [this] { recordDecision(); });
    connect(m_view->verdictBanner(), &VerdictBanner::recordDecisionRequested, this, [this] { recordDecision(); });
    connect(review, &ReviewView::noteSubmitted, this,
            [this](const QString& text, const QString& task, const QString& author) {
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
    // A theme change is not answered here: each view repaints itself in place (theme.h), keeping the user's place.

    setUpVerdictRules();
    buildMenus();
    buildStatusBar();
    updateActions();

    QSettings settings;
    if (main_window_parts::allWindows().size() > 1) {
        // A further window: the size of the last one, a little down and right of it.
        const MainWindow* previous = main_window_parts::allWindows().at(main_window_parts::allWindows().size() - 2);
        resize(previous->size());
        move(previous->pos() + QPoint(32, 32));
        fitWindowToScreen(this);  // not off the screen's edge
    } else if (restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray())) {
        fitWindowToScreen(this);  // remembered on a larger screen: whole on this one
    } else if (const QScreen* screen = QGuiApplication::primaryScreen()) {
        setGeometry(firstStartGeometry(screen->availableGeometry()));  // most of the screen (screen_fit.h)
    } else {
        resize(1280, 820);
    }
    m_view->splitter()->restoreState(settings.value(QStringLiteral("mainWindow/splitter")).toByteArray());
}

MainWindow::~MainWindow() {
    // The copy actions follow the focus, the tab and a table's selection (main_window_help.cpp): nothing of that may
    // call back while the children are torn down.
    disconnect(qApp, &QApplication::focusChanged, this, nullptr);
    disconnect(m_view->tabs(), nullptr, this, nullptr);
    disconnect(m_copySelection);
    main_window_parts::allWindows().removeAll(this);
    m_autosaveWatcher->waitForFinished();  // a recovery file being written is finished, whole
    // A window destroyed without being closed (the application torn down) keeps its recovery file: the slot's lock is
    // released and the next start offers the file, as after a crash.
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
    timelineButton->setToolTip(
        tr("Connect to Prometheus / Langfuse and plot throughput and quality around the FP8 "
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
    m_exportMonitoringAction = shortcut(
        file->addAction(tr("Export &Monitoring Rules…"), this, &MainWindow::exportMonitoringRules), "Ctrl+Shift+E");
    m_exportMonitoringAction->setObjectName(QStringLiteral("exportMonitoringAction"));
    file->setToolTipsVisible(true);
    file->addSeparator();
    shortcut(file->addAction(tr("&Close Window"), this, &QWidget::close), "Ctrl+W");
    QAction* quit = shortcut(file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows), "Ctrl+Q");
    quit->setMenuRole(QAction::QuitRole);

    buildEditMenu();
    buildTabActions();
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addMenu(m_goToTabMenu);
    view->addSeparator();
    m_expandAllAction = shortcut(
        view->addAction(tr("&Expand All Groups"), this, [this] { m_view->taskTable()->expandAll(); }), "Ctrl+Alt+E");
    m_collapseAllAction =
        shortcut(view->addAction(tr("&Collapse All Groups"), this, [this] { m_view->taskTable()->collapseAll(); }),
                 "Ctrl+Alt+C");
    shortcut(view->addAction(tr("&Filter Tasks"), this,
                             [this] { m_view->taskTable()->filterEdit()->setFocus(Qt::ShortcutFocusReason); }),
             "Ctrl+F");
    // The table's own action from the menu bar, where a reader looks for it, with its key (window-wide): the current
    // task's documents, or why there are none in the status bar.
    QAction* changed = view->addAction(tr("Changed &Answers of the Current Task…"), this, [this] {
        m_view->showTab(ComparisonView::EvalsTab);
        TaskTableView* table = m_view->taskTable();
        if (table->changedAnswersAction()->isEnabled()) {
            table->changedAnswersAction()->trigger();
            return;
        }
        const QModelIndex current = table->treeView()->currentIndex();
        statusBar()->showMessage(current.isValid() ? table->changedAnswersUnavailableAt(current)
                                                   : tr("Choose a task in the Offline evals table first."),
                                 8000);
    });
    changed->setObjectName(QStringLiteral("viewChangedAnswersAction"));
    changed->setShortcut(changedAnswersShortcut());
    changed->setStatusTip(
        tr("The documents whose answer FP8 changed in the current task: lost first, both runs' "
           "answers side by side (Ctrl+Shift+A in the table)"));
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
    buildNoticeActions(view);  // Show Closed Notices (main_window_notice.cpp)
    view->addSeparator();
    // F5 starts the show, as in slide software and on presentation clickers ("start show"); F11 is full screen in
    // most apps. Timeline › Refresh keeps Ctrl+R.
    m_presentAction = view->addAction(tr("&Presentation Mode"), this, [this] { startPresentation(); });
    m_presentAction->setShortcuts({QKeySequence(QStringLiteral("F11")), QKeySequence(QStringLiteral("F5")),
                                   QKeySequence(QStringLiteral("Ctrl+Shift+P"))});
    m_presentAction->setToolTip(tr("Present this comparison full screen, one step per slide (Esc leaves)"));
    // Whether the slides quote one lost answer (a question and both runs' answers from the sample logs).
    QMenu* answerSlide = view->addMenu(tr("Changed &Answer Slide"));
    answerSlide->setToolTipsVisible(true);
    auto* answerSlides = new QActionGroup(answerSlide);
    const std::tuple<std::optional<bool>, QString, const char*> slideModes[] = {
        {std::nullopt, tr("&Automatic (Monitor or Investigate Only)"), "Ctrl+Alt+4"},
        {true, tr("&Always"), "Ctrl+Alt+5"},
        {false, tr("&Never (Confidential Prompts)"), "Ctrl+Alt+6"}};
    for (const auto& [mode, text, keys] : slideModes) {
        QAction* action = shortcut(answerSlide->addAction(text), keys);
        action->setCheckable(true);
        action->setChecked(PresentationWindow::answerSlideSetting() == mode);
        action->setObjectName(QStringLiteral("answerSlide-") + (!mode ? "auto" : *mode ? "always" : "never"));
        action->setStatusTip(
            tr("Whether presentation mode shows one answer FP8 lost (the worst task's first) as a "
               "talking point; the questions come from the sample logs"));
        answerSlides->addAction(action);
        connect(action, &QAction::triggered, this, [m = mode] { PresentationWindow::setAnswerSlideSetting(m); });
    }

    QMenu* timeline = menuBar()->addMenu(tr("&Timeline"));
    m_connectAction = shortcut(timeline->addAction(tr("&Connect…"), this, &MainWindow::connectTimeline), "Ctrl+T");
    m_connectAction->setStatusTip(
        tr("Fetch serving throughput (Prometheus) and judge quality (Langfuse or Prometheus) "
           "around the FP8 switch"));
    m_refreshAction = timeline->addAction(tr("&Refresh"), this, [this] { refreshTimeline(); });
    m_refreshAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+R")));
    m_refreshAction->setStatusTip(tr("Fetch the timeline's series again for the range picked on the timeline tab"));
    // Opening a file contacts no server unless the user allows it here (README "Trust model"): a comparison file
    // from elsewhere names whatever URLs its author chose.
    QAction* checkOnOpen = shortcut(timeline->addAction(tr("Check Saved Sources When &Opening")), "Ctrl+Alt+O");
    checkOnOpen->setObjectName(QStringLiteral("checkSourcesOnOpen"));
    checkOnOpen->setCheckable(true);
    checkOnOpen->setChecked(QSettings().value(main_window_parts::kCheckSourcesOnOpenKey, false).toBool());
    checkOnOpen->setStatusTip(
        tr("When a comparison with a production timeline opens, ask its Prometheus and Langfuse (without "
           "credentials) whether they can be reached from here; off, opening a file contacts no server"));
    connect(checkOnOpen, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue(main_window_parts::kCheckSourcesOnOpenKey, on);
        if (on) checkLiveSources();
    });
    timeline->addSeparator();
    // The tabs' own actions (View › Go to Tab, with their Ctrl+number), where a reader of this menu looks for them.
    timeline->addAction(m_tabActions[ComparisonView::TimelineTab]);
    timeline->addAction(m_tabActions[ComparisonView::JudgeTab]);
    QAction* runJudge =
        shortcut(timeline->addAction(tr("Run &Domain Eval…"), this, [this] { runDomainEval(); }), "Ctrl+Shift+J");
    runJudge->setStatusTip(
        tr("Ask the BF16 and FP8 deployments your domain prompts and have a judge model score "
           "the answers"));

    QMenu* bench = menuBar()->addMenu(tr("&Bench"));
    bench->addAction(m_tabActions[ComparisonView::BenchTab]);
    QAction* run = shortcut(bench->addAction(tr("&Run Benchmarks"), this, &MainWindow::runBenchmarks), "Ctrl+B");
    run->setStatusTip(tr("GEMM BF16 vs FP8, memory bandwidth and the KV-cache FP8 error on this machine"));
    shortcut(bench->addAction(tr("&Measure My Model's KV Cache…"), this,
                              [this] {
                                  showBenchmarks();
                                  if (m_doc.current()) m_view->benchView()->measureKvDump();
                              }),
             "Ctrl+Alt+B");
    m_cancelBenchAction =
        shortcut(bench->addAction(tr("&Cancel Benchmark Run"), this, [this] { m_view->benchView()->cancelRun(); }),
                 "Ctrl+Shift+B");
    m_cancelBenchAction->setEnabled(false);
    bench->addSeparator();
    bench->addAction(m_tabActions[ComparisonView::CapacityTab]);
    bench->addAction(m_tabActions[ComparisonView::ServingTab]);  // what FP8 buys, measured on the team's server

    QMenu* review = menuBar()->addMenu(tr("&Review"));
    review->addAction(m_tabActions[ComparisonView::ReviewTab]);
    m_addNoteAction = shortcut(review->addAction(tr("Add &Note…"), this, [this] { openNoteDialog(); }), "Ctrl+Shift+M");
    m_addNoteAction->setStatusTip(tr("A note for whoever reviews this comparison, about it or one task"));
    m_recordDecisionAction =
        shortcut(review->addAction(tr("Record &Decision…"), this, [this] { recordDecision(); }), "Ctrl+Shift+D");
    m_recordDecisionAction->setStatusTip(tr("Approve FP8 (go, or monitor with quality alerting) or reject it"));
    for (QAction* a : menuBar()->actions())
        if (a->menu() && a->menu()->title() == tr("&Edit")) addVerdictRulesActions(a->menu(), review);

    buildHelpMenu();
}

void MainWindow::buildStatusBar() {
    setStatusBar(new ElidingStatusBar(this));  // the message elides before the document's location
    m_busyLabel = new QLabel(this);
    m_busyBar = new QProgressBar(this);
    m_busyBar->setObjectName(QStringLiteral("busyIndicator"));
    m_busyBar->setRange(0, 0);  // indeterminate: reading a file reports no progress
    m_busyBar->setMaximumWidth(140);
    m_busyBar->setMaximumHeight(16);
    m_busyBar->setTextVisible(false);
    m_summaryLabel = new ElidedLabel(this);  // a long path yields to the message
    m_summaryLabel->setObjectName(QStringLiteral("documentLocation"));
    statusBar()->addWidget(m_busyLabel);
    statusBar()->addWidget(m_busyBar);
    statusBar()->addPermanentWidget(m_summaryLabel);
    m_busyLabel->hide();
    m_busyBar->hide();
}

void MainWindow::updateActions() {
    const bool haveDocument = m_doc.current().has_value();
    const bool haveEvals = haveDocument && m_doc.current()->document.hasEvals;
    m_saveAction->setEnabled(haveDocument);
    m_saveAsAction->setEnabled(haveDocument);
    m_refreshAction->setEnabled(haveDocument && m_doc.current()->document.timeline.has_value());
    m_exportAction->setEnabled(haveDocument);
    const bool haveTimeline = haveDocument && m_doc.current()->document.timeline.has_value();
    m_exportMonitoringAction->setEnabled(haveTimeline);
    m_exportMonitoringAction->setToolTip(
        haveTimeline
            ? tr("Write the quality alert for your own Prometheus (fp8dash-alerts.rules.yml), its promtool unit "
                 "test (fp8dash-alerts.test.yml) and a Grafana dashboard (grafana-dashboard.json) into a "
                 "folder")
            : tr("This comparison has no production timeline, so there is no alert to export: connect one "
                 "first (Timeline › Connect…)"));
    m_expandAllAction->setEnabled(haveEvals);
    m_collapseAllAction->setEnabled(haveEvals);
    m_addNoteAction->setEnabled(haveDocument);
    m_recordDecisionAction->setEnabled(haveDocument);
    m_verdictRulesAction->setEnabled(haveDocument);
    m_presentAction->setEnabled(haveDocument);
    updateTabActions();
    updateCopyActions();
}

PresentationWindow* MainWindow::presentationWindow() const {
    return m_presentation;
}

PresentationWindow* MainWindow::startPresentation() {
    if (!m_doc.current()) return nullptr;
    if (m_presentation) {
        m_presentation->raise();
        m_presentation->activateWindow();
        return m_presentation;
    }
    // A copy of the document: edits or loads here while presenting do not pull slides from under the presenter.
    m_presentation = new PresentationWindow(*m_doc.current(), this);
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
    // The file's state before it is read: a change while it is read shows as a change on disk afterwards.
    const DiskStamp stamp = DiskStamp::of(absolute);
    // A newer load or document cancels this one (m_load->cancel()): its result is then dropped.
    auto read = [absolute](JobControl&) { return loadComparisonForDisplay(absolute); };
    m_load->start(std::move(read), [this, absolute, stamp](Outcome outcome) {
        clearLoading();
        if (!outcome) {
            const QString message = toQString(outcome.error().message);
            showError(tr("Could not open comparison"), tr("Could not open “%1”.").arg(QFileInfo(absolute).fileName()),
                      message);
            statusBar()->showMessage(tr("Could not open %1").arg(QDir::toNativeSeparators(absolute)), 8000);
            emit loadFailed(absolute, message);
            return;
        }
        m_pendingStamp = stamp;
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
    // Another comparison (not the same one shown again: same creation stamp, title, file and name) starts from its
    // own view state: the previous one's timeline range, zoom and scroll are not its, and its table starts worst
    // first.
    const bool sameComparison = m_doc.current() && m_doc.current()->document.created == loaded.document.created &&
                                m_doc.current()->document.title == loaded.document.title && path == m_doc.path() &&
                                displayName == m_doc.displayName();
    m_doc.show(std::move(loaded), path, displayName, derived);
    if (!derived && !sameComparison) m_view->resetViewState();
    m_view->setComparison(*m_doc.current());
    if (!derived && !sameComparison) m_view->taskTable()->sortWorstFirst();
    m_stack->setCurrentWidget(m_view);
    updateTitle();
    if (!derived) {
        m_view->timelineView()->setLiveIntervalS(0);  // live mode follows the document it was started for only
        scheduleAutosave();  // a new document: whatever the old one left in the recovery file goes
        checkLiveSources();
        m_doc.setDiskStamp(m_pendingStamp ? *m_pendingStamp : DiskStamp::of(m_doc.path()));
        m_diskNoticeFor.reset();
        m_diskBar->hide();
        watchDiskFile();
    }
    m_pendingStamp.reset();
    m_summaryLabel->setText(m_doc.statusText());
    if (!path.isEmpty()) {
        addRecentFile(path);
        rememberDirectory(path);
    }
    updateActions();
    emit documentShown(path);
}

void MainWindow::showError(const QString& title, const QString& text, const QString& details) {
    // Window-modal and non-blocking: the event loop (and any other load) keeps running while it is open.
    // Plain text: the messages quote names and values from the file (untrusted_ui.h).
    auto* box = plainMessageBox(QMessageBox::Warning, title, text, details, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("errorBox"));
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
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
        const LoadedComparison* result = dialog->result();
        if (!result) return;
        // This window takes it when that loses nothing; else a new window does (what this one shows stays).
        MainWindow* target = canReplaceDocument() ? this : newWindow();
        target->showNewComparison(*result, dialog->savedPath());
    });
    dialog->open();
}

void MainWindow::showNewComparison(const LoadedComparison& result, const QString& savedPath) {
    m_load->cancel();
    clearLoading();
    display(result, savedPath, {});
    QString message;
    if (savedPath.isEmpty()) {
        // Not saved yet: modified, so closing asks, File › Save asks where, and autosave keeps it recoverable.
        setModified(true);
        message = tr("Compared: not saved yet (File › Save)");
    } else {
        message = tr("Saved %1").arg(QDir::toNativeSeparators(savedPath));
    }
    if (!result.buildNotes.isEmpty()) message += QStringLiteral(" · ") + result.buildNotes.first();
    statusBar()->showMessage(message, 8000);
}

void MainWindow::openWithDialog() {
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Open Comparison"), lastDirectory(),
                                                            main_window_parts::comparisonFilter());
    for (const QString& path : paths) openFile(path);
}

void MainWindow::saveAs() {
    if (!m_doc.current()) return;
    QString suggested = m_doc.path();
    if (suggested.isEmpty()) {
        QString base = toQString(m_doc.current()->document.title).trimmed();
        base.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
        if (base.isEmpty()) base = QStringLiteral("comparison");
        suggested = QDir(lastDirectory()).filePath(base + QLatin1Char('.') + main_window_parts::comparisonSuffix());
    }
    QString path = m_savePathChooser ? m_savePathChooser(suggested)
                                     : QFileDialog::getSaveFileName(this, tr("Save Comparison As"), suggested,
                                                                    main_window_parts::comparisonFilter());
    if (path.isEmpty()) return;
    (void)saveAsTo(main_window_parts::withSuffix(path, main_window_parts::comparisonSuffix()));
}

void MainWindow::setSavePathChooser(std::function<QString(const QString& suggested)> chooser) {
    m_savePathChooser = std::move(chooser);
}

void MainWindow::save() {
    if (!m_doc.current()) return;
    if (m_doc.path().isEmpty()) {
        saveAs();
        return;
    }
    (void)saveTo(m_doc.path());
}

Status MainWindow::writeTo(const QString& path) {
    if (!m_doc.current()) return Error{"no comparison to save"};
    // The document holds the timeline's settings and series only: credentials never enter it.
    const Status saved = saveComparisonFile(m_doc.current()->document, toFsPath(path));
    if (!saved) {
        showError(tr("Could not save"), tr("Could not save “%1”.").arg(QFileInfo(path).fileName()),
                  toQString(saved.error().message));
        return saved;
    }
    m_doc.markSaved(path);
    // What is on disk now is this window's: the watcher's event for this write finds it as recorded.
    m_doc.setDiskStamp(DiskStamp::of(m_doc.path()));
    m_diskNoticeFor.reset();
    m_diskBar->hide();
    watchDiskFile();
    updateTitle();
    scheduleAutosave();  // nothing unsaved now: the recovery file goes (drafts still typed keep it)
    m_summaryLabel->setText(m_doc.statusText());
    addRecentFile(m_doc.path());
    rememberDirectory(m_doc.path());
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(m_doc.path())), 5000);
    return saved;
}

void MainWindow::updateTitle() {
    setWindowTitle(m_doc.windowTitle());
}

void MainWindow::setModified(bool modified) {
    m_doc.setModified(modified);
    updateTitle();
    scheduleAutosave();
    if (modified) m_summaryLabel->setText(m_doc.statusText());
}

bool MainWindow::showDerived(ComparisonDocument doc) {
    const DocumentController::DerivedTarget target = m_doc.derivedTarget();
    const QString& source = target.source;
    auto loaded = evaluateForDisplay(std::move(doc), source);
    if (!loaded) {
        showError(tr("Could not show the timeline"), tr("Could not evaluate %1.").arg(source),
                  toQString(loaded.error().message));
        return false;
    }
    // Not a new load: any file still loading must not replace it.
    m_load->cancel();
    clearLoading();
    display(std::move(loaded).value(), target.path, target.displayName, m_doc.hasDocument());
    return true;
}

void MainWindow::exportReport() {
    if (!m_doc.current()) return;
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
    const QString base = m_doc.path().isEmpty() ? QDir(lastDirectory()).filePath(QStringLiteral("fp8-report"))
                                                : QFileInfo(m_doc.path()).absolutePath() + QLatin1Char('/') +
                                                      QFileInfo(m_doc.path()).completeBaseName();
    QString path = QFileDialog::getSaveFileName(this, tr("Export Report"), base + QStringLiteral(".pdf"),
                                                names.join(QStringLiteral(";;")), &selected);
    if (path.isEmpty()) return;
    auto format = reportFormatForPath(path.toStdString());
    if (!format) {
        format = ReportFileFormat::Pdf;
        for (const auto& f : filters)
            if (f.first == selected) format = f.second;
        path = main_window_parts::withSuffix(path, toQString(reportFormatSuffix(*format)));
    }
    rememberDirectory(path);
    (void)exportReportTo(path, *format);
}

Status MainWindow::exportReportTo(const QString& path, ReportFileFormat format) {
    if (!m_doc.current()) return Error{"no comparison to export"};
    const QString source = m_doc.path().isEmpty() ? m_doc.displayName() : QDir::toNativeSeparators(m_doc.path());
    statusBar()->showMessage(tr("Writing the report to %1…").arg(QDir::toNativeSeparators(path)));
    QApplication::setOverrideCursor(Qt::WaitCursor);
    // On the GUI thread: the charts are drawn by widgets. A report takes well under a second.
    const Status written = writeReportFile(*m_doc.current(), path, format, source);
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
            .arg(style::escaped(QCoreApplication::applicationVersion()), QString::fromLatin1(qVersion())));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (m_doc.isModified() && m_doc.current()) {
        // A fetched timeline, a benchmark run or a note exists nowhere else: offer to keep it.
        // Plain text: the document's name comes from its file (untrusted_ui.h).
        QMessageBox box(QMessageBox::Question, tr("Unsaved changes"), QString(),
                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
        box.setTextFormat(Qt::PlainText);
        box.setText(m_doc.path().isEmpty()
                        ? tr("“%1” is not saved to a file yet. Save it first?").arg(m_doc.displayName())
                        : tr("“%1” has changes that are not saved (notes or a decision, a production timeline or "
                             "change time, judge scores, benchmark results or capacity inputs). Save it first?")
                              .arg(m_doc.displayName()));
        box.setDefaultButton(QMessageBox::Save);
        const auto answer = static_cast<QMessageBox::StandardButton>(box.exec());
        if (answer == QMessageBox::Cancel) {
            event->ignore();
            return;
        }
        if (answer == QMessageBox::Save) {
            save();
            if (m_doc.isModified()) {  // declined the file dialog, or the save failed
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

}  // namespace fp8dash::ui
