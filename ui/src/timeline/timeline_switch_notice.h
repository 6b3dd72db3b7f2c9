#pragma once
// What the timeline says about the switch vLLM reports (timeline_switch_notice.cpp). Internal to fp8dash_ui; pure
// functions of the data, GUI thread (they build Qt objects).

#include <QString>

#include "fp8dash/core/timeline.h"

class QAreaSeries;

namespace fp8dash::ui::timeline_view_parts {

struct SwitchNotice {
    QString text;           // "" when there is nothing to say
    bool offerUse = false;  // a switch differs from the time in use (or none is set): offer to use it
};
// The change time taken from vllm:cache_config_info (with the rollout), switches of several models, or a switch
// that differs from the entered time.
SwitchNotice switchNoticeOf(const TimelineData& data, const TimelineReport& report);

// The rollout's shaded span [from, to] on the overlay axis (0-1), unattached; the caller adds it to its chart.
QAreaSeries* rolloutArea(double from, double to);

}  // namespace fp8dash::ui::timeline_view_parts
