#include "fp8dash/ui/task_table_model.h"

#include <QBrush>
#include <QFont>

#include <cmath>
#include <limits>

#include "fp8dash/core/lm_eval_paths.h"
#include "fp8dash/core/paired_tasks.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/ui/changed_answers_dialog.h"
#include "fp8dash/ui/guide_window.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/number_text.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

namespace {
constexpr int kHeaderToolTipRole = Qt::UserRole + 900;  // the header tooltips before escapedTip
}  // namespace

// One row: the comparison it shows, its parent node (nullptr for top level) and its row under that parent.
struct TaskTableModel::Node {
    const TaskComparison* comparison = nullptr;
    Node* parent = nullptr;
    int row = 0;
    std::vector<std::unique_ptr<Node>> children;
};

namespace {

// A broken input is seen as such: "NaN", "+∞", "−∞" (number_text.h).
QString tableFixed(double v, int decimals) {
    return fixedText(v, decimals, NonFinite::Spelled);
}

// As a reader says it ("exact match (strict)"); the results-file key is in the tooltip (core's readableMetric).
QString metricText(const TaskComparison& t) {
    return toQString(readableMetric(t));
}

// Missing numbers sort before every real one in ascending order, so they gather at one end.
QVariant numberOrLowest(std::optional<double> v) {
    return v ? QVariant(*v) : QVariant(-std::numeric_limits<double>::infinity());
}

QString stderrText(std::optional<double> se) {
    return se ? QStringLiteral("± %1").arg(tableFixed(*se, 4)) : QStringLiteral("n/a");
}

// As the reports print it: three significant digits, scientific below 0.001.
QString pValueText(double p) {
    if (!std::isfinite(p)) return QStringLiteral("—");
    return p < 0.001 ? QString::number(p, 'e', 1) : QString::number(p, 'g', 3);
}

QString confidenceText(const ConfidenceAnswer& c) {
    if (c.confidence == Confidence::Clear) return TaskTableModel::tr("settled");
    if (c.samplesNeeded) return TaskTableModel::tr("unsettled (n≈%1)").arg(toQString(groupedCount(*c.samplesNeeded)));
    // More samples than the task has, or the estimate on the edge: no count would decide it. Said in the tooltip
    // (the explanation) and the banner's sentence on how sure the verdict is; the cell stays narrow.
    return TaskTableModel::tr("unsettled");
}

// The counts of a paired task whose pairs were tested; nullptr otherwise (no logs, an older file of a non-0/1 metric).
const ChangedAnswers* changedOf(const TaskComparison& t) {
    return t.paired && t.paired->changed && t.paired->changed->n() > 0 ? &*t.paired->changed : nullptr;
}

QString pairedText(const PairedTaskResult& p) {
    if (p.test == "none") return TaskTableModel::tr("no pairs");
    return pValueText(p.pValue);
}

QString pairedToolTip(const PairedTaskResult& p, const QString& baselineLabel, const QString& candidateLabel) {
    QStringList lines;
    if (p.test == "mcnemar_exact") {
        lines
            << TaskTableModel::tr("Exact McNemar test on %1 paired samples: p = %2").arg(p.n).arg(pValueText(p.pValue));
        lines << TaskTableModel::tr("Discordant pairs: b01 = %1 (right only in %2), b10 = %3 (right only in %4)")
                     .arg(p.b01)
                     .arg(style::escaped(candidateLabel))
                     .arg(p.b10)
                     .arg(style::escaped(baselineLabel));
    } else if (p.test == "wilcoxon_signed_rank") {
        lines << TaskTableModel::tr("Wilcoxon signed-rank test on %1 paired samples: p = %2")
                     .arg(p.n)
                     .arg(pValueText(p.pValue));
    } else {
        lines << TaskTableModel::tr("No pair was left to test.");
    }
    if (!p.summary.empty()) lines << style::escaped(p.summary);
    if (p.changed && p.changed->n() > 0)
        lines << style::escaped(toQString(changedAnswersSentence(*p.changed, candidateLabel.toStdString())) + ".");
    for (const std::string& w : p.warnings) lines << QStringLiteral("⚠ ") + style::escaped(w);
    return lines.join(QStringLiteral("<br>"));
}

}  // namespace

TaskTableModel::TaskTableModel(QObject* parent) : QAbstractItemModel(parent) {
    style::onThemeChange(this, [this] { repaintColours(); });
}
TaskTableModel::~TaskTableModel() = default;

bool TaskTableModel::sameRows(const std::vector<TaskComparison>& a, const std::vector<TaskComparison>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].task != b[i].task || !sameRows(a[i].subtasks, b[i].subtasks)) return false;
    }
    return true;
}

void TaskTableModel::repoint(std::vector<std::unique_ptr<Node>>& nodes, const std::vector<TaskComparison>& tasks) {
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        nodes[i]->comparison = &tasks[i];
        repoint(nodes[i]->children, tasks[i].subtasks);
    }
}

void TaskTableModel::emitChanged(const QModelIndex& parent, const QList<int>& roles) {
    const int rows = rowCount(parent);
    if (rows == 0) return;
    emit dataChanged(index(0, 0, parent), index(rows - 1, ColumnCount - 1, parent), roles);
    for (int r = 0; r < rows; ++r) {
        const QModelIndex child = index(r, 0, parent);
        if (rowCount(child) > 0) emitChanged(child, roles);
    }
}

void TaskTableModel::setReport(const ComparisonReport& report) {
    // The same rows (a re-evaluation, a note, a refresh): the nodes stay, so do the views' persistent indexes.
    const bool inPlace = !m_roots.empty() && sameRows(m_report.tasks, report.tasks);
    if (!inPlace) beginResetModel();
    m_report = report;
    if (inPlace) {
        repoint(m_roots, m_report.tasks);
    } else {
        buildNodes();
    }
    m_hasConfidence = m_hasPaired = m_hasNoiseFloor = m_hasChanged = false;
    for (const TaskComparison& t : m_report.tasks) {
        m_hasConfidence |= t.confidence.has_value();
        m_hasChanged |= t.paired && t.paired->changed && t.paired->changed->n() > 0;
        m_hasPaired |= t.paired.has_value() || !t.pairedLeftOut.empty();
        m_hasNoiseFloor |= t.noiseFloorPct.has_value();
    }
    if (inPlace) {
        emitChanged({}, {});  // every role
    } else {
        endResetModel();
    }
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void TaskTableModel::repaintColours() {
    emitChanged({}, {Qt::BackgroundRole, Qt::ForegroundRole});
}

void TaskTableModel::clear() {
    beginResetModel();
    m_roots.clear();
    m_report = ComparisonReport{};
    m_hasConfidence = m_hasPaired = m_hasNoiseFloor = m_hasChanged = false;
    endResetModel();
}

bool TaskTableModel::columnHasData(int column) const {
    switch (column) {
        case ConfidenceColumn:
            return m_hasConfidence;
        case PairedPColumn:
            return m_hasPaired;
        case NoiseFloorColumn:
            return m_hasNoiseFloor;
        case ChangedColumn:
            return m_hasChanged;
        default:
            return column >= 0 && column < ColumnCount;
    }
}

void TaskTableModel::addNodes(std::vector<std::unique_ptr<Node>>& into, const std::vector<TaskComparison>& tasks,
                              Node* parent) {
    into.reserve(tasks.size());
    for (const TaskComparison& t : tasks) {
        auto node = std::make_unique<Node>();
        node->comparison = &t;
        node->parent = parent;
        node->row = static_cast<int>(into.size());
        addNodes(node->children, t.subtasks, node.get());
        into.push_back(std::move(node));
    }
}

void TaskTableModel::buildNodes() {
    m_roots.clear();
    // Nodes point into m_report, which is not modified until the next reset.
    addNodes(m_roots, m_report.tasks, nullptr);
}

const TaskTableModel::Node* TaskTableModel::nodeOf(const QModelIndex& index) const {
    if (!index.isValid() || index.model() != this) return nullptr;
    return static_cast<const Node*>(index.internalPointer());
}

const TaskComparison* TaskTableModel::comparisonAt(const QModelIndex& index) const {
    const Node* node = nodeOf(index);
    return node ? node->comparison : nullptr;
}

QModelIndex TaskTableModel::index(int row, int column, const QModelIndex& parent) const {
    if (column < 0 || column >= ColumnCount || row < 0) return {};
    const std::vector<std::unique_ptr<Node>>* rows = &m_roots;
    if (parent.isValid()) {
        const Node* p = nodeOf(parent);
        if (!p || parent.column() != 0) return {};
        rows = &p->children;
    }
    if (row >= static_cast<int>(rows->size())) return {};
    return createIndex(row, column, (*rows)[static_cast<std::size_t>(row)].get());
}

QModelIndex TaskTableModel::parent(const QModelIndex& child) const {
    const Node* node = nodeOf(child);
    if (!node || !node->parent) return {};
    return createIndex(node->parent->row, 0, node->parent);
}

int TaskTableModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return static_cast<int>(m_roots.size());
    if (parent.column() != 0) return 0;
    const Node* node = nodeOf(parent);
    return node ? static_cast<int>(node->children.size()) : 0;
}

int TaskTableModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

Qt::ItemFlags TaskTableModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (rowCount(index.siblingAtColumn(0)) == 0) f |= Qt::ItemNeverHasChildren;
    return f;
}

QVariant TaskTableModel::displayText(const TaskComparison& t, int column, bool subtaskRow) const {
    switch (column) {
        case TaskColumn:
            return toQString(t.task);
        case MetricColumn:
            return metricText(t);
        case BaselineColumn:
            return tableFixed(t.baseline, 4);
        case CandidateColumn:
            return tableFixed(t.candidate, 4);
        case DeltaColumn:
            return toQString(formatPercent(t.deltaPct, 3));
        case SigmaColumn:
            return toQString(formatSigmas(t.sigmas));
        case VerdictColumn:
            // A group's subtask: shown, not counted; its verdict in parentheses says so (the tooltip says why).
            if (subtaskRow) return QStringLiteral("(%1)").arg(toQString(verdictName(t.verdict)));
            // The cautious policy moved it: the point estimate alone gives another band.
            if (t.verdict != t.pointVerdict) return tr("%1 (cautious)").arg(toQString(verdictTitle(t.verdict)));
            return toQString(verdictTitle(t.verdict));
        case ConfidenceColumn:
            return t.confidence ? confidenceText(*t.confidence) : QString();
        case PairedPColumn:
            if (!t.pairedLeftOut.empty()) return tr("⚠ left out");  // the tooltip says why
            return t.paired ? pairedText(*t.paired) : QString();
        case NoiseFloorColumn:
            return t.noiseFloorPct ? QStringLiteral("± %1 %").arg(tableFixed(*t.noiseFloorPct, 2)) : QString();
        case DegradationColumn:
            return t.degradationPct ? QStringLiteral("%1 %").arg(tableFixed(*t.degradationPct, 3)) : tr("n/a");
        case RecoveryColumn:
            return t.recoveryPct ? QStringLiteral("%1 %").arg(tableFixed(*t.recoveryPct, 2)) : tr("n/a");
        case ChangedColumn: {
            const ChangedAnswers* c = changedOf(t);
            // U+2212, as the sentence writes a minus: lost first, as the documents are listed.
            return c ? QStringLiteral("\u2212%1 / +%2")
                           .arg(toQString(groupedCount(c->lost)), toQString(groupedCount(c->gained)))
                     : QString();
        }
        default:
            return {};
    }
}

QVariant TaskTableModel::sortValue(const TaskComparison& t, int column) const {
    switch (column) {
        case TaskColumn:
            return toQString(t.task);
        case MetricColumn:
            return metricText(t);
        case BaselineColumn:
            return t.baseline;
        case CandidateColumn:
            return t.candidate;
        case DeltaColumn:
            return numberOrLowest(t.deltaPct);
        case SigmaColumn:
            return numberOrLowest(t.sigmas);
        case VerdictColumn:
            return static_cast<int>(t.verdict);
        case ConfidenceColumn: {
            // Missing first, then clear, then inconclusive by how many samples would decide.
            if (!t.confidence) return -std::numeric_limits<double>::infinity();
            if (t.confidence->confidence == Confidence::Clear) return 0.0;
            return 1.0 + static_cast<double>(t.confidence->samplesNeeded.value_or(0));
        }
        case PairedPColumn:
            return numberOrLowest(t.paired && t.paired->test != "none" ? std::optional<double>(t.paired->pValue)
                                                                       : std::nullopt);
        case NoiseFloorColumn:
            return numberOrLowest(t.noiseFloorPct);
        case DegradationColumn:
            return numberOrLowest(t.degradationPct);
        case RecoveryColumn:
            return numberOrLowest(t.recoveryPct);
        case ChangedColumn: {
            const ChangedAnswers* c = changedOf(t);
            return numberOrLowest(c ? std::optional<double>(c->ratePct()) : std::nullopt);
        }
        default:
            return {};
    }
}

QString TaskTableModel::toolTip(const TaskComparison& t, int column, bool subtaskRow) const {
    const QString baselineLabel = toQString(m_report.baselineLabel);
    const QString candidateLabel = toQString(m_report.candidateLabel);
    // The statistics columns explain themselves in a sentence or two rather than repeating the row.
    if (column == ConfidenceColumn) {
        if (!t.confidence) return {};
        QString tip = style::escaped(t.confidence->explanation);
        if (t.confidence->confidence != Confidence::Clear)
            tip += QStringLiteral("<br><i>") + style::escaped(glossaryHint(tr("unsettled"))) + QStringLiteral("</i>");
        return tip;
    }
    if (column == PairedPColumn && !t.pairedLeftOut.empty())
        return tr("The paired statistics given for this task were left out: %1").arg(style::escaped(t.pairedLeftOut));
    if (column == PairedPColumn) return t.paired ? pairedToolTip(*t.paired, baselineLabel, candidateLabel) : QString();
    if (column == ChangedColumn) {
        const ChangedAnswers* c = changedOf(t);
        if (!c) return {};
        QString tip = style::escaped(toQString(changedAnswersSentence(*c, m_report.candidateLabel)) + ".");
        const QString why = changedAnswersUnavailable(t.paired ? &*t.paired : nullptr);
        tip += QStringLiteral("<br>") +
               (why.isEmpty() ? tr("Changed Answers… (%1, or double-click): the documents, side by side.")
                                    .arg(changedAnswersShortcut().toString(QKeySequence::NativeText))
                              : style::escaped(why));
        return tip;
    }
    if (column == NoiseFloorColumn) {
        if (!t.noiseFloorPct) return {};
        return tr("|%1 − %2| / %2 = %3 %: two runs of the same BF16 setup differ this much; a Δ inside it is noise.")
            .arg(style::escaped(m_report.controlLabel.empty() ? tr("control") : toQString(m_report.controlLabel)),
                 style::escaped(baselineLabel), tableFixed(*t.noiseFloorPct, 3));
    }
    QStringList lines;
    lines << QStringLiteral("<b>%1</b>").arg(style::escaped(t.task));
    if (!t.alias.empty() && QString::fromStdString(t.alias).trimmed() != toQString(t.task)) {
        lines << tr("Alias: %1").arg(style::escaped(QString::fromStdString(t.alias).trimmed()));
    }
    lines << tr("Metric key: <tt>%1</tt> (%2 is better)")
                 .arg(style::escaped(t.metric), t.higherIsBetter ? tr("higher") : tr("lower"));
    lines
        << tr("%1: %2 %3").arg(style::escaped(baselineLabel), tableFixed(t.baseline, 6), stderrText(t.baselineStderr));
    lines << tr("%1: %2 %3")
                 .arg(style::escaped(candidateLabel), tableFixed(t.candidate, 6), stderrText(t.candidateStderr));
    if (column == DeltaColumn || column == SigmaColumn || column == VerdictColumn || column == TaskColumn) {
        lines << tr("Δ: %1 · degradation %2 · %3")
                     .arg(toQString(formatPercent(t.deltaPct, 3)), toQString(formatPercent(t.degradationPct, 3)),
                          t.sigmas ? tr("%1 from zero in standard errors").arg(toQString(formatSigmas(t.sigmas)))
                                   : tr("no standard errors to judge noise"));
        if (t.paired && t.paired->changed && t.paired->changed->n() > 0)
            lines << style::escaped(toQString(changedAnswersSentence(*t.paired->changed, m_report.candidateLabel)) +
                                    ".");
    }
    if (!t.reason.empty()) lines << style::escaped(t.reason);
    if (column == VerdictColumn && t.verdict != t.pointVerdict) {
        lines << tr("Cautious policy: the point estimate alone gives %1; the 95 % interval reaches %2, which sets the "
                    "verdict.")
                     .arg(toQString(verdictTitle(t.pointVerdict)), toQString(verdictTitle(t.verdict)));
    }
    if ((column == VerdictColumn || column == TaskColumn) && t.equivalence) {
        // Chosen from the interval: shown, or what the interval says instead (a drop, an improvement, too wide).
        QString statement = toQString(equivalenceStatement(*t.equivalence, t.higherIsBetter));
        if (!statement.isEmpty()) statement[0] = statement[0].toUpper();
        lines << style::escaped(statement) + QStringLiteral(".");
    }
    if (column == RecoveryColumn || column == DegradationColumn) {
        lines << (t.recoveryPct ? tr("Recovery: %1 % (%2)")
                                      .arg(tableFixed(*t.recoveryPct, 2),
                                           t.higherIsBetter ? tr("candidate / baseline") : tr("baseline / candidate"))
                                : tr("Recovery: none (it needs positive values on both sides)"));
    }
    if (column == VerdictColumn) {  // the words of the verdict, in the glossary (Help › Glossary)
        lines << QStringLiteral("<i>") + style::escaped(glossaryHint(toQString(verdictTitle(t.verdict)))) +
                     QStringLiteral("</i>");
        if (t.confidence && t.confidence->confidence != Confidence::Clear)
            lines << QStringLiteral("<i>") + style::escaped(glossaryHint(tr("unsettled"))) + QStringLiteral("</i>");
    }
    if (column == VerdictColumn && subtaskRow) lines << tr("A group's subtask: shown, not counted toward the verdict.");
    if (!t.subtasks.empty()) {
        lines << tr("%1 subtasks below (expand the row); they do not count toward the verdict.").arg(t.subtasks.size());
    }
    if (!t.subtasksNotCompared.empty()) {
        lines << tr("Not compared:");
        for (const std::string& s : t.subtasksNotCompared) lines << QStringLiteral("• ") + style::escaped(s);
    }
    return lines.join(QStringLiteral("<br>"));
}

QVariant TaskTableModel::data(const QModelIndex& index, int role) const {
    const Node* node = nodeOf(index);
    if (!node) return {};
    const TaskComparison& t = *node->comparison;
    const bool subtask = node->parent != nullptr;
    const int column = index.column();

    switch (role) {
        case Qt::DisplayRole:
            // Data: its controls shown (untrusted_ui.h).
            return visibleText(data(index, TaskPathRole).toString());
        case TaskPathRole:
            // A subtask under its group shows its path below the group's (lm-eval 0.5 names it "<group>::<task>").
            if (column == TaskColumn && subtask)
                return toQString(taskNameUnder(t.task, node->parent->comparison->task));
            return displayText(t, column, subtask);
        case SortRole:
            return sortValue(t, column);
        case VerdictRole:
            return static_cast<int>(t.verdict);
        case TaskNameRole:
            return toQString(t.task);
        case IsSubtaskRole:
            return subtask;
        case Qt::ToolTipRole:
            return richTip(toolTip(t, column, subtask));  // markup of ours, names escaped
        case Qt::TextAlignmentRole:
            if (column == VerdictColumn || column == ConfidenceColumn) return QVariant::fromValue(Qt::AlignCenter);
            if ((column >= BaselineColumn && column <= SigmaColumn) || column >= PairedPColumn) {
                return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
            }
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        case Qt::BackgroundRole:
            if (column == VerdictColumn) {
                // Subtask verdicts are informative only: a paler tint says so.
                QColor tint = style::verdictTint(t.verdict);
                return QBrush(subtask ? tint.lighter(104) : tint);
            }
            return {};
        case Qt::ForegroundRole:
            if (column == VerdictColumn) return QBrush(style::verdictTextColor(t.verdict));
            if (column == ConfidenceColumn && t.confidence && t.confidence->confidence == Confidence::Inconclusive) {
                return QBrush(style::verdictTextColor(Verdict::Monitor));  // amber: the noise could flip it
            }
            if (subtask) return QBrush(style::secondaryTextColor());
            return {};
        case Qt::FontRole: {
            if (column == VerdictColumn && !subtask) {
                QFont f;
                f.setBold(true);
                return f;
            }
            if (column == TaskColumn && !subtask) {
                QFont f;
                f.setWeight(QFont::DemiBold);
                return f;
            }
            return {};
        }
        case Qt::AccessibleTextRole:
            if (column == VerdictColumn) return tr("Verdict %1").arg(toQString(verdictTitle(t.verdict)));
            return displayText(t, column, subtask);
        default:
            return {};
    }
}

QVariant TaskTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole) {  // they name the runs by their labels, which come from the files
        const QVariant tip = headerData(section, orientation, kHeaderToolTipRole);
        return tip.isValid() ? QVariant(escapedTip(tip.toString())) : QVariant();
    }
    // The runs' labels come from the files: their controls shown (untrusted_ui.h).
    const QString baselineLabel =
        m_report.baselineLabel.empty() ? tr("Baseline") : visibleText(toQString(m_report.baselineLabel));
    const QString candidateLabel =
        m_report.candidateLabel.empty() ? tr("Candidate") : visibleText(toQString(m_report.candidateLabel));
    if (role == Qt::DisplayRole) {
        switch (section) {
            case TaskColumn:
                return tr("Task");
            case MetricColumn:
                return tr("Metric");
            case BaselineColumn:
                return baselineLabel;
            case CandidateColumn:
                return candidateLabel;
            case DeltaColumn:
                return tr("Δ%");
            case SigmaColumn:
                return tr("±σ");
            case VerdictColumn:
                return tr("Verdict");
            case ConfidenceColumn:
                return tr("Confidence");
            case PairedPColumn:
                return tr("Paired p");
            case NoiseFloorColumn:
                return tr("Noise floor");
            case DegradationColumn:
                return tr("Degradation");
            case RecoveryColumn:
                return tr("Recovery");
            case ChangedColumn:
                return tr("Changed");
            default:
                return {};
        }
    }
    if (role == kHeaderToolTipRole) {
        switch (section) {
            case TaskColumn:
                return tr("lm-eval task; groups expand to their subtasks");
            case MetricColumn:
                return tr(
                    "The metric compared, as a reader says it (its filter or variant in brackets); hover a row "
                    "for the results file's key, e.g. exact_match,strict-match");
            case BaselineColumn:
                return tr("Baseline run (%1)").arg(baselineLabel);
            case CandidateColumn:
                return tr("Candidate run (%1)").arg(candidateLabel);
            case DeltaColumn:
                return tr("Relative change: (%1 − %2) / |%2| × 100").arg(candidateLabel, baselineLabel);
            case DegradationColumn:
                return tr("The loss in the metric's good direction, 0 for an improvement");
            case RecoveryColumn:
                return tr("%1 / %2 × 100 (the inverse where lower is better), as model cards give it")
                    .arg(candidateLabel, baselineLabel);
            case SigmaColumn:
                return tr("The change in combined standard errors: (%1 − %2) / √(se²₁ + se²₂)")
                    .arg(candidateLabel, baselineLabel);
            case VerdictColumn:
                return (m_report.cautious
                            ? tr("GO / MONITOR / INVESTIGATE by the degradation thresholds, under the cautious policy "
                                 "(an interval across a band edge takes the worst band it reaches)")
                            : tr("GO / MONITOR / INVESTIGATE by the degradation thresholds")) +
                       tr(". Sorted on this column the table is worst first, as the slides: the verdict, then the "
                          "degradation.");
            case ConfidenceColumn:
                return tr(
                    "Settled when the 95 % interval of the degradation stays in one verdict band; unsettled "
                    "when it crosses an edge (n≈ the samples that would settle it)");
            case PairedPColumn:
                return tr(
                    "Paired test on the per-sample logs of both runs: exact McNemar for 0/1 metrics, Wilcoxon "
                    "signed-rank otherwise (two-sided p)");
            case NoiseFloorColumn:
                return tr("|control − %1| / %1: how far two runs of the same BF16 setup differ; a Δ inside it is "
                          "noise")
                    .arg(baselineLabel);
            case ChangedColumn:
                return tr("The answers %1 changed on the paired sample logs: lost (right in %2, wrong in %1) / gained; "
                          "sorted by the share changed")
                    .arg(candidateLabel, baselineLabel);
            default:
                return {};
        }
    }
    if (role == Qt::TextAlignmentRole) {
        if ((section >= BaselineColumn && section <= SigmaColumn) || section >= PairedPColumn) {
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        }
        if (section == VerdictColumn || section == ConfidenceColumn) return QVariant::fromValue(Qt::AlignCenter);
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    }
    return {};
}

}  // namespace fp8dash::ui
