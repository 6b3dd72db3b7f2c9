#pragma once
// The tables of the Local benchmarks tab as models over core's BenchResults (row_table_model.h): GEMM, memory
// bandwidth (with the KV quantise kernels) and the KV-cache error sweep. Each keeps its columns' headers, tooltips and
// CSV units; the cells are the ones the tab has always shown (their text, exact value, tooltip). GUI thread only.

#include "fp8dash/core/local_bench.h"
#include "fp8dash/ui/row_table_model.h"

namespace fp8dash::ui {

// One row per GEMM point (BenchView::GemmColumn order); "(not run)" with the reason when the section was skipped.
class GemmTableModel : public RowTableModel {
    Q_OBJECT
public:
    explicit GemmTableModel(QObject* parent = nullptr);
    void setResults(const BenchResults* results);  // nullptr: no rows
};

// One row per bandwidth kernel, then one per KV quantise kernel; "(not run)" when the section was skipped.
class BandwidthTableModel : public RowTableModel {
    Q_OBJECT
public:
    explicit BandwidthTableModel(QObject* parent = nullptr);
    void setResults(const BenchResults* results);
};

// One row per KV sweep point (BenchView::KvColumn order), each header with its metric's definition.
class KvTableModel : public RowTableModel {
    Q_OBJECT
public:
    explicit KvTableModel(QObject* parent = nullptr);
    void setResults(const BenchResults* results);
    // Some row carries the old attention figure of results saved by older fp8dash (the view shows that column).
    bool hasLegacyColumn() const { return m_legacy; }

private:
    bool m_legacy = false;
};

}  // namespace fp8dash::ui
