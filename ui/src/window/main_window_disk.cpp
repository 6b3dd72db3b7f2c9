// MainWindow: the open file changed on disk (`timeline --save`, `compare --save`, a second reviewer's save, an
// editor). Nothing is overwritten silently: the watcher shows a notice bar, and a save onto a changed file asks
// first; both offer Reload (take theirs), Merge (both: comparison_merge.h) and Overwrite (keep mine).
#include <QCheckBox>
#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

#include "fp8dash/core/changed_answers.h"
#include "fp8dash/core/comparison_merge.h"
#include "fp8dash/core/statistics.h"
#include "fp8dash/ui/background_job.h"
#include "fp8dash/ui/changed_answers_dialog.h"
#include "fp8dash/ui/main_window.h"

namespace fp8dash::ui {

QWidget* MainWindow::buildDiskBar() {
    m_diskWatcher = new QFileSystemWatcher(this);
    // The folder too: a file replaced by a rename (an atomic save) leaves the watcher's list of files, and the
    // folder's event is where it is added back.
    connect(m_diskWatcher, &QFileSystemWatcher::fileChanged, this, &MainWindow::checkDiskFile);
    connect(m_diskWatcher, &QFileSystemWatcher::directoryChanged, this, &MainWindow::checkDiskFile);

    m_diskBar = new QFrame(this);
    m_diskBar->setObjectName(QStringLiteral("diskChangedBar"));
    static_cast<QFrame*>(m_diskBar)->setFrameShape(QFrame::StyledPanel);
    auto* layout = new QHBoxLayout(m_diskBar);
    layout->setContentsMargins(8, 4, 8, 4);
    m_diskLabel = new QLabel(m_diskBar);
    m_diskLabel->setObjectName(QStringLiteral("diskChangedText"));
    m_diskLabel->setTextFormat(Qt::PlainText);  // holds a file name
    m_diskLabel->setWordWrap(true);
    layout->addWidget(m_diskLabel, 1);
    m_diskReload = new QPushButton(tr("Reload"), m_diskBar);
    m_diskReload->setObjectName(QStringLiteral("diskReloadButton"));
    m_diskReload->setToolTip(tr("Show the file as it is on disk; the changes made here and not saved are dropped"));
    m_diskMerge = new QPushButton(tr("Merge"), m_diskBar);
    m_diskMerge->setObjectName(QStringLiteral("diskMergeButton"));
    m_diskMerge->setToolTip(
        tr("Keep both: the notes and decisions of both, the sections only the file has; where both have one, this "
           "window's. Then save."));
    auto* overwrite = new QPushButton(tr("Overwrite"), m_diskBar);
    overwrite->setObjectName(QStringLiteral("diskOverwriteButton"));
    overwrite->setToolTip(tr("Write this window's comparison over the file's changes"));
    auto* dismiss = new QPushButton(tr("Not Now"), m_diskBar);
    dismiss->setObjectName(QStringLiteral("diskDismissButton"));
    dismiss->setToolTip(tr("Decide when saving: Save asks again"));
    for (QPushButton* b : {m_diskReload, m_diskMerge, overwrite, dismiss}) layout->addWidget(b);
    connect(m_diskReload, &QPushButton::clicked, this, &MainWindow::reloadFromDisk);
    connect(m_diskMerge, &QPushButton::clicked, this, [this] { mergeFromDisk(true); });
    connect(overwrite, &QPushButton::clicked, this, [this] { (void)overwriteOnDisk(); });
    connect(dismiss, &QPushButton::clicked, m_diskBar, &QWidget::hide);
    m_diskBar->hide();
    return m_diskBar;
}

bool MainWindow::diskChangeNoticed() const {
    return m_diskBar && !m_diskBar->isHidden();
}

void MainWindow::watchDiskFile() {
    const QStringList watched = m_diskWatcher->files() + m_diskWatcher->directories();
    if (!watched.isEmpty()) m_diskWatcher->removePaths(watched);
    const QString path = m_doc.path();
    if (path.isEmpty()) return;
    m_diskWatcher->addPath(QFileInfo(path).absolutePath());
    if (QFileInfo::exists(path)) m_diskWatcher->addPath(path);
}

void MainWindow::checkDiskFile() {
    const QString path = m_doc.path();
    if (path.isEmpty() || !m_doc.current()) return;
    if (!m_diskWatcher->files().contains(path) && QFileInfo::exists(path)) m_diskWatcher->addPath(path);
    const DiskStamp now = DiskStamp::of(path);
    if (now == m_doc.diskStamp() || (m_diskNoticeFor && *m_diskNoticeFor == now)) return;
    m_diskNoticeFor = now;
    const QString name = QFileInfo(path).fileName();
    if (!now.exists) {
        // Removed or moved away: Save writes it again; there is nothing to reload or merge.
        m_diskLabel->setText(
            tr("“%1” was removed or renamed on disk. Save writes this comparison there again.").arg(name));
    } else {
        m_diskLabel->setText(
            m_doc.isModified()
                ? tr("“%1” was changed on disk by another program, and this window has changes not saved.").arg(name)
                : tr("“%1” was changed on disk by another program.").arg(name));
    }
    m_diskReload->setEnabled(now.exists);
    m_diskMerge->setEnabled(now.exists);
    m_diskBar->show();
    emit diskChangeShown();
}

Status MainWindow::saveTo(const QString& path) {
    if (!m_doc.current()) return Error{"no comparison to save"};
    const bool openFile = !m_doc.path().isEmpty() && QFileInfo(path).absoluteFilePath() == m_doc.path();
    if (!openFile || !m_doc.changedOnDisk()) return writeTo(path);
    QMessageBox box(QMessageBox::Warning, tr("File changed on disk"),
                    tr("“%1” was changed on disk by another program since it was opened or saved here.")
                        .arg(QFileInfo(path).fileName()),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("diskChangedBox"));
    box.setInformativeText(
        tr("Merge keeps both: the notes and decisions of both, and the sections only the file has (where both have "
           "one, this window's), then saves. Overwrite replaces the file's changes with this window's. Reload shows "
           "the file as it is on disk and drops the changes made here."));
    box.setTextFormat(Qt::PlainText);
    QPushButton* merge = box.addButton(tr("Merge"), QMessageBox::AcceptRole);
    merge->setObjectName(QStringLiteral("diskMergeChoice"));
    QPushButton* overwrite = box.addButton(tr("Overwrite"), QMessageBox::DestructiveRole);
    overwrite->setObjectName(QStringLiteral("diskOverwriteChoice"));
    QPushButton* reload = box.addButton(tr("Reload"), QMessageBox::DestructiveRole);
    reload->setObjectName(QStringLiteral("diskReloadChoice"));
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(merge);
    box.setWindowModality(Qt::WindowModal);
    box.exec();  // as the unsaved-changes question at close: the save cannot go on without the answer
    if (box.clickedButton() == overwrite) return writeTo(path);
    if (box.clickedButton() == merge) {
        mergeFromDisk(true);
        return Error{"not saved yet: merging the changes on disk first"};
    }
    if (box.clickedButton() == reload) {
        reloadFromDisk();
        return Error{"not saved: the file on disk is reloaded"};
    }
    return Error{"not saved: the file changed on disk"};
}

Status MainWindow::saveAsTo(const QString& path) {
    if (!m_doc.current()) return Error{"no comparison to save"};
    const AnswerExamplesHeld held = answerExamplesHeld(m_doc.current()->document);
    if (held.examples > 0) {
        // Privacy (README "The answers FP8 changed"): domain eval logs can hold confidential prompts.
        QMessageBox box(QMessageBox::Question, tr("Save Comparison"), QString(), QMessageBox::NoButton, this);
        box.setObjectName(QStringLiteral("answerExamplesBox"));
        box.setTextFormat(Qt::PlainText);
        const QString answers = held.examples == 1
                                    ? tr("1 changed answer")
                                    : tr("%1 changed answers").arg(toQString(groupedCount(held.examples)));
        const QString tasks = held.tasks == 1 ? tr("1 task") : tr("%1 tasks").arg(held.tasks);
        box.setText(tr("The file includes %1 from %2 (questions and responses).").arg(answers, tasks));
        box.setInformativeText(
            tr("They come from the runs' sample logs, which can hold confidential prompts. “Keep only the counts” "
               "leaves them out of the file and of this window's document; the counts of lost and gained answers "
               "stay."));
        auto* countsOnly = new QCheckBox(tr("&Keep only the counts"), &box);
        countsOnly->setObjectName(QStringLiteral("keepOnlyCounts"));
        box.setCheckBox(countsOnly);
        QPushButton* save = box.addButton(tr("Save"), QMessageBox::AcceptRole);
        save->setObjectName(QStringLiteral("answerExamplesSave"));
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(save);
        box.setWindowModality(Qt::WindowModal);
        box.exec();  // as the disk question: the save cannot go on without the answer
        if (box.clickedButton() != save) return Error{"not saved: cancelled"};
        if (countsOnly->isChecked()) {
            ComparisonDocument doc = m_doc.current()->document;
            dropAnswerExamples(doc);
            if (!showDerived(std::move(doc))) return Error{"not saved: the counts-only document could not be shown"};
            setModified(true);
            for (ChangedAnswersDialog* open : findChildren<ChangedAnswersDialog*>()) open->close();
        }
    }
    return saveTo(path);
}

void MainWindow::reloadFromDisk() {
    const QString path = m_doc.path();
    if (path.isEmpty()) return;
    m_diskBar->hide();
    openFileAsync(path);  // a new document: unsaved changes and the recovery file go
}

void MainWindow::mergeFromDisk(bool thenSave) {
    const QString path = m_doc.path();
    if (path.isEmpty() || !m_doc.current()) return;
    m_diskBar->hide();
    setLoading(path);
    const DiskStamp stamp = DiskStamp::of(path);
    // A newer document or load cancels the merge (m_load): its result is then dropped.
    m_load->start([path](JobControl&) { return loadComparisonFile(toFsPath(path)); },
                  [this, path, stamp, thenSave](Result<ComparisonDocument> theirs) {
                      clearLoading();
                      if (!theirs) {
                          const QString message = toQString(theirs.error().message);
                          showError(tr("Could not merge"),
                                    tr("Could not read “%1” as it is on disk; this window's comparison is unchanged.")
                                        .arg(QFileInfo(path).fileName()),
                                    message);
                          emit diskMergeFinished(message);
                          return;
                      }
                      MergedComparison merged = mergeComparisons(m_doc.current()->document, *theirs);
                      if (!showDerived(std::move(merged.document))) {
                          emit diskMergeFinished(tr("the merged comparison could not be evaluated"));
                          return;
                      }
                      m_doc.setDiskStamp(stamp);  // what was merged is what is on disk
                      m_diskNoticeFor.reset();
                      setModified(true);
                      statusBar()->showMessage(
                          merged.taken.empty() ? tr("Merged: the file on disk held nothing this window lacked")
                                               : tr("Merged from disk: %1").arg(toQString(joinInWords(merged.taken))),
                          8000);
                      const Status saved = thenSave ? saveTo(path) : success();
                      emit diskMergeFinished(saved ? QString() : toQString(saved.error().message));
                  });
}

Status MainWindow::overwriteOnDisk() {
    if (m_doc.path().isEmpty()) return Error{"the comparison has no file"};
    return writeTo(m_doc.path());
}

}  // namespace fp8dash::ui
