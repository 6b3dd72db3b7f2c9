#include "fp8dash/ui/recovery_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QStandardPaths>
#include <QUuid>

#include <algorithm>

#include "fp8dash/ui/loaded_comparison.h"

namespace fp8dash::ui {

namespace {

const QString kSuffix = QStringLiteral(".fp8recovery");

QString& overrideDirectory() {
    static QString dir;
    return dir;
}

QString lockPathFor(const QString& file) {
    QString base = file;
    base.chop(kSuffix.size());
    return base + QStringLiteral(".lock");
}

// A lock that is never stale by age, only when the process holding it is gone (QLockFile checks the PID).
std::unique_ptr<QLockFile> tryLock(const QString& lockPath) {
    auto lock = std::make_unique<QLockFile>(lockPath);
    lock->setStaleLockTime(0);
    if (!lock->tryLock(0)) return nullptr;
    return lock;
}

bool ensurePrivateDir(const QString& dir, QString* error) {
    if (!QDir().mkpath(dir)) {
        if (error) *error = QStringLiteral("cannot create the recovery folder %1").arg(dir);
        return false;
    }
    // Documents may be confidential: the folder is the user's alone.
    QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return true;
}

}  // namespace

// ---- RecoverySlot

RecoverySlot::RecoverySlot(QString file, std::unique_ptr<QLockFile> lock)
    : m_file(std::move(file)), m_lock(std::move(lock)) {}

RecoverySlot::~RecoverySlot() = default;  // the lock is released; the file stays

bool RecoverySlot::exists() const {
    return QFileInfo::exists(m_file);
}

Status RecoverySlot::write(const RecoveryRecord& record) {
    return saveRecoveryFile(record, toFsPath(m_file));
}

void RecoverySlot::discard() {
    QFile::remove(m_file);
}

// ---- RecoveryStore

QString RecoveryStore::defaultDirectory() {
    if (!overrideDirectory().isEmpty()) return overrideDirectory();
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/recovery");
}

void RecoveryStore::setDefaultDirectory(const QString& dir) {
    overrideDirectory() = dir;
}

RecoveryStore::RecoveryStore(QString dir) : m_dir(std::move(dir)) {}

std::unique_ptr<RecoverySlot> RecoveryStore::claim(QString* error) const {
    if (!ensurePrivateDir(m_dir, error)) return nullptr;
    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    const QString file = QDir(m_dir).filePath(id + kSuffix);
    auto lock = tryLock(lockPathFor(file));
    if (!lock) {
        if (error) *error = QStringLiteral("cannot lock %1").arg(lockPathFor(file));
        return nullptr;
    }
    return std::unique_ptr<RecoverySlot>(new RecoverySlot(file, std::move(lock)));
}

std::unique_ptr<RecoverySlot> RecoveryStore::adopt(const QString& file) const {
    auto lock = tryLock(lockPathFor(file));
    if (!lock) return nullptr;
    return std::unique_ptr<RecoverySlot>(new RecoverySlot(file, std::move(lock)));
}

QList<RecoveryOrphan> RecoveryStore::orphans() const {
    QList<RecoveryOrphan> out;
    const QFileInfoList files =
        QDir(m_dir).entryInfoList({QStringLiteral("*") + kSuffix}, QDir::Files, QDir::Time);  // newest first
    for (const QFileInfo& info : files) {
        const QString file = info.absoluteFilePath();
        // Held by a live window (this process or another): not an orphan. The probe lock is released at once.
        if (!tryLock(lockPathFor(file))) continue;
        RecoveryOrphan orphan;
        orphan.file = file;
        auto record = loadRecoveryFile(toFsPath(file));
        if (record) {
            orphan.record = std::move(record).value();
        } else {
            orphan.error = toQString(record.error().message);
        }
        out << orphan;
    }
    return out;
}

bool RecoveryStore::discard(const QString& file) const {
    auto lock = tryLock(lockPathFor(file));
    if (!lock) return false;
    QFile::remove(file);
    return true;  // the lock file goes with the lock
}

}  // namespace fp8dash::ui
