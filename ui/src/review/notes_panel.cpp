#include "fp8dash/ui/notes_panel.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

NotesPanel::NotesPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    m_title = style::sectionTitle(tr("Notes"), this);
    layout->addWidget(m_title);
    m_rows = new QVBoxLayout;
    m_rows->setSpacing(8);
    layout->addLayout(m_rows);
}

void NotesPanel::setEditable(bool editable) {
    m_editable = editable;
}

void NotesPanel::setNotes(const std::vector<Note>& notes) {
    style::clearLayout(m_rows);
    m_texts.clear();
    m_ids.clear();
    m_title->setText(notes.empty() ? tr("Notes") : tr("Notes (%1)").arg(notes.size()));
    if (notes.empty()) {
        m_rows->addWidget(style::caption(tr("No notes in this comparison."), this));
        return;
    }
    for (const Note& note : notes) {
        auto* card = new QFrame(this);
        card->setObjectName(QStringLiteral("noteCard"));
        card->setFrameShape(QFrame::StyledPanel);
        auto* layout = new QVBoxLayout(card);
        layout->setContentsMargins(10, 8, 10, 8);
        layout->setSpacing(4);
        const QString text = excerpt(toQString(note.text));
        m_texts << text;
        m_ids << toQString(note.id);
        auto* body = new QLabel(text, card);
        body->setTextFormat(Qt::PlainText);
        body->setWordWrap(true);
        body->setTextInteractionFlags(Qt::TextSelectableByMouse);
        layout->addWidget(body);
        QStringList meta;
        if (!note.author.empty()) meta << toQString(note.author);
        if (!note.created.empty()) meta << toQString(readableTimestamp(note.created));
        if (!note.task.empty()) meta << tr("about %1").arg(toQString(note.task));
        if (!note.edited.empty()) meta << tr("edited %1").arg(toQString(readableTimestamp(note.edited)));
        auto* footer = new QHBoxLayout;
        footer->setSpacing(6);
        if (!meta.isEmpty()) footer->addWidget(style::caption(meta.join(QStringLiteral(" · ")), card), 1);
        if (m_editable) {
            const QString id = toQString(note.id);
            const QString excerpt = text.left(40);
            auto* edit = new QToolButton(card);
            edit->setText(tr("Edit…"));
            edit->setObjectName(QStringLiteral("editNote"));
            edit->setAccessibleName(tr("Edit the note “%1”").arg(excerpt));
            connect(edit, &QToolButton::clicked, this, [this, id] { emit editRequested(id); });
            auto* remove = new QToolButton(card);
            remove->setText(tr("Delete"));
            remove->setObjectName(QStringLiteral("deleteNote"));
            remove->setAccessibleName(tr("Delete the note “%1”").arg(excerpt));
            connect(remove, &QToolButton::clicked, this, [this, id] { emit deleteRequested(id); });
            if (meta.isEmpty()) footer->addStretch(1);
            footer->addWidget(edit);
            footer->addWidget(remove);
        }
        layout->addLayout(footer);
        m_rows->addWidget(card);
    }
}

}  // namespace fp8dash::ui
