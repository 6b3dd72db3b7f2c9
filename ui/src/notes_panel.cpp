#include "fp8dash/ui/notes_panel.h"

#include <QDateTime>
#include <QFrame>
#include <QLabel>
#include <QVBoxLayout>

#include "fp8dash/ui/loaded_comparison.h"
#include "ui_style.h"

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

namespace {

// "2024-05-09T17:28:31Z" -> "2024-05-09 17:28 UTC"; anything else is shown as written.
QString readableDate(const std::string& iso) {
    const QString text = toQString(iso);
    const QDateTime dt = QDateTime::fromString(text, Qt::ISODate);
    if (!dt.isValid()) return text;
    return dt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")) + QStringLiteral(" UTC");
}

}  // namespace

void NotesPanel::setNotes(const std::vector<Note>& notes) {
    style::clearLayout(m_rows);
    m_texts.clear();
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
        const QString text = toQString(note.text);
        m_texts << text;
        auto* body = new QLabel(text, card);
        body->setTextFormat(Qt::PlainText);
        body->setWordWrap(true);
        body->setTextInteractionFlags(Qt::TextSelectableByMouse);
        layout->addWidget(body);
        QStringList meta;
        if (!note.author.empty()) meta << toQString(note.author);
        if (!note.created.empty()) meta << readableDate(note.created);
        if (!note.task.empty()) meta << tr("about %1").arg(toQString(note.task));
        if (!meta.isEmpty()) layout->addWidget(style::caption(meta.join(QStringLiteral(" · ")), card));
        m_rows->addWidget(card);
    }
}

}  // namespace fp8dash::ui
