#include "fp8dash/ui/guide_window.h"

#include <QAbstractTextDocumentLayout>
#include <QCloseEvent>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QImage>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

#include "fp8dash/core/markdown_text.h"
#include "widgets/ui_style.h"

// The guide's pages (resources/CMakeLists.txt: docs/*.md and docs/images/*.png as ":/guide/..."). Outside any
// namespace, as Q_INIT_RESOURCE must be; referencing it keeps the linker from dropping the static library's resource.
static void initGuideResources() {
    Q_INIT_RESOURCE(fp8dash_guide);
}

namespace fp8dash::ui {

namespace {

const QString kGeometryKey = QStringLiteral("guide/geometry");

// The order a reader meets the subjects in (the README's); pages not named here follow in alphabetical order. The
// first page is the guide's home: F1 opens it, and the pages' "Back to the README" leads there.
const QStringList kPageOrder = {QStringLiteral("getting-started.md"),
                                QStringLiteral("comparing-evals.md"),
                                QStringLiteral("judge.md"),
                                QStringLiteral("production-timeline.md"),
                                QStringLiteral("benchmarks.md"),
                                QStringLiteral("capacity.md"),
                                QStringLiteral("files-and-reports.md"),
                                QStringLiteral("desktop-app.md"),
                                QStringLiteral("cli.md"),
                                QStringLiteral("rules.md"),
                                QStringLiteral("glossary.md"),
                                QStringLiteral("development.md")};

// The local folder a root URL names: ":/guide/" for qrc:/guide/, the path for a file URL.
QString folderOf(const QUrl& url) {
    if (url.scheme() == QStringLiteral("qrc")) return QLatin1Char(':') + url.path();
    return url.toLocalFile();
}

bool isPage(const QUrl& url) {
    return url.path().endsWith(QStringLiteral(".md"), Qt::CaseInsensitive);
}

QString readText(const QString& file) {
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

// The text of a page's first heading (ATX, "# Title"); the file name when it has none.
QString titleOf(const QString& file, const QString& name) {
    static const QRegularExpression heading(QStringLiteral("^#{1,6}[ \\t]+(.+?)[ \\t#]*$"),
                                            QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = heading.match(readText(file));
    return m.hasMatch() ? m.captured(1).trimmed() : name;
}

}  // namespace

GuideBrowser::GuideBrowser(QWidget* parent) : QTextBrowser(parent) {
    setOpenExternalLinks(true);  // http(s) and mailto: the desktop's browser (QDesktopServices)
    setOpenLinks(true);
    // The document is replaced by every page, and by Back and Forward: its headings get their anchors each time.
    connect(this, &QTextBrowser::sourceChanged, this, [this] { addHeadingAnchors(); });
}

void GuideBrowser::setPages(const QUrl& root, const QString& home, const QString& homeTitle) {
    m_root = root;
    m_home = home;
    m_homeTitle = homeTitle;
}

bool GuideBrowser::isReadme(const QUrl& url) const {
    return !m_root.isEmpty() &&
           url.adjusted(QUrl::RemoveFragment | QUrl::RemoveQuery | QUrl::NormalizePathSegments) ==
               m_root.resolved(QUrl(QStringLiteral("../README.md"))).adjusted(QUrl::NormalizePathSegments);
}

QUrl GuideBrowser::resolvedLink(const QUrl& url) const {
    // The README is the project's front page in the source folder; in the app its place is the guide's home page,
    // which covers the same first steps and links every page (docs/getting-started.md).
    if (isReadme(url) && !m_home.isEmpty()) return m_root.resolved(QUrl(m_home));
    return url;
}

// The repository path of a file the guide does not hold: "docs/<name>" for one in the pages' folder (the source
// folder's docs/), else relative to the folder above it (the source folder); "" when it is not under that.
QString GuideBrowser::sourcePathOf(const QUrl& url) const {
    if (m_root.isEmpty() || url.scheme() != m_root.scheme()) return {};
    const QString file = QDir::cleanPath(url.path());
    QString pages = QDir::cleanPath(m_root.path());
    if (!pages.endsWith(QLatin1Char('/'))) pages += QLatin1Char('/');
    if (file.startsWith(pages)) return QStringLiteral("docs/") + file.mid(pages.size());
    QString top = QDir::cleanPath(m_root.path() + QStringLiteral("/.."));
    if (!top.endsWith(QLatin1Char('/'))) top += QLatin1Char('/');
    return file.startsWith(top) ? file.mid(top.size()) : QString();
}

QString GuideBrowser::missingPageText(const QUrl& name) const {
    const QString page = QFileInfo(name.path()).fileName();
    const QString path = sourcePathOf(name);
    const QString docs = QStringLiteral("docs/");
    if (path == docs + QStringLiteral("screenshots.md")) {
        return tr("# The screenshots' gallery\n\nThe gallery (every tab at 1366 × 768 and 1920 × 1080, light and dark, "
                  "the New Comparison dialog and every slide: some 7 MB of pictures) is left out of the app. It is "
                  "%1 in fp8dash's source folder and on the project's web page.\n\nThe pages of this guide show the "
                  "main windows: [The desktop app](desktop-app.md) has the first window and the dialogs. Go Back to "
                  "return to the page you came from.\n")
            .arg(QString::fromStdString(markdown::code(path.toStdString())));
    }
    if (!path.isEmpty() && !path.startsWith(docs)) {
        // A file of the source folder the pages point to (a test's data folder's README): not part of the app.
        return tr("# In the source folder\n\nThis link points to %1, a file of fp8dash's source folder (the "
                  "repository), not a page of this guide: open it there, or on the project's web page. Go Back to "
                  "return to the page you came from, or pick a page from the list on the left.\n")
            .arg(QString::fromStdString(markdown::code(path.toStdString())));
    }
    // A page the guide does not have (a page removed, a link mistyped): a message, not a blank.
    return tr("# Page not found\n\nThe guide has no page %1. Pick a page from the list on the left, or go Back.\n")
        .arg(QString::fromStdString(markdown::code(page.toStdString())));
}

QVariant GuideBrowser::loadResource(int type, const QUrl& name) {
    const bool page = type == QTextDocument::MarkdownResource || isPage(name);
    if (page && name.scheme() != QStringLiteral("http") && name.scheme() != QStringLiteral("https")) {
        const QString file = folderOf(name.adjusted(QUrl::RemoveFragment | QUrl::RemoveQuery));
        if (file.isEmpty() || !QFileInfo(file).isFile()) return missingPageText(name);
        QString text = readText(file);
        // The pages' first line ends "[Back to the README](../README.md)" (on the repository's web page); here the
        // link leads to the guide's home page and says so (the home page itself drops it).
        static const QRegularExpression back(QStringLiteral("\\s*\\[Back to the README\\]\\(\\.\\./README\\.md\\)"));
        if (!m_home.isEmpty()) {
            const bool home = QFileInfo(file).fileName() == m_home;
            text.replace(back,
                         home ? QString() : QStringLiteral(" [%1](%2)").arg(tr("Back to %1").arg(m_homeTitle), m_home));
        }
        return text;
    }
    QVariant resource = QTextBrowser::loadResource(type, name);
    if (type == QTextDocument::ImageResource && resource.isValid()) {
        // A screenshot is wider than the page: shown at the page's width (smooth), not with a horizontal scroll bar.
        QImage image = resource.userType() == QMetaType::QImage ? resource.value<QImage>()
                                                                : QImage::fromData(resource.toByteArray());
        const int width = std::max(320, viewport()->width() - 2 * static_cast<int>(document()->documentMargin()) - 8);
        if (!image.isNull() && image.width() > width) resource = image.scaledToWidth(width, Qt::SmoothTransformation);
    }
    return resource;
}

void GuideBrowser::doSetSource(const QUrl& name, QTextDocument::ResourceType type) {
    const QUrl url = resolvedLink(name);
    QTextBrowser::doSetSource(url, type);
    // Qt's Markdown import names no heading, so the base class found no anchor to scroll to: now there is one.
    if (!url.fragment().isEmpty()) scrollToAnchor(url.fragment());
}

void GuideBrowser::addHeadingAnchors() {
    QTextDocument* doc = document();
    QHash<QString, int> seen;  // GitHub numbers repeated headings: "usage", "usage-1", "usage-2"
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() <= 0 || block.text().isEmpty()) continue;
        QString slug = GuideWindow::headingSlug(block.text());
        const int n = seen.value(slug, 0);
        seen[slug] = n + 1;
        if (n > 0) slug += QLatin1Char('-') + QString::number(n);
        QTextCursor cursor(block);
        cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        QTextCharFormat anchor;
        anchor.setAnchor(true);
        anchor.setAnchorNames({slug});
        cursor.mergeCharFormat(anchor);
    }
    document()->setModified(false);
}

QString GuideBrowser::firstVisibleBlockText() const {
    const QPointF top(0, verticalScrollBar()->value() + 1);
    QAbstractTextDocumentLayout* layout = document()->documentLayout();
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next()) {
        const QRectF r = layout->blockBoundingRect(block);
        if (r.bottom() > top.y() && !block.text().trimmed().isEmpty()) return block.text();
    }
    return {};
}

QString glossaryLink(const QString& term, const QString& css) {
    const QString href = QStringLiteral("glossary:") + QString::fromLatin1(QUrl::toPercentEncoding(term));
    return QStringLiteral("<a href=\"%1\"%2>%3</a>")
        .arg(href, css.isEmpty() ? QString() : QStringLiteral(" style=\"%1\"").arg(style::escaped(css)),
             style::escaped(GuideWindow::tr("What does %1 mean?").arg(term)));
}

QString glossaryTermOf(const QString& href) {
    if (!href.startsWith(QStringLiteral("glossary:"))) return {};
    return QUrl::fromPercentEncoding(href.mid(9).toUtf8());
}

QString glossaryHint(const QString& term) {
    return GuideWindow::tr("What does %1 mean? Help › Glossary (%2)")
        .arg(term, QKeySequence(QStringLiteral("Shift+F1")).toString(QKeySequence::NativeText));
}

QUrl GuideWindow::builtInRoot() {
    return QUrl(QStringLiteral("qrc:/guide/"));
}

QString GuideWindow::headingSlug(const QString& heading) {
    QString slug;
    for (const QChar c : heading.trimmed().toLower()) {
        if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_') || c.isMark())
            slug += c;
        else if (c == QLatin1Char(' '))
            slug += QLatin1Char('-');
    }
    return slug;
}

GuideWindow::GuideWindow(const QUrl& root, QWidget* parent) : QWidget(parent, Qt::Window), m_root(root) {
    initGuideResources();
    setObjectName(QStringLiteral("guideWindow"));
    setWindowTitle(tr("fp8dash Guide"));
    setAttribute(Qt::WA_QuitOnClose, false);  // the last main window closed ends the application, guide or not

    auto* outer = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    m_back = new QToolButton(this);
    m_back->setText(tr("◀ Back"));
    m_back->setObjectName(QStringLiteral("guideBack"));
    m_back->setToolTip(tr("Back (%1)").arg(QKeySequence(QKeySequence::Back).toString(QKeySequence::NativeText)));
    m_back->setEnabled(false);
    m_forward = new QToolButton(this);
    m_forward->setText(tr("Forward ▶"));
    m_forward->setObjectName(QStringLiteral("guideForward"));
    m_forward->setToolTip(
        tr("Forward (%1)").arg(QKeySequence(QKeySequence::Forward).toString(QKeySequence::NativeText)));
    m_forward->setEnabled(false);
    m_find = new QLineEdit(this);
    m_find->setObjectName(QStringLiteral("guideFind"));
    m_find->setPlaceholderText(
        tr("Find in page (%1)").arg(QKeySequence(QKeySequence::Find).toString(QKeySequence::NativeText)));
    m_find->setClearButtonEnabled(true);
    m_find->setAccessibleName(tr("Find in page"));
    m_findStatus = new QLabel(this);
    bar->addWidget(m_back);
    bar->addWidget(m_forward);
    bar->addStretch(1);
    bar->addWidget(m_findStatus);
    bar->addWidget(m_find, 1);
    outer->addLayout(bar);

    auto* splitter = new QSplitter(this);
    m_list = new QListWidget(splitter);
    m_list->setObjectName(QStringLiteral("guidePages"));
    m_list->setAccessibleName(tr("Guide pages"));
    m_browser = new GuideBrowser(splitter);
    m_browser->setObjectName(QStringLiteral("guideBrowser"));
    m_browser->setAccessibleName(tr("Guide page"));
    splitter->addWidget(m_list);
    splitter->addWidget(m_browser);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({220, 760});
    outer->addWidget(splitter, 1);

    connect(m_back, &QToolButton::clicked, m_browser, &QTextBrowser::backward);
    connect(m_forward, &QToolButton::clicked, m_browser, &QTextBrowser::forward);
    connect(m_browser, &QTextBrowser::backwardAvailable, m_back, &QWidget::setEnabled);
    connect(m_browser, &QTextBrowser::forwardAvailable, m_forward, &QWidget::setEnabled);
    connect(m_browser, &QTextBrowser::sourceChanged, this, [this](const QUrl& url) {
        syncList(QFileInfo(url.path()).fileName());
        m_findStatus->clear();
    });
    connect(m_list, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { openPage(item->data(Qt::UserRole).toString()); });
    connect(m_list, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        if (item->data(Qt::UserRole).toString() != currentPage()) openPage(item->data(Qt::UserRole).toString());
    });
    connect(m_find, &QLineEdit::returnPressed, this, [this] { findInPage(m_find->text()); });
    connect(m_find, &QLineEdit::textChanged, this, [this] { m_findStatus->clear(); });
    auto* findKey = new QShortcut(QKeySequence::Find, this);
    connect(findKey, &QShortcut::activated, this, [this] {
        m_find->setFocus(Qt::ShortcutFocusReason);
        m_find->selectAll();
    });
    auto* findNext = new QShortcut(QKeySequence::FindNext, this);
    connect(findNext, &QShortcut::activated, this, [this] { findInPage(m_find->text()); });
    auto* findPrevious = new QShortcut(QKeySequence::FindPrevious, this);
    connect(findPrevious, &QShortcut::activated, this, [this] { findInPage(m_find->text(), true); });
    auto* back = new QShortcut(QKeySequence::Back, this);
    connect(back, &QShortcut::activated, m_browser, &QTextBrowser::backward);
    auto* forward = new QShortcut(QKeySequence::Forward, this);
    connect(forward, &QShortcut::activated, m_browser, &QTextBrowser::forward);
    auto* close = new QShortcut(QKeySequence::Close, this);
    connect(close, &QShortcut::activated, this, &QWidget::close);

    loadPageList();
    if (!restoreGeometry(QSettings().value(kGeometryKey).toByteArray())) {
        QSize size(1000, 720);
        if (const QScreen* screen = QGuiApplication::primaryScreen())
            size = size.boundedTo(screen->availableGeometry().size() * 0.9);
        resize(size);
    }
}

void GuideWindow::loadPageList() {
    const QDir dir(folderOf(m_root));
    QStringList files = dir.entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name);
    std::stable_sort(files.begin(), files.end(), [](const QString& a, const QString& b) {
        const auto rank = [](const QString& f) {
            const qsizetype i = kPageOrder.indexOf(f);
            return i < 0 ? kPageOrder.size() : i;
        };
        return rank(a) < rank(b);
    });
    m_pages = files;
    m_browser->setPages(m_root, files.isEmpty() ? QString() : files.front(),
                        files.isEmpty() ? QString() : titleOf(dir.filePath(files.front()), files.front()));
    m_list->clear();
    for (const QString& file : files) {
        auto* item = new QListWidgetItem(titleOf(dir.filePath(file), file), m_list);
        item->setData(Qt::UserRole, file);
        item->setToolTip(file);
    }
    if (files.isEmpty()) {
        m_browser->setMarkdown(
            tr("# No guide in this build\n\nThis copy of fp8dash was built without its documentation pages. They are "
               "the Markdown files in the `docs/` folder of the source, also readable on the project's web page."));
    }
}

QStringList GuideWindow::pageTitles() const {
    QStringList titles;
    for (int i = 0; i < m_list->count(); ++i) titles << m_list->item(i)->text();
    return titles;
}

QString GuideWindow::currentPage() const {
    const QUrl source = m_browser->source();
    return source.isEmpty() ? QString() : QFileInfo(source.path()).fileName();
}

void GuideWindow::syncList(const QString& page) {
    const QSignalBlocker block(m_list);
    m_list->clearSelection();
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->data(Qt::UserRole).toString() == page) m_list->setCurrentRow(i);
    }
}

void GuideWindow::openPage(const QString& page, const QString& anchor) {
    if (!isVisible()) show();
    raise();
    activateWindow();
    if (m_pages.isEmpty()) return;  // no pages: the "No guide in this build" message stays
    const QString name = page.isEmpty() ? m_pages.front() : page;
    QUrl url = m_root.resolved(QUrl(name));
    if (!anchor.isEmpty()) {
        // A slug already ("sigma-σ") stays as it is; heading text ("Sigma (σ)") becomes its slug.
        url.setFragment(headingSlug(anchor));
    }
    m_browser->setSource(url);
}

bool GuideWindow::findInPage(const QString& text, bool backward) {
    if (text.isEmpty()) return false;
    const QTextDocument::FindFlags flags = backward ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    bool found = m_browser->find(text, flags);
    if (!found) {  // wrap around: from the other end
        QTextCursor cursor = m_browser->textCursor();
        cursor.movePosition(backward ? QTextCursor::End : QTextCursor::Start);
        m_browser->setTextCursor(cursor);
        found = m_browser->find(text, flags);
    }
    m_findStatus->setText(found ? QString() : tr("Not found"));
    return found;
}

void GuideWindow::closeEvent(QCloseEvent* event) {
    QSettings().setValue(kGeometryKey, saveGeometry());
    QWidget::closeEvent(event);
}

}  // namespace fp8dash::ui
