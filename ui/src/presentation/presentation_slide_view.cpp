#include "fp8dash/ui/presentation_slide_view.h"

#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QRegularExpression>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "fp8dash/core/report_format.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/number_text.h"
#include "presentation/layer_costs_table.h"
#include "presentation/slide_pictures.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

namespace {

// The deck's palette: dark ink on white reads from the back of a lit room on any projector. It stays light on a dark
// theme (the verdict tints too), so a theme change leaves a running presentation as it is.
const QColor kBack(0xff, 0xff, 0xff);
const QColor kInk(0x15, 0x18, 0x1d);
const QColor kQuiet(0x55, 0x5d, 0x69);
const QColor kCard(0xf2, 0xf4, 0xf7);
const QColor kRule(0xdc, 0xe0, 0xe6);
const QColor kAccent(0x24, 0x34, 0x47);  // neutral accent (no verdict): slate
const QColor kNoVerdict(0x5f, 0x63, 0x68);

}  // namespace

// Sizes in pixels at 1920 × 1080 (unit 1); everything scales with the unit. In a named namespace: the builders'
// shared Parts (a member type of the view) holds one.
namespace presentation_slide_metrics {
struct Metrics {
    explicit Metrics(QSize size) : w(size.width()), h(size.height()), u(PresentationSlideView::unitFor(size)) {}
    int w, h;
    qreal u;
    int px(qreal v) const { return std::max(1, static_cast<int>(std::lround(v * u))); }

    int marginX() const { return px(88); }
    int marginTop() const { return px(54); }
    int marginBottom() const { return px(26); }
    int contentWidth() const { return w - 2 * marginX(); }
    int kickerRowHeight() const { return px(24 * 1.9); }  // the verdict pill's height, with or without one
    int headerHeight() const { return kickerRowHeight() + px(56 * 1.3 + 30 * 1.5 + 16); }
    int footerHeight() const { return px(20 * 1.6 + 30); }
    int bodySpacing() const { return px(30); }
    int bodyHeight() const {
        return h - marginTop() - marginBottom() - headerHeight() - footerHeight() - 2 * bodySpacing();
    }
    int figureRowHeight() const {
        return px(22 * 1.5 + 52 * 1.25 + 22 * 1.5 + 32);
    }  // compact cards, one line of detail
    int gap() const { return px(36); }
};
}  // namespace presentation_slide_metrics
using presentation_slide_metrics::Metrics;

namespace {

QString colorName(const QColor& c) {
    return c.name(QColor::HexRgb);
}

// An ASCII minus before a number becomes the typographic one: on a slide "−2.59%" lines up with "+0.30%". Hyphens
// inside words and names ("Llama-3-8B") stay.
QString typographic(const QString& text) {
    static const QRegularExpression minus(QStringLiteral("(^|[\\s(·])-(?=[0-9.])"));
    QString s = text;
    s.replace(minus, QStringLiteral("\\1") + QChar(0x2212));
    return s;
}
QString typographic(const std::string& text) {
    return typographic(toQString(text));
}

QLabel* makeLabel(QWidget* parent, const QString& text, int px, QFont::Weight weight, const QColor& color,
                  const QString& objectName = {}, bool wrap = true) {
    auto* label = new QLabel(visibleText(text), parent);  // its controls shown (untrusted_ui.h)
    if (!objectName.isEmpty()) label->setObjectName(objectName);
    QFont f = label->font();
    f.setPixelSize(px);
    f.setWeight(weight);
    label->setFont(f);
    label->setWordWrap(wrap);
    label->setTextFormat(Qt::PlainText);
    label->setStyleSheet(QStringLiteral("color: %1; background: transparent; border: none;").arg(colorName(color)));
    return label;
}

// A pill: the verdict's title in white on its strong colour.
QLabel* verdictPill(QWidget* parent, std::optional<Verdict> v, int px, const QString& objectName) {
    auto* pill = makeLabel(parent, v ? toQString(verdictTitle(*v)) : PresentationSlideView::tr("NO VERDICT"), px,
                           QFont::Bold, Qt::white, objectName, false);
    QFont f = pill->font();
    f.setLetterSpacing(QFont::PercentageSpacing, 106);
    pill->setFont(f);
    pill->setAlignment(Qt::AlignCenter);
    pill->setStyleSheet(QStringLiteral("color: white; background: %1; border-radius: %2px; padding: %3px %4px;")
                            .arg(colorName(v ? style::verdictColor(*v) : kNoVerdict))
                            .arg(px * 0.45)
                            .arg(px / 4)
                            .arg(px * 2 / 3));
    pill->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    pill->setAccessibleName(PresentationSlideView::tr("Verdict: %1").arg(pill->text()));
    return pill;
}

// A thin rule that fills with the progress through the deck.
class ProgressRule : public QWidget {
public:
    ProgressRule(qreal fraction, int thickness, QWidget* parent) : QWidget(parent), m_fraction(fraction) {
        setFixedHeight(thickness);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.fillRect(rect(), kRule);
        p.fillRect(QRect(0, 0, static_cast<int>(width() * m_fraction), height()), kAccent);
    }

private:
    qreal m_fraction;
};

QString stepLabel(PresentationStep step) {
    return toQString(presentationStepName(step));
}

}  // namespace

qreal PresentationSlideView::unitFor(QSize size) {
    if (size.isEmpty()) return 1.0;
    return std::max(0.3, std::min(size.height() / 1080.0, size.width() / 1440.0));
}

PresentationSlideView::ChartRequest PresentationSlideView::chartRequest(const PresentationSlide& slide, QSize size) {
    const Metrics m(size);
    QSize area;
    const int charts = static_cast<int>(slide.charts.size());
    const bool besideFigures =
        slide.step == PresentationStep::Judge || (slide.step == PresentationStep::Benchmarks && charts == 1);
    if (besideFigures) {
        area = QSize(m.contentWidth() * 3 / 5 - m.gap() / 2, m.bodyHeight());
    } else if (slide.step == PresentationStep::Serving && slide.points.size() <= 1) {
        // Under the figure, the curve beside the gain sentence (buildEvidence).
        area = QSize((m.contentWidth() - m.gap()) * 3 / 5, m.bodyHeight() - m.figureRowHeight() - m.bodySpacing());
    } else {
        const int h = m.bodyHeight() - m.figureRowHeight() - m.bodySpacing();
        const int n = std::max(1, charts);
        area = QSize((m.contentWidth() - (n - 1) * m.gap()) / n, h);
        // Which layers: one forest plot per variant, stacked at the width of the figures (as tall as its rows).
        if (slide.step == PresentationStep::Variants)
            return {QSize(static_cast<int>(m.contentWidth() / 1.75), 200), 1.75};
    }
    // Chart text is ~13 px in the views: 1.75 units makes it ~23 px on a 1080-line screen. A chart needs ~300
    // logical pixels of height for its axes, title and legend; a shorter area gets a smaller scale instead.
    constexpr int kMinLogicalHeight = 270;
    qreal scale = std::max(1.0, 1.75 * m.u);
    if (area.height() / scale < kMinLogicalHeight) scale = std::max(1.0, area.height() / qreal(kMinLogicalHeight));
    const QSize logical(std::max(320, static_cast<int>(area.width() / scale)),
                        std::max(200, static_cast<int>(area.height() / scale)));
    return {logical, scale};
}

namespace {

// A card's style: the light fill, a coloured edge on the left, rounded on the right only (a rounded corner on a
// thick left border draws a bracket).
QString cardStyle(const QString& objectName, const QColor& edge, int edgeWidth, int radius) {
    return QStringLiteral(
               "QFrame#%1 { background: %2; border: none; border-left: %3px solid %4;"
               " border-top-right-radius: %5px; border-bottom-right-radius: %5px; }")
        .arg(objectName, colorName(kCard))
        .arg(edgeWidth)
        .arg(colorName(edge))
        .arg(radius);
}

QString fixedValue(double v) {
    const double a = std::fabs(v);
    return fixedText(v, a < 1 ? 4 : a < 100 ? 2 : 1);
}

}  // namespace

// What a slide's builders share: the deck, the slide, its metrics and the charts it shows.
struct PresentationSlideView::Parts {
    const PresentationDeck& deck;
    const PresentationSlide& slide;
    Metrics m;
    std::vector<const ChartSnapshot*> shownCharts;

    // compact: a row of cards above a chart, which needs the height.
    QFrame* figureCard(const SlideFigure& f, QWidget* owner, qreal valuePx, bool compact = false) const {
        auto* card = new QFrame(owner);
        card->setObjectName(QStringLiteral("slideFigure"));
        card->setProperty("figureLabel", toQString(f.label));
        card->setStyleSheet(cardStyle(card->objectName(), f.level ? style::verdictColor(*f.level) : kRule,
                                      m.px(f.level ? 9 : 6), m.px(10)));
        auto* l = new QVBoxLayout(card);
        l->setContentsMargins(m.px(28), m.px(compact ? 14 : 20), m.px(24), m.px(compact ? 14 : 22));
        l->setSpacing(m.px(compact ? 2 : 4));
        l->addWidget(
            makeLabel(card, toQString(f.label), m.px(22), QFont::DemiBold, kQuiet, QStringLiteral("figureLabel")));
        l->addWidget(makeLabel(card, typographic(f.value), m.px(valuePx), QFont::Bold,
                               f.level ? style::verdictTextColor(*f.level, false) : kInk,
                               QStringLiteral("figureValue")));
        if (!f.detail.empty())
            l->addWidget(makeLabel(card, typographic(f.detail), m.px(22), QFont::Normal, kQuiet,
                                   QStringLiteral("figureDetail")));
        l->addStretch(1);
        card->setAccessibleName(toQString(f.label) + QStringLiteral(": ") + typographic(f.value));
        card->setAccessibleDescription(typographic(f.detail));
        return card;
    }
    QLabel* kicker(const QString& text, QWidget* owner, const QColor& color) const {
        auto* label =
            makeLabel(owner, text.toUpper(), m.px(24), QFont::Bold, color, QStringLiteral("slideKicker"), false);
        QFont f = label->font();
        f.setLetterSpacing(QFont::PercentageSpacing, 112);
        label->setFont(f);
        return label;
    }
};

QWidget* PresentationSlideView::chartWidget(const ChartSnapshot& snapshot, QWidget* owner) {
    m_chartKeys << snapshot.key;
    return new slide_pictures::FittedImage(snapshot, owner);  // the views draw their own chart titles
}

PresentationSlideView::PresentationSlideView(const PresentationDeck& deck, std::size_t index, QSize size,
                                             const std::vector<ChartSnapshot>& charts, QWidget* parent)
    : QWidget(parent), m_index(index) {
    setObjectName(QStringLiteral("presentationSlide"));
    setAttribute(Qt::WA_StyledBackground);
    setAutoFillBackground(true);
    QPalette pal = palette();
    pal.setColor(QPalette::Window, kBack);
    setPalette(pal);
    setStyleSheet(QStringLiteral("QWidget#presentationSlide { background: %1; }").arg(colorName(kBack)));
    if (index >= deck.slides.size()) return;
    const PresentationSlide& slide = deck.slides[index];
    m_step = slide.step;
    m_title = toQString(slide.title);
    const Metrics m(size);

    auto* root = new QVBoxLayout(this);
    root->setContentsMargins(m.marginX(), m.marginTop(), m.marginX(), m.marginBottom());
    root->setSpacing(m.bodySpacing());

    Parts parts{deck, slide, m, {}};
    for (const std::string& key : slide.charts) {
        for (const ChartSnapshot& snapshot : charts) {
            if (snapshot.key == toQString(key) && !snapshot.image.isNull()) parts.shownCharts.push_back(&snapshot);
        }
    }
    const auto kicker = [&parts](const QString& text, QWidget* owner, const QColor& color) {
        return parts.kicker(text, owner, color);
    };

    // ---- header: kicker and verdict pill, title, subtitle (the cover and the verdict slide have their own)
    const bool content = slide.step != PresentationStep::Cover && slide.step != PresentationStep::Verdict;
    if (content) {
        auto* header = new QVBoxLayout;
        header->setSpacing(m.px(6));
        auto* topRow = new QWidget(this);
        topRow->setFixedHeight(m.kickerRowHeight());  // the title sits at the same height with or without a pill
        auto* top = new QHBoxLayout(topRow);
        top->setContentsMargins(0, 0, 0, 0);
        top->addWidget(kicker(stepLabel(slide.step), topRow, kQuiet), 0, Qt::AlignVCenter);
        top->addStretch(1);
        if (slide.verdict)
            top->addWidget(verdictPill(topRow, slide.verdict, m.px(24), QStringLiteral("slideVerdict")), 0,
                           Qt::AlignVCenter);
        header->addWidget(topRow);
        header->addWidget(makeLabel(this, m_title, m.px(56), QFont::Bold, kInk, QStringLiteral("slideTitle")));
        if (!slide.subtitle.empty())
            header->addWidget(makeLabel(this, typographic(slide.subtitle), m.px(30), QFont::Normal, kQuiet,
                                        QStringLiteral("slideSubtitle")));
        root->addLayout(header);
    }

    // ---- body
    auto* body = new QWidget(this);
    body->setObjectName(QStringLiteral("slideBody"));
    root->addWidget(body, 1);

    switch (slide.step) {
        case PresentationStep::Cover:
            buildCover(body, parts);
            break;
        case PresentationStep::Evals:
            buildEvals(body, parts);
            break;
        case PresentationStep::Variants:
        case PresentationStep::LongContext:
        case PresentationStep::Judge:
        case PresentationStep::Benchmarks:
        case PresentationStep::Timeline:
        case PresentationStep::Capacity:
        case PresentationStep::Serving:
            buildEvidence(body, parts);
            break;
        case PresentationStep::Verdict:
            buildVerdict(body, parts);
            break;
        case PresentationStep::ChangedAnswer:
            buildAnswer(body, parts);
            break;
        case PresentationStep::LayerCosts: {
            auto* l = new QVBoxLayout(body);
            l->setContentsMargins(0, 0, 0, 0);
            l->addWidget(makeLayerCostsTable(slide, m.u, m.bodyHeight(), body));
            break;
        }
    }

    // ---- footer: progress, step, model, n / N
    auto* footer = new QVBoxLayout;
    footer->setSpacing(m.px(10));
    const int total = static_cast<int>(deck.slides.size());
    footer->addWidget(
        new ProgressRule(total > 0 ? static_cast<qreal>(index + 1) / total : 0, std::max(2, m.px(4)), this));
    auto* line = new QHBoxLayout;
    line->addWidget(makeLabel(this, stepLabel(slide.step), m.px(20), QFont::DemiBold, kQuiet,
                              QStringLiteral("slideFooterStep"), false));
    line->addStretch(1);
    if (!deck.model.empty()) {
        line->addWidget(
            makeLabel(this,
                      tr("%1 · %2").arg(
                          toQString(deck.model),
                          toQString(deck.runs.empty() ? deck.baselineLabel + " vs " + deck.candidateLabel : deck.runs)),
                      m.px(20), QFont::Normal, kQuiet, QStringLiteral("slideFooterModel"), false));
        line->addStretch(1);
    }
    line->addWidget(makeLabel(this, QStringLiteral("%1 / %2").arg(index + 1).arg(total), m.px(20), QFont::DemiBold,
                              kQuiet, QStringLiteral("slideFooterPage"), false));
    footer->addLayout(line);
    root->addLayout(footer);
    setAccessibleName(tr("Slide %1 of %2: %3").arg(index + 1).arg(total).arg(m_title));
}

// The cover: the title, the two runs, the agenda.
void PresentationSlideView::buildCover(QWidget* body, const Parts& parts) {
    const Metrics& m = parts.m;
    const PresentationSlide& slide = parts.slide;
    const PresentationDeck& deck = parts.deck;
    const auto kicker = [&parts](const QString& text, QWidget* owner, const QColor& color) {
        return parts.kicker(text, owner, color);
    };
    auto* l = new QVBoxLayout(body);
    l->setContentsMargins(0, 0, 0, 0);
    l->setSpacing(m.px(18));
    l->addWidget(kicker(tr("FP8 decision review"), body, kQuiet));
    l->addStretch(2);
    auto* bar = new QFrame(body);
    bar->setFixedSize(m.px(120), m.px(10));
    bar->setStyleSheet(QStringLiteral("background: %1; border: none;").arg(colorName(kAccent)));
    l->addWidget(bar);
    l->addWidget(makeLabel(body, m_title, m.px(84), QFont::Bold, kInk, QStringLiteral("slideTitle")));
    if (!slide.subtitle.empty())
        l->addWidget(makeLabel(body, toQString(slide.subtitle), m.px(34), QFont::Normal, kQuiet,
                               QStringLiteral("slideSubtitle")));
    l->addSpacing(m.px(20));
    auto* runs = new QGridLayout;
    runs->setHorizontalSpacing(m.px(24));
    runs->setVerticalSpacing(m.px(10));
    int row = 0;
    for (const std::string& p : slide.points) {
        // "BF16: model — layers": the label in bold in its own column, so the two runs line up.
        const QString point = toQString(p);
        const int colon = point.indexOf(QStringLiteral(": "));
        auto* text = makeLabel(body, colon > 0 ? point.mid(colon + 2) : point, m.px(28), QFont::Normal, kInk,
                               QStringLiteral("slidePoint"));
        if (colon > 0 && colon <= 40) {  // a label of its own (variant labels run to ~40 characters)
            runs->addWidget(makeLabel(body, point.left(colon), m.px(28), QFont::Bold, kAccent,
                                      QStringLiteral("slidePointLabel"), false),
                            row, 0, Qt::AlignTop);
            runs->addWidget(text, row, 1);
        } else {
            setPlainText(text, point);
            runs->addWidget(text, row, 0, 1, 2);
        }
        ++row;
    }
    runs->setColumnStretch(1, 1);
    l->addLayout(runs);
    l->addStretch(3);
    QStringList agenda;
    for (std::size_t i = 1; i < deck.slides.size(); ++i) agenda << stepLabel(deck.slides[i].step);
    l->addWidget(makeLabel(body, agenda.join(QStringLiteral("  →  ")), m.px(26), QFont::DemiBold, kAccent,
                           QStringLiteral("coverAgenda")));
    if (!deck.date.empty())
        l->addWidget(makeLabel(body, tr("Comparison of %1").arg(toQString(deck.date)), m.px(24), QFont::Normal, kQuiet,
                               QStringLiteral("coverDate")));
}

// The offline evals: the tasks, worst first, beside their figures.
void PresentationSlideView::buildEvals(QWidget* body, const Parts& parts) {
    const Metrics& m = parts.m;
    const PresentationSlide& slide = parts.slide;
    const PresentationDeck& deck = parts.deck;
    const auto figureCard = [&parts](const SlideFigure& f, QWidget* owner, qreal valuePx, bool compact = false) {
        return parts.figureCard(f, owner, valuePx, compact);
    };
    auto* l = new QHBoxLayout(body);
    l->setContentsMargins(0, 0, 0, 0);
    l->setSpacing(m.gap() * 3 / 2);
    auto* table = new QWidget(body);
    table->setObjectName(QStringLiteral("taskTable"));
    table->setAccessibleName(tr("Tasks compared, worst first"));
    auto* grid = new QGridLayout(table);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(0);
    grid->setVerticalSpacing(0);
    const int textPx = m.px(30);
    const int headerHeight = m.px(21 * 2.4);
    const int n = static_cast<int>(slide.tasks.size());
    const int available = m.bodyHeight() - headerHeight;
    // Rows get roomier when there are few tasks, and the list is cut (and summed up) when they do not fit.
    const int minRow = m.px(30 * 1.9), maxRow = m.px(30 * 2.6);
    const int fit = std::max(1, available / minRow);
    m_visibleTaskRows = n <= fit ? n : fit - 1;
    const int rows = m_visibleTaskRows + (m_visibleTaskRows < n ? 1 : 0);
    const int rowHeight = std::clamp(rows > 0 ? available / rows : maxRow, minRow, maxRow);
    const int pad = m.px(16);

    // A band behind each row (tint for the worst task, a rule under every row), the cells on top.
    const auto band = [&](int row, const QColor& back, const QColor& rule, int ruleWidth) {
        auto* b = new QFrame(table);
        b->setObjectName(QStringLiteral("taskBand"));
        b->setStyleSheet(
            QStringLiteral("QFrame#taskBand { background: %1; border: none; border-bottom: %2px solid %3; }")
                .arg(back.alpha() == 0 ? QStringLiteral("transparent") : colorName(back))
                .arg(ruleWidth)
                .arg(colorName(rule)));
        grid->addWidget(b, row, 0, 1, 5);
    };
    const QStringList header{tr("Task"), toQString(deck.baselineLabel), toQString(deck.candidateLabel), tr("Δ"),
                             tr("Verdict")};
    band(0, Qt::transparent, kInk, std::max(1, m.px(2)));
    for (int c = 0; c < header.size(); ++c) {
        auto* h = makeLabel(table, header[c].toUpper(), m.px(21), QFont::Bold, kQuiet, {}, false);
        h->setFixedHeight(headerHeight);
        h->setContentsMargins(pad, 0, pad, 0);
        h->setAlignment((c == 0 ? Qt::AlignLeft : c == 4 ? Qt::AlignHCenter : Qt::AlignRight) | Qt::AlignVCenter);
        grid->addWidget(h, 0, c);
    }
    for (int i = 0; i < m_visibleTaskRows; ++i) {
        const SlideTaskRow& t = slide.tasks[static_cast<std::size_t>(i)];
        const bool isWorst = i == 0 && t.degradationPct.value_or(0) > 0;
        band(i + 1, isWorst ? style::verdictTint(t.verdict, false) : QColor(Qt::transparent), kRule,
             std::max(1, m.px(1)));
        const auto cell = [&](const QString& text, const char* column, Qt::Alignment align, QFont::Weight w,
                              const QColor& color) {
            auto* c = makeLabel(table, text, textPx, w, color, QStringLiteral("taskCell"), false);
            c->setProperty("task", toQString(t.task));
            c->setProperty("column", QString::fromLatin1(column));
            c->setAlignment(align | Qt::AlignVCenter);
            c->setFixedHeight(rowHeight);
            c->setContentsMargins(pad, 0, pad, 0);
            return c;
        };
        auto* task = cell(toQString(t.task), "task", Qt::AlignLeft, isWorst ? QFont::Bold : QFont::DemiBold, kInk);
        if (t.fp8Sensitive) task->setToolTip(tr("Known to be FP8-sensitive (math, reasoning or code)"));
        grid->addWidget(task, i + 1, 0);
        grid->addWidget(cell(fixedValue(t.baseline), "baseline", Qt::AlignRight, QFont::Normal, kQuiet), i + 1, 1);
        grid->addWidget(cell(fixedValue(t.candidate), "candidate", Qt::AlignRight, QFont::Normal, kQuiet), i + 1, 2);
        grid->addWidget(cell(typographic(formatPercent(t.deltaPct)), "delta", Qt::AlignRight, QFont::Bold,
                             style::verdictTextColor(t.verdict, false)),
                        i + 1, 3);
        auto* pill = verdictPill(table, t.verdict, m.px(20), QStringLiteral("taskCell"));
        pill->setProperty("task", toQString(t.task));
        pill->setProperty("column", QStringLiteral("verdict"));
        pill->setProperty("verdict", toQString(verdictName(t.verdict)));
        grid->addWidget(pill, i + 1, 4, Qt::AlignCenter);
    }
    if (m_visibleTaskRows < n) {
        Verdict worstHidden = Verdict::Go;
        for (int i = m_visibleTaskRows; i < n; ++i)
            worstHidden = worst(worstHidden, slide.tasks[static_cast<std::size_t>(i)].verdict);
        auto* more = makeLabel(table,
                               tr("+ %1 more tasks, none worse than %2")
                                   .arg(n - m_visibleTaskRows)
                                   .arg(toQString(verdictTitle(worstHidden))),
                               m.px(24), QFont::Normal, kQuiet, QStringLiteral("moreTasks"), false);
        more->setFixedHeight(rowHeight);
        more->setContentsMargins(pad, 0, pad, 0);
        grid->addWidget(more, m_visibleTaskRows + 1, 0, 1, 5);
    }
    grid->setColumnStretch(0, 1);
    grid->setRowStretch(grid->rowCount(), 1);
    l->addWidget(table, 3);
    auto* side = new QVBoxLayout;
    side->setSpacing(m.px(24));
    for (const SlideFigure& f : slide.figures) side->addWidget(figureCard(f, body, 60));
    side->addStretch(1);
    l->addLayout(side, 2);
}

// A step of evidence (long context, judge, benchmarks, timeline, capacity): its figures and charts.
void PresentationSlideView::buildEvidence(QWidget* body, const Parts& parts) {
    const Metrics& m = parts.m;
    const PresentationSlide& slide = parts.slide;
    const std::vector<const ChartSnapshot*>& shownCharts = parts.shownCharts;
    const auto figureCard = [&parts](const SlideFigure& f, QWidget* owner, qreal valuePx, bool compact = false) {
        return parts.figureCard(f, owner, valuePx, compact);
    };
    const auto chart = [this](const ChartSnapshot& snapshot, QWidget* owner) { return chartWidget(snapshot, owner); };
    const bool beside = slide.step == PresentationStep::Judge ||
                        (slide.step == PresentationStep::Benchmarks && shownCharts.size() == 1);
    if (beside) {
        auto* l = new QHBoxLayout(body);
        l->setContentsMargins(0, 0, 0, 0);
        l->setSpacing(m.gap());
        auto* side = new QVBoxLayout;
        side->setSpacing(m.px(20));
        for (const SlideFigure& f : slide.figures) side->addWidget(figureCard(f, body, 60));
        side->addStretch(1);
        l->addLayout(side, 2);
        if (!shownCharts.empty()) {
            l->addWidget(chart(*shownCharts.front(), body), 3);
        } else {
            l->addStretch(3);
        }
    } else {
        auto* l = new QVBoxLayout(body);
        l->setContentsMargins(0, 0, 0, 0);
        l->setSpacing(m.bodySpacing());
        auto* row = new QHBoxLayout;
        row->setSpacing(m.gap());
        const bool compact = slide.step != PresentationStep::Capacity;
        for (const SlideFigure& f : slide.figures) row->addWidget(figureCard(f, body, compact ? 52 : 60, compact), 1);
        l->addLayout(row);
        if (slide.step == PresentationStep::Capacity && !slide.bars.empty()) {
            // Bars of the tokens each side holds, under the figures.
            std::vector<slide_pictures::CapacityBars::Bar> bars;
            for (const SlideBar& b : slide.bars) {
                bars.push_back({toQString(b.label), b.value, toQString(b.valueText),
                                b.label == "BF16" ? QColor(0x9a, 0xa5, 0xb1) : kAccent});
            }
            l->addSpacing(m.px(12));
            l->addWidget(makeLabel(body, tr("KV-cache tokens that fit"), m.px(22), QFont::DemiBold, kQuiet,
                                   QStringLiteral("barsTitle"), false));
            l->addWidget(new slide_pictures::CapacityBars(std::move(bars), m.px(30), kInk, body));
            l->addStretch(1);
        } else if (slide.step == PresentationStep::Serving && !shownCharts.empty() && slide.points.size() <= 1) {
            // One candidate: the throughput–latency curve beside its gain sentence (the news, and where it comes
            // from). Several: the curve across the slide as the timeline's (its legend names every variant), each
            // candidate's figure above saying what it buys or why it is set aside.
            auto* curveRow = new QHBoxLayout;
            curveRow->setSpacing(m.gap());
            curveRow->addWidget(chart(*shownCharts.front(), body), 3);
            auto* sentences = new QVBoxLayout;
            sentences->setSpacing(m.px(16));
            for (const std::string& p : slide.points)  // as large as the verdict slide's gains
                sentences->addWidget(
                    makeLabel(body, typographic(p), m.px(28), QFont::Normal, kInk, QStringLiteral("slidePoint")));
            sentences->addStretch(1);
            curveRow->addLayout(sentences, 2);
            l->addLayout(curveRow, 1);
        } else if (!shownCharts.empty()) {
            QBoxLayout* chartsRow =
                slide.step == PresentationStep::Variants ? static_cast<QBoxLayout*>(new QVBoxLayout) : new QHBoxLayout;
            chartsRow->setSpacing(m.gap() / (slide.step == PresentationStep::Variants ? 3 : 1));
            for (std::size_t i = 0; i < shownCharts.size(); ++i) {
                // The Which-layers slide stacks one plot per variant: each named, as its figure above is.
                if (slide.step == PresentationStep::Variants && i < slide.figures.size())
                    chartsRow->addWidget(makeLabel(body, toQString(slide.figures[i].label), m.px(18), QFont::DemiBold,
                                                   kQuiet, QStringLiteral("variantChartLabel"), false));
                chartsRow->addWidget(chart(*shownCharts[i], body), 1);
            }
            l->addLayout(chartsRow, 1);
        } else {
            // The serving slide says each candidate's gain in its sentence under the figures.
            if (slide.step == PresentationStep::Serving) l->addSpacing(m.px(12));
            for (const std::string& p :
                 slide.step == PresentationStep::Serving ? slide.points : std::vector<std::string>{})
                l->addWidget(
                    makeLabel(body, typographic(p), m.px(24), QFont::Normal, kInk, QStringLiteral("slidePoint")));
            l->addStretch(1);
        }
    }
}

// One answer the candidate changed (PresentationStep::ChangedAnswer): the question and the target, then both sides
// side by side, each its answer over its response, the better side's card edged green, the other red. Every text is
// data (model output, data-set text): plain labels with their controls shown (makeLabel), never typographic.
void PresentationSlideView::buildAnswer(QWidget* body, const Parts& parts) {
    const Metrics& m = parts.m;
    auto* l = new QVBoxLayout(body);
    l->setContentsMargins(0, 0, 0, 0);
    l->setSpacing(m.px(14));
    if (!parts.slide.answer) {
        l->addStretch(1);
        return;
    }
    const SlideAnswer& a = *parts.slide.answer;
    l->addWidget(
        makeLabel(body, tr("Question"), m.px(22), QFont::DemiBold, kQuiet, QStringLiteral("answerHeading"), false));
    l->addWidget(
        makeLabel(body, toQString(a.question), m.px(30), QFont::Normal, kInk, QStringLiteral("answerQuestion")));
    l->addWidget(makeLabel(body, tr("Target: %1").arg(toQString(a.target)), m.px(26), QFont::DemiBold, kInk,
                           QStringLiteral("answerTarget")));
    l->addSpacing(m.px(10));
    auto* row = new QHBoxLayout;
    row->setSpacing(m.gap());
    for (const SlideAnswerSide* side : {&a.baseline, &a.candidate}) {
        auto* card = new QFrame(body);
        card->setObjectName(QStringLiteral("answerSide"));
        card->setStyleSheet(cardStyle(card->objectName(),
                                      style::verdictColor(side->better ? Verdict::Go : Verdict::Investigate), m.px(9),
                                      m.px(10)));
        auto* v = new QVBoxLayout(card);
        v->setContentsMargins(m.px(28), m.px(18), m.px(24), m.px(18));
        v->setSpacing(m.px(6));
        v->addWidget(makeLabel(card, toQString(side->label + " · " + side->valueText), m.px(22), QFont::DemiBold,
                               kQuiet, QStringLiteral("answerSideLabel")));
        v->addWidget(
            makeLabel(card, toQString(side->answer), m.px(34), QFont::Bold, kInk, QStringLiteral("answerSideAnswer")));
        v->addWidget(makeLabel(card, toQString(side->response), m.px(20), QFont::Normal, kQuiet,
                               QStringLiteral("answerSideResponse")));
        v->addStretch(1);
        row->addWidget(card, 1);
    }
    l->addLayout(row, 1);
}

// The verdict: one row per step, and the review decision.
void PresentationSlideView::buildVerdict(QWidget* body, const Parts& parts) {
    const Metrics& m = parts.m;
    const PresentationSlide& slide = parts.slide;
    const auto kicker = [&parts](const QString& text, QWidget* owner, const QColor& color) {
        return parts.kicker(text, owner, color);
    };
    auto* l = new QVBoxLayout(body);
    l->setContentsMargins(0, 0, 0, 0);
    l->setSpacing(m.px(24));
    const QColor strong = slide.verdict ? style::verdictColor(*slide.verdict) : kNoVerdict;
    auto* band = new QFrame(body);
    band->setObjectName(QStringLiteral("verdictBand"));
    // A verdict with a caveat (verdict_headline.h) is a dark band with a dashed border in the verdict's colour, never
    // a solid verdict colour that could pass for a clean one.
    band->setStyleSheet(
        slide.clean ? QStringLiteral("QFrame#verdictBand { background: %1; border: none; border-radius: %2px; }")
                          .arg(colorName(strong))
                          .arg(m.px(16))
                    : QStringLiteral("QFrame#verdictBand { background: #2f3336; border: %3px dashed %1;"
                                     " border-radius: %2px; }")
                          .arg(colorName(strong.lighter(150)))
                          .arg(m.px(16))
                          .arg(std::max(2, m.px(6))));
    auto* bl = new QVBoxLayout(band);
    bl->setContentsMargins(m.px(48), m.px(26), m.px(48), m.px(30));
    bl->setSpacing(m.px(4));
    bl->addWidget(kicker(tr("The verdict"), band, QColor(255, 255, 255, 215)));
    auto* title = makeLabel(band, m_title, m.px(112), QFont::Black, Qt::white, QStringLiteral("slideTitle"), false);
    title->setAccessibleName(tr("Verdict: %1").arg(m_title));
    bl->addWidget(title);
    bl->addWidget(makeLabel(band, toQString(slide.subtitle), m.px(32), QFont::DemiBold, Qt::white,
                            QStringLiteral("slideSubtitle")));
    for (const std::string& note : slide.headlineNotes)
        bl->addWidget(makeLabel(band, toQString(note), m.px(26), note.starts_with("⚠") ? QFont::Bold : QFont::Normal,
                                Qt::white, QStringLiteral("slideHeadlineNote")));
    l->addWidget(band);

    // The reasons, worst first: each step's verdict as a pill beside its news.
    auto* reasons = new QGridLayout;
    reasons->setHorizontalSpacing(m.px(24));
    reasons->setVerticalSpacing(m.px(22));
    int row = 0;
    for (const SlideFigure& f : slide.figures) {
        auto* line = new QFrame(body);
        line->setObjectName(QStringLiteral("slideFigure"));
        line->setProperty("figureLabel", toQString(f.label));
        auto* h = new QHBoxLayout(line);
        h->setContentsMargins(0, 0, 0, 0);
        h->setSpacing(m.px(24));
        // The pill is the row's value (figureValue), for tests and screen readers alike.
        auto* pill = verdictPill(line, f.level, m.px(24), QStringLiteral("figureValue"));
        pill->setMinimumWidth(m.px(24 * 9));
        h->addWidget(pill, 0, Qt::AlignVCenter);
        auto* text = new QVBoxLayout;
        text->setSpacing(0);
        text->addWidget(makeLabel(line, toQString(f.label), m.px(20), QFont::DemiBold, kQuiet,
                                  QStringLiteral("figureLabel"), false));
        text->addWidget(
            makeLabel(line, typographic(f.detail), m.px(34), QFont::Normal, kInk, QStringLiteral("figureDetail")));
        h->addLayout(text, 1);
        line->setAccessibleName(toQString(f.label) + QStringLiteral(": ") + toQString(f.value));
        line->setAccessibleDescription(typographic(f.detail));
        reasons->addWidget(line, row++, 0);
    }
    l->addLayout(reasons);
    if (!slide.points.empty()) l->addSpacing(m.px(8));
    for (const std::string& p : slide.points) {
        auto* gains = new QHBoxLayout;
        gains->setSpacing(m.px(16));
        gains->addWidget(makeLabel(body, tr("What FP8 buys:"), m.px(28), QFont::Bold, kAccent,
                                   QStringLiteral("slidePointLabel"), false),
                         0, Qt::AlignTop);
        gains->addWidget(makeLabel(body, typographic(p), m.px(28), QFont::Normal, kInk, QStringLiteral("slidePoint")),
                         1);
        l->addLayout(gains);
    }
    l->addStretch(1);

    auto* review = new QFrame(body);
    review->setObjectName(QStringLiteral("slideReview"));
    review->setStyleSheet(cardStyle(review->objectName(),
                                    slide.reviewWarnings.empty() ? kAccent : style::verdictColor(Verdict::Monitor),
                                    m.px(8), m.px(10)));
    auto* rl = new QVBoxLayout(review);
    rl->setContentsMargins(m.px(26), m.px(14), m.px(26), m.px(16));
    rl->setSpacing(m.px(4));
    if (!slide.review.empty()) {
        rl->addWidget(kicker(tr("Recorded decision"), review, kQuiet));
        rl->addWidget(makeLabel(review, excerpt(toQString(slide.review)), m.px(26), QFont::DemiBold, kInk,
                                QStringLiteral("reviewText")));
        for (const std::string& w : slide.reviewWarnings)
            rl->addWidget(makeLabel(review, QStringLiteral("⚠  ") + toQString(w), m.px(22), QFont::Normal,
                                    style::verdictTextColor(Verdict::Monitor, false), QStringLiteral("reviewWarning")));
        review->setAccessibleName(tr("Recorded decision: %1").arg(excerpt(toQString(slide.review))));
    } else {
        rl->addWidget(makeLabel(review, tr("No review decision recorded yet."), m.px(26), QFont::Normal, kQuiet,
                                QStringLiteral("reviewText")));
        review->setAccessibleName(tr("No review decision recorded yet"));
    }
    l->addWidget(review);
}

QString PresentationSlideView::titleText() const {
    return m_title;
}

QStringList PresentationSlideView::chartKeys() const {
    return m_chartKeys;
}

}  // namespace fp8dash::ui
