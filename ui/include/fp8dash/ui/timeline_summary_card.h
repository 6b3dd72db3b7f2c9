#pragma once
// TimelineSummaryCard: one before/after figure of the production timeline (throughput, quality, the quality alert):
// a title, the figure in large type, the change against the expected band, and a note, tinted by how the change
// compares (GO green, MONITOR amber, INVESTIGATE red; neutral when there is nothing to compare). GUI thread only.

#include <QFrame>
#include <QString>

#include <optional>

#include "fp8dash/core/verdict.h"

class QLabel;

namespace fp8dash::ui {

class TimelineSummaryCard : public QFrame {
    Q_OBJECT
public:
    explicit TimelineSummaryCard(const QString& title, QWidget* parent = nullptr);

    // level: the colour; nullopt for a neutral card (no data, no change time).
    void setContent(const QString& figure, const QString& delta, const QString& note, std::optional<Verdict> level);

    QString titleText() const;
    QString figureText() const;
    QString deltaText() const;
    QString noteText() const;
    QString text() const;  // all of it, one part per line (what a test or a screen reader reads)
    std::optional<Verdict> level() const { return m_level; }

private:
    QLabel* m_title = nullptr;
    QLabel* m_figure = nullptr;
    QLabel* m_delta = nullptr;
    QLabel* m_note = nullptr;
    std::optional<Verdict> m_level;
};

}  // namespace fp8dash::ui
