// TimelineView's header lines and figure cards (timeline_view.h), kept apart from the chart and its zoom
// (timeline_view.cpp).
#include "fp8dash/core/http_client.h"
#include "fp8dash/ui/timeline_view.h"

#include <QAreaSeries>
#include <QChart>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QFrame>
#include <QGraphicsItem>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <span>
#include <string_view>

#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/number_text.h"
#include "fp8dash/ui/time_range_picker.h"
#include "fp8dash/ui/timeline_chart_view.h"
#include "fp8dash/ui/timeline_summary_card.h"
#include "timeline/timeline_switch_notice.h"
#include "timeline/timeline_view_parts.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

namespace {

// The cards' changes: "+50.0" and "-0.35" (an ASCII minus, as the timeline has always shown them).
QString cardSignedFixed(double v, int decimals) {
    return (v >= 0 ? QStringLiteral("+") : QString()) + fixedText(v, decimals);
}

QString cardNumberText(double v) {
    return QString::number(v, 'g', 6);
}

// "30m", "1d", "2h", "90s": how alerting rules spell durations.
QString cardDurationText(double seconds) {
    if (seconds > 0 && std::fmod(seconds, 86400) == 0) return cardNumberText(seconds / 86400) + QLatin1Char('d');
    if (seconds > 0 && std::fmod(seconds, 3600) == 0) return cardNumberText(seconds / 3600) + QLatin1Char('h');
    if (seconds > 0 && std::fmod(seconds, 60) == 0) return cardNumberText(seconds / 60) + QLatin1Char('m');
    return cardNumberText(seconds) + QLatin1Char('s');
}

}  // namespace

void TimelineView::updateHeader() {
    const TimelineSettings& st = m_data->settings;
    // One line of sources (the queries in the tooltip), one of range and evaluation.
    QStringList sources;
    QStringList queries;
    if (m_data->throughput) {
        // Which backend answered, when it was identified ("Prometheus 2.42.0+ds (...)", "VictoriaMetrics").
        sources << (m_data->server.empty()
                        ? tr("Throughput: Prometheus %1").arg(toQString(HttpClient::displayUrl(st.prometheusUrl)))
                        : tr("Throughput: %1 at %2")
                              .arg(toQString(m_data->server), toQString(HttpClient::displayUrl(st.prometheusUrl))));
        queries << tr("Throughput query: %1").arg(toQString(st.throughputQuery));
    } else {
        sources << tr("Throughput: not fetched");
    }
    switch (st.qualitySource) {
        case QualitySource::Prometheus:
            sources << tr("Quality: Prometheus %1").arg(toQString(HttpClient::displayUrl(st.prometheusUrl)));
            queries << tr("Quality query: %1").arg(toQString(st.qualityQuery));
            break;
        case QualitySource::Langfuse: {
            QStringList tags;
            for (const std::string& tag : st.traceTags) tags << toQString(tag);
            QString text = tr("Quality: Langfuse %1 (score %2")
                               .arg(toQString(HttpClient::displayUrl(st.langfuseUrl)), toQString(st.scoreName));
            if (!tags.isEmpty()) text += tr(", tags %1").arg(tags.join(QStringLiteral(", ")));
            sources << text + QLatin1Char(')');
            break;
        }
        case QualitySource::None:
            sources << tr("Quality: not fetched");
            break;
    }
    QString line2 =
        tr("%1 → %2 · step %3 s")
            .arg(toQString(formatTimeUtc(st.from)), toQString(formatTimeUtc(st.to)), cardNumberText(st.step));
    if (st.changeAt) line2 += tr(" · FP8 on at %1").arg(toQString(formatTimeUtc(*st.changeAt)));
    if (m_data->quality) {
        line2 += m_data->alertsEvaluatedBy == "prometheus" ? tr(" · alert evaluated by Prometheus")
                                                           : tr(" · alert evaluated locally, as Prometheus would");
        // Plain words here; the window's exact edges (Prometheus 2.x keeps a sample on the window's left edge, 3.x
        // drops it) in the tooltip.
        line2 += st.rule.windows == WindowSemantics::Prometheus3 ? tr(" · alert windows as Prometheus 3 counts them")
                                                                 : tr(" · alert windows as Prometheus 2 counts them");
        queries << tr("Alert window edges: %1 (a sample exactly at the window's start t−r %2)")
                       .arg(toQString(windowSemanticsTitle(st.rule.windows)),
                            st.rule.windows == WindowSemantics::Prometheus3 ? tr("is left out") : tr("counts"));
        if (!m_data->windowSemanticsBasis.empty())
            queries << tr("Alert windows: %1").arg(toQString(m_data->windowSemanticsBasis));
    }
    // A tooltip is read as rich text when it looks like markup: the queries and the server's words, escaped.
    m_sourceLabel->setToolTip(
        QStringLiteral("<p style='white-space:pre-wrap'>%1</p>").arg(style::escaped(queries.join(QLatin1Char('\n')))));
    setPlainText(m_sourceLabel, sources.join(QStringLiteral("   ·   ")) + QLatin1Char('\n') + line2);

    QStringList warnings;
    for (const std::string& w : m_data->warnings) warnings << QStringLiteral("⚠ ") + toQString(w);
    // The risk flag from vllm:cache_config_info (FP8 KV cache without calculated scales) shows beside the warnings.
    if (m_data->kvScalesRisk) warnings << tr("⚠ Risk: %1").arg(toQString(kvScalesRiskText(*m_data->kvScalesRisk)));
    setPlainText(m_warningsLabel, warnings.join(QLatin1Char('\n')));
    m_warningsLabel->setVisible(!warnings.isEmpty());

    // Where the change time came from (vLLM's switch when none was entered), or a switch that differs from it.
    const auto notice = switchNoticeOf(*m_data, *m_report);
    m_suggestionLabel->setText(notice.text);
    m_useChangeButton->setVisible(notice.offerUse);
    const bool offer = !notice.text.isEmpty();
    m_suggestionBar->setVisible(offer);
}

void TimelineView::updateCards() {
    const TimelineSettings& st = m_data->settings;
    const TimelineBands& b = st.bands;
    const TimelineReport& r = *m_report;

    if (!m_data->throughput) {
        m_throughputCard->setContent(QStringLiteral("—"), QString(), tr("No throughput series was fetched."),
                                     std::nullopt);
    } else if (!st.changeAt) {
        m_throughputCard->setContent(QStringLiteral("—"), QString(),
                                     tr("Set the time FP8 went on to compare before and after."), std::nullopt);
    } else if (const auto d = r.throughput.deltaPct()) {
        const std::optional<Verdict> level = *d >= b.throughputLowPct ? Verdict::Go : Verdict::Monitor;
        m_throughputCard->setContent(
            tr("%1 → %2").arg(fixedText(*r.throughput.beforeMean, 1), fixedText(*r.throughput.afterMean, 1)),
            tr("%1% · expected +%2–%3%")
                .arg(cardSignedFixed(*d, 1), cardNumberText(b.throughputLowPct), cardNumberText(b.throughputHighPct)),
            tr("%1 samples before · %2 after (5 min settle)")
                .arg(r.throughput.beforeCount)
                .arg(r.throughput.afterCount),
            level);
        m_throughputCard->setToolTip(
            tr("Before: samples before the change. After: samples from 5 minutes after it "
               "(the rate window), to the end of the range."));
    } else {
        m_throughputCard->setContent(QStringLiteral("—"), QString(), toQString(r.throughputAssessment), std::nullopt);
    }

    if (!m_data->quality) {
        m_qualityCard->setContent(QStringLiteral("—"), QString(), tr("No quality series was fetched."), std::nullopt);
    } else if (!st.changeAt) {
        m_qualityCard->setContent(QStringLiteral("—"), QString(),
                                  tr("Set the time FP8 went on to compare before and after."), std::nullopt);
    } else if (const auto d = r.quality.deltaPoints()) {
        // The bands of DESIGN.md "Production signals": within ±0.1 holds, a drop beyond 0.3 is a real problem.
        const Verdict level = *d < -b.qualityProblem     ? Verdict::Investigate
                              : *d < -b.qualityTolerance ? Verdict::Monitor
                                                         : Verdict::Go;
        m_qualityCard->setContent(
            tr("%1 → %2").arg(fixedText(*r.quality.beforeMean, 2), fixedText(*r.quality.afterMean, 2)),
            tr("%1 points · expected ±%2, problem below −%3")
                .arg(cardSignedFixed(*d, 2), cardNumberText(b.qualityTolerance), cardNumberText(b.qualityProblem)),
            tr("%1 scores before · %2 after").arg(r.quality.beforeCount).arg(r.quality.afterCount), level);
    } else {
        m_qualityCard->setContent(QStringLiteral("—"), QString(), toQString(r.qualityAssessment), std::nullopt);
    }

    if (!m_data->quality) {
        m_alertCard->setContent(QStringLiteral("—"), QString(), tr("The alert needs a quality series."), std::nullopt);
    } else {
        int fired = 0;
        int firedAfter = 0;
        for (const AlertEpisode& a : m_data->alerts) {
            if (!a.firingAt) continue;
            ++fired;
            if (st.changeAt && *a.firingAt >= *st.changeAt) ++firedAfter;
        }
        const int episodes = static_cast<int>(m_data->alerts.size());
        QString figure;
        Verdict level = Verdict::Go;
        if (firedAfter > 0) {
            figure = tr("Fired after the change");
            level = Verdict::Investigate;
        } else if (fired > 0) {
            figure = st.changeAt ? tr("Fired before the change") : tr("Fired");
            level = Verdict::Monitor;
        } else if (episodes > 0) {
            figure = tr("Pending, never fired");
        } else {
            figure = tr("Never pending");
        }
        const QString by =
            m_data->alertsEvaluatedBy == "prometheus" ? tr("evaluated by Prometheus") : tr("evaluated locally");
        const QString count = episodes == 1 ? tr("1 episode") : tr("%1 episodes").arg(episodes);
        const AlertRule& rule = st.rule;
        m_alertCard->setContent(
            figure, tr("%1 · %2").arg(count, by),
            tr("%1 mean < %2 mean (%3 ago) − %4, held %5")
                .arg(cardDurationText(rule.shortWindowS), cardDurationText(rule.longWindowS),
                     cardDurationText(rule.offsetS), cardNumberText(rule.margin), cardDurationText(rule.holdForS)),
            level);
        m_alertCard->setToolTip(
            escapedTip(toQString(rule.promql("quality")) + tr("  for: %1").arg(cardDurationText(rule.holdForS))));
    }
}

}  // namespace fp8dash::ui
