#pragma once
// GuideWindow: Help › fp8dash Guide, the documentation (docs/*.md, built into the application as the Qt resources
// ":/guide/<page>.md" with the images they show) read offline. The pages on the left, titled by their first heading;
// the page on the right (QTextBrowser, Markdown). Links between pages and to a heading ("judge.md#recovery",
// "#sigma-σ") work: every heading gets the anchor GitHub gives it (headingSlug). Links to a web page open in the
// browser. A page the guide does not have shows a message saying so, never a blank view. F1 opens the first page,
// "Getting started" (docs/getting-started.md). Find in page (Ctrl+F, Enter or
// F3 for the next, Shift+F3 for the previous), Back and Forward (Alt+Left, Alt+Right). A separate non-modal window
// whose size is kept in QSettings ("guide/geometry"). The pages are ours, not data from a file. GUI thread only.

#include <QString>
#include <QStringList>
#include <QTextBrowser>
#include <QUrl>
#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;
class QToolButton;

namespace fp8dash::ui {

// The glossary's words where a newcomer meets them. glossaryLink: "What does <term> mean?" as a link for a rich-text
// label (href "glossary:<term>", `css` its style); glossaryTermOf: the term of such a link ("" for any other link);
// glossaryHint: the plain line a tooltip shows, naming Help › Glossary and its key. The term is ours (a verdict word),
// escaped all the same.
QString glossaryLink(const QString& term, const QString& css = {});
QString glossaryTermOf(const QString& href);
QString glossaryHint(const QString& term);

// The page browser: Markdown pages with GitHub's heading anchors. Links resolve as on the repository's web page but
// for the README (../README.md), which is outside the app: it leads to the guide's home page (the first page,
// docs/getting-started.md), and the pages' "Back to the README" says "Back to <home page's title>" here. A link to a
// file of the source folder the app does not hold (the screenshots' gallery, a test folder's README) shows a page
// saying where it is; "Page not found" is left for a page that does not exist at all.
class GuideBrowser : public QTextBrowser {
    Q_OBJECT
public:
    explicit GuideBrowser(QWidget* parent = nullptr);
    QVariant loadResource(int type, const QUrl& name) override;
    // The text of the first block at the top of the view (tests: the heading a link scrolled to).
    QString firstVisibleBlockText() const;

    // The pages' folder (ending in '/') and the home page's file name and title ("" for none).
    void setPages(const QUrl& root, const QString& home, const QString& homeTitle);
    // The page a link (already resolved against the page it is on) opens: `url` itself, or the home page for the
    // README.
    QUrl resolvedLink(const QUrl& url) const;

protected:
    void doSetSource(const QUrl& name, QTextDocument::ResourceType type) override;

private:
    void addHeadingAnchors();
    bool isReadme(const QUrl& url) const;
    QString sourcePathOf(const QUrl& url) const;
    QString missingPageText(const QUrl& name) const;

    QUrl m_root;
    QString m_home;
    QString m_homeTitle;
};

class GuideWindow : public QWidget {
    Q_OBJECT
public:
    // root: the folder the pages are in, ending in '/' (the built-in guide by default; tests use a folder of files).
    explicit GuideWindow(const QUrl& root = builtInRoot(), QWidget* parent = nullptr);
    static QUrl builtInRoot();  // qrc:/guide/

    // The page ("glossary.md") at the heading whose anchor is `anchor` (a slug, or heading text: it is slugified);
    // an empty page: the first one. Shows and raises the window.
    void openPage(const QString& page, const QString& anchor = {});
    QString currentPage() const;  // the page's file name, "" when none
    QStringList pageFiles() const { return m_pages; }
    QStringList pageTitles() const;
    // Find in page from the cursor, wrapping at the end; false (and "Not found" beside the field) when absent.
    bool findInPage(const QString& text, bool backward = false);

    GuideBrowser* browser() const { return m_browser; }
    QListWidget* pageList() const { return m_list; }
    QLineEdit* findEdit() const { return m_find; }
    QToolButton* backButton() const { return m_back; }
    QToolButton* forwardButton() const { return m_forward; }

    // GitHub's anchor for a heading: lower case, every character that is not a letter, digit, space, '-' or '_'
    // dropped, each space a '-' ("Sigma (σ)" -> "sigma-σ", "95 % interval" -> "95--interval").
    static QString headingSlug(const QString& heading);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void loadPageList();
    void syncList(const QString& page);  // the list's current row: that page's

    QUrl m_root;
    QStringList m_pages;
    GuideBrowser* m_browser = nullptr;
    QListWidget* m_list = nullptr;
    QLineEdit* m_find = nullptr;
    QLabel* m_findStatus = nullptr;
    QToolButton* m_back = nullptr;
    QToolButton* m_forward = nullptr;
};

}  // namespace fp8dash::ui
