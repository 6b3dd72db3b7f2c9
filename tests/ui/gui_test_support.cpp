#include "gui_test_support.h"

#include <QAbstractItemModel>
#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QWidget>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/presentation_window.h"
#include "fp8dash/ui/recovery_store.h"
#include "fp8dash/ui/task_table_model.h"

namespace fp8dash::ui::test {

void GuiTest::SetUpTestSuite() {
    if (QApplication::instance()) return;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);  // QSettings go to a test location, never the user's
    // The source dialogs talk to the system keychain (QtKeychain over D-Bus). Point them at a bus that does not exist,
    // so the tests never read or prompt for the user's keychain and always see the "not available" case (as in CI).
    qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/fp8dash-ui-tests/bus");
    static int argc = 1;
    static char name[] = "fp8dash_ui_tests";
    static char* argv[] = {name, nullptr};
    // Lives until the process exits: widgets of every suite share it, and Qt allows only one.
    new QApplication(argc, argv);
    // Background work a test left running (a live-source check, the GPU query) ends before the statics it uses are
    // destroyed: the QApplication is never destroyed, so its own wait for the thread pool never happens.
    std::atexit([] { QThreadPool::globalInstance()->waitForDone(); });
    QApplication::setApplicationName(QStringLiteral("fp8dash-ui-tests"));
    QApplication::setOrganizationName(QStringLiteral("fp8dash-tests"));
    QApplication::setApplicationVersion(QStringLiteral("test"));
    // Autosaved recovery files of this test program go to a folder of its own (ctest runs several at once).
    static QTemporaryDir recovery;
    RecoveryStore::setDefaultDirectory(recovery.path());
    // So do its settings: in QStandardPaths' test mode every test process shares ~/.qttest/config, and a test that
    // writes a setting (the theme, recent files) could read back what another process running beside it wrote.
    static QTemporaryDir settings;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings.path());
}

void GuiTest::SetUp() {
    QSettings().clear();
}

std::string sharedFixture(const std::string& relative) {
    const std::filesystem::path path = std::filesystem::path(FP8DASH_SHARED_FIXTURES) / relative;
    return std::filesystem::exists(path) ? path.string() : std::string();
}

Json demoJson() {
    std::ifstream in(std::filesystem::path(FP8DASH_SOURCE_DIR) / "resources/demo/llama3-8b-instruct-fp8.fp8cmp");
    std::stringstream text;
    text << in.rdbuf();
    return Json::parse(text.str());
}

ComparisonDocument evalsOnlyDemo() {
    auto doc = loadComparisonFile(std::filesystem::path(FP8DASH_TEST_DATA) /
                                  "comparison-files/v1/demo-llama3-8b-instruct-fp8.fp8cmp");
    EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().message);
    return std::move(doc).value();
}

void showEvalsOnly(MainWindow& window) {
    window.showDocument(evalsOnlyDemo(), {}, QStringLiteral("evals only"));
}

ComparisonDocument documentFromRuns(const std::string& baselinePath, const std::string& candidatePath,
                                    const std::string& baselineLabel, const std::string& candidateLabel) {
    auto baseline = readLmEvalPath(baselinePath);
    auto candidate = readLmEvalPath(candidatePath);
    EXPECT_TRUE(baseline.ok()) << (baseline.ok() ? "" : baseline.error().message);
    EXPECT_TRUE(candidate.ok()) << (candidate.ok() ? "" : candidate.error().message);
    // The real mmlu pair of the shared fixtures is two models (Llama-3-8B-Instruct and its base model), which fp8dash
    // refuses as variants: the views' tests compare them anyway, for the real group of 57 subjects.
    ComparisonOptions options;
    options.allowIncomparable =
        baseModelKey(detectFp8Config(*baseline).model) != baseModelKey(detectFp8Config(*candidate).model);
    return makeComparisonDocument(RunRecord{baselineLabel, baselinePath, baseline.value()},
                                  RunRecord{candidateLabel, candidatePath, candidate.value()}, options);
}

QStringList actionShortcuts(const QWidget* root) {
    QStringList found;
    for (QAction* action : root->findChildren<QAction*>()) {
        if (!action->shortcut().isEmpty()) {
            found << action->text().remove(QLatin1Char('&')) + QStringLiteral("=") +
                         action->shortcut().toString(QKeySequence::PortableText);
        }
    }
    return found;
}

QModelIndex findTaskRow(const QAbstractItemModel* model, const QString& name, const QModelIndex& parent) {
    for (int r = 0; r < model->rowCount(parent); ++r) {
        const QModelIndex index = model->index(r, TaskTableModel::TaskColumn, parent);
        if (index.data(Qt::DisplayRole).toString() == name) return index;
    }
    return {};
}

void runChildOnScreens(const char* screensJson, const QString& childVariable, const QString& childTest,
                       const QString& doneMarker) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString config = dir.filePath(QStringLiteral("screens.json"));
    QFile file(config);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(screensJson);
    file.close();
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen:configfile=") + config);
    env.insert(childVariable, QStringLiteral("1"));
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::MergedChannels);
    child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--gtest_filter=") + childTest});
    ASSERT_TRUE(child.waitForFinished(120000));
    const QString output = QString::fromLocal8Bit(child.readAll());
    EXPECT_EQ(child.exitCode(), 0) << output.toStdString();
    EXPECT_TRUE(output.contains(doneMarker)) << output.toStdString();
}

void saveScreenshot(QWidget& window, const QString& name) {
    const QByteArray dir = qgetenv("FP8DASH_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    window.grab().save(QString::fromLocal8Bit(dir) + QLatin1Char('/') + name);
}

QString cellText(const QAbstractItemModel* model, const QModelIndex& row, int column) {
    return model->index(row.row(), column, row.parent()).data(Qt::DisplayRole).toString();
}

std::optional<double> leadingNumber(QString text) {
    text.replace(QChar(0x2212), QLatin1Char('-'));
    text.remove(QLatin1Char('%'));
    text.remove(QChar(0x03c3));
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    return ok ? std::optional<double>(v) : std::nullopt;
}

QString expectedDeltaText(double baseline, double candidate) {
    const double delta = (candidate - baseline) / baseline * 100.0;
    return (delta >= 0 ? QStringLiteral("+") : QString()) + QString::number(delta, 'f', 3) + QStringLiteral("%");
}

double slideNumber(const QString& text) {
    QString t = text;
    t.replace(QChar(0x2212), QLatin1Char('-'));
    t.remove(QRegularExpression(QStringLiteral("[^0-9.+\\-]")));
    return t.toDouble();
}

QStringList clippedSlideLabels(const QWidget* slide) {
    QStringList out;
    const QRect bounds = slide->rect();
    for (const QLabel* l : slide->findChildren<QLabel*>()) {
        if (!l->isVisibleTo(slide) || l->text().isEmpty()) continue;
        const QRect r(l->mapTo(slide, QPoint(0, 0)), l->size());
        const QString name = QStringLiteral("“%1” (%2)").arg(l->text().left(40), l->objectName());
        if (!bounds.contains(r)) out << name + QStringLiteral(" outside the slide");
        const QMargins m = l->contentsMargins();
        const int innerWidth = l->width() - m.left() - m.right();
        if (l->wordWrap()) {
            if (l->heightForWidth(l->width()) > l->height() + 1) out << name + QStringLiteral(" cut off at the bottom");
        } else if (l->sizeHint().width() > l->width() + 1 && innerWidth > 0) {
            out << name + QStringLiteral(" cut off at the side");
        }
    }
    return out;
}

void layOutSlide(PresentationWindow& w, QSize size) {
    w.setAttribute(Qt::WA_DontShowOnScreen);
    w.resize(size);
    w.show();
    QCoreApplication::sendPostedEvents();
    QApplication::processEvents();
}

}  // namespace fp8dash::ui::test
