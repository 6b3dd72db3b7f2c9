#include "fp8dash/ui/time_range_picker.h"

#include <QComboBox>
#include <QDateTime>
#include <QDateTimeEdit>
#include <QHBoxLayout>
#include <QLabel>

#include <cmath>

namespace fp8dash::ui {

namespace {

QDateTimeEdit* utcEdit(QWidget* parent) {
    auto* edit = new QDateTimeEdit(parent);
    // Prometheus, Langfuse and the comparison file all speak UTC; the picker does too, and says so.
    edit->setTimeSpec(Qt::UTC);
    edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
    edit->setCalendarPopup(true);
    return edit;
}

QDateTime utc(double unixSeconds) {
    return QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(std::llround(unixSeconds * 1000.0)), Qt::UTC);
}

double secondsOf(const QDateTime& t) {
    return static_cast<double>(t.toMSecsSinceEpoch()) / 1000.0;
}

double nowSeconds() {
    // Whole minutes: a range that ends on the minute is easy to read and to compare with Prometheus' own.
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    return static_cast<double>(now - now % 60);
}

}  // namespace

TimeRangePicker::TimeRangePicker(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("timeRangePicker"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);

    m_preset = new QComboBox(this);
    m_preset->setObjectName(QStringLiteral("rangePreset"));
    m_preset->addItem(tr("Last 6 hours"));
    m_preset->addItem(tr("Last 24 hours"));
    m_preset->addItem(tr("Last 7 days"));
    m_preset->addItem(tr("Custom range"));
    m_from = utcEdit(this);
    m_from->setObjectName(QStringLiteral("rangeFrom"));
    m_from->setAccessibleName(tr("From (UTC)"));
    m_to = utcEdit(this);
    m_to->setObjectName(QStringLiteral("rangeTo"));
    m_to->setAccessibleName(tr("To (UTC)"));

    auto* fromLabel = new QLabel(tr("from"), this);
    auto* toLabel = new QLabel(tr("to"), this);
    layout->addWidget(m_preset);
    layout->addWidget(fromLabel);
    layout->addWidget(m_from);
    layout->addWidget(toLabel);
    layout->addWidget(m_to);
    layout->addStretch(1);

    connect(m_preset, &QComboBox::activated, this, [this](int index) {
        if (index != Custom) fillFromPreset();
        emit rangeChanged();
    });
    auto edited = [this] {
        if (m_filling) return;
        // Typing a time means the user wants exactly that range, not "the last N hours".
        m_preset->setCurrentIndex(Custom);
        emit rangeChanged();
    };
    connect(m_from, &QDateTimeEdit::dateTimeChanged, this, edited);
    connect(m_to, &QDateTimeEdit::dateTimeChanged, this, edited);

    setPreset(Last24Hours);
}

double TimeRangePicker::presetSeconds(Preset preset) {
    switch (preset) {
        case Last6Hours:
            return 6 * 3600.0;
        case Last24Hours:
            return 24 * 3600.0;
        case Last7Days:
            return 7 * 24 * 3600.0;
        case Custom:
            break;
    }
    return 0;
}

void TimeRangePicker::setPreset(Preset preset) {
    m_preset->setCurrentIndex(preset);
    if (preset != Custom) fillFromPreset();
}

TimeRangePicker::Preset TimeRangePicker::preset() const {
    return static_cast<Preset>(m_preset->currentIndex());
}

void TimeRangePicker::fillFromPreset() {
    const double to = nowSeconds();
    m_filling = true;
    m_from->setDateTime(utc(to - presetSeconds(preset())));
    m_to->setDateTime(utc(to));
    m_filling = false;
}

void TimeRangePicker::setRange(double from, double to) {
    m_filling = true;
    m_from->setDateTime(utc(from));
    m_to->setDateTime(utc(to));
    m_filling = false;
    m_preset->setCurrentIndex(Custom);
}

std::pair<double, double> TimeRangePicker::range() const {
    if (preset() != Custom) {
        const double to = nowSeconds();
        return {to - presetSeconds(preset()), to};
    }
    return {secondsOf(m_from->dateTime()), secondsOf(m_to->dateTime())};
}

}  // namespace fp8dash::ui
