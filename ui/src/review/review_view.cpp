#include "fp8dash/ui/review_view.h"

#include <QComboBox>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QVBoxLayout>

#include <set>

#include "fp8dash/ui/notes_panel.h"
#include "fp8dash/ui/review_dialogs.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

namespace {

// The outcome as text on the window's background: the theme's verdict text colours (a light red on dark grey in the
// dark theme, where the banner's red would hardly read), repainted when the theme changes.
QColor outcomeColor(ReviewOutcome o) {
    switch (o) {
        case ReviewOutcome::ApprovedGo:
            return style::verdictTextColor(Verdict::Go);
        case ReviewOutcome::ApprovedMonitor:
            return style::verdictTextColor(Verdict::Monitor);
        case ReviewOutcome::Rejected:
            return style::verdictTextColor(Verdict::Investigate);
    }
    return Qt::gray;
}

const char* const kOutcomeProperty = "fp8dashOutcome";  // int(ReviewOutcome) of the outcome shown; absent: none

void paintOutcome(QLabel* label) {
    const QVariant outcome = label->property(kOutcomeProperty);
    label->setStyleSheet(outcome.isValid() ? QStringLiteral("QLabel { color: %1; }")
                                                 .arg(outcomeColor(static_cast<ReviewOutcome>(outcome.toInt())).name())
                                           : QString());
}

}  // namespace

ReviewView::ReviewView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("reviewView"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 8, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    outer->addWidget(scroll);
    auto* page = new QWidget(scroll);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(12, 4, 12, 12);
    layout->setSpacing(12);
    scroll->setWidget(page);

    // The decision in force.
    layout->addWidget(style::sectionTitle(tr("Decision"), page));
    auto* card = new QFrame(page);
    card->setObjectName(QStringLiteral("decisionCard"));
    card->setFrameShape(QFrame::StyledPanel);
    auto* cardLayout = new QHBoxLayout(card);
    cardLayout->setContentsMargins(14, 12, 14, 12);
    auto* text = new QVBoxLayout;
    text->setSpacing(4);
    m_outcome = plainLabel(QString(), card);
    m_outcome->setObjectName(QStringLiteral("decisionOutcome"));
    style::onThemeChange(m_outcome, [label = m_outcome] { paintOutcome(label); });
    QFont big = m_outcome->font();
    big.setPointSizeF(big.pointSizeF() * 1.35);
    big.setBold(true);
    m_outcome->setFont(big);
    m_outcome->setTextInteractionFlags(Qt::TextSelectableByMouse);
    text->addWidget(m_outcome);
    m_decisionDetail = new QLabel(card);
    m_decisionDetail->setObjectName(QStringLiteral("decisionDetail"));
    m_decisionDetail->setWordWrap(true);
    m_decisionDetail->setTextFormat(Qt::PlainText);
    m_decisionDetail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    text->addWidget(m_decisionDetail);
    m_warnings = new QLabel(card);
    m_warnings->setObjectName(QStringLiteral("decisionWarnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setTextFormat(Qt::PlainText);
    style::setTextTone(m_warnings, style::TextTone::Error, true);
    text->addWidget(m_warnings);
    cardLayout->addLayout(text, 1);
    m_record = new QPushButton(tr("Record Decision…"), card);
    m_record->setObjectName(QStringLiteral("recordDecisionButton"));
    m_record->setToolTip(tr("Approve (go, or monitor with quality alerting) or reject, with your name and reason"));
    connect(m_record, &QPushButton::clicked, this, &ReviewView::recordDecisionRequested);
    cardLayout->addWidget(m_record, 0, Qt::AlignTop);
    layout->addWidget(card);

    m_historyTitle = style::caption(QString(), page);
    layout->addWidget(m_historyTitle);
    m_history = new QVBoxLayout;
    m_history->setSpacing(2);
    layout->addLayout(m_history);

    // The composer.
    layout->addSpacing(6);
    layout->addWidget(style::sectionTitle(tr("Notes"), page));
    m_composer = new QPlainTextEdit(page);
    m_composer->setObjectName(QStringLiteral("noteComposer"));
    m_composer->setAccessibleName(tr("New note"));
    m_composer->setPlaceholderText(tr("Write a note for whoever reviews this comparison… (Ctrl+Return adds it)"));
    m_composer->setTabChangesFocus(true);
    m_composer->setFixedHeight(84);
    layout->addWidget(m_composer);
    auto* row = new QHBoxLayout;
    auto* aboutLabel = new QLabel(tr("&About:"), page);
    m_task = new QComboBox(page);
    m_task->setObjectName(QStringLiteral("noteTask"));
    m_task->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    aboutLabel->setBuddy(m_task);
    auto* nameLabel = new QLabel(tr("&Name:"), page);
    m_author = new QLineEdit(reviewerName(), page);
    m_author->setObjectName(QStringLiteral("noteAuthor"));
    m_author->setPlaceholderText(tr("Your name"));
    m_author->setMaximumWidth(260);
    nameLabel->setBuddy(m_author);
    m_add = new QPushButton(tr("Add Note"), page);
    m_add->setObjectName(QStringLiteral("addNoteButton"));
    row->addWidget(aboutLabel);
    row->addWidget(m_task);
    row->addSpacing(12);
    row->addWidget(nameLabel);
    row->addWidget(m_author, 1);
    row->addStretch(1);
    row->addWidget(m_add);
    layout->addLayout(row);
    connect(m_add, &QPushButton::clicked, this, &ReviewView::submit);
    for (const QKeySequence& keys : {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto* shortcut = new QShortcut(keys, m_composer);
        shortcut->setContext(Qt::WidgetShortcut);
        connect(shortcut, &QShortcut::activated, this, &ReviewView::submit);
    }
    connect(m_composer, &QPlainTextEdit::textChanged, this, [this] {
        updateAddButton();
        emit draftChanged();
    });
    connect(m_author, &QLineEdit::textChanged, this, &ReviewView::updateAddButton);
    updateAddButton();

    m_notes = new NotesPanel(page);
    m_notes->setEditable(true);
    connect(m_notes, &NotesPanel::editRequested, this, &ReviewView::editNoteRequested);
    connect(m_notes, &NotesPanel::deleteRequested, this, &ReviewView::deleteNoteRequested);
    layout->addWidget(m_notes);
    layout->addStretch(1);
}

void ReviewView::setComparison(const LoadedComparison& loaded) {
    const ComparisonDocument& doc = loaded.document;
    if (const ReviewDecision* d = doc.currentDecision()) {
        setPlainText(m_outcome, toQString(reviewOutcomeTitle(d->outcome)) +
                                    (d->variant ? tr(": %1").arg(toQString(*d->variant)) : QString()));
        m_outcome->setProperty(kOutcomeProperty, static_cast<int>(d->outcome));
        paintOutcome(m_outcome);
        QString detail = tr("By %1 on %2").arg(toQString(d->by), toQString(readableTimestamp(d->at)));
        if (d->verdictAtDecision)
            detail += tr(", when the evidence said %1").arg(toQString(verdictTitle(*d->verdictAtDecision)));
        detail += QStringLiteral(".\n") + excerpt(toQString(d->why));
        setPlainText(m_decisionDetail, detail);
        const ReviewAssessment a = assessReview(*d, loaded.decision);
        QStringList warnings;
        for (const std::string& w : a.warnings) warnings << QStringLiteral("⚠ ") + toQString(w);
        setPlainText(m_warnings, warnings.join(QLatin1Char('\n')));
        m_record->setText(tr("Revise Decision…"));
    } else {
        setPlainText(m_outcome, tr("No decision recorded"));
        m_outcome->setProperty(kOutcomeProperty, QVariant());
        paintOutcome(m_outcome);
        setPlainText(
            m_decisionDetail,
            tr("Record whether FP8 is approved (go, or monitor with quality alerting) or rejected, with your name "
               "and the reason. It is saved in the comparison file and shown in the verdict banner."));
        m_warnings->clear();
        m_record->setText(tr("Record Decision…"));
    }
    m_warnings->setVisible(!m_warnings->text().isEmpty());

    style::clearLayout(m_history);
    m_historyTexts.clear();
    const std::size_t earlier = doc.decisions.empty() ? 0 : doc.decisions.size() - 1;
    m_historyTitle->setText(earlier == 0 ? QString() : tr("Earlier decisions, kept on record (%1):").arg(earlier));
    m_historyTitle->setVisible(earlier > 0);
    for (std::size_t i = earlier; i-- > 0;) {
        const QString line = excerpt(toQString(reviewSummary(doc.decisions[i])));
        m_historyTexts << line;
        auto* label = style::caption(QStringLiteral("• ") + line, this);
        label->setTextFormat(Qt::PlainText);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_history->addWidget(label);
    }

    // "About": the whole comparison, each compared task, and any task an existing note names.
    const QString chosen = m_task->currentData().toString();
    m_task->clear();
    m_task->addItem(tr("The whole comparison"), QString());
    std::set<std::string> seen;
    for (const TaskComparison& t : loaded.report.tasks) {
        if (seen.insert(t.task).second) m_task->addItem(visibleText(toQString(t.task)), toQString(t.task));
    }
    for (const Note& n : doc.notes) {
        if (!n.task.empty() && seen.insert(n.task).second)
            m_task->addItem(visibleText(toQString(n.task)), toQString(n.task));
    }
    m_task->setCurrentIndex(std::max(0, m_task->findData(chosen)));
    m_notes->setNotes(doc.notes);
}

QString ReviewView::draft() const {
    return m_composer->toPlainText();
}

void ReviewView::setDraft(const QString& text) {
    m_composer->setPlainText(text);
}

void ReviewView::focusComposer(const QString& task) {
    const int index = m_task->findData(task);
    if (index >= 0) {
        m_task->setCurrentIndex(index);
    } else if (!task.isEmpty()) {
        m_task->addItem(visibleText(task), task);
        m_task->setCurrentIndex(m_task->count() - 1);
    }
    m_composer->setFocus(Qt::OtherFocusReason);
}

void ReviewView::clearComposer() {
    m_composer->clear();
}

QString ReviewView::decisionText() const {
    return m_outcome->text() + QLatin1Char('\n') + m_decisionDetail->text();
}

QString ReviewView::warningsText() const {
    return m_warnings->text();
}

QStringList ReviewView::historyTexts() const {
    return m_historyTexts;
}

void ReviewView::updateAddButton() {
    m_add->setEnabled(!m_composer->toPlainText().trimmed().isEmpty() && !m_author->text().trimmed().isEmpty());
}

void ReviewView::submit() {
    const QString text = m_composer->toPlainText().trimmed();
    const QString author = m_author->text().trimmed();
    if (text.isEmpty() || author.isEmpty()) return;
    rememberReviewerName(author);
    emit noteSubmitted(text, m_task->currentData().toString(), author);
}

}  // namespace fp8dash::ui
