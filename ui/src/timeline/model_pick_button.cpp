// The timeline dialog's model menu: model_name values from Prometheus' label values API, fetched off the GUI thread.
#include "timeline/model_pick_button.h"

#include <QLineEdit>
#include <QMenu>

#include "fp8dash/ui/background_job.h"
#include "fp8dash/ui/loaded_comparison.h"  // toQString

namespace fp8dash::ui {

ModelPickButton::ModelPickButton(QLineEdit* pickField, Source source, QWidget* parent)
    : QToolButton(parent),
      m_pickField(pickField),
      m_source(std::move(source)),
      m_menu(new QMenu(this)),
      m_lookup(new BackgroundJob(this)) {
    setObjectName(QStringLiteral("modelPick"));
    setText(tr("Models…"));
    setToolTip(
        tr("List the model_name values Prometheus has for vllm:generation_tokens_total in the range, and pick "
           "one (its engines are summed)"));
    connect(this, &QToolButton::clicked, this, &ModelPickButton::lookUp);
}

ModelPickButton::~ModelPickButton() = default;  // the job stops a look-up still running

void ModelPickButton::lookUp() {
    auto source = m_source();
    if (!source) {
        showModels(source.error());
        return;
    }
    setEnabled(false);
    // A newer look-up answers instead of an older one.
    m_lookup->start(
        [settings = source->first, range = source->second](JobControl& job) {
            return PrometheusClient(settings).labelValues("model_name", {"vllm:generation_tokens_total"}, range.first,
                                                          range.second, job.progress());
        },
        [this](Result<std::vector<std::string>> models) {
            setEnabled(true);
            showModels(models);
        });
}

void ModelPickButton::showModels(const Result<std::vector<std::string>>& models) {
    m_menu->clear();
    if (!models) {
        m_menu->addAction(tr("✗ %1").arg(toQString(models.error().message)))->setEnabled(false);
    } else if (models->empty()) {
        m_menu->addAction(tr("No vllm:generation_tokens_total series with a model_name in the range"))
            ->setEnabled(false);
    } else {
        m_menu->addAction(tr("All models (sum every series)"), this, [this] { m_pickField->clear(); });
        m_menu->addSeparator();
        for (const auto& name : *models) {
            const QString pick = QStringLiteral("model_name=") + toQString(name);
            m_menu->addAction(toQString(name), this, [this, pick] { m_pickField->setText(pick); });
        }
    }
    m_menu->popup(mapToGlobal(QPoint(0, height())));
}

}  // namespace fp8dash::ui
