#pragma once
// The document a main window shows, without the window (no widgets; testable on its own): the loaded comparison,
// the file it lives in, the name in the title, whether it has unsaved changes, and which document it is. The
// window draws what this says; every rule about naming, the title, the status line and derived documents is here.
//
// - A new document (opened, created, recovered) starts unmodified and gets a new serial: work started for the old
//   one (a benchmark run) is then not applied to it. A derived document (the current one with a new timeline,
//   change time, judge section, note, ...) keeps its path, name and serial.
// - Its name: the one given, else the file's name, else the document's title, else "Untitled comparison".
// - Saved to a file: that file's absolute path and name, unmodified.
// - The file as it was when it was read or last written here (its DiskStamp): a difference now means something else
//   wrote it (`timeline --save`, another reviewer, an editor), and a save must not silently overwrite that.

#include <QCoreApplication>
#include <QString>

#include <optional>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/ui/loaded_comparison.h"

namespace fp8dash::ui {

// A file's identity and state from stat(2): an atomic replacement (every fp8dash save, most editors) gives a new
// inode, an in-place write a new size or modification time (nanoseconds).
struct DiskStamp {
    bool exists = false;
    qint64 size = 0;
    qint64 mtimeNs = 0;
    quint64 inode = 0;
    quint64 device = 0;
    bool operator==(const DiskStamp&) const = default;
    static DiskStamp of(const QString& path);  // exists false when it cannot be read
};

class DocumentController {
    Q_DECLARE_TR_FUNCTIONS(DocumentController)

public:
    const std::optional<LoadedComparison>& current() const { return m_current; }
    // The current document to change in place, for a change that needs no re-evaluation (the capacity inputs);
    // nullptr without one. The caller marks it modified.
    LoadedComparison* edit() { return m_current ? &*m_current : nullptr; }
    bool hasDocument() const { return m_current.has_value(); }
    QString path() const { return m_path; }  // absolute; empty for the demo or an unsaved document
    QString displayName() const { return m_displayName; }
    bool isModified() const { return m_modified; }
    quint64 serial() const { return m_serial; }  // changes with each new (not derived) document

    // Shows `loaded` (see the rules above); derived keeps the serial.
    void show(LoadedComparison loaded, const QString& path, const QString& displayName, bool derived);
    void setModified(bool modified) { m_modified = modified; }
    void markSaved(const QString& path);  // written to path: its absolute path and file name, unmodified
    bool shows(const QString& absolutePath) const { return !m_path.isEmpty() && m_path == absolutePath; }
    // The file as it was read or written here; changedOnDisk: it is there now and differs from that.
    void setDiskStamp(const DiskStamp& stamp) { m_diskStamp = stamp; }
    const DiskStamp& diskStamp() const { return m_diskStamp; }
    bool changedOnDisk() const;

    // For a document derived from the current one: the path it keeps, the name it keeps (only an unsaved document
    // keeps its name: a saved one is named by its file), and how an error names it ("the comparison" without either).
    struct DerivedTarget {
        QString path;
        QString displayName;
        QString source;
    };
    DerivedTarget derivedTarget() const;

    QString windowTitle()
        const;  // "name* — fp8dash" (the star while modified); "name* — unsaved — fp8dash" without a file
    QString statusText() const;  // where it lives, or that it is modified and not saved

    // The current document to change, or a new one without eval runs named `title` when none is shown.
    ComparisonDocument documentOr(const QString& title) const;
    // A new document without eval runs, for what is added to it next (a production timeline, local benchmarks and
    // capacity): created now by this build.
    static ComparisonDocument withoutRuns(const QString& title);

private:
    std::optional<LoadedComparison> m_current;
    QString m_path;
    QString m_displayName;
    bool m_modified = false;
    quint64 m_serial = 0;
    DiskStamp m_diskStamp;
};

}  // namespace fp8dash::ui
