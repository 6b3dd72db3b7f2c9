#pragma once
// RecoveryStore: the folder where the desktop app autosaves comparisons with unsaved changes (core's recovery file,
// one per window: <id>.fp8recovery), so that nothing typed is lost when the app or the machine goes down. Each file
// has a lock (<id>.lock, QLockFile) held by the window that writes it; a file whose lock is free or stale (its
// process is gone) is an orphan, which the next start offers to recover. A window that is closed after its changes
// were saved or discarded removes its file. Default folder: <AppLocalDataLocation>/recovery
// (~/.local/share/fp8dash/recovery), created 0700; setDefaultDirectory() moves it (tests).
// GUI thread only.

#include <QList>
#include <QString>

#include <memory>

#include "fp8dash/core/recovery_file.h"

class QLockFile;

namespace fp8dash::ui {

// One window's recovery file while that window lives: holds its lock. Destroying the slot releases the lock and
// leaves the file (what a crash would leave); discard() removes the file first.
class RecoverySlot {
public:
    ~RecoverySlot();
    RecoverySlot(const RecoverySlot&) = delete;
    RecoverySlot& operator=(const RecoverySlot&) = delete;

    QString filePath() const { return m_file; }
    bool exists() const;
    Status write(const RecoveryRecord& record);  // atomic (a crash mid-write leaves the previous file)
    void discard();                              // removes the file (the lock stays until the slot goes)

private:
    friend class RecoveryStore;
    RecoverySlot(QString file, std::unique_ptr<QLockFile> lock);
    QString m_file;
    std::unique_ptr<QLockFile> m_lock;
};

struct RecoveryOrphan {
    QString file;
    std::optional<RecoveryRecord> record;  // nullopt when the file cannot be read
    QString error;                         // why it cannot be read
};

class RecoveryStore {
public:
    static QString defaultDirectory();
    static void setDefaultDirectory(const QString& dir);  // "" restores the standard location

    explicit RecoveryStore(QString dir = defaultDirectory());
    QString directory() const { return m_dir; }

    // A new slot with a fresh id; nullptr (and a message in *error) when the folder cannot be made.
    std::unique_ptr<RecoverySlot> claim(QString* error = nullptr) const;
    // Takes over an orphan's file (to go on autosaving it after recovery); nullptr when another process holds it.
    std::unique_ptr<RecoverySlot> adopt(const QString& file) const;
    // Files nobody holds, newest first (readable or not).
    QList<RecoveryOrphan> orphans() const;
    // Removes an orphan's file (and its lock when free); false when another process holds it.
    bool discard(const QString& file) const;

private:
    QString m_dir;
};

}  // namespace fp8dash::ui
