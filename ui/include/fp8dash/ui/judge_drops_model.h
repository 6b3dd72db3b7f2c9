#pragma once
// JudgeDropsModel: the Domain judge tab's "Biggest drops" table as a model over core's JudgeComparison
// (row_table_model.h): one row per drop, largest first, with the id, both scores, the change (in the "look here"
// colour) and, where a side's file has them, the prompt, both answers and the judge's comment on one line each (the
// full text, up to 300 characters, as tooltip). GUI thread only.

#include <QString>

#include "fp8dash/core/judge_scores.h"
#include "fp8dash/ui/row_table_model.h"

namespace fp8dash::ui {

class JudgeDropsModel : public RowTableModel {
    Q_OBJECT
public:
    enum Column { IdColumn, BaselineColumn, CandidateColumn, ChangeColumn };  // then the texts present

    explicit JudgeDropsModel(QObject* parent = nullptr);
    // nullptr, or a comparison without paired samples: no rows and no columns. Labels name the sides.
    void setDrops(const JudgeComparison* comparison, const QString& baselineLabel, const QString& candidateLabel);
};

}  // namespace fp8dash::ui
