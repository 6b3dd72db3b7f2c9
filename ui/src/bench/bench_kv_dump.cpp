// "Measure My Model's KV Cache…" in the Local benchmarks tab (bench_view.h): a safetensors K/V dump of the user's
// model, its shape confirmed before the KV sweep runs over it through the tab's usual run (worker thread, progress,
// Cancel). Apart from bench_view.cpp, which holds the rest of the tab.
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>

#include "fp8dash/ui/bench_view.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

QPushButton* BenchView::buildKvDumpButton(QWidget* parent) {
    m_kvDumpButton = new QPushButton(tr("Measure My Model's KV Cache…"), parent);
    m_kvDumpButton->setObjectName(QStringLiteral("benchKvDump"));
    m_kvDumpButton->setAccessibleName(tr("Measure the FP8 error of your own model's K/V cache"));
    m_kvDumpButton->setToolTip(
        tr("Runs the KV-cache FP8 sweep (none, per_tensor, per_head) on K and V dumped from your model: a "
           ".safetensors file with \"key\" and \"value\" [layers, kv_heads, tokens, head_dim] in BF16, F16 or "
           "F32, as packaging/dump_kv_cache.py writes it. The file is read one layer at a time."));
    connect(m_kvDumpButton, &QPushButton::clicked, this, [this] { measureKvDump(); });
    return m_kvDumpButton;
}

void BenchView::measureKvDump() {
    if (isRunning()) return;
    const QString path = m_kvDumpChooser
                             ? m_kvDumpChooser()
                             : QFileDialog::getOpenFileName(this, tr("Measure My Model's KV Cache"), QString(),
                                                            tr("K/V dumps (*.safetensors);;All files (*)"));
    if (!path.isEmpty()) measureKvDump(path);
}

void BenchView::measureKvDump(const QString& path) {
    if (isRunning()) return;
    const std::string file = QFile::encodeName(path).toStdString();
    const auto info = inspectKvDump(file);
    if (!info) {
        showKvDumpError(toQString(info.error().message));
        return;
    }
    const double elements = static_cast<double>(info->layers) * info->kvHeads * info->tokens * info->headDim;
    m_kvDumpText = tr("%1: %2 layers × %3 KV heads × %4 tokens × %5 dims")
                       .arg(toQString(info->description))
                       .arg(info->layers)
                       .arg(info->kvHeads)
                       .arg(QLocale().toString(info->tokens))
                       .arg(info->headDim);
    const QString text =
        tr("%1 (%2 million values each of K and V).\n\nThe sweep quantises them to FP8 E4M3 with none, per_tensor and "
           "per_head scaling at contexts up to all %3 tokens, one layer at a time, and compares with the values in "
           "the file. Measure now?")
            .arg(m_kvDumpText)
            .arg(QLocale().toString(elements / 1e6, 'f', 1))
            .arg(QLocale().toString(info->tokens));

    auto* box =
        new QMessageBox(QMessageBox::Question, tr("Measure My Model's KV Cache"), text, QMessageBox::NoButton, this);
    box->setTextFormat(Qt::PlainText);  // the dump's description comes from the file (untrusted_ui.h)
    box->setObjectName(QStringLiteral("kvDumpConfirm"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton* measure = box->addButton(tr("Measure"), QMessageBox::AcceptRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(measure);
    connect(measure, &QPushButton::clicked, this, [this, file] {
        if (isRunning()) return;
        LocalBenchOptions options = runOptions();
        options.gemm = false;
        options.bandwidth = false;
        options.kv = true;
        options.kvDump = file;
        runWith(options);
    });
    box->open();
}

void BenchView::showKvDumpError(const QString& message) {
    m_status->setText(tr("<b>Cannot measure the K/V dump:</b> %1").arg(style::escaped(message)));
    m_status->show();
    auto* box = plainMessageBox(QMessageBox::Warning, tr("Measure My Model's KV Cache"),
                                tr("Cannot measure the K/V dump:\n%1").arg(message), {}, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("kvDumpError"));
    box->open();
}

}  // namespace fp8dash::ui
