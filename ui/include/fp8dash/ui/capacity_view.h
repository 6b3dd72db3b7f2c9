#pragma once
// CapacityView: the "Capacity" tab (README "Capacity and the plan"): how many tokens and sequences of KV cache fit
// beside the weights, and what FP8 buys, for a model on a tensor-parallel group of GPUs. Inputs on the left (model
// preset or config.json, GPU preset or this machine's GPU, GPUs, weights and KV dtypes, memory utilisation, context,
// overhead); on the right the plan of core's planCapacity for the chosen dtypes beside the all-BF16 plan, and the
// bandwidth-bound decode estimate. The numbers are the CLI's (`fp8dash capacity ... --format json`): the same inputs go
// to the same function. The table follows every edit (planCapacity is instant); a user's edit is announced with
// settingsEdited so the owner keeps it in the document. GUI thread only; owns its children through Qt parenting.

#include <QMetaType>
#include <QString>
#include <QWidget>

#include <optional>

#include "fp8dash/core/capacity.h"
#include "fp8dash/core/compared_model.h"
#include "fp8dash/core/local_bench.h"
#include "fp8dash/core/local_device.h"
#include "fp8dash/core/serving_comparison.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;

namespace fp8dash::ui {

class BackgroundJob;
class CapacityTableModel;
class ModelNotice;

class CapacityView : public QWidget {
    Q_OBJECT
public:
    explicit CapacityView(QWidget* parent = nullptr);
    ~CapacityView() override;

    // The model the comparison is about (comparedModelOf the document); set before setSettings. A new plan
    // (setSettings(nullptr)) is for it when fp8dash knows it; when the runs name a model fp8dash does not know, Model
    // says so ("Unknown: choose the model") and nothing is planned until the user chooses one. A plan for another
    // model says so above the figures (modelNoteText), with "Plan for …" when the compared model is known.
    void setComparedModel(const ComparedModel& model);
    const ComparedModel& comparedModel() const { return m_compared; }
    QString modelNoteText() const;  // the note above the figures about the model; empty when hidden
    QPushButton* useComparedButton() const { return m_useCompared; }

    // Shows these inputs (nullptr: capacity.h's defaults, for the compared model when set) without announcing an
    // edit.
    void setSettings(const CapacitySettings* settings);
    CapacitySettings settings() const;  // what the inputs say now

    // This machine's GPU ("This machine" in the GPU list when it has one): queried off the GUI thread at first show;
    // setting it (tests) replaces the query.
    void setLocalDevice(const LocalDeviceStatus& status);
    const LocalDeviceStatus* localDevice() const { return m_local ? &*m_local : nullptr; }

    // planCapacity's inputs for settings, as the CLI builds them from the same options; local is this machine's GPU
    // for gpu == "local" (an error without one). Thread-safe.
    static Result<CapacityInputs> inputsFor(const CapacitySettings& settings, const LocalDeviceStatus* local);

    // The plans on screen: the chosen dtypes, and all BF16 beside them. nullptr when the inputs cannot be planned;
    // errorText() then says why.
    const CapacityResult* selectedResult() const { return m_selected ? &*m_selected : nullptr; }
    const CapacityResult* bf16Result() const { return m_bf16 ? &*m_bf16 : nullptr; }
    QString errorText() const;
    QString decodeText() const;

    // The capacity measured on the team's server at its SLO (the comparison's serving benchmarks; null: none), shown
    // under the model's figures with where the two disagree (capacity_measured.h). Follows every edit of the inputs.
    void setMeasured(const ServingComparison* serving);
    QString measuredText() const;  // the section's lines, plain; "" without serving results

    // Reads a Hugging Face config.json and uses it as the model (what "config.json…" does after its file dialog);
    // an unreadable file is shown as the error and the previous model stays.
    bool loadConfigFile(const QString& path);

    // Reads a vLLM start-up log off the GUI thread (what "Open vLLM Log…" does after its file dialog) and shows what
    // vLLM measured and the same server with an FP8 KV cache, FP8 weights (the model chosen here counts them) and
    // the utilisation and context chosen here; vllmLogRead follows, with vllmLogText() or errorText() (a line it
    // could not read is named).
    void openVllmLog(const QString& path);
    QString vllmLogText() const { return m_logText; }

    // Rows and columns of the table.
    enum Row {
        ParametersRow,
        KvPerTokenRow,
        WeightsRow,
        UsableRow,
        OverheadRow,
        KvCacheRow,
        MaxTokensRow,
        MaxSequencesRow,
        FitsRow,
        DecodeRow,
        DecodeStepRow,
        RowCount
    };
    enum Column { Bf16Column, SelectedColumn, RatioColumn, ColumnCount };

    QComboBox* modelCombo() const { return m_model; }
    QPushButton* configButton() const { return m_configButton; }
    QComboBox* gpuCombo() const { return m_gpu; }
    QSpinBox* gpusSpin() const { return m_gpus; }
    QComboBox* weightsCombo() const { return m_weights; }
    QComboBox* kvCombo() const { return m_kv; }
    QDoubleSpinBox* utilizationSpin() const { return m_utilization; }
    QSpinBox* contextSpin() const { return m_context; }
    QDoubleSpinBox* overheadSpin() const { return m_overhead; }
    QComboBox* accountingCombo() const { return m_accounting; }  // vLLM's accounting ("0.28") or flat ("")
    QPushButton* vllmLogButton() const { return m_logButton; }
    QTableView* table() const { return m_table; }
    CapacityTableModel* tableModel() const { return m_tableModel; }

signals:
    void settingsEdited(const fp8dash::CapacitySettings& settings);  // by the user, not by setSettings
    void vllmLogRead();  // openVllmLog finished: vllmLogText() or errorText()

protected:
    void showEvent(QShowEvent* event) override;

private:
    QWidget* buildInputs();   // the constructor's left column
    QWidget* buildResults();  // and its right one
    QWidget* buildModelNote(QWidget* parent);
    void queryDeviceOnce();
    void fillGpuCombo();
    int modelIndexFor(const std::string& model);  // adds an entry for a config.json path
    void inputsChanged();
    void recompute();
    void fillTable();
    void chooseConfigFile();
    void chooseVllmLog();
    void showError(const QString& message);  // empty: hides it
    void updateModelNote(const CapacitySettings& s);
    QString chosenModelName(const std::string& model) const;  // the preset's name or the config.json's file name

    std::optional<LocalDeviceStatus> m_local;
    bool m_deviceQueryStarted = false;
    BackgroundJob* m_deviceJob = nullptr;  // this machine's GPUs (a shared, cached query)
    BackgroundJob* m_logJob = nullptr;     // reading a vLLM start-up log
    QString m_errorText;
    bool m_applying = false;  // setSettings is filling the inputs: no edit to announce
    std::optional<CapacityResult> m_selected;
    std::optional<CapacityResult> m_bf16;

    ComparedModel m_compared;
    ModelNotice* m_modelNote = nullptr;
    QPushButton* m_useCompared = nullptr;
    QComboBox* m_model = nullptr;
    QPushButton* m_configButton = nullptr;
    QLabel* m_modelInfo = nullptr;
    QComboBox* m_gpu = nullptr;
    QLabel* m_gpuInfo = nullptr;
    QSpinBox* m_gpus = nullptr;
    QComboBox* m_weights = nullptr;
    QComboBox* m_kv = nullptr;
    QDoubleSpinBox* m_utilization = nullptr;
    QSpinBox* m_context = nullptr;
    QDoubleSpinBox* m_overhead = nullptr;
    QComboBox* m_accounting = nullptr;
    QPushButton* m_logButton = nullptr;
    QLabel* m_logResult = nullptr;
    QString m_logText;
    QLabel* m_error = nullptr;
    QLabel* m_decode = nullptr;
    std::optional<ServingComparison> m_measured;
    QLabel* m_measuredTitle = nullptr;
    QLabel* m_measuredText = nullptr;
    void fillMeasured();
    QLabel* m_summary = nullptr;
    QTableView* m_table = nullptr;
    CapacityTableModel* m_tableModel = nullptr;
};

}  // namespace fp8dash::ui

Q_DECLARE_METATYPE(fp8dash::CapacitySettings)
