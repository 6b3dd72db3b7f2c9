#pragma once
// NotesPanel: the notes of the comparison (text, author, date, the task it is about, when it was edited). Read-only
// by default (the evals tab's side panel); editable (the Review tab) adds Edit and Delete to each note, which ask the
// owner to act through signals: the panel never changes a document itself. GUI thread only.

#include <QStringList>
#include <QWidget>

#include <vector>

#include "fp8dash/core/comparison_file.h"

class QLabel;
class QVBoxLayout;

namespace fp8dash::ui {

class NotesPanel : public QWidget {
    Q_OBJECT
public:
    explicit NotesPanel(QWidget* parent = nullptr);

    void setEditable(bool editable);  // before setNotes
    void setNotes(const std::vector<Note>& notes);
    QStringList texts() const { return m_texts; }  // each note's text, as shown
    QStringList ids() const { return m_ids; }      // in the same order

signals:
    void editRequested(const QString& id);
    void deleteRequested(const QString& id);

private:
    bool m_editable = false;
    QLabel* m_title = nullptr;
    QVBoxLayout* m_rows = nullptr;
    QStringList m_texts;
    QStringList m_ids;
};

}  // namespace fp8dash::ui
