#pragma once
// VerdictRulesPanel: the Verdict rules panel (issue 39 "What-if gates"), the main window's dock reached from
// Review › Verdict Rules… and the banner's details. A reviewer holding only the comparison file changes the degradation
// thresholds (GO below / INVESTIGATE above), the policy (estimate / cautious) and, with several candidates, the
// recommendation's gate (GO only / GO or MONITOR / every task recovering at least a minimum). A change applies at once
// when it is complete and valid: a choice when it is clicked, a number when Return is pressed or the field is left.
// Invalid numbers (not a number, negative, GO above INVESTIGATE, a recovery outside 0–100 %) are refused with the
// reason beside the field, and nothing changes. The panel only says what the rules are; the main window puts them into
// the document (undoably) and shows it again (setDocument). Below the fields, what the rules give now: the overall
// verdict and, with several candidates, the recommended (or deciding) variant. GUI thread only.

#include <QWidget>

#include <optional>

#include "fp8dash/core/verdict_rules.h"
#include "fp8dash/ui/loaded_comparison.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QGroupBox;

namespace fp8dash::ui {

class VerdictRulesPanel : public QWidget {
    Q_OBJECT
public:
    explicit VerdictRulesPanel(QWidget* parent = nullptr);

    // Shows the rules the document holds and what they give (null: nothing shown, disabled). Edits in progress go.
    void setDocument(const LoadedComparison* loaded);

    // The rules the fields hold; nullopt (and each problem beside its field) when one is invalid.
    std::optional<VerdictRules> fieldRules();
    // Applies what the fields hold: rulesEdited when valid and different from the document's. What a committed field
    // or a clicked choice calls; tests call it after typing.
    void commit();

    QLineEdit* goBelowEdit() const { return m_goBelow; }
    QLineEdit* investigateAboveEdit() const { return m_investigateAbove; }
    QLineEdit* minRecoveryEdit() const { return m_minRecovery; }
    QLabel* goBelowProblem() const { return m_goBelowProblem; }
    QLabel* investigateAboveProblem() const { return m_investigateAboveProblem; }
    QLabel* minRecoveryProblem() const { return m_minRecoveryProblem; }
    QRadioButton* estimateButton() const { return m_estimate; }
    QRadioButton* cautiousButton() const { return m_cautious; }
    QRadioButton* gateGoButton() const { return m_gateGo; }
    QRadioButton* gateMonitorButton() const { return m_gateMonitor; }
    QCheckBox* minRecoveryBox() const { return m_minRecoveryBox; }
    QGroupBox* gateGroup() const { return m_gateGroup; }
    QPushButton* defaultsButton() const { return m_defaults; }
    QString outcomeText() const;  // what the rules give now, plain

signals:
    void rulesEdited(const fp8dash::VerdictRules& rules);

private:
    void fill(const VerdictRules& rules);
    void showProblems(const VerdictRulesProblems& problems);

    std::optional<VerdictRules> m_documentRules;
    bool m_filling = false;
    QLineEdit* m_goBelow = nullptr;
    QLineEdit* m_investigateAbove = nullptr;
    QLabel* m_goBelowProblem = nullptr;
    QLabel* m_investigateAboveProblem = nullptr;
    QRadioButton* m_estimate = nullptr;
    QRadioButton* m_cautious = nullptr;
    QGroupBox* m_gateGroup = nullptr;
    QLabel* m_gateNone = nullptr;
    QRadioButton* m_gateGo = nullptr;
    QRadioButton* m_gateMonitor = nullptr;
    QCheckBox* m_minRecoveryBox = nullptr;
    QLineEdit* m_minRecovery = nullptr;
    QLabel* m_minRecoveryProblem = nullptr;
    QLabel* m_outcome = nullptr;
    QPushButton* m_defaults = nullptr;
};

}  // namespace fp8dash::ui
