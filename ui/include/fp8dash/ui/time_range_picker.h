#pragma once
// TimeRangePicker: the time range a production timeline is fetched for: a preset relative to now (last 6 hours,
// 24 hours, 7 days) or absolute from/to times in UTC. Presets are re-evaluated against the clock each time the range
// is read, so a refresh an hour later fetches the latest hours. Times are unix seconds. GUI thread only.

#include <QWidget>

#include <utility>

class QComboBox;
class QDateTimeEdit;

namespace fp8dash::ui {

class TimeRangePicker : public QWidget {
    Q_OBJECT
public:
    enum Preset { Last6Hours = 0, Last24Hours = 1, Last7Days = 2, Custom = 3 };

    explicit TimeRangePicker(QWidget* parent = nullptr);

    void setPreset(Preset preset);  // fills from/to from the current time
    Preset preset() const;
    void setRange(double from, double to);    // absolute times; the preset becomes Custom
    std::pair<double, double> range() const;  // [from, to]; a preset is measured back from now

    QComboBox* presetBox() const { return m_preset; }
    QDateTimeEdit* fromEdit() const { return m_from; }
    QDateTimeEdit* toEdit() const { return m_to; }

    static double presetSeconds(Preset preset);  // 6 h, 24 h, 7 d; 0 for Custom

signals:
    void rangeChanged();  // the user picked a preset or edited a time

private:
    void fillFromPreset();

    QComboBox* m_preset = nullptr;
    QDateTimeEdit* m_from = nullptr;
    QDateTimeEdit* m_to = nullptr;
    bool m_filling = false;  // set while the program (not the user) writes the times
};

}  // namespace fp8dash::ui
