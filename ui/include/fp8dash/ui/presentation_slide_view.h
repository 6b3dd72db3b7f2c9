#pragma once
// One slide of the presentation mode, drawn from a PresentationSlide (core/presentation_deck.h) in large type on the
// deck's own light palette whatever the app's theme (projectors wash dark slides out), with the step's charts as
// pictures drawn by the app's own views, and a footer: the step name, the model, "n / N". A slide is laid out for
// one size: PresentationWindow builds a new one when the screen size changes. GUI thread only; owns its child
// widgets through Qt parenting.
//
// Object names for tests and accessibility: slideTitle, slideSubtitle, slideKicker, slideVerdict (the step's verdict
// pill, absent without one), slideFigure (one QFrame per figure, property "figureLabel"; children figureLabel,
// figureValue, figureDetail; on the verdict slide one row per step, its pill the figureValue), taskCell (evals: QLabels
// with properties "task" and "column": task, baseline, candidate, delta, verdict; the verdict pill also has
// "verdict", the verdict's name), moreTasks, slideChart (property "chartKey"), slidePoint, reviewText, reviewWarning,
// slideFooterStep, slideFooterModel, slideFooterPage; the layer-costs slide's table (layer_costs_table.h): stepCell,
// moreSteps.

#include <QSize>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <cstddef>
#include <vector>

#include "fp8dash/core/presentation_deck.h"
#include "fp8dash/ui/chart_snapshots.h"

namespace fp8dash::ui {

class PresentationSlideView : public QWidget {
    Q_OBJECT
public:
    // `charts`: snapshots drawn for this slide (see chartRequest); the slide shows those of its chart keys found
    // there, in the slide's order, and leaves out the others. `size` is the size the slide is laid out for.
    PresentationSlideView(const PresentationDeck& deck, std::size_t index, QSize size,
                          const std::vector<ChartSnapshot>& charts, QWidget* parent = nullptr);

    std::size_t index() const { return m_index; }
    PresentationStep step() const { return m_step; }
    QString titleText() const;
    QStringList chartKeys() const;                             // the charts shown, in order
    int visibleTaskRows() const { return m_visibleTaskRows; }  // evals: the task rows that fit (the rest summed up)

    // The type scale for a screen: 1.0 at 1920 × 1080, by the height (and the width on screens narrower than 4:3).
    static qreal unitFor(QSize size);
    // What a slide's charts should be drawn at for a slide of `size`: the chart views' logical size and the scale
    // that makes their text large enough to read on the screen (before the device pixel ratio).
    struct ChartRequest {
        QSize logicalSize;
        qreal scale = 1;
    };
    static ChartRequest chartRequest(const PresentationSlide& slide, QSize size);

private:
    struct Parts;  // what the builders below share
    void buildCover(QWidget* body, const Parts& parts);
    void buildEvals(QWidget* body, const Parts& parts);
    void buildEvidence(QWidget* body, const Parts& parts);
    void buildVerdict(QWidget* body, const Parts& parts);
    void buildAnswer(QWidget* body, const Parts& parts);
    QWidget* chartWidget(const ChartSnapshot& snapshot, QWidget* owner);  // a chart picture; remembers its key

    std::size_t m_index = 0;
    PresentationStep m_step = PresentationStep::Cover;
    QString m_title;
    QStringList m_chartKeys;
    int m_visibleTaskRows = 0;
};

}  // namespace fp8dash::ui
