#include "fp8dash/ui/document_controller.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>

#include "fp8dash/core/version.h"

namespace fp8dash::ui {

DiskStamp DiskStamp::of(const QString& path) {
    DiskStamp s;
    struct stat st {};
    if (path.isEmpty() || ::stat(QFile::encodeName(path).constData(), &st) != 0) return s;
    s.exists = true;
    s.size = st.st_size;
    s.mtimeNs = qint64(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    s.inode = st.st_ino;
    s.device = st.st_dev;
    return s;
}

bool DocumentController::changedOnDisk() const {
    if (m_path.isEmpty()) return false;
    const DiskStamp now = DiskStamp::of(m_path);
    return now.exists && now != m_diskStamp;
}

void DocumentController::show(LoadedComparison loaded, const QString& path, const QString& displayName, bool derived) {
    if (!derived) ++m_serial;
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
}

void DocumentController::markSaved(const QString& path) {
    m_path = QFileInfo(path).absoluteFilePath();
    m_displayName = QFileInfo(path).fileName();
    m_modified = false;
}

DocumentController::DerivedTarget DocumentController::derivedTarget() const {
    DerivedTarget t;
    t.path = m_current ? m_path : QString();
    t.displayName = m_current && t.path.isEmpty() ? m_displayName : QString();
    t.source = t.path.isEmpty() ? (t.displayName.isEmpty() ? tr("the comparison") : t.displayName) : t.path;
    return t;
}

QString DocumentController::windowTitle() const {
    // A changed document that has no file yet (a new comparison, an edited demo) exists only here: say so.
    if (m_modified && m_path.isEmpty()) return tr("%1* — unsaved — fp8dash").arg(m_displayName);
    return QStringLiteral("%1%2 — fp8dash").arg(m_displayName, m_modified ? QStringLiteral("*") : QString());
}

QString DocumentController::statusText() const {
    if (m_modified) {
        return tr("%1 — modified, not saved").arg(m_path.isEmpty() ? m_displayName : QDir::toNativeSeparators(m_path));
    }
    return m_path.isEmpty() ? tr("Not saved to a file") : QDir::toNativeSeparators(m_path);
}

ComparisonDocument DocumentController::documentOr(const QString& title) const {
    return m_current ? m_current->document : withoutRuns(title);
}

ComparisonDocument DocumentController::withoutRuns(const QString& title) {
    ComparisonDocument doc;
    doc.hasEvals = false;
    doc.created = nowIso8601Utc();
    doc.toolVersion = FP8DASH_VERSION;
    doc.title = title.toStdString();
    return doc;
}

}  // namespace fp8dash::ui
