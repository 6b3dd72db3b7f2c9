#pragma once
// ChangedAnswersDialog: the answers a candidate changed on one paired task, document by document (README "The answers
// FP8 changed"; PairedTaskResult::examples). The counts sentence on top; the kept documents as a list (doc_id, lost or
// gained, a group's subtask, the question's first line), filtered by kind (all / lost / gained) and by a text found in
// the question, target, answers or responses; for the selected document the question and the target, then the two
// runs' answers and responses side by side under the runs' labels and metric values, the words only one side has
// highlighted (wordDiff, word_diff.h). Up/Down or J/K walk the list, Copy (Ctrl+C) puts the document on the clipboard
// as plain text, Esc closes. Non-modal; holds its own copy of the documents (each text bounded again:
// boundedAnswerText), so the table may change under it. The texts are model output and data-set text: every one is
// shown through visibleText / style::escaped (untrusted_ui.h). GUI thread only; owns its children through Qt
// parenting.

#include <QDialog>
#include <QKeySequence>

#include <vector>

#include "fp8dash/core/paired_task_result.h"

class QAbstractItemView;
class QButtonGroup;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTextBrowser;
class QTreeView;

namespace fp8dash::ui {

// Why a paired task's documents cannot be shown, one sentence; "" when they can (the result holds examples). nullptr:
// the task's logs were not paired.
QString changedAnswersUnavailable(const PairedTaskResult* paired);
// The key of Changed Answers… in the task table (Ctrl+Shift+A).
QKeySequence changedAnswersShortcut();

class ChangedAnswersDialog : public QDialog {
    Q_OBJECT
public:
    enum class Kinds { All, Lost, Gained };
    enum Side { Baseline = 0, Candidate = 1 };

    // `task`: the row's name as the file has it; the labels name the two runs.
    ChangedAnswersDialog(const PairedTaskResult& paired, const QString& task, const QString& baselineLabel,
                         const QString& candidateLabel, QWidget* parent = nullptr);

    QString task() const { return m_task; }
    void setKinds(Kinds kinds);
    Kinds kinds() const { return m_kinds; }

    QTreeView* listView() const { return m_list; }
    QSortFilterProxyModel* listModel() const { return m_proxy; }  // the rows shown, filtered
    QLineEdit* filterEdit() const { return m_filter; }
    QLabel* countsLabel() const { return m_counts; }
    QPlainTextEdit* questionView() const { return m_question; }
    QLabel* targetLabel() const { return m_target; }
    QLabel* sideTitle(Side side) const { return m_sideTitle[side]; }
    QTextBrowser* answerView(Side side) const { return m_answer[side]; }
    QTextBrowser* responseView(Side side) const { return m_response[side]; }
    QPushButton* copyButton() const { return m_copy; }

    // The document selected (nullptr when the list shows none) and its text as Copy puts it on the clipboard:
    // task, doc_id, kind and subtask, the question, the target, then each run's label, metric value, answer and
    // response; controls and bidi overrides as visible escapes (visibleText), so that a paste into a terminal acts on
    // none. "" without a selection.
    const ChangedAnswerExample* currentExample() const;
    QString copyText() const;
    void copyToClipboard() const;

    // The background of the highlighted words in the palette now shown (light or dark).
    static QColor highlightColor();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showCurrent();
    void moveCurrent(int step);
    QString sideTitleText(Side side, const ChangedAnswerExample& e) const;

    QString m_task;
    QString m_labels[2];
    QString m_metric;
    std::vector<ChangedAnswerExample> m_examples;
    Kinds m_kinds = Kinds::All;

    QLabel* m_counts = nullptr;
    QButtonGroup* m_kindButtons = nullptr;
    QLineEdit* m_filter = nullptr;
    QTreeView* m_list = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QPlainTextEdit* m_question = nullptr;
    QLabel* m_target = nullptr;
    QLabel* m_sideTitle[2] = {nullptr, nullptr};
    QTextBrowser* m_answer[2] = {nullptr, nullptr};
    QTextBrowser* m_response[2] = {nullptr, nullptr};
    QPushButton* m_copy = nullptr;
};

}  // namespace fp8dash::ui
