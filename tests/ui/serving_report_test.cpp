// Issue 40, "What FP8 buys" as a picture: the HTML and PDF reports of a comparison with serving results carry the
// Serving tab's throughput–latency chart (chart snapshot "serving") in their "What FP8 buys on your server" section,
// and the slide of that name shows it beside the gain sentences, legible at 1366 × 768 and 1920 × 1080; a comparison
// without serving results has neither. The comparison is BF16 against FP8 W8A8 of tests/data/lm-eval-ladder, with the
// real InferenceX gpt-oss-120b sweep (concurrency 4..512) as the baseline's serving results and the same files with
// every TTFT halved and the throughputs × 1.3 as the candidate's, both under the ladder's model id. The capacities
// at the SLO (p99 TTFT ≤ 2 s) are found here from the files' raw p99_ttft_ms, not through fp8dash's reader.
// FP8DASH_SCREENSHOT_DIR, when set, receives the slide and the report's picture.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFrame>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "fp8dash/core/presentation_deck.h"
#include "fp8dash/core/report_document.h"
#include "fp8dash/ui/chart_snapshots.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/new_comparison_dialog.h"
#include "fp8dash/ui/presentation_slide_view.h"
#include "fp8dash/ui/presentation_window.h"
#include "fp8dash/ui/report_exporter.h"
#include "fp8dash/ui/serving_chart.h"
#include "fp8dash/ui/serving_view.h"
#include "fp8dash/ui/theme.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

const int kReportLoads[] = {4, 8, 16, 32, 64, 128, 256, 512};
constexpr double kReportSpeed = 1.3, kReportTtft = 0.5;  // the candidate: +30 % throughput, half the TTFT
constexpr double kReportSloMs = 2000;

std::string reportSweepDir() {
    return sharedFixture("serving/vllm-bench-serve");
}
std::string reportSweepName(int concurrency) {
    return "inferencex_gpt-oss-120b_concurrency_" + std::to_string(concurrency) +
           "_req_rate_inf_gpus_16_ctx_8_gen_8.json";
}
nlohmann::json reportRawSweep(int concurrency) {
    std::ifstream in(reportSweepDir() + "/" + reportSweepName(concurrency));
    return nlohmann::json::parse(in);
}

// The sweep under `dir` with the ladder's model id, throughputs × speed and every TTFT × ttft.
void writeReportSweep(const QString& dir, double speed, double ttft) {
    QDir().mkpath(dir);
    for (int c : kReportLoads) {
        nlohmann::json j = reportRawSweep(c);
        j["model_id"] = j["tokenizer_id"] = "meta-llama/Llama-3.1-8B-Instruct";
        for (auto it = j.begin(); it != j.end(); ++it) {
            const std::string& key = it.key();
            if (!it->is_number()) continue;
            if (key == "output_throughput" || key == "total_token_throughput" || key == "request_throughput")
                *it = it->get<double>() * speed;
            else if (key.find("_ttft_ms") != std::string::npos)
                *it = it->get<double>() * ttft;
        }
        std::ofstream out((dir + QLatin1Char('/')).toStdString() + reportSweepName(c));
        out << j.dump(2);
    }
}

// The capacity rule by hand: the highest load before the first whose p99 TTFT (× ttft) misses the SLO.
int capacityByHand(double ttft) {
    int capacity = 0;
    for (int c : kReportLoads) {
        if (reportRawSweep(c)["p99_ttft_ms"].get<double>() * ttft > kReportSloMs) break;
        capacity = c;
    }
    return capacity;
}

struct ServingPair {
    QTemporaryDir dir;
    LoadedComparison loaded;
};

// BF16 against FP8 W8A8 of the ladder, as New Comparison builds it; with serving results when `serving`.
std::unique_ptr<ServingPair> servingPair(bool serving) {
    auto s = std::make_unique<ServingPair>();
    const QString ladder = QStringLiteral(FP8DASH_TEST_DATA "/lm-eval-ladder");
    NewComparisonRequest r;
    r.baselinePath = ladder + QStringLiteral("/bf16");
    r.candidatePath = ladder + QStringLiteral("/w8a8");
    r.baselineLabel = QStringLiteral("BF16");
    r.candidateLabel = QStringLiteral("FP8 W8A8");
    if (serving) {
        writeReportSweep(s->dir.path() + QStringLiteral("/bf16"), 1.0, 1.0);
        writeReportSweep(s->dir.path() + QStringLiteral("/w8a8"), kReportSpeed, kReportTtft);
        r.servingPaths = {s->dir.path() + QStringLiteral("/bf16"), s->dir.path() + QStringLiteral("/w8a8")};
        auto slo = parseServingSlo("ttft_p99=2000ms");
        EXPECT_TRUE(slo.ok());
        if (slo.ok()) r.serving.slo = *slo;
    }
    auto built = buildNewComparison(r);
    EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message);
    if (built.ok()) s->loaded = std::move(built).value();
    return s;
}

// The whole ladder (BF16, FP8 W8A8, + FP8 KV, + FP8 KV calibrated), each with serving results: three gain figures and
// three sentences on the slide.
std::unique_ptr<ServingPair> servingLadderOfFour() {
    auto s = std::make_unique<ServingPair>();
    const QString ladder = QStringLiteral(FP8DASH_TEST_DATA "/lm-eval-ladder");
    const QString root = s->dir.path();
    writeReportSweep(root + QStringLiteral("/bf16"), 1.0, 1.0);
    writeReportSweep(root + QStringLiteral("/w8a8"), kReportSpeed, kReportTtft);
    writeReportSweep(root + QStringLiteral("/kv"), 1.4, 0.45);
    writeReportSweep(root + QStringLiteral("/kv-cal"), 1.31, 0.5);
    NewComparisonRequest r;
    r.baselinePath = ladder + QStringLiteral("/bf16");
    r.candidatePath = ladder + QStringLiteral("/w8a8");
    r.moreCandidatePaths = {ladder + QStringLiteral("/w8a8-kv"), ladder + QStringLiteral("/w8a8-kv-cal")};
    r.moreCandidateLabels = {QString(), QString()};
    r.baselineLabel = QStringLiteral("BF16");
    r.recommendation.accept = Verdict::Monitor;
    r.servingPaths = {root + QStringLiteral("/bf16"), root + QStringLiteral("/w8a8"), root + QStringLiteral("/kv"),
                      root + QStringLiteral("/kv-cal")};
    auto slo = parseServingSlo("ttft_p99=2000ms");
    EXPECT_TRUE(slo.ok());
    if (slo.ok()) r.serving.slo = *slo;
    auto built = buildNewComparison(r);
    EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message);
    if (built.ok()) s->loaded = std::move(built).value();
    return s;
}

ReportContext reportContextWithCharts(const LoadedComparison& loaded) {
    ReportContext ctx;
    ctx.source = "serving.fp8cmp";
    ctx.generatedAt = "2026-12-07T12:00:00Z";
    ctx.toolVersion = "test";
    ctx.charts = reportCharts(loaded);
    return ctx;
}

// The HTML of one section of the browser report: from its heading to the next section's.
QString sectionHtml(const QString& html, const QString& title) {
    const int at = html.indexOf(QStringLiteral(">") + title.toHtmlEscaped() + QStringLiteral("</h2>"));
    if (at < 0) return {};
    const int next = html.indexOf(QStringLiteral("<h2"), at);
    return html.mid(at, next < 0 ? -1 : next - at);
}

// How many pixels of the image are (nearly) the colour: a line drawn in it.
int pixelsOf(const QImage& image, const QColor& color) {
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    int n = 0;
    for (int y = 0; y < rgb.height(); ++y)
        for (int x = 0; x < rgb.width(); ++x) {
            const QColor c = rgb.pixelColor(x, y);
            if (std::abs(c.red() - color.red()) + std::abs(c.green() - color.green()) +
                    std::abs(c.blue() - color.blue()) <
                24)
                ++n;
        }
    return n;
}

const QColor kBaselineBlue(0x1a, 0x73, 0xe8), kCandidateOrange(0xd9, 0x48, 0x1c);

#define REQUIRE_REPORT_SWEEP() FP8DASH_REQUIRE_FIXTURE(reportSweepDir())

class ServingReportTest : public GuiTest {};

TEST_F(ServingReportTest, HtmlReportPlacesTheServingChartInItsSection) {
    REQUIRE_REPORT_SWEEP();
    const auto pair = servingPair(true);
    const LoadedComparison& loaded = pair->loaded;
    ASSERT_TRUE(loaded.decision.serving);
    const ReportContext ctx = reportContextWithCharts(loaded);
    const ReportChart* chart = nullptr;
    for (const ReportChart& c : ctx.charts)
        if (c.key == "serving") chart = &c;
    ASSERT_NE(chart, nullptr);
    // The tab's opening statistic is the SLO's target: p99 TTFT, on the concurrency axis.
    EXPECT_NE(chart->title.find("p99 TTFT"), std::string::npos) << chart->title;
    EXPECT_NE(chart->caption.find("p99 TTFT"), std::string::npos) << chart->caption;
    EXPECT_NE(chart->caption.find("concurrency"), std::string::npos) << chart->caption;

    auto html = reportBytes(loaded, ReportFileFormat::Html, ctx);
    ASSERT_TRUE(html.ok()) << html.error().message;
    const QString page = QString::fromUtf8(*html);
    const QString section = sectionHtml(page, QStringLiteral("What FP8 buys on your server"));
    ASSERT_FALSE(section.isEmpty());
    // One figure, in this section, with its caption as the picture's alternative text and under it.
    EXPECT_EQ(page.count(QStringLiteral("id=\"chart-serving\"")), 1);
    EXPECT_TRUE(section.contains(QStringLiteral("<figure id=\"chart-serving\"><img src=\"data:image/png;base64,")));
    // Escaped for an attribute (an apostrophe as &#39;, as every attribute of the report).
    const QString alt = QString::fromStdString(chart->caption).toHtmlEscaped().replace(u'\'', QStringLiteral("&#39;"));
    EXPECT_TRUE(section.contains(QStringLiteral("alt=\"") + alt + QLatin1Char('"'))) << alt.toStdString();
    // After the gain sentence, before the baseline's own table.
    const int figureAt = section.indexOf(QStringLiteral("chart-serving"));
    EXPECT_LT(section.indexOf(QStringLiteral("FP8 W8A8 buys")), figureAt);
    EXPECT_GE(section.indexOf(QStringLiteral("FP8 W8A8 buys")), 0);
    EXPECT_GT(section.indexOf(QStringLiteral("BF16 (baseline)")), figureAt);

    // The picture is the curve: both variants' lines, in their colours, on a light background.
    const QRegularExpression data(QStringLiteral("id=\"chart-serving\"><img src=\"data:image/png;base64,([^\"]+)\""));
    const auto m = data.match(section);
    ASSERT_TRUE(m.hasMatch());
    QImage image;
    ASSERT_TRUE(image.loadFromData(QByteArray::fromBase64(m.captured(1).toLatin1()), "PNG"));
    EXPECT_EQ(image.size(), QSize(chart->width * 2, chart->height * 2));
    EXPECT_GT(pixelsOf(image, kBaselineBlue), 200);
    EXPECT_GT(pixelsOf(image, kCandidateOrange), 200);
    EXPECT_GT(pixelsOf(image, Qt::white), image.width() * image.height() / 2);

    // The PDF's rich text references it by its resource name in the same section, and the PDF is written.
    const std::string rich = reportToHtml(loaded.document, loaded.decision, ctx, ReportHtmlFlavour::RichText, 640);
    EXPECT_NE(rich.find(chartResourceName("serving")), std::string::npos);
    int pages = 0;
    auto pdf = reportPdf(loaded, ctx, &pages);
    ASSERT_TRUE(pdf.ok()) << pdf.error().message;
    EXPECT_GT(pages, 0);
    if (!qEnvironmentVariableIsEmpty("FP8DASH_SCREENSHOT_DIR")) {
        const QString dir = qEnvironmentVariable("FP8DASH_SCREENSHOT_DIR");
        QDir().mkpath(dir);
        image.save(dir + QStringLiteral("/report-serving-chart.png"));
        QFile file(dir + QStringLiteral("/report-serving.html"));
        if (file.open(QIODevice::WriteOnly)) file.write(*html);
        QFile pdfFile(dir + QStringLiteral("/report-serving.pdf"));
        if (pdfFile.open(QIODevice::WriteOnly)) pdfFile.write(*pdf);
    }
}

TEST_F(ServingReportTest, WithoutServingResultsNoServingChartOrSection) {
    const auto pair = servingPair(false);
    const LoadedComparison& loaded = pair->loaded;
    ASSERT_FALSE(loaded.decision.serving);
    const ReportContext ctx = reportContextWithCharts(loaded);
    for (const ReportChart& c : ctx.charts) EXPECT_NE(c.key, "serving");
    EXPECT_FALSE(ctx.charts.empty());  // the evals' forest plot is still there
    auto html = reportBytes(loaded, ReportFileFormat::Html, ctx);
    ASSERT_TRUE(html.ok()) << html.error().message;
    const QString page = QString::fromUtf8(*html);
    EXPECT_FALSE(page.contains(QStringLiteral("chart-serving")));
    EXPECT_FALSE(page.contains(QStringLiteral("What FP8 buys on your server")));
    EXPECT_TRUE(page.contains(QStringLiteral("id=\"chart-evals-forest\"")));
}

TEST_F(ServingReportTest, TheCapacitiesTheChartStarsAreTheRulesByHand) {
    REQUIRE_REPORT_SWEEP();
    const auto pair = servingPair(true);
    ASSERT_TRUE(pair->loaded.decision.serving);
    const ServingComparison& c = *pair->loaded.decision.serving;
    ASSERT_EQ(c.variants.size(), 2u);
    const int bf16 = capacityByHand(1.0), fp8 = capacityByHand(kReportTtft);
    ASSERT_TRUE(c.variants[0].capacity.load);
    ASSERT_TRUE(c.variants[1].capacity.load);
    EXPECT_EQ(*c.variants[0].capacity.load, bf16);
    EXPECT_EQ(*c.variants[1].capacity.load, fp8);
    EXPECT_NE(bf16, fp8);  // the picture shows two capacities, not one
}

TEST_F(ServingReportTest, TheSlideShowsTheChartBesideTheGainSentenceAtBothSizes) {
    REQUIRE_REPORT_SWEEP();
    const auto pair = servingPair(true);
    const QString shots = qEnvironmentVariable("FP8DASH_SCREENSHOT_DIR");
    for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
        PresentationWindow w(pair->loaded);
        layOutSlide(w, size);
        const auto index = w.deck().indexOf(PresentationStep::Serving);
        ASSERT_TRUE(index);
        w.goTo(static_cast<int>(*index));
        QApplication::processEvents();
        const QImage picture = w.grab().toImage();
        const PresentationSlideView* slide = w.currentSlide();
        ASSERT_EQ(slide->step(), PresentationStep::Serving);
        EXPECT_EQ(slide->chartKeys(), QStringList{QStringLiteral("serving")});
        const QWidget* chart = slide->findChild<QWidget*>(QStringLiteral("slideChart"));
        ASSERT_NE(chart, nullptr);
        EXPECT_EQ(chart->property("chartKey").toString(), QStringLiteral("serving"));
        EXPECT_TRUE(chart->isVisibleTo(slide));
        // Large: more than half the slide's width and a third of its height, inside the slide.
        const QRect at(chart->mapTo(slide, QPoint(0, 0)), chart->size());
        EXPECT_GT(at.width(), size.width() / 2) << size.width();
        EXPECT_GT(at.height(), size.height() / 3) << size.width();
        EXPECT_TRUE(QRect(QPoint(0, 0), size).contains(at));
        // The gain sentence beside it, and nothing clipped.
        bool sentence = false;
        for (const QLabel* l : slide->findChildren<QLabel*>(QStringLiteral("slidePoint")))
            sentence = sentence || (l->isVisibleTo(slide) && l->text().contains(QStringLiteral("buys")));
        EXPECT_TRUE(sentence);
        const QStringList clipped = clippedSlideLabels(slide);
        EXPECT_TRUE(clipped.isEmpty()) << clipped.join(QStringLiteral("; ")).toStdString();
        // The picture's text is drawn at least as large as in the app's own 13 px chart text.
        const auto request = PresentationSlideView::chartRequest(w.deck().slides[*index], size);
        EXPECT_GE(request.scale, 1.0);
        if (!shots.isEmpty()) {
            QDir().mkpath(shots);
            picture.save(QStringLiteral("%1/slide-serving-%2x%3.png").arg(shots).arg(size.width()).arg(size.height()));
        }
    }
}

TEST_F(ServingReportTest, WithThreeCandidatesTheChartSpansTheSlideAndEverythingFits) {
    REQUIRE_REPORT_SWEEP();
    const auto ladder = servingLadderOfFour();
    ASSERT_TRUE(ladder->loaded.decision.serving);
    ASSERT_EQ(ladder->loaded.decision.serving->variants.size(), 4u);
    const QString shots = qEnvironmentVariable("FP8DASH_SCREENSHOT_DIR");
    for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
        PresentationWindow w(ladder->loaded);
        layOutSlide(w, size);
        const auto index = w.deck().indexOf(PresentationStep::Serving);
        ASSERT_TRUE(index);
        w.goTo(static_cast<int>(*index));
        QApplication::processEvents();
        const QImage picture = w.grab().toImage();
        const PresentationSlideView* slide = w.currentSlide();
        EXPECT_EQ(slide->chartKeys(), QStringList{QStringLiteral("serving")});
        // Three candidates: the curve across the slide (its legend has room for every variant's name), under a
        // figure per candidate.
        EXPECT_EQ(slide->findChildren<QFrame*>(QStringLiteral("slideFigure")).size(), 3);
        const QWidget* chart = slide->findChild<QWidget*>(QStringLiteral("slideChart"));
        ASSERT_NE(chart, nullptr);
        EXPECT_GT(chart->width(), size.width() * 3 / 4);
        const QStringList clipped = clippedSlideLabels(slide);
        EXPECT_TRUE(clipped.isEmpty()) << size.width() << ": " << clipped.join(QStringLiteral("; ")).toStdString();
        EXPECT_LE(slide->minimumSizeHint().height(), size.height());
        if (!shots.isEmpty())
            picture.save(
                QStringLiteral("%1/slide-serving-ladder-%2x%3.png").arg(shots).arg(size.width()).arg(size.height()));
    }
}

// The bundled demo's illustrative serving results: each variant's capacity at its SLO by hand, from the file's raw
// p99 TTFT per concurrency (the highest load before the first that misses).
std::vector<double> demoCapacitiesByHand(const Json& demo, double sloMs) {
    std::vector<double> out;
    for (const Json& v : demo["serving"]["variants"]) {
        std::vector<std::pair<double, double>> points;  // (concurrency, p99 TTFT)
        for (const Json& r : v["runs"]) {
            double p99 = -1;
            for (const Json& pc : r["ttft_ms"]["percentiles"])
                if (pc[0].get<double>() == 99) p99 = pc[1].get<double>();
            points.emplace_back(r["load"]["value"].get<double>(), p99);
        }
        std::sort(points.begin(), points.end());
        double capacity = 0;
        for (const auto& [load, p99] : points) {
            if (p99 < 0 || p99 > sloMs) break;
            capacity = load;
        }
        out.push_back(capacity);
    }
    return out;
}

TEST_F(ServingReportTest, TheDemoOpensOnAPopulatedServingTabItsSentenceAndItsSlide) {
    const Json demo = demoJson();
    ASSERT_TRUE(demo.contains("serving"));
    EXPECT_EQ(demo["serving"]["options"]["slo"].get<std::string>(), "ttft_p99=2000ms");
    const std::vector<double> capacity = demoCapacitiesByHand(demo, kReportSloMs);
    ASSERT_EQ(capacity.size(), 2u);
    EXPECT_NE(capacity[0], capacity[1]);  // FP8 serves more users within the SLO than BF16
    // Marked illustrative as the judge scores are: in every run's source and in the demo's note.
    for (const Json& v : demo["serving"]["variants"])
        for (const Json& r : v["runs"])
            EXPECT_EQ(r["source"].get<std::string>().rfind("illustrative ", 0), 0u) << r["source"];
    bool noted = false;
    for (const Json& n : demo["notes"])
        noted = noted || n["text"].get<std::string>().find("serving benchmarks of this demo are illustrative") !=
                             std::string::npos;
    EXPECT_TRUE(noted);

    MainWindow window;
    window.resize(1366, 768);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.openDemo();
    ASSERT_NE(window.current(), nullptr);
    ComparisonView* view = window.comparisonView();
    ASSERT_TRUE(view->tabs()->isTabVisible(ComparisonView::ServingTab));
    view->showTab(ComparisonView::ServingTab);
    ServingView* serving = view->servingView();
    ASSERT_FALSE(serving->isEmptyShown());
    ASSERT_EQ(serving->gainTexts().size(), 1);
    const QString gain = serving->gainTexts().front();
    const auto load = [](double v) { return QString::number(v, 'g', 4); };
    EXPECT_TRUE(gain.contains(
        QStringLiteral("serves %1 instead of %2 concurrent requests").arg(load(capacity[1]), load(capacity[0]))))
        << gain.toStdString();
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(serving->chart()->lineSeries(i)->count(),
                  static_cast<int>(demo["serving"]["variants"][i]["runs"].size()));
        EXPECT_EQ(serving->chart()->capacityLabel(i), QStringLiteral("capacity %1").arg(load(capacity[i])));
    }
    // The verdict's reasons carry the same sentence; the deck has the slide with the chart.
    bool reason = false;
    for (const std::string& r : window.current()->decision.reasons)
        reason = reason || QString::fromStdString(r).contains(gain);
    EXPECT_TRUE(reason);
    PresentationWindow w(*window.current());
    layOutSlide(w, QSize(1366, 768));
    const auto at = w.deck().indexOf(PresentationStep::Serving);
    ASSERT_TRUE(at);
    w.goTo(static_cast<int>(*at));
    QApplication::processEvents();
    EXPECT_EQ(w.currentSlide()->chartKeys(), QStringList{QStringLiteral("serving")});
    EXPECT_TRUE(clippedSlideLabels(w.currentSlide()).isEmpty());

    // Pictures of the tab and the slide, both sizes and themes, to look at.
    const QString shots = qEnvironmentVariable("FP8DASH_SCREENSHOT_DIR");
    if (shots.isEmpty()) return;
    QDir().mkpath(shots);
    for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
        for (const ThemeMode mode : {ThemeMode::Light, ThemeMode::Dark}) {
            Theme::instance()->setMode(mode);
            window.resize(size);
            view->showTab(ComparisonView::ServingTab);
            QTest::qWait(50);
            const QString theme = mode == ThemeMode::Dark ? QStringLiteral("dark") : QStringLiteral("light");
            window.grab().save(QStringLiteral("%1/demo-serving-tab-%2x%3-%4.png")
                                   .arg(shots)
                                   .arg(size.width())
                                   .arg(size.height())
                                   .arg(theme));
        }
        PresentationWindow slides(*window.current());
        layOutSlide(slides, size);
        slides.goTo(static_cast<int>(*at));
        QApplication::processEvents();
        slides.grab().save(
            QStringLiteral("%1/demo-slide-serving-%2x%3.png").arg(shots).arg(size.width()).arg(size.height()));
    }
    Theme::instance()->setMode(ThemeMode::Light);
}

TEST_F(ServingReportTest, WithoutServingResultsTheDeckHasNoServingSlide) {
    const auto pair = servingPair(false);
    PresentationWindow w(pair->loaded);
    EXPECT_FALSE(w.deck().indexOf(PresentationStep::Serving));
}

}  // namespace
}  // namespace fp8dash::ui::test
