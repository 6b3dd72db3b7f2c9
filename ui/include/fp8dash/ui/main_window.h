#pragma once
// MainWindow: one comparison document on screen (verdict banner, task table, FP8 layers, risks, missing tasks,
// notes), with File › New Comparison / Open / Save As / Open Demo, drag-and-drop of *.fp8cmp files and window
// geometry kept in QSettings. GUI thread only. Files load on a QtConcurrent worker; a newer load makes older ones
// stale and their results are dropped. Owns its child widgets through Qt parenting.

#include <QMainWindow>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/ui/loaded_comparison.h"

class QAction;
class QLabel;
class QMenu;
class QMimeData;
class QProgressBar;
class QStackedWidget;
class QUrl;

namespace fp8dash::ui {

class ComparisonView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Shows a document; path is empty for the demo or an unsaved document, displayName then names it in the title
    // (defaults to the document's title). An error while evaluating it is shown, and the previous document stays.
    void showDocument(fp8dash::ComparisonDocument doc, const QString& path, const QString& displayName = {});
    // Loads a *.fp8cmp file off the GUI thread; on failure a message box names the file, the current document stays.
    void openFileAsync(const QString& path);
    void openDemo();

    const LoadedComparison* current() const { return m_current ? &*m_current : nullptr; }  // nullptr: none shown
    QString documentPath() const { return m_path; }  // empty for the demo or an unsaved document
    QString displayName() const { return m_displayName; }
    bool isLoading() const { return m_loadingPath.has_value(); }
    ComparisonView* comparisonView() const { return m_view; }

    // True when the data holds at least one local *.fp8cmp file (what a drop onto the window accepts).
    static bool canOpenDrop(const QMimeData* data);
    static QStringList comparisonFilesIn(const QMimeData* data);

signals:
    void documentShown(const QString& path);
    void loadFailed(const QString& path, const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void buildStatusBar();
    QWidget* buildEmptyPage();
    void display(LoadedComparison loaded, const QString& path, const QString& displayName);
    void showError(const QString& title, const QString& text, const QString& details);
    void setLoading(const QString& path);
    void clearLoading();
    void updateActions();
    void newComparison();
    void openWithDialog();
    void saveAs();
    void exportReport();
    void showAbout();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    QString lastDirectory() const;
    void rememberDirectory(const QString& fileOrDir);

    QStackedWidget* m_stack = nullptr;
    ComparisonView* m_view = nullptr;
    QLabel* m_busyLabel = nullptr;
    QProgressBar* m_busyBar = nullptr;
    QLabel* m_summaryLabel = nullptr;
    QAction* m_saveAsAction = nullptr;
    QAction* m_exportAction = nullptr;
    QAction* m_expandAllAction = nullptr;
    QAction* m_collapseAllAction = nullptr;
    QMenu* m_recentMenu = nullptr;

    std::optional<LoadedComparison> m_current;
    QString m_path;
    QString m_displayName;
    std::optional<QString> m_loadingPath;
    quint64 m_loadGeneration = 0;  // bumped by each openFileAsync; a finished load with an older number is stale
};

}  // namespace fp8dash::ui
