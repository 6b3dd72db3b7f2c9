#pragma once
// BenchView: the "Local benchmarks" tab (README "Local benchmarks"): what FP8 buys on this workstation. A device card
// (this machine's GPU or why there is none, and what the results shown were measured on), the run controls (model
// preset, parts to run, CPU only, Run / Cancel with the step in progress), three charts (roofline: measured BF16 and
// FP8 GEMMs under the device's compute and bandwidth roofs; FP8/BF16 speedup by tokens M per layer; KV-cache error vs
// context per scaling mode) and sortable GEMM, bandwidth and KV tables.
//
// It shows the results the document holds (setResults). A run calls core's runLocalBench on a QtConcurrent worker;
// progress reaches the GUI thread through queued calls, Cancel sets a flag the progress callback reads, and the
// results (complete, or partial with cancelled = true) are handed out with runFinished for the owner to put into
// the document. GUI thread only; owns its children through Qt parenting.

#include <QElapsedTimer>
#include <QMetaType>
#include <QString>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "fp8dash/core/compared_model.h"
#include "fp8dash/core/local_bench.h"
#include "fp8dash/core/local_device.h"

class QChart;
class QChartView;
class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QScatterSeries;
class QTabWidget;
class QTableView;

namespace fp8dash::ui {

class BackgroundJob;
class BandwidthTableModel;
class GemmTableModel;
class KvTableModel;
class ModelNotice;

namespace bench {
class ChartPanel;
}

class BenchView : public QWidget {
    Q_OBJECT
public:
    explicit BenchView(QWidget* parent = nullptr);
    ~BenchView() override;  // a run still going is cancelled and its results dropped

    // The results to show (the document's); nullptr: none saved. The pointee is copied.
    void setResults(const BenchResults* results);
    const BenchResults* results() const { return m_results ? &*m_results : nullptr; }

    // The model the comparison is about (comparedModelOf the document). Model shapes then offers it for the next run
    // (or "Unknown: choose the model", Run disabled until one is chosen, when fp8dash does not know it), and results
    // measured with another model's shapes say so above the figures (modelNoteText).
    void setComparedModel(const ComparedModel& model);
    const ComparedModel& comparedModel() const { return m_compared; }
    QString modelNoteText() const;  // empty while no note is shown

    // This machine's GPU: queried off the GUI thread at first show. Setting it (tests) replaces the query.
    void setLocalDevice(const LocalDeviceStatus& status);
    const LocalDeviceStatus* localDevice() const { return m_local ? &*m_local : nullptr; }

    // What the next run does: the controls give the model, the parts and CPU only; the setters below give what the
    // controls do not show (empty vectors: runLocalBench's defaults). Meant for tests and quick runs.
    LocalBenchOptions runOptions() const;
    void setKvContexts(std::vector<int> tokens) { m_kvContexts = std::move(tokens); }
    void setKvLayers(int layers) { m_kvLayers = layers; }
    void setGemmTokens(std::vector<int> tokens) { m_gemmTokens = std::move(tokens); }

    bool isRunning() const;
    void startRun();  // nothing while a run is going

    // "Measure My Model's KV Cache…" (bench_kv_dump.cpp): a safetensors K/V dump of the user's model
    // (packaging/dump_kv_cache.py), its shape shown in a dialog (object name "kvDumpConfirm") before the KV sweep
    // runs over it on the worker, with the usual progress and Cancel. A file that cannot be read: the status line and
    // a message box ("kvDumpError") name it. Nothing while a run is going.
    void measureKvDump();                     // asks for the file (the chooser when set, else a file dialog)
    void measureKvDump(const QString& path);  // shows the file's shape and asks to run
    void setKvDumpChooser(std::function<QString()> chooser) { m_kvDumpChooser = std::move(chooser); }  // tests
    QPushButton* kvDumpButton() const { return m_kvDumpButton; }
    QString kvDumpText() const { return m_kvDumpText; }  // the last dump's name and shape, as the dialog said
    void cancelRun();  // the run stops at its next step; its partial results still come out

    // For tests and accessibility: what is on screen.
    QComboBox* modelCombo() const { return m_model; }
    QCheckBox* gemmCheck() const { return m_gemm; }
    QCheckBox* bandwidthCheck() const { return m_bandwidth; }
    QCheckBox* kvCheck() const { return m_kv; }
    QCheckBox* cpuOnlyCheck() const { return m_cpuOnly; }
    QPushButton* runButton() const { return m_runButton; }
    QPushButton* cancelButton() const { return m_cancelButton; }
    QProgressBar* progressBar() const { return m_progress; }
    QString stepText() const;
    QString deviceText() const;    // this machine
    QString measuredText() const;  // what the results were measured on
    QString runNoteText() const;   // what Run would do here (e.g. "CPU only")
    QString statusText() const;    // the last run's outcome or error
    QChart* rooflineChart() const;
    QChart* speedupChart() const;
    QChart* kvChart() const;
    QChartView* rooflineView() const;  // the widgets that draw them (chart export, report snapshots)
    QChartView* speedupView() const;
    QChartView* kvView() const;
    // What a chart's place says instead of the chart (no data, or the section's skip reason); empty while the chart
    // is shown.
    QString rooflineMessage() const;
    QString speedupMessage() const;
    QString kvMessage() const;
    QString kvHeadlineText() const;  // the KV headline above the charts (core's kvHeadline); empty without one
    // The one empty state shown in place of the charts that have nothing to draw (their frames hidden): what was not
    // measured and what to do; empty while every chart is shown.
    QString chartsEmptyText() const;
    QComboBox* kvMetricCombo() const { return m_kvMetric; }
    QTableView* gemmTable() const { return m_gemmTable; }
    QTableView* bandwidthTable() const { return m_bandwidthTable; }
    QTableView* kvTable() const { return m_kvTable; }
    GemmTableModel* gemmModel() const { return m_gemmModel; }
    BandwidthTableModel* bandwidthModel() const { return m_bandwidthModel; }
    KvTableModel* kvModel() const { return m_kvModel; }
    QString hoverText() const;  // the read-out of the roofline point under the mouse

    // Columns of the GEMM table.
    enum GemmColumn {
        GemmLayer,
        GemmM,
        GemmN,
        GemmK,
        GemmPrecision,
        GemmTflops,
        GemmPercentOfRoof,
        GemmSpeedup,
        GemmNoise,
        GemmNote,
        GemmColumnCount
    };
    // Columns of the KV table (bench_kv.h): the headline metric first; the old attention figure of results saved by
    // older fp8dash last, hidden unless a row has it.
    enum KvColumn {
        KvScaling,
        KvContext,
        KvAttnOutError,
        KvAttnTvd,
        KvKeyRmse,
        KvValueRmse,
        KvKeySaturated,
        KvValueSaturated,
        KvElementsPerSecond,
        KvRelRmse,
        KvMaxAbs,
        KvCosine,
        KvLegacyAttnError,
        KvColumnCount
    };

signals:
    void runStarted();
    void runFinished(const fp8dash::BenchResults& results);  // complete or cancelled (results.cancelled)
    void runFailed(const QString& message);
    void localDeviceKnown();

protected:
    void showEvent(QShowEvent* event) override;

private:
    QWidget* buildControls();
    QWidget* buildTables();
    QPushButton* buildKvDumpButton(QWidget* parent);
    void runWith(const LocalBenchOptions& options);
    void showKvDumpError(const QString& message);
    QLabel* buildKvHeadline(QWidget* parent);
    void queryDeviceOnce();
    void updateDeviceCard();
    void updateModelNote();
    void chooseRunModel();  // the compared model, else the results' model, in Model shapes
    void updateControls();
    void rebuild();  // charts and tables from m_results
    void rebuildRoofline();
    void rebuildSpeedup();
    void rebuildKvChart();
    void rebuildTables();
    void showOnlyChartsWithData();
    void showProgress(double fraction, const QString& step);
    void finishRun(Result<BenchResults> outcome);
    void roofPointHovered(QScatterSeries* series, const QPointF& point, bool state);

    std::optional<BenchResults> m_results;
    ComparedModel m_compared;
    ModelNotice* m_modelNote = nullptr;
    std::optional<LocalDeviceStatus> m_local;
    bool m_deviceQueryStarted = false;
    std::vector<int> m_kvContexts;
    std::vector<int> m_gemmTokens;
    int m_kvLayers = 0;                    // 0: runLocalBench's default
    BackgroundJob* m_runJob = nullptr;     // the benchmark run on this machine
    BackgroundJob* m_deviceJob = nullptr;  // the query of this machine's GPU
    bool m_cancelRequested = false;        // Cancel was pressed: the run ends after its current step
    std::function<QString()> m_kvDumpChooser;
    QString m_kvDumpText;
    QPushButton* m_kvDumpButton = nullptr;
    QElapsedTimer m_runTimer;

    QLabel* m_deviceLabel = nullptr;
    QLabel* m_measuredLabel = nullptr;
    QLabel* m_runNote = nullptr;
    QLabel* m_warnings = nullptr;
    QComboBox* m_model = nullptr;
    QCheckBox* m_gemm = nullptr;
    QCheckBox* m_bandwidth = nullptr;
    QCheckBox* m_kv = nullptr;
    QCheckBox* m_cpuOnly = nullptr;
    QPushButton* m_runButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_step = nullptr;
    QLabel* m_status = nullptr;
    bench::ChartPanel* m_roofline = nullptr;
    bench::ChartPanel* m_speedup = nullptr;
    bench::ChartPanel* m_kvChart = nullptr;
    QLabel* m_chartsEmpty = nullptr;  // chartsEmptyText()
    QLabel* m_kvMetricLabel = nullptr;
    QComboBox* m_kvMetric = nullptr;
    QLabel* m_kvHeadline = nullptr;
    QLabel* m_hover = nullptr;
    QTabWidget* m_tableTabs = nullptr;
    QTableView* m_gemmTable = nullptr;
    QTableView* m_bandwidthTable = nullptr;
    QTableView* m_kvTable = nullptr;
    GemmTableModel* m_gemmModel = nullptr;
    BandwidthTableModel* m_bandwidthModel = nullptr;
    KvTableModel* m_kvModel = nullptr;
    // Which GEMM row each roofline scatter point is, per series, in the series' point order.
    std::vector<std::pair<QScatterSeries*, std::vector<std::size_t>>> m_roofPoints;
};

}  // namespace fp8dash::ui

Q_DECLARE_METATYPE(fp8dash::BenchResults)
