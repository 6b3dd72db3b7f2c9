#pragma once
// NotesPanel: the notes saved in the comparison (text, author, date, the task it is about), read-only for now.
// GUI thread only.

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

    void setNotes(const std::vector<Note>& notes);
    QStringList texts() const { return m_texts; }  // each note's text, as shown

private:
    QLabel* m_title = nullptr;
    QVBoxLayout* m_rows = nullptr;
    QStringList m_texts;
};

}  // namespace fp8dash::ui
