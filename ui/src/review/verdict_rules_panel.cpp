// The Verdict rules panel (verdict_rules_panel.h).
#include "fp8dash/ui/verdict_rules_panel.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

#include "fp8dash/core/review.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {
namespace {

// A percentage as typed: the user's locale or the C locale, an optional "%" after it; NaN when it is not a number.
double typedPercent(const QString& text) {
    QString t = text.trimmed();
    if (t.endsWith(QLatin1Char('%'))) t.chop(1);
    t = t.trimmed();
    bool ok = false;
    double v = QLocale().toDouble(t, &ok);
    if (!ok) v = QLocale::c().toDouble(t, &ok);
    return ok ? v : std::numeric_limits<double>::quiet_NaN();
}

QString percentText(double v) {
    return QLocale().toString(v, 'g', 6);
}

QLabel* rulesProblemLabel(QWidget* parent) {
    QLabel* l = plainLabel(QString(), parent);
    l->setWordWrap(true);
    style::setTextTone(l, style::TextTone::Error);
    l->hide();
    return l;
}

// A number field with "%" after it and its problem under it, in one cell of the form.
QWidget* percentField(QLineEdit* edit, QLabel* problem, QWidget* parent) {
    auto* box = new QWidget(parent);
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    auto* row = new QHBoxLayout;
    edit->setMaximumWidth(edit->fontMetrics().horizontalAdvance(QStringLiteral("000.0000")) + 16);
    row->addWidget(edit);
    row->addWidget(new QLabel(QStringLiteral("%"), box));
    row->addStretch(1);
    v->addLayout(row);
    v->addWidget(problem);
    return box;
}

}  // namespace

VerdictRulesPanel::VerdictRulesPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("verdictRulesPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(style::caption(tr("Every verdict follows from the figures stored in this comparison under "
                                        "these rules. A change applies at once and marks the comparison changed; "
                                        "Edit › Undo takes it back."),
                                     this));

    auto* thresholds = new QGroupBox(tr("Degradation thresholds"), this);
    auto* form = new QFormLayout(thresholds);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_goBelow = new QLineEdit(thresholds);
    m_goBelow->setObjectName(QStringLiteral("rulesGoBelow"));
    m_goBelow->setAccessibleName(tr("GO below, percent degradation"));
    m_goBelowProblem = rulesProblemLabel(thresholds);
    m_goBelowProblem->setObjectName(QStringLiteral("rulesGoBelowProblem"));
    m_investigateAbove = new QLineEdit(thresholds);
    m_investigateAbove->setObjectName(QStringLiteral("rulesInvestigateAbove"));
    m_investigateAbove->setAccessibleName(tr("INVESTIGATE above, percent degradation"));
    m_investigateAboveProblem = rulesProblemLabel(thresholds);
    m_investigateAboveProblem->setObjectName(QStringLiteral("rulesInvestigateAboveProblem"));
    auto* goLabel = new QLabel(tr("&GO below:"), thresholds);
    goLabel->setBuddy(m_goBelow);
    auto* invLabel = new QLabel(tr("&INVESTIGATE above:"), thresholds);
    invLabel->setBuddy(m_investigateAbove);
    form->addRow(goLabel, percentField(m_goBelow, m_goBelowProblem, thresholds));
    form->addRow(invLabel, percentField(m_investigateAbove, m_investigateAboveProblem, thresholds));
    form->addRow(style::caption(tr("MONITOR between them, both edges included. A task's degradation is its loss "
                                   "against the baseline in the metric's good direction."),
                                thresholds));
    layout->addWidget(thresholds);

    auto* policy = new QGroupBox(tr("Policy"), this);
    auto* pv = new QVBoxLayout(policy);
    m_estimate = new QRadioButton(tr("&Estimate: the band of the point estimate"), policy);
    m_estimate->setObjectName(QStringLiteral("rulesEstimate"));
    m_cautious = new QRadioButton(tr("&Cautious: the worst band the 95 % interval reaches"), policy);
    m_cautious->setObjectName(QStringLiteral("rulesCautious"));
    auto* policyGroup = new QButtonGroup(policy);
    policyGroup->addButton(m_estimate);
    policyGroup->addButton(m_cautious);
    pv->addWidget(m_estimate);
    pv->addWidget(m_cautious);
    layout->addWidget(policy);

    m_gateGroup = new QGroupBox(tr("Recommendation gate"), this);
    m_gateGroup->setObjectName(QStringLiteral("rulesGate"));
    auto* gv = new QVBoxLayout(m_gateGroup);
    gv->addWidget(style::caption(tr("A variant passes when its verdict is at most:"), m_gateGroup));
    m_gateGo = new QRadioButton(tr("GO &only"), m_gateGroup);
    m_gateGo->setObjectName(QStringLiteral("rulesGateGo"));
    m_gateMonitor = new QRadioButton(tr("GO or &MONITOR"), m_gateGroup);
    m_gateMonitor->setObjectName(QStringLiteral("rulesGateMonitor"));
    auto* gateButtons = new QButtonGroup(m_gateGroup);
    gateButtons->addButton(m_gateGo);
    gateButtons->addButton(m_gateMonitor);
    gv->addWidget(m_gateGo);
    gv->addWidget(m_gateMonitor);
    m_minRecoveryBox = new QCheckBox(tr("and every task &recovers at least:"), m_gateGroup);
    m_minRecoveryBox->setObjectName(QStringLiteral("rulesMinRecoveryOn"));
    gv->addWidget(m_minRecoveryBox);
    m_minRecovery = new QLineEdit(m_gateGroup);
    m_minRecovery->setObjectName(QStringLiteral("rulesMinRecovery"));
    m_minRecovery->setAccessibleName(tr("Minimum recovery of every task, percent"));
    m_minRecoveryProblem = rulesProblemLabel(m_gateGroup);
    m_minRecoveryProblem->setObjectName(QStringLiteral("rulesMinRecoveryProblem"));
    QWidget* recoveryField = percentField(m_minRecovery, m_minRecoveryProblem, m_gateGroup);
    recoveryField->setContentsMargins(24, 0, 0, 0);
    gv->addWidget(recoveryField);
    gv->addWidget(style::caption(tr("Among the variants that pass, the most aggressive one is recommended. When none "
                                    "passes, the verdict is the least severe variant's."),
                                 m_gateGroup));
    layout->addWidget(m_gateGroup);
    m_gateNone = style::caption(tr("One candidate: no recommendation gate."), this);
    layout->addWidget(m_gateNone);

    auto* now = new QGroupBox(tr("With these rules"), this);
    auto* nv = new QVBoxLayout(now);
    m_outcome = plainLabel(QString(), now);
    m_outcome->setObjectName(QStringLiteral("rulesOutcome"));
    m_outcome->setWordWrap(true);
    m_outcome->setTextInteractionFlags(Qt::TextSelectableByMouse);
    nv->addWidget(m_outcome);
    layout->addWidget(now);

    auto* buttons = new QHBoxLayout;
    m_defaults = new QPushButton(tr("Use the &Defaults"), this);
    m_defaults->setObjectName(QStringLiteral("rulesDefaults"));
    m_defaults->setToolTip(tr("GO below 0.5 %, INVESTIGATE above 1.5 %, the estimate, the gate GO only"));
    buttons->addWidget(m_defaults);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    layout->addStretch(1);

    for (QLineEdit* e : {m_goBelow, m_investigateAbove, m_minRecovery}) {
        connect(e, &QLineEdit::editingFinished, this, &VerdictRulesPanel::commit);
        connect(e, &QLineEdit::textEdited, this, [this] { showProblems({}); });
    }
    for (QAbstractButton* b : std::initializer_list<QAbstractButton*>{m_estimate, m_cautious, m_gateGo, m_gateMonitor})
        connect(b, &QAbstractButton::toggled, this, [this](bool on) {
            if (on) commit();
        });
    connect(m_minRecoveryBox, &QCheckBox::toggled, this, [this](bool on) {
        m_minRecovery->setEnabled(on);
        if (on && m_minRecovery->text().trimmed().isEmpty()) m_minRecovery->setText(percentText(99));
        commit();
    });
    connect(m_defaults, &QPushButton::clicked, this, [this] {
        fill(VerdictRules{});
        commit();
    });
    setDocument(nullptr);
}

void VerdictRulesPanel::fill(const VerdictRules& r) {
    m_filling = true;
    m_goBelow->setText(percentText(r.thresholds.goBelow));
    m_investigateAbove->setText(percentText(r.thresholds.investigateAbove));
    (r.cautious ? m_cautious : m_estimate)->setChecked(true);
    (r.gate.accept == Verdict::Go ? m_gateGo : m_gateMonitor)->setChecked(true);
    m_minRecoveryBox->setChecked(r.gate.minRecoveryPct.has_value());
    m_minRecovery->setEnabled(r.gate.minRecoveryPct.has_value());
    m_minRecovery->setText(r.gate.minRecoveryPct ? percentText(*r.gate.minRecoveryPct) : QString());
    m_filling = false;
    showProblems({});
}

void VerdictRulesPanel::setDocument(const LoadedComparison* loaded) {
    setEnabled(loaded != nullptr);
    if (!loaded) {
        m_documentRules.reset();
        m_outcome->setText(tr("No comparison is open."));
        m_gateGroup->hide();
        m_gateNone->hide();
        return;
    }
    const ComparisonDocument& doc = loaded->document;
    m_documentRules = verdictRulesOf(doc);
    fill(*m_documentRules);
    m_gateGroup->setVisible(doc.hasVariants());
    m_gateNone->setVisible(!doc.hasVariants());

    const Decision& d = loaded->decision;
    QStringList lines;
    lines << (d.verdict ? tr("Overall verdict: %1").arg(toQString(verdictTitle(*d.verdict)))
                        : tr("No verdict yet: nothing in this comparison gives one."));
    if (d.variants) {
        const Recommendation& rec = d.variants->recommendation;
        if (rec.label) {
            lines << tr("Recommended: %1 (%2)").arg(toQString(*rec.label), toQString(verdictTitle(rec.verdict)));
        } else {
            lines << tr("No variant passes the gate.");
            if (const auto deciding = reviewDecidingVariant(d)) {
                for (const VariantResult& v : d.variants->variants)
                    if (v.label == *deciding)
                        lines << tr("The least severe variant, which decides: %1 (%2)")
                                     .arg(toQString(v.label), toQString(verdictTitle(v.verdict)));
            }
        }
    }
    m_outcome->setText(lines.join(QLatin1Char('\n')));
}

std::optional<VerdictRules> VerdictRulesPanel::fieldRules() {
    VerdictRules r;
    r.thresholds.goBelow = typedPercent(m_goBelow->text());
    r.thresholds.investigateAbove = typedPercent(m_investigateAbove->text());
    r.cautious = m_cautious->isChecked();
    r.gate = m_documentRules ? m_documentRules->gate : RecommendationOptions{};
    if (m_gateGroup->isVisibleTo(this)) {
        r.gate.accept = m_gateMonitor->isChecked() ? Verdict::Monitor : Verdict::Go;
        r.gate.minRecoveryPct.reset();
        if (m_minRecoveryBox->isChecked()) r.gate.minRecoveryPct = typedPercent(m_minRecovery->text());
    }
    const VerdictRulesProblems p = checkVerdictRules(r);
    showProblems(p);
    if (!p.ok()) return std::nullopt;
    return r;
}

void VerdictRulesPanel::commit() {
    if (m_filling || !m_documentRules) return;
    const auto r = fieldRules();
    if (r && *r != *m_documentRules) emit rulesEdited(*r);
}

void VerdictRulesPanel::showProblems(const VerdictRulesProblems& p) {
    const auto show = [](QLabel* label, QLineEdit* edit, const std::string& problem) {
        label->setText(toQString(problem));
        label->setVisible(!problem.empty());
        edit->setAccessibleDescription(toQString(problem));
        edit->setStyleSheet(
            problem.empty()
                ? QString()
                : QStringLiteral("QLineEdit { border: 1px solid %1; }").arg(style::errorTextColor().name()));
    };
    show(m_goBelowProblem, m_goBelow, p.goBelow);
    show(m_investigateAboveProblem, m_investigateAbove, p.investigateAbove);
    show(m_minRecoveryProblem, m_minRecovery, p.minRecovery);
}

QString VerdictRulesPanel::outcomeText() const {
    return m_outcome->text();
}

}  // namespace fp8dash::ui
