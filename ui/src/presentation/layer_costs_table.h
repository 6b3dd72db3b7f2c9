#pragma once
// The table of the presentation's "What each FP8 layer costs" slide (PresentationStep::LayerCosts): a column naming
// each layer step (its runs and the layer it adds) beside its tasks, each with its figure, its 95% interval and its
// verdict as a pill, in the deck's light palette. Rows that do not fit `height` are summed up in a last line. Object
// names: stepCell (QLabels with properties "task", "column": step, task, figure, interval, verdict), moreSteps.
// GUI thread only.

#include <QWidget>

#include "fp8dash/core/presentation_deck.h"

namespace fp8dash::ui {

// `unit`: the slide's type scale (PresentationSlideView::unitFor); `height`: the body's height in pixels.
QWidget* makeLayerCostsTable(const PresentationSlide& slide, qreal unit, int height, QWidget* parent);

}  // namespace fp8dash::ui
