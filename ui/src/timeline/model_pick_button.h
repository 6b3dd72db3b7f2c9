#pragma once
// A "Models" button beside the timeline's Series field: it asks Prometheus, off the GUI thread, which model_name values
// vllm:generation_tokens_total has in the chosen range (/api/v1/label/model_name/values) and offers them in a menu;
// choosing one writes model_name=... into the field ("All models" clears it). GUI thread only.

#include <QToolButton>

#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include "fp8dash/core/prometheus_client.h"

class QLineEdit;
class QMenu;

namespace fp8dash::ui {

class BackgroundJob;

class ModelPickButton : public QToolButton {
public:
    // `source` gives the server's settings and the range (unix seconds) at the moment of the click, or an error in
    // words (no URL yet).
    using Target = Result<std::pair<PrometheusSettings, std::pair<double, double>>>;
    using Source = std::function<Target()>;
    ModelPickButton(QLineEdit* pickField, Source source, QWidget* parent = nullptr);
    ~ModelPickButton() override;

private:
    void lookUp();
    void showModels(const Result<std::vector<std::string>>& models);

    QLineEdit* m_pickField;
    Source m_source;
    QMenu* m_menu;
    BackgroundJob* m_lookup;
};

}  // namespace fp8dash::ui
