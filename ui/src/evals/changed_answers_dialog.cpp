#include "fp8dash/ui/changed_answers_dialog.h"

#include <QAbstractTableModel>
#include <QApplication>
#include <QButtonGroup>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTextBrowser>
#include <QTextCursor>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include "fp8dash/core/changed_answers.h"
#include "fp8dash/core/number_format.h"
#include "fp8dash/core/paired_tasks.h"
#include "fp8dash/core/statistics.h"
#include "fp8dash/core/word_diff.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/screen_fit.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

QString changedAnswersUnavailable(const PairedTaskResult* paired) {
    if (!paired) return ChangedAnswersDialog::tr("This task's sample logs were not paired: no document to show.");
    if (!paired->examples.empty()) return {};
    if (paired->changed && paired->changed->n() > 0 && paired->changed->lost + paired->changed->gained == 0)
        return ChangedAnswersDialog::tr("No answer changed.");
    if (!paired->examplesLimit)
        return ChangedAnswersDialog::tr(
            "This comparison was saved before fp8dash kept the documents: compare again with the sample logs.");
    if (*paired->examplesLimit == 0)
        return ChangedAnswersDialog::tr(
            "This comparison keeps only the counts (it was made with 0 answer examples per task).");
    return ChangedAnswersDialog::tr("No changed document was kept for this task.");
}

QKeySequence changedAnswersShortcut() {
    return QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A);
}

namespace {

enum ExampleRole { IndexRole = Qt::UserRole + 1, LostRole, SearchRole };

QString fromUtf8(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// The question's first line that holds anything, as a list cell shows it (its controls shown).
QString firstLine(const std::string& text) {
    const QStringList lines = fromUtf8(text).split(QLatin1Char('\n'));
    for (const QString& line : lines) {
        const QString t = line.trimmed();
        if (!t.isEmpty()) return visibleText(t.left(240));
    }
    return {};
}

// The documents as rows: Doc, Kind, Subtask (a group's), Question (its first line). Display text through visibleText;
// SearchRole holds every text of the document, folded to lower case, for the text filter.
class ExampleListModel : public QAbstractTableModel {
public:
    enum Column { DocColumn, KindColumn, SubtaskColumn, QuestionColumn, ColumnCount };

    ExampleListModel(const std::vector<ChangedAnswerExample>& examples, QObject* parent)
        : QAbstractTableModel(parent), m_examples(examples) {
        m_search.reserve(examples.size());
        for (const ChangedAnswerExample& e : examples) {
            QString all;
            for (const std::string* s : {&e.subtask, &e.question, &e.target, &e.baseline.answer, &e.baseline.response,
                                         &e.candidate.answer, &e.candidate.response})
                all += fromUtf8(*s) + QLatin1Char('\n');
            m_search.push_back(all.toCaseFolded());
        }
    }

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : static_cast<int>(m_examples.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }

    QVariant data(const QModelIndex& index, int role) const override {
        if (!index.isValid() || index.row() >= rowCount()) return {};
        const ChangedAnswerExample& e = m_examples[static_cast<std::size_t>(index.row())];
        switch (role) {
            case Qt::DisplayRole:
                switch (index.column()) {
                    case DocColumn:
                        return QString::number(e.docId);
                    case KindColumn:
                        return e.lost ? ChangedAnswersDialog::tr("lost") : ChangedAnswersDialog::tr("gained");
                    case SubtaskColumn:
                        return visibleText(fromUtf8(e.subtask));
                    case QuestionColumn:
                        return firstLine(e.question);
                    default:
                        return {};
                }
            case Qt::ToolTipRole:
                if (index.column() == QuestionColumn) return escapedTip(excerpt(fromUtf8(e.question).left(600)));
                return {};
            case Qt::ForegroundRole:
                if (index.column() == KindColumn)
                    return QBrush(e.lost ? style::errorTextColor() : style::successTextColor());
                return {};
            case IndexRole:
                return index.row();
            case LostRole:
                return e.lost;
            case SearchRole:
                return m_search[static_cast<std::size_t>(index.row())];
            default:
                return {};
        }
    }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override {
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
        switch (section) {
            case DocColumn:
                return ChangedAnswersDialog::tr("Doc");
            case KindColumn:
                return ChangedAnswersDialog::tr("Kind");
            case SubtaskColumn:
                return ChangedAnswersDialog::tr("Subtask");
            case QuestionColumn:
                return ChangedAnswersDialog::tr("Question");
            default:
                return {};
        }
    }

private:
    const std::vector<ChangedAnswerExample>& m_examples;
    std::vector<QString> m_search;
};

// Lost, gained or both, and the text filter (case-insensitive, anywhere in the document's texts).
class ExampleFilter : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setKinds(ChangedAnswersDialog::Kinds kinds) {
        m_kinds = kinds;
        invalidateFilter();
    }
    void setText(const QString& text) {
        m_text = text.trimmed().toCaseFolded();
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
        const QModelIndex i = sourceModel()->index(row, 0, parent);
        const bool lost = i.data(LostRole).toBool();
        if (m_kinds == ChangedAnswersDialog::Kinds::Lost && !lost) return false;
        if (m_kinds == ChangedAnswersDialog::Kinds::Gained && lost) return false;
        return m_text.isEmpty() || i.data(SearchRole).toString().contains(m_text);
    }
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override {
        if (left.column() == ExampleListModel::DocColumn)
            return left.data().toString().toLongLong() < right.data().toString().toLongLong();
        return QSortFilterProxyModel::lessThan(left, right);
    }

private:
    ChangedAnswersDialog::Kinds m_kinds = ChangedAnswersDialog::Kinds::All;
    QString m_text;
};

QTextBrowser* textPane(const QString& name, const QString& accessible, QWidget* parent) {
    auto* pane = new QTextBrowser(parent);
    pane->setObjectName(name);
    pane->setAccessibleName(accessible);
    pane->setOpenLinks(false);
    pane->setOpenExternalLinks(false);
    pane->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);  // a 4 KB word wraps too
    return pane;
}

// One side's text with its own words highlighted: plain text pieces (their controls shown) with a character format,
// no markup, so nothing of the text is read as HTML.
void showPieces(QTextBrowser* pane, const std::vector<DiffPiece>& pieces) {
    pane->clear();
    QTextCursor cursor(pane->document());
    cursor.beginEditBlock();
    QTextCharFormat plain;
    QTextCharFormat marked;
    marked.setBackground(ChangedAnswersDialog::highlightColor());
    marked.setForeground(style::darkPalette() ? QColor(Qt::white) : QColor(Qt::black));
    for (const DiffPiece& p : pieces) cursor.insertText(visibleText(fromUtf8(p.text)), p.changed ? marked : plain);
    cursor.endEditBlock();
    pane->moveCursor(QTextCursor::Start);
}

}  // namespace

QColor ChangedAnswersDialog::highlightColor() {
    // Amber, not red or green: a word only one side has is neither right nor wrong by itself.
    return style::darkPalette() ? QColor(0x7a, 0x5c, 0x00) : QColor(0xff, 0xdf, 0x80);
}

ChangedAnswersDialog::ChangedAnswersDialog(const PairedTaskResult& paired, const QString& task,
                                           const QString& baselineLabel, const QString& candidateLabel, QWidget* parent)
    : QDialog(parent), m_task(task), m_labels{baselineLabel, candidateLabel} {
    setObjectName(QStringLiteral("changedAnswersDialog"));
    setWindowTitle(tr("Changed Answers — %1").arg(visibleText(task)));
    setModal(false);
    m_metric = fromUtf8(paired.metric);
    if (!paired.filter.empty() && paired.filter != "none")
        m_metric += QStringLiteral(" (%1)").arg(fromUtf8(paired.filter));
    // Each text bounded again: a document made in memory (not read from a file) cannot make the view hold 1 MB.
    m_examples = paired.examples;
    for (ChangedAnswerExample& e : m_examples)
        for (std::string* s : {&e.subtask, &e.question, &e.target, &e.baseline.answer, &e.baseline.response,
                               &e.candidate.answer, &e.candidate.response})
            *s = boundedAnswerText(*s);
    bool anySubtask = false;
    std::size_t lost = 0;
    for (const ChangedAnswerExample& e : m_examples) {
        anySubtask |= !e.subtask.empty();
        lost += e.lost ? 1 : 0;
    }

    auto* layout = new QVBoxLayout(this);
    layout->setSpacing(8);
    m_counts = plainLabel(QString(), this);
    m_counts->setObjectName(QStringLiteral("changedAnswersCounts"));
    m_counts->setWordWrap(true);
    QFont bold = m_counts->font();
    bold.setWeight(QFont::DemiBold);
    m_counts->setFont(bold);
    setPlainText(m_counts, paired.changed
                               ? fromUtf8(changedAnswersSentence(*paired.changed, candidateLabel.toStdString())) + "."
                               : tr("%1 changed %2 answers.").arg(candidateLabel).arg(m_examples.size()));
    layout->addWidget(m_counts);
    QString kept = tr("%1 changed documents kept (lost first)").arg(m_examples.size());
    // (A hand-edited file may list more than it counts: then the count of the list alone.)
    if (paired.changed && m_examples.size() <= paired.changed->lost + paired.changed->gained)
        kept = tr("%1 of the %2 changed documents kept (lost first)")
                   .arg(m_examples.size())
                   .arg(toQString(groupedCount(paired.changed->lost + paired.changed->gained)));
    if (paired.examplesLimit) kept += tr("; at most %1 answer examples per task").arg(*paired.examplesLimit);
    auto* keptLabel = style::caption(kept + QStringLiteral("."), this);
    keptLabel->setObjectName(QStringLiteral("changedAnswersKept"));
    layout->addWidget(keptLabel);

    // The filters: the kind, then the text.
    auto* filters = new QHBoxLayout;
    m_kindButtons = new QButtonGroup(this);
    m_kindButtons->setExclusive(true);
    const std::pair<Kinds, QString> kinds[] = {
        {Kinds::All, tr("&All (%1)").arg(m_examples.size())},
        {Kinds::Lost, tr("&Lost (%1)").arg(lost)},
        {Kinds::Gained, tr("&Gained (%1)").arg(m_examples.size() - lost)},
    };
    for (const auto& [kind, text] : kinds) {
        auto* button = new QToolButton(this);
        button->setText(text);
        button->setCheckable(true);
        button->setChecked(kind == Kinds::All);
        button->setAutoRaise(false);
        button->setObjectName(kind == Kinds::All    ? QStringLiteral("showAll")
                              : kind == Kinds::Lost ? QStringLiteral("showLost")
                                                    : QStringLiteral("showGained"));
        m_kindButtons->addButton(button, static_cast<int>(kind));
        filters->addWidget(button);
    }
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("changedAnswersFilter"));
    m_filter->setPlaceholderText(tr("Filter: question, target, answers, responses…"));
    m_filter->setAccessibleName(tr("Filter the changed answers"));
    m_filter->setClearButtonEnabled(true);
    filters->addSpacing(12);
    filters->addWidget(m_filter, 1);
    layout->addLayout(filters);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    auto* model = new ExampleListModel(m_examples, this);
    m_proxy = new ExampleFilter(this);
    m_proxy->setSourceModel(model);
    m_list = new QTreeView(split);
    m_list->setObjectName(QStringLiteral("changedAnswersList"));
    m_list->setAccessibleName(tr("Changed documents"));
    m_list->setModel(m_proxy);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_list->setAllColumnsShowFocus(true);
    m_list->header()->setStretchLastSection(true);
    m_list->header()->setSortIndicatorClearable(true);
    m_list->header()->setSortIndicator(-1, Qt::AscendingOrder);
    m_list->setSortingEnabled(true);
    m_list->setColumnHidden(ExampleListModel::SubtaskColumn, !anySubtask);
    for (int c : {ExampleListModel::DocColumn, ExampleListModel::KindColumn, ExampleListModel::SubtaskColumn})
        m_list->resizeColumnToContents(c);
    m_list->installEventFilter(this);
    split->addWidget(m_list);

    // The document: question and target, then the two sides.
    auto* detail = new QWidget(split);
    auto* detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    auto* questionTitle = new QLabel(tr("Question"), detail);
    questionTitle->setFont(bold);
    detailLayout->addWidget(questionTitle);
    m_question = new QPlainTextEdit(detail);
    m_question->setObjectName(QStringLiteral("changedAnswerQuestion"));
    m_question->setAccessibleName(tr("Question"));
    m_question->setReadOnly(true);
    m_question->setMaximumHeight(m_question->fontMetrics().lineSpacing() * 5 + 12);
    detailLayout->addWidget(m_question);
    m_target = plainLabel(QString(), detail);
    m_target->setObjectName(QStringLiteral("changedAnswerTarget"));
    m_target->setWordWrap(true);
    m_target->setTextInteractionFlags(Qt::TextSelectableByMouse);
    detailLayout->addWidget(m_target);
    auto* sides = new QSplitter(Qt::Horizontal, detail);
    sides->setChildrenCollapsible(false);
    for (Side side : {Baseline, Candidate}) {
        auto* column = new QWidget(sides);
        auto* columnLayout = new QVBoxLayout(column);
        columnLayout->setContentsMargins(0, 0, 0, 0);
        m_sideTitle[side] = plainLabel(QString(), column);
        m_sideTitle[side]->setObjectName(side == Baseline ? QStringLiteral("baselineTitle")
                                                          : QStringLiteral("candidateTitle"));
        m_sideTitle[side]->setFont(bold);
        columnLayout->addWidget(m_sideTitle[side]);
        const QString who = side == Baseline ? tr("baseline") : tr("candidate");
        columnLayout->addWidget(style::caption(tr("Answer (filtered)"), column));
        m_answer[side] =
            textPane(side == Baseline ? QStringLiteral("baselineAnswer") : QStringLiteral("candidateAnswer"),
                     tr("The %1's answer").arg(who), column);
        m_answer[side]->setMaximumHeight(m_answer[side]->fontMetrics().lineSpacing() * 3 + 12);
        columnLayout->addWidget(m_answer[side]);
        columnLayout->addWidget(style::caption(tr("Response"), column));
        m_response[side] =
            textPane(side == Baseline ? QStringLiteral("baselineResponse") : QStringLiteral("candidateResponse"),
                     tr("The %1's response").arg(who), column);
        columnLayout->addWidget(m_response[side], 1);
        sides->addWidget(column);
    }
    detailLayout->addWidget(sides, 1);
    split->addWidget(detail);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 5);
    split->setSizes({240, 460});  // about ten documents listed
    layout->addWidget(split, 1);

    auto* buttons = new QDialogButtonBox(this);
    m_copy = buttons->addButton(tr("&Copy"), QDialogButtonBox::ActionRole);
    m_copy->setObjectName(QStringLiteral("copyChangedAnswer"));
    m_copy->setToolTip(tr("Copy the selected document as plain text (%1)")
                           .arg(QKeySequence(QKeySequence::Copy).toString(QKeySequence::NativeText)));
    m_copy->setAutoDefault(false);
    QPushButton* close = buttons->addButton(QDialogButtonBox::Close);
    close->setAutoDefault(false);
    layout->addWidget(buttons);
    connect(m_copy, &QPushButton::clicked, this, &ChangedAnswersDialog::copyToClipboard);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    connect(m_kindButtons, &QButtonGroup::idClicked, this, [this](int id) { setKinds(static_cast<Kinds>(id)); });
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        static_cast<ExampleFilter*>(m_proxy)->setText(text);
        moveCurrent(0);
    });
    connect(m_list->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] { showCurrent(); });
    style::onThemeChange(this, [this] { showCurrent(); });

    // 1100 × 760 where the screen has room; on a laptop no larger than its available geometry (screen_fit.h).
    resize(dialogSizeFor(QSize(1100, 760), availableGeometryFor(this)));
    moveCurrent(0);
    m_list->setFocus(Qt::OtherFocusReason);
}

void ChangedAnswersDialog::setKinds(Kinds kinds) {
    m_kinds = kinds;
    if (QAbstractButton* b = m_kindButtons->button(static_cast<int>(kinds)); b && !b->isChecked()) b->setChecked(true);
    static_cast<ExampleFilter*>(m_proxy)->setKinds(kinds);
    moveCurrent(0);
}

// step 0: keep the current row when it is still shown, else the first; +-1: the next or previous row.
void ChangedAnswersDialog::moveCurrent(int step) {
    const int rows = m_proxy->rowCount();
    if (rows == 0) {
        m_list->selectionModel()->clear();
        showCurrent();
        return;
    }
    const QModelIndex now = m_list->currentIndex();
    int row = now.isValid() ? now.row() + step : 0;
    row = std::clamp(row, 0, rows - 1);
    const QModelIndex to = m_proxy->index(row, 0);
    m_list->selectionModel()->setCurrentIndex(to, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_list->scrollTo(to);
    showCurrent();
}

bool ChangedAnswersDialog::eventFilter(QObject* watched, QEvent* event) {
    // The main window's Edit › Copy also answers Ctrl+C: the list claims the key first, so it copies this document.
    if (watched == m_list && event->type() == QEvent::ShortcutOverride &&
        static_cast<QKeyEvent*>(event)->matches(QKeySequence::Copy)) {
        event->accept();
        return true;
    }
    if (watched == m_list && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        // Ctrl+C in the list copies the whole document (the view alone would copy the cell); a text pane with a
        // selection copies that.
        if (key->matches(QKeySequence::Copy)) {
            copyToClipboard();
            return true;
        }
        if (key->modifiers() == Qt::NoModifier && (key->key() == Qt::Key_J || key->key() == Qt::Key_K)) {
            moveCurrent(key->key() == Qt::Key_J ? 1 : -1);
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

const ChangedAnswerExample* ChangedAnswersDialog::currentExample() const {
    const QModelIndex current = m_list->currentIndex();
    if (!current.isValid()) return nullptr;
    const int at = current.data(IndexRole).toInt();
    return at >= 0 && at < static_cast<int>(m_examples.size()) ? &m_examples[static_cast<std::size_t>(at)] : nullptr;
}

QString ChangedAnswersDialog::sideTitleText(Side side, const ChangedAnswerExample& e) const {
    const AnswerSide& s = side == Baseline ? e.baseline : e.candidate;
    return QStringLiteral("%1 · %2 %3").arg(m_labels[side], m_metric, fromUtf8(numfmt::general(s.value, 6)));
}

void ChangedAnswersDialog::showCurrent() {
    const ChangedAnswerExample* e = currentExample();
    m_copy->setEnabled(e != nullptr);
    if (!e) {
        m_question->setPlainText(m_proxy->rowCount() == 0 && !m_examples.empty() ? tr("No document matches the filter.")
                                                                                 : QString());
        setPlainText(m_target, QString());
        m_target->setToolTip(QString());
        for (Side side : {Baseline, Candidate}) {
            setPlainText(m_sideTitle[side], m_labels[side]);
            m_answer[side]->clear();
            m_response[side]->clear();
        }
        return;
    }
    m_question->setPlainText(visibleText(fromUtf8(e->question)));
    // A target can be a worked solution: its first 300 characters here (the tooltip and Copy have it whole), so a long
    // one cannot push the two sides out of the window.
    const QString target = fromUtf8(e->target);
    setPlainText(m_target, tr("Target: %1").arg(target.size() > 300 ? target.left(300) + QStringLiteral("…") : target));
    m_target->setToolTip(target.size() > 300 ? escapedTip(excerpt(target)) : QString());
    for (Side side : {Baseline, Candidate}) setPlainText(m_sideTitle[side], sideTitleText(side, *e));
    const WordDiff answers = wordDiff(e->baseline.answer, e->candidate.answer);
    const WordDiff responses = wordDiff(e->baseline.response, e->candidate.response);
    showPieces(m_answer[Baseline], answers.left);
    showPieces(m_answer[Candidate], answers.right);
    showPieces(m_response[Baseline], responses.left);
    showPieces(m_response[Candidate], responses.right);
}

QString ChangedAnswersDialog::copyText() const {
    const ChangedAnswerExample* e = currentExample();
    if (!e) return {};
    QString kind = e->lost ? tr("lost") : tr("gained");
    QString head = tr("%1 · doc %2 · %3").arg(m_task).arg(e->docId).arg(kind);
    if (!e->subtask.empty()) head += tr(" · subtask %1").arg(fromUtf8(e->subtask));
    QStringList out;
    out << head << QString() << tr("Question:") << fromUtf8(e->question) << QString()
        << tr("Target: %1").arg(fromUtf8(e->target));
    for (Side side : {Baseline, Candidate}) {
        const AnswerSide& s = side == Baseline ? e->baseline : e->candidate;
        out << QString() << sideTitleText(side, *e) << tr("Answer: %1").arg(fromUtf8(s.answer)) << tr("Response:")
            << fromUtf8(s.response);
    }
    return visibleText(out.join(QLatin1Char('\n')));
}

void ChangedAnswersDialog::copyToClipboard() const {
    const QString text = copyText();
    if (!text.isEmpty()) QApplication::clipboard()->setText(text);
}

}  // namespace fp8dash::ui
