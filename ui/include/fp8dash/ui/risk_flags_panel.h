#pragma once
// RiskFlagsPanel: the report's risk flags (FP8-sensitive tasks, small models, FP8 KV cache without scales), one
// wrapped line each beside a warning icon. GUI thread only.

#include <QStringList>
#include <QWidget>

#include "fp8dash/core/eval_comparison.h"

class QLabel;
class QVBoxLayout;

namespace fp8dash::ui {

class RiskFlagsPanel : public QWidget {
    Q_OBJECT
public:
    explicit RiskFlagsPanel(QWidget* parent = nullptr);

    void setRisks(const std::vector<RiskFlag>& risks);
    QStringList entries() const { return m_entries; }  // plain text of each row, as shown

private:
    QLabel* m_title = nullptr;
    QVBoxLayout* m_rows = nullptr;
    QStringList m_entries;
};

}  // namespace fp8dash::ui
