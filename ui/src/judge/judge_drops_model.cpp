#include "fp8dash/ui/judge_drops_model.h"

#include "judge/judge_text.h"

namespace fp8dash::ui {
namespace judge_drops {
namespace {

using namespace judge_text;  // this namespace only (unity build)

TableCell scoreCell(const QString& text) {
    TableCell c;
    c.text = text;
    c.number = true;
    return c;
}

TableCell longTextCell(const QString& text) {
    TableCell c;
    c.text = oneLine(text);
    c.toolTip = text.size() > 300 ? text.left(300) + QStringLiteral("…") : text;
    return c;
}

}  // namespace

void fill(const JudgeComparison& c, const QString& baselineLabel, const QString& candidateLabel,
          std::vector<TableHeader>& headers, std::vector<std::vector<TableCell>>& rows) {
    bool hasPrompt = false, hasBaselineAnswer = false, hasCandidateAnswer = false, hasComment = false;
    for (const JudgeDrop& d : c.biggestDrops) {
        hasPrompt |=
            !fieldText(d.baselineFields, kPromptKeys).isEmpty() || !fieldText(d.candidateFields, kPromptKeys).isEmpty();
        hasBaselineAnswer |= !fieldText(d.baselineFields, kAnswerKeys).isEmpty();
        hasCandidateAnswer |= !fieldText(d.candidateFields, kAnswerKeys).isEmpty();
        hasComment |= !fieldText(d.candidateFields, kCommentKeys).isEmpty() ||
                      !fieldText(d.baselineFields, kCommentKeys).isEmpty();
    }
    for (const QString& title :
         {JudgeDropsModel::tr("ID"), baselineLabel, candidateLabel, JudgeDropsModel::tr("Change")})
        headers.push_back({title, {}, {}});
    if (hasPrompt) headers.push_back({JudgeDropsModel::tr("Prompt"), {}, {}});
    if (hasBaselineAnswer) headers.push_back({JudgeDropsModel::tr("%1 answer").arg(baselineLabel), {}, {}});
    if (hasCandidateAnswer) headers.push_back({JudgeDropsModel::tr("%1 answer").arg(candidateLabel), {}, {}});
    if (hasComment) headers.push_back({JudgeDropsModel::tr("Judge comment"), {}, {}});

    for (const JudgeDrop& d : c.biggestDrops) {
        std::vector<TableCell> row;
        TableCell id;
        id.text = toQString(d.id);
        row.push_back(id);
        row.push_back(scoreCell(score(d.baseline)));
        row.push_back(scoreCell(score(d.candidate)));
        TableCell change = scoreCell(changeText(d.candidate - d.baseline));
        change.tone = TableCell::Tone::Investigate;
        row.push_back(change);
        if (hasPrompt) {
            QString prompt = fieldText(d.baselineFields, kPromptKeys);
            if (prompt.isEmpty()) prompt = fieldText(d.candidateFields, kPromptKeys);
            row.push_back(longTextCell(prompt));
        }
        if (hasBaselineAnswer) row.push_back(longTextCell(fieldText(d.baselineFields, kAnswerKeys)));
        if (hasCandidateAnswer) row.push_back(longTextCell(fieldText(d.candidateFields, kAnswerKeys)));
        if (hasComment) {
            QString comment = fieldText(d.candidateFields, kCommentKeys);
            if (comment.isEmpty()) comment = fieldText(d.baselineFields, kCommentKeys);
            row.push_back(longTextCell(comment));
        }
        rows.push_back(std::move(row));
    }
}

}  // namespace judge_drops

JudgeDropsModel::JudgeDropsModel(QObject* parent) : RowTableModel(parent) {}

void JudgeDropsModel::setDrops(const JudgeComparison* comparison, const QString& baselineLabel,
                               const QString& candidateLabel) {
    std::vector<TableHeader> headers;
    std::vector<std::vector<TableCell>> rows;
    if (comparison && comparison->paired && !comparison->biggestDrops.empty()) {
        judge_drops::fill(*comparison, baselineLabel, candidateLabel, headers, rows);
    }
    setTable(std::move(headers), std::move(rows));
}

}  // namespace fp8dash::ui
