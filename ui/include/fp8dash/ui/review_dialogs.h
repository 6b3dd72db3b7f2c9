#pragma once
// The reviewer's dialogs: NoteDialog writes or edits a note (about the whole comparison or one task), and
// RecordDecisionDialog records the decision (approved go / approved monitor with quality alerting / rejected, by
// whom, why, and with several candidates for which variant; the time is taken when it is recorded). Both keep the
// reviewer's name in QSettings ("review/name", first filled from the account's full name), never anything else. They
// only return values: the main window puts them into the document. GUI thread only; owned by their parent.

#include <QDialog>
#include <QString>
#include <QStringList>

#include <optional>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/review.h"

class QButtonGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;

namespace fp8dash::ui {

// The name notes and decisions are signed with: the one last used, else the account's full name (GECOS), else the
// login name. rememberReviewerName keeps a typed one for next time.
QString reviewerName();
void rememberReviewerName(const QString& name);

class NoteDialog : public QDialog {
    Q_OBJECT
public:
    // tasks: the comparison's task names, offered under "About"; task: the one preselected ("" = the whole
    // comparison). A task not in the list (a note of an older file) is kept and offered too.
    NoteDialog(const QStringList& tasks, const QString& task, QWidget* parent = nullptr);

    // Editing an existing note: its text and task are filled in, the author is kept as it was.
    void setNote(const Note& note);

    QString text() const;  // trimmed
    QString task() const;  // "" = the whole comparison
    QString author() const;
    QPlainTextEdit* textEdit() const { return m_text; }
    QComboBox* taskCombo() const { return m_task; }
    QLineEdit* authorEdit() const { return m_author; }
    QPushButton* okButton() const { return m_ok; }

    void accept() override;  // remembers the author's name

private:
    void updateOk();

    QPlainTextEdit* m_text = nullptr;
    QComboBox* m_task = nullptr;
    QLineEdit* m_author = nullptr;
    QPushButton* m_ok = nullptr;
};

class RecordDecisionDialog : public QDialog {
    Q_OBJECT
public:
    // current: the overall verdict the evidence gives now (recorded with the decision, and the outcome it suggests);
    // previous: the decision in force, whose outcome is preselected when revising.
    RecordDecisionDialog(std::optional<Verdict> current, const ReviewDecision* previous, QWidget* parent = nullptr);
    // Several candidates (now.variants): a "Variant" choice (each with its layers and its own verdict, the deciding one
    // marked and preselected; when revising, the previous decision's variant), recorded with the decision; the
    // warnings then also say when the approved variant is not the deciding one (assessReview). One candidate: none.
    void setEvidence(const Decision& now);
    QComboBox* variantCombo() const { return m_variant; }  // hidden without several candidates
    QString variant() const;                               // the chosen variant's label, "" without a choice
    void setVariant(const QString& label);

    void setOutcome(ReviewOutcome outcome);
    std::optional<ReviewOutcome> outcome() const;
    // The decision as it would be recorded now: time = now (UTC), the verdict and this build's version filled in.
    ReviewDecision decision() const;
    QString warningText() const;  // the override warning shown for the chosen outcome, empty when none

    QRadioButton* outcomeButton(ReviewOutcome outcome) const;
    QLineEdit* nameEdit() const { return m_name; }
    QPlainTextEdit* reasonEdit() const { return m_reason; }
    QPushButton* okButton() const { return m_ok; }

    void accept() override;

signals:
    void reasonEdited(const QString& text);  // the draft, for crash recovery

private:
    void updateState();

    std::optional<Verdict> m_current;
    std::optional<Decision> m_now;
    std::optional<std::string> m_previousVariant;
    QLabel* m_variantLabel = nullptr;
    QComboBox* m_variant = nullptr;
    QLabel* m_variantHelp = nullptr;
    QButtonGroup* m_outcomes = nullptr;
    QLineEdit* m_name = nullptr;
    QPlainTextEdit* m_reason = nullptr;
    QLabel* m_warning = nullptr;
    QPushButton* m_ok = nullptr;
};

}  // namespace fp8dash::ui
