// The timeline's words and drawing for the switch vLLM reports in vllm:cache_config_info: where the change time came
// from (detected, or entered over a different switch), switches of several models, and the rollout's shaded span.
#include "timeline/timeline_switch_notice.h"

#include <QAreaSeries>
#include <QCoreApplication>
#include <QLineSeries>

#include <cmath>

#include "fp8dash/core/vllm_metrics.h"
#include "timeline/timeline_view_parts.h"

namespace fp8dash::ui::timeline_view_parts {
namespace {

QString switchTr(const char* text) {
    return QCoreApplication::translate("TimelineView", text);
}

QString fromUtf8(const std::string& s) {
    return QString::fromStdString(s);
}

// "Change at …" from the core's "change at …".
QString sentence(const std::string& text) {
    QString out = fromUtf8(text);
    if (!out.isEmpty()) out[0] = out[0].toUpper();
    return out;
}

}  // namespace

SwitchNotice switchNoticeOf(const TimelineData& data, const TimelineReport& report) {
    const TimelineSettings& st = data.settings;
    SwitchNotice out;
    if (st.changeAt && st.changeAtDetected && !report.changeDetail.empty()) {
        out.text = switchTr("%1 (no change time was entered, so vLLM's own switch is used).")
                       .arg(sentence(report.changeDetail));
        if (!report.rollout.empty())
            out.text += QLatin1Char('\n') + switchTr("%1 (shaded on the chart).").arg(sentence(report.rollout));
        return out;
    }
    if (!st.changeAt && !data.switchModels.empty()) {
        out.text = switchTr(
                       "vLLM reports the KV cache switching for several models: %1. Enter the change time, or "
                       "choose one model in the data source's Series field (model_name=…).")
                       .arg(fromUtf8(kvCacheSwitchModelsText(data.switchModels)));
        return out;
    }
    const auto& detected = data.detectedChange;
    if (!detected || (st.changeAt && std::abs(*st.changeAt - detected->at) < 0.5)) return out;
    out.text = switchTr("vLLM reports the KV-cache dtype switching %1 → %2 at %3 (vllm:cache_config_info).")
                   .arg(fromUtf8(describeKvCacheDtype(detected->from)), fromUtf8(describeKvCacheDtype(detected->to)),
                        fromUtf8(formatTimeUtc(detected->at)));
    out.text +=
        QLatin1Char(' ') +
        (st.changeAt ? switchTr("The change time entered (%1) is in use.").arg(fromUtf8(formatTimeUtc(*st.changeAt)))
                     : switchTr("No change time is set yet."));
    out.offerUse = true;
    return out;
}

QAreaSeries* rolloutArea(double from, double to) {
    auto* upper = new QLineSeries;
    upper->append(msOf(from), 1);
    upper->append(msOf(to), 1);
    auto* lower = new QLineSeries;
    lower->append(msOf(from), 0);
    lower->append(msOf(to), 0);
    auto* area = new QAreaSeries(upper, lower);
    area->setObjectName(QStringLiteral("rolloutSpan"));
    area->setName(switchTr("Rollout (engines switching)"));
    area->setBrush(QColor(0x12, 0x8c, 0x7e, 60));  // teal, light: apart from the alert's amber and red
    area->setPen(Qt::NoPen);
    upper->setParent(area);  // QAreaSeries does not own its boundaries
    lower->setParent(area);
    return area;
}

}  // namespace fp8dash::ui::timeline_view_parts
