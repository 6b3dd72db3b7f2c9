#pragma once
// ReviewView: the "Review" tab, where a reviewer signs off. On top the decision in force (outcome in its colour, by
// whom, when, why, with a warning when it overrides the evidence's verdict or the evidence changed since) and the
// button that records or revises it; below, the earlier decisions (kept on record, newest first); then the notes:
// a composer (text, what it is about, the reviewer's name; Ctrl+Return adds) above every note with Edit and Delete.
// It shows a document and reports what the reviewer asked for through signals; the main window changes the
// document. The composer's text is a draft the main window autosaves. GUI thread only; owns its children.

#include <QString>
#include <QWidget>

#include "fp8dash/ui/loaded_comparison.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QVBoxLayout;

namespace fp8dash::ui {

class NotesPanel;

class ReviewView : public QWidget {
    Q_OBJECT
public:
    explicit ReviewView(QWidget* parent = nullptr);

    void setComparison(const LoadedComparison& loaded);

    // The composer: its text is a draft until added; focusComposer puts the cursor there, about `task` ("" = the
    // whole comparison).
    QString draft() const;
    void setDraft(const QString& text);
    void focusComposer(const QString& task);
    void clearComposer();

    // What is on screen (plain text), for tests and accessibility.
    QString decisionText() const;      // the decision in force, or the "none yet" line
    QString warningsText() const;      // override / evidence-changed warnings, one per line; empty when none
    QStringList historyTexts() const;  // earlier decisions, newest first

    NotesPanel* notesPanel() const { return m_notes; }
    QPushButton* recordButton() const { return m_record; }
    QPushButton* addNoteButton() const { return m_add; }
    QPlainTextEdit* composer() const { return m_composer; }
    QComboBox* composerTask() const { return m_task; }
    QLineEdit* composerAuthor() const { return m_author; }

signals:
    void recordDecisionRequested();
    void noteSubmitted(const QString& text, const QString& task, const QString& author);
    void editNoteRequested(const QString& id);
    void deleteNoteRequested(const QString& id);
    void draftChanged();

private:
    void submit();
    void updateAddButton();

    QLabel* m_outcome = nullptr;
    QLabel* m_decisionDetail = nullptr;
    QLabel* m_warnings = nullptr;
    QPushButton* m_record = nullptr;
    QLabel* m_historyTitle = nullptr;
    QVBoxLayout* m_history = nullptr;
    QStringList m_historyTexts;
    QPlainTextEdit* m_composer = nullptr;
    QComboBox* m_task = nullptr;
    QLineEdit* m_author = nullptr;
    QPushButton* m_add = nullptr;
    NotesPanel* m_notes = nullptr;
};

}  // namespace fp8dash::ui
