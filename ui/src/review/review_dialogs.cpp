#include "fp8dash/ui/review_dialogs.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <pwd.h>
#include <unistd.h>

#include <vector>

#include "fp8dash/core/fp8_config.h"
#include "fp8dash/core/version.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

namespace {

const QString kNameKey = QStringLiteral("review/name");

// The account's full name (the first GECOS field), else its login name.
QString accountName() {
    std::vector<char> buffer(16384);
    passwd entry{};
    passwd* found = nullptr;
    if (::getpwuid_r(::getuid(), &entry, buffer.data(), buffer.size(), &found) == 0 && found) {
        const QString gecos =
            QString::fromLocal8Bit(found->pw_gecos ? found->pw_gecos : "").section(QLatin1Char(','), 0, 0);
        if (!gecos.trimmed().isEmpty()) return gecos.trimmed();
        if (found->pw_name && *found->pw_name) return QString::fromLocal8Bit(found->pw_name);
    }
    return qEnvironmentVariable("USER");
}

}  // namespace

QString reviewerName() {
    const QString saved = QSettings().value(kNameKey).toString().trimmed();
    return saved.isEmpty() ? accountName() : saved;
}

void rememberReviewerName(const QString& name) {
    if (!name.trimmed().isEmpty()) QSettings().setValue(kNameKey, name.trimmed());
}

// ---- NoteDialog

NoteDialog::NoteDialog(const QStringList& tasks, const QString& task, QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("noteDialog"));
    setWindowTitle(tr("Add Note"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    m_task = new QComboBox(this);
    m_task->addItem(tr("The whole comparison"), QString());
    for (const QString& t : tasks) m_task->addItem(visibleText(t), t);  // shown with its controls visible
    if (!task.isEmpty() && m_task->findData(task) < 0) m_task->addItem(visibleText(task), task);
    m_task->setCurrentIndex(std::max(0, m_task->findData(task)));
    auto* aboutLabel = new QLabel(tr("&About:"), this);
    aboutLabel->setBuddy(m_task);
    form->addRow(aboutLabel, m_task);
    m_author = new QLineEdit(reviewerName(), this);
    m_author->setPlaceholderText(tr("Your name"));
    auto* authorLabel = new QLabel(tr("&Name:"), this);
    authorLabel->setBuddy(m_author);
    form->addRow(authorLabel, m_author);
    layout->addLayout(form);
    auto* textLabel = new QLabel(tr("&Note:"), this);
    layout->addWidget(textLabel);
    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(QStringLiteral("noteText"));
    m_text->setPlaceholderText(tr("What a reviewer should know: a caveat, a check you made, a question…"));
    m_text->setTabChangesFocus(true);
    m_text->setMinimumSize(460, 140);
    textLabel->setBuddy(m_text);
    layout->addWidget(m_text, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Add Note"));
    connect(buttons, &QDialogButtonBox::accepted, this, &NoteDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &NoteDialog::reject);
    layout->addWidget(buttons);
    connect(m_text, &QPlainTextEdit::textChanged, this, &NoteDialog::updateOk);
    connect(m_author, &QLineEdit::textChanged, this, &NoteDialog::updateOk);
    updateOk();
    m_text->setFocus();
}

void NoteDialog::setNote(const Note& note) {
    setWindowTitle(tr("Edit Note"));
    m_ok->setText(tr("Save Note"));
    m_text->setPlainText(toQString(note.text));
    const QString task = toQString(note.task);
    if (!task.isEmpty() && m_task->findData(task) < 0) m_task->addItem(visibleText(task), task);
    m_task->setCurrentIndex(std::max(0, m_task->findData(task)));
    if (!note.author.empty()) m_author->setText(toQString(note.author));
}

QString NoteDialog::text() const {
    return m_text->toPlainText().trimmed();
}
QString NoteDialog::task() const {
    return m_task->currentData().toString();
}
QString NoteDialog::author() const {
    return m_author->text().trimmed();
}

void NoteDialog::updateOk() {
    m_ok->setEnabled(!text().isEmpty() && !author().isEmpty());
}

void NoteDialog::accept() {
    if (text().isEmpty() || author().isEmpty()) return;
    rememberReviewerName(author());
    QDialog::accept();
}

// ---- RecordDecisionDialog

namespace {

constexpr ReviewOutcome kOutcomes[] = {ReviewOutcome::ApprovedGo, ReviewOutcome::ApprovedMonitor,
                                       ReviewOutcome::Rejected};

QString outcomeHelp(ReviewOutcome o) {
    switch (o) {
        case ReviewOutcome::ApprovedGo:
            return RecordDecisionDialog::tr("Enable FP8 in production.");
        case ReviewOutcome::ApprovedMonitor:
            return RecordDecisionDialog::tr("Enable FP8 with LLM-as-judge quality alerting on.");
        case ReviewOutcome::Rejected:
            return RecordDecisionDialog::tr("Keep BF16; FP8 is not enabled.");
    }
    return {};
}

}  // namespace

RecordDecisionDialog::RecordDecisionDialog(std::optional<Verdict> current, const ReviewDecision* previous,
                                           QWidget* parent)
    : QDialog(parent), m_current(current) {
    setObjectName(QStringLiteral("recordDecisionDialog"));
    setWindowTitle(previous ? tr("Revise Decision") : tr("Record Decision"));
    auto* layout = new QVBoxLayout(this);
    auto* evidence = new QLabel(this);
    evidence->setObjectName(QStringLiteral("decisionEvidence"));
    evidence->setWordWrap(true);
    evidence->setText(
        current ? tr("The evidence says <b>%1</b>: %2")
                      .arg(toQString(verdictTitle(*current)), style::escaped(std::string(verdictAdvice(*current))))
                : tr("The evidence gives no verdict yet."));
    layout->addWidget(evidence);
    if (previous) {
        auto* inForce = style::caption(tr("In force now: %1\nRecording a new decision keeps this one on record.")
                                           .arg(toQString(reviewSummary(*previous))),
                                       this);
        inForce->setTextFormat(Qt::PlainText);
        layout->addWidget(inForce);
    }

    // Which variant (several candidates only: setEvidence shows it).
    auto* variantRow = new QFormLayout;
    m_variant = new QComboBox(this);
    m_variant->setObjectName(QStringLiteral("decisionVariant"));
    m_variant->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_variant->setMinimumContentsLength(30);
    m_variantLabel = new QLabel(tr("&Variant:"), this);
    m_variantLabel->setBuddy(m_variant);
    variantRow->addRow(m_variantLabel, m_variant);
    layout->addLayout(variantRow);
    m_variantHelp = style::caption(tr("The decision approves or rejects one variant: the layers enabled in "
                                      "production."),
                                   this);
    layout->addWidget(m_variantHelp);
    for (QWidget* w : {static_cast<QWidget*>(m_variantLabel), static_cast<QWidget*>(m_variant),
                       static_cast<QWidget*>(m_variantHelp)})
        w->hide();
    if (previous) m_previousVariant = previous->variant;

    m_outcomes = new QButtonGroup(this);
    auto* choices = new QVBoxLayout;
    for (ReviewOutcome o : kOutcomes) {
        auto* button = new QRadioButton(toQString(reviewOutcomeTitle(o)), this);
        button->setToolTip(outcomeHelp(o));
        button->setAccessibleDescription(outcomeHelp(o));
        m_outcomes->addButton(button, static_cast<int>(o));
        choices->addWidget(button);
        auto* help = style::caption(outcomeHelp(o), this);
        help->setContentsMargins(24, 0, 0, 4);
        choices->addWidget(help);
    }
    layout->addLayout(choices);
    // The outcome the evidence suggests, unless a decision is being revised.
    std::optional<ReviewOutcome> preset;
    if (previous) {
        preset = previous->outcome;
    } else if (current == Verdict::Go) {
        preset = ReviewOutcome::ApprovedGo;
    } else if (current == Verdict::Monitor) {
        preset = ReviewOutcome::ApprovedMonitor;
    } else if (current == Verdict::Investigate) {
        preset = ReviewOutcome::Rejected;
    }
    if (preset) m_outcomes->button(static_cast<int>(*preset))->setChecked(true);

    m_warning = plainLabel(QString(), this);  // quotes the evidence's reasons
    m_warning->setObjectName(QStringLiteral("decisionWarning"));
    m_warning->setWordWrap(true);
    style::setTextTone(m_warning, style::TextTone::Error, true);
    layout->addWidget(m_warning);

    auto* form = new QFormLayout;
    m_name = new QLineEdit(reviewerName(), this);
    m_name->setPlaceholderText(tr("Who decides"));
    auto* nameLabel = new QLabel(tr("&Decided by:"), this);
    nameLabel->setBuddy(m_name);
    form->addRow(nameLabel, m_name);
    layout->addLayout(form);
    auto* reasonLabel = new QLabel(tr("&Why:"), this);
    layout->addWidget(reasonLabel);
    m_reason = new QPlainTextEdit(this);
    m_reason->setObjectName(QStringLiteral("decisionReason"));
    m_reason->setPlaceholderText(tr("The reason, for whoever reads this comparison later"));
    m_reason->setTabChangesFocus(true);
    m_reason->setMinimumSize(460, 110);
    reasonLabel->setBuddy(m_reason);
    layout->addWidget(m_reason, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Record Decision"));
    connect(buttons, &QDialogButtonBox::accepted, this, &RecordDecisionDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &RecordDecisionDialog::reject);
    layout->addWidget(buttons);

    connect(m_outcomes, &QButtonGroup::idToggled, this, [this](int, bool) { updateState(); });
    connect(m_variant, &QComboBox::currentIndexChanged, this, &RecordDecisionDialog::updateState);
    connect(m_name, &QLineEdit::textChanged, this, &RecordDecisionDialog::updateState);
    connect(m_reason, &QPlainTextEdit::textChanged, this, [this] {
        updateState();
        emit reasonEdited(m_reason->toPlainText());
    });
    updateState();
    m_reason->setFocus();
}

void RecordDecisionDialog::setEvidence(const Decision& now) {
    m_now = now;
    m_current = now.verdict;
    const QSignalBlocker block(m_variant);
    m_variant->clear();
    const bool several = now.variants && now.variants->variants.size() > 1;
    for (QWidget* w : {static_cast<QWidget*>(m_variantLabel), static_cast<QWidget*>(m_variant),
                       static_cast<QWidget*>(m_variantHelp)})
        w->setVisible(several);
    if (several) {
        const auto deciding = reviewDecidingVariant(now);
        const bool recommended = now.variants->recommendation.label.has_value();
        for (const VariantResult& v : now.variants->variants) {
            // The label, its layers where the label does not say them, its own verdict, and the deciding mark.
            QString text = toQString(v.label);
            if (const std::string layers = layersLabel(v.config); layers != v.label)
                text += QStringLiteral(" (%1)").arg(toQString(layers));
            text += QStringLiteral(" — %1").arg(toQString(verdictTitle(v.verdict)));
            if (deciding && *deciding == v.label)
                text += recommended ? tr(" — ★ recommended") : tr(" — ★ least severe, decides");
            m_variant->addItem(visibleText(text), toQString(v.label));
            m_variant->setItemData(m_variant->count() - 1, text, Qt::ToolTipRole);
        }
        const std::optional<std::string> preset = m_previousVariant ? m_previousVariant : deciding;
        const int at = preset ? m_variant->findData(toQString(*preset)) : -1;
        m_variant->setCurrentIndex(at >= 0 ? at : 0);
    }
    updateState();
}

QString RecordDecisionDialog::variant() const {
    return m_variant->isVisibleTo(this) ? m_variant->currentData().toString() : QString();
}

void RecordDecisionDialog::setVariant(const QString& label) {
    if (const int at = m_variant->findData(label); at >= 0) m_variant->setCurrentIndex(at);
}

QRadioButton* RecordDecisionDialog::outcomeButton(ReviewOutcome outcome) const {
    return qobject_cast<QRadioButton*>(m_outcomes->button(static_cast<int>(outcome)));
}

void RecordDecisionDialog::setOutcome(ReviewOutcome outcome) {
    outcomeButton(outcome)->setChecked(true);
}

std::optional<ReviewOutcome> RecordDecisionDialog::outcome() const {
    const int id = m_outcomes->checkedId();
    if (id < 0) return std::nullopt;
    return static_cast<ReviewOutcome>(id);
}

ReviewDecision RecordDecisionDialog::decision() const {
    ReviewDecision d;
    d.outcome = outcome().value_or(ReviewOutcome::Rejected);
    d.by = m_name->text().trimmed().toStdString();
    d.at = nowIso8601Utc();
    d.why = m_reason->toPlainText().trimmed().toStdString();
    d.verdictAtDecision = m_current;
    d.toolVersion = FP8DASH_VERSION;
    if (const QString v = variant(); !v.isEmpty()) d.variant = v.toStdString();
    return d;
}

QString RecordDecisionDialog::warningText() const {
    return m_warning->text();
}

void RecordDecisionDialog::updateState() {
    const auto o = outcome();
    QString warning;
    if (o) {
        // An override, or (several candidates) another variant than the deciding one: each said, then "say why".
        const ReviewAssessment a = m_now ? assessReview(decision(), *m_now) : assessReview(decision(), m_current);
        QStringList lines;
        for (const auto& w : a.warnings) lines << tr("⚠ %1").arg(toQString(w));
        if (!lines.isEmpty()) warning = lines.join(QLatin1Char('\n')) + tr(" Say why below.");
    }
    m_warning->setText(warning);
    m_warning->setVisible(!warning.isEmpty());
    m_ok->setEnabled(o && decision().validate().ok());
}

void RecordDecisionDialog::accept() {
    if (!outcome() || !decision().validate().ok()) return;
    rememberReviewerName(m_name->text());
    QDialog::accept();
}

}  // namespace fp8dash::ui
