// A desktop session with credentials typed into Timeline › Connect… (secrets are never stored: README "The comparison
// file"): the fetch, a note, the autosave, Save, every report format, and the window's settings. The token and the
// tenant header's value reach the server and nothing else: no saved file, no recovery file, no report (the PDF's text
// too), no QSettings, and no line of Qt's log.
#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtTest>

#include <mutex>

#include "fp8dash/core/report_document.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/memory_credential_store.h"
#include "fp8dash/ui/recovery_store.h"
#include "fp8dash/ui/timeline_source_dialog.h"
#include "gui_test_support.h"
#include "test_http_server.h"
#include "timeline_test_data.h"

namespace fp8dash::ui::test {
namespace {

using fp8dash::test::TestHttpServer;

constexpr const char* kSecretsToken = "gui-bearer-SECRET-61f0";
constexpr const char* kSecretsTenant = "gui-tenant-SECRET-2c7";

std::mutex g_logMutex;
QStringList g_log;

void collectLog(QtMsgType, const QMessageLogContext&, const QString& message) {
    std::lock_guard lock(g_logMutex);
    g_log << message;
}

class SecretsSessionTest : public GuiTest {};

TEST_F(SecretsSessionTest, TypedCredentialsReachTheServerAndNothingElse) {
    for (const char* name : {"FP8DASH_PROMETHEUS_TOKEN", "FP8DASH_PROMETHEUS_USER", "FP8DASH_PROMETHEUS_PASSWORD",
                             "FP8DASH_PROMETHEUS_HEADERS", "LANGFUSE_PUBLIC_KEY", "LANGFUSE_SECRET_KEY"})
        qunsetenv(name);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString recoveryDir = dir.filePath(QStringLiteral("recovery"));
    TestHttpServer server(fakePrometheusReply);
    const QtMessageHandler previous = qInstallMessageHandler(collectLog);

    QString recoveryFile;
    {
        MainWindow window;
        window.setCredentialStore(std::make_shared<MemoryCredentialStore>());
        window.setRecoveryStore(std::make_shared<RecoveryStore>(recoveryDir));
        window.show();
        showEvalsOnly(window);
        TimelineSourceDialog* dialog = window.connectTimeline();
        ASSERT_NE(dialog, nullptr);
        TimelineSettings settings;
        settings.prometheusUrl = server.baseUrl();
        settings.fetchThroughput = true;
        settings.from = kFakePrometheusFrom;
        settings.to = kFakePrometheusTo;
        settings.step = 60;
        dialog->setSettings(settings);
        TimelineCredentials typed;
        typed.prometheusAuth.kind = HttpAuth::Kind::Bearer;
        typed.prometheusAuth.token = kSecretsToken;
        typed.prometheusHeaders = {{"X-Scope-OrgID", kSecretsTenant}};
        dialog->setCredentials(typed);
        QSignalSpy applied(&window, &MainWindow::timelineApplied);
        QTest::mouseClick(dialog->fetchButton(), Qt::LeftButton);
        ASSERT_TRUE(applied.wait(30000)) << dialog->errorText().toStdString();

        // Typed into the review too, then autosaved (the recovery file holds the whole document).
        window.addNote(QStringLiteral("Throughput +50 % after the switch."), {}, QStringLiteral("Ana"));
        ASSERT_TRUE(window.autosaveNow().ok());
        recoveryFile = window.recoveryFile();
        ASSERT_TRUE(QFileInfo::exists(recoveryFile));

        ASSERT_TRUE(window.saveTo(dir.filePath(QStringLiteral("session.fp8cmp"))).ok());
        for (auto [name, format] :
             {std::pair{"report.pdf", ReportFileFormat::Pdf}, std::pair{"report.html", ReportFileFormat::Html},
              std::pair{"report.md", ReportFileFormat::Markdown}, std::pair{"report.txt", ReportFileFormat::Text},
              std::pair{"report.json", ReportFileFormat::Json}})
            ASSERT_TRUE(window.exportReportTo(dir.filePath(QString::fromLatin1(name)), format).ok()) << name;
        // A later change autosaves again: the file is kept up to date, with the secrets still out of it.
        window.addNote(QStringLiteral("Quality held."), {}, QStringLiteral("Ana"));
        ASSERT_TRUE(window.autosaveNow().ok());
        QSettings().sync();
        // "Crash": the window goes without closing, so the recovery file stays to be searched.
    }
    EXPECT_TRUE(QThreadPool::globalInstance()->waitForDone(30000));
    qInstallMessageHandler(previous);

    // The server received the credentials on every request.
    ASSERT_GT(server.requestCount(), 0u);
    for (const auto& r : server.requests()) {
        EXPECT_EQ(r.header("authorization"), std::string("Bearer ") + kSecretsToken) << r.target;
        EXPECT_EQ(r.header("x-scope-orgid"), kSecretsTenant) << r.target;
    }

    // Everything the session wrote: its folder (file, reports, recovery) and the settings file.
    QStringList files;
    QDirIterator it(dir.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) files << it.next();
    files << QSettings().fileName();
    ASSERT_TRUE(files.contains(recoveryFile));
    EXPECT_GE(files.size(), 8);
    for (const QString& path : files) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) continue;  // a settings file not written yet
        QByteArray bytes = f.readAll();
        if (path.endsWith(QStringLiteral(".pdf")) && QFileInfo::exists(QStringLiteral("/usr/bin/pdftotext"))) {
            QProcess text;
            text.start(QStringLiteral("/usr/bin/pdftotext"), {path, QStringLiteral("-")});
            ASSERT_TRUE(text.waitForFinished(30000));
            const QByteArray words = text.readAllStandardOutput();
            EXPECT_TRUE(words.contains("Throughput +50 %")) << "the PDF's text was not read";
            bytes += words;
        }
        EXPECT_FALSE(bytes.contains(kSecretsToken)) << path.toStdString();
        EXPECT_FALSE(bytes.contains(kSecretsTenant)) << path.toStdString();
    }
    // What the saved file does keep: the kind of auth and the header's name, for the next fetch to ask.
    QFile saved(dir.filePath(QStringLiteral("session.fp8cmp")));
    ASSERT_TRUE(saved.open(QIODevice::ReadOnly));
    const QByteArray savedBytes = saved.readAll();
    EXPECT_TRUE(savedBytes.contains("\"prometheus_auth\": \"bearer\""));
    EXPECT_TRUE(savedBytes.contains("X-Scope-OrgID"));

    std::lock_guard lock(g_logMutex);
    for (const QString& line : g_log) {
        EXPECT_FALSE(line.contains(QString::fromLatin1(kSecretsToken))) << line.toStdString();
        EXPECT_FALSE(line.contains(QString::fromLatin1(kSecretsTenant))) << line.toStdString();
    }
}

}  // namespace
}  // namespace fp8dash::ui::test
