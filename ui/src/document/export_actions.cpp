#include "fp8dash/ui/export_actions.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QListView>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTreeView>

#include <cmath>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/ui/chart_snapshots.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui::exporting {

namespace {

const QString kLastDirectoryKey = QStringLiteral("lastDirectory");  // shared with MainWindow's file dialogs

Status writeBytes(const QString& path, const QByteArray& bytes) {
    return writeFileAtomically(toFsPath(path),
                               std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

Status chartOnScreen(const QChartView* view) {
    if (!view || !view->chart()) return Error{"there is no chart to export"};
    if (!view->isVisible() || view->size().isEmpty()) return Error{"the chart is not on screen"};
    return success();
}

QHeaderView* headerOf(const QAbstractItemView* view) {
    if (const auto* tree = qobject_cast<const QTreeView*>(view)) return tree->header();
    if (const auto* table = qobject_cast<const QTableView*>(view)) return table->horizontalHeader();
    return nullptr;
}

// RFC 4180: quoted when it holds a comma, a quote or a line break; quotes doubled.
QString csvField(const QString& text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')) &&
        !text.contains(QLatin1Char('\r')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

// The exact number behind a cell, when the model has one and the cell shows it (rounded, maybe with a unit).
QString cellValue(const QModelIndex& index) {
    const QString text = index.data(Qt::DisplayRole).toString();
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty() || trimmed == QStringLiteral("—") || trimmed == QStringLiteral("n/a")) return {};
    static const QRegularExpression numeric(QStringLiteral("^[+\\-−±]?\\s*[0-9]"));
    const QVariant exact = index.data(Qt::UserRole);
    if (numeric.match(trimmed).hasMatch()) {
        switch (exact.typeId()) {
            case QMetaType::Double:
            case QMetaType::Float: {
                const double v = exact.toDouble();
                if (std::isfinite(v)) return QString::number(v, 'g', QLocale::FloatingPointShortest);
                break;
            }
            case QMetaType::Int:
            case QMetaType::LongLong:
                return QString::number(exact.toLongLong());
            case QMetaType::UInt:
            case QMetaType::ULongLong:
                return QString::number(exact.toULongLong());
            default:
                break;
        }
    }
    return text;
}

void appendRows(const QAbstractItemModel* model, const QModelIndex& parent, int depth, const QString& parentName,
                const QList<int>& columns, bool tree, const QAbstractItemView* view, QStringList& lines) {
    const auto* table = qobject_cast<const QTableView*>(view);
    for (int row = 0; row < model->rowCount(parent); ++row) {
        if (table && table->isRowHidden(row)) continue;
        QStringList fields;
        if (tree) fields << QString::number(depth) << csvField(parentName);
        for (int column : columns) fields << csvField(cellValue(model->index(row, column, parent)));
        lines << fields.join(QLatin1Char(','));
        const QModelIndex first = model->index(row, 0, parent);
        if (tree && model->hasChildren(first))
            appendRows(model, first, depth + 1, first.data(Qt::DisplayRole).toString(), columns, tree, view, lines);
    }
}

// "GEMM roofline: BF16 and FP8" -> "fp8dash-gemm-roofline-bf16-and-fp8"
QString baseNameOr(const QString& baseName, const QString& title) {
    if (!baseName.isEmpty()) return baseName;
    QString slug = title.toLower();
    slug.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    slug.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
    return QStringLiteral("fp8dash-") + (slug.isEmpty() ? QStringLiteral("chart") : slug);
}

QString lastDirectory() {
    const QString dir = QSettings().value(kLastDirectoryKey).toString();
    return !dir.isEmpty() && QFileInfo(dir).isDir() ? dir : QDir::homePath();
}

}  // namespace

Status writeChartPng(QChartView* view, const QString& path) {
    if (Status ok = chartOnScreen(view); !ok) return Error{path.toStdString() + ": " + ok.error().message};
    return writeBytes(path, pngBytes(renderChartImage(view, view->size(), 2.0)));
}

Status writeChartSvg(QChartView* view, const QString& path, const QString& title) {
    if (Status ok = chartOnScreen(view); !ok) return Error{path.toStdString() + ": " + ok.error().message};
    return writeBytes(path, renderChartSvg(view, view->size(), title));
}

QList<int> visibleColumns(const QAbstractItemView* view) {
    QList<int> columns;
    const QAbstractItemModel* model = view ? view->model() : nullptr;
    if (!model) return columns;
    if (const QHeaderView* header = headerOf(view)) {
        const QVariantList forRoom = view->property(kHiddenForRoomProperty).toList();
        for (int visual = 0; visual < header->count(); ++visual) {
            const int logical = header->logicalIndex(visual);
            if (logical >= 0 && (!header->isSectionHidden(logical) || forRoom.contains(logical))) columns << logical;
        }
    } else if (model->columnCount() > 0) {
        const auto* list = qobject_cast<const QListView*>(view);
        columns << (list ? list->modelColumn() : 0);
    }
    return columns;
}

QString tableCsv(const QAbstractItemView* view) {
    const QAbstractItemModel* model = view ? view->model() : nullptr;
    if (!model || !headerOf(view)) return {};
    const QList<int> columns = visibleColumns(view);
    const bool tree = qobject_cast<const QTreeView*>(view) != nullptr;
    QStringList fields;
    if (tree) fields << QStringLiteral("Depth") << QStringLiteral("Parent");
    for (int column : columns) {
        QString title = model->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        const QString unit = model->headerData(column, Qt::Horizontal, kCsvUnitRole).toString();
        if (!unit.isEmpty()) title += QStringLiteral(" (%1)").arg(unit);
        fields << csvField(title);
    }
    QStringList lines{fields.join(QLatin1Char(','))};
    appendRows(model, QModelIndex(), 0, QString(), columns, tree, view, lines);
    return lines.join(QStringLiteral("\r\n")) + QStringLiteral("\r\n");
}

Status writeTableCsv(const QAbstractItemView* view, const QString& path) {
    if (!view || !view->model() || !headerOf(view)) return Error{path.toStdString() + ": there is no table to export"};
    return writeBytes(path, tableCsv(view).toUtf8());
}

void exportWithDialog(QWidget* parent, const QString& caption, const QString& suggestedName, const QString& filter,
                      const QString& suffix, const std::function<Status(const QString& path)>& write) {
    QString path = QFileDialog::getSaveFileName(parent, caption, QDir(lastDirectory()).filePath(suggestedName), filter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += QLatin1Char('.') + suffix;
    QSettings().setValue(kLastDirectoryKey, QFileInfo(path).absolutePath());
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const Status written = write(path);
    QApplication::restoreOverrideCursor();
    QWidget* window = parent ? parent->window() : nullptr;
    if (!written) {
        auto* box = plainMessageBox(QMessageBox::Warning, QObject::tr("Could not export"),
                                    QObject::tr("Could not write “%1”.").arg(QFileInfo(path).fileName()),
                                    toQString(written.error().message), QMessageBox::Ok, window);
        box->setObjectName(QStringLiteral("errorBox"));
        box->open();
        return;
    }
    if (auto* main = qobject_cast<QMainWindow*>(window))
        main->statusBar()->showMessage(QObject::tr("Exported %1").arg(QDir::toNativeSeparators(path)), 8000);
}

void addChartExportActions(QMenu* menu, QChartView* view, const QString& title, const QString& base) {
    const QString baseName = baseNameOr(base, title);
    QAction* png = menu->addAction(QObject::tr("Export Chart as &PNG…"));
    png->setObjectName(QStringLiteral("exportChartPng"));
    QObject::connect(png, &QAction::triggered, view, [view, title, baseName] {
        exportWithDialog(view, QObject::tr("Export Chart as PNG"), baseName + QStringLiteral(".png"),
                         QObject::tr("PNG images (*.png)"), QStringLiteral("png"),
                         [view](const QString& path) { return writeChartPng(view, path); });
    });
    QAction* svg = menu->addAction(QObject::tr("Export Chart as &SVG…"));
    svg->setObjectName(QStringLiteral("exportChartSvg"));
    QObject::connect(svg, &QAction::triggered, view, [view, title, baseName] {
        exportWithDialog(view, QObject::tr("Export Chart as SVG"), baseName + QStringLiteral(".svg"),
                         QObject::tr("SVG drawings (*.svg)"), QStringLiteral("svg"),
                         [view, title](const QString& path) { return writeChartSvg(view, path, title); });
    });
}

QMenu* createChartExportMenu(QChartView* view, const QString& title, const QString& baseName) {
    auto* menu = new QMenu(view);
    addChartExportActions(menu, view, title, baseName);
    return menu;
}

void installChartExportMenu(QChartView* view, const QString& title, const QString& baseName) {
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(view, &QWidget::customContextMenuRequested, view, [view, title, baseName](const QPoint& pos) {
        QMenu* menu = createChartExportMenu(view, title, baseName);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        // A scroll area reports the position in its viewport's coordinates.
        menu->popup(view->viewport()->mapToGlobal(pos));
    });
}

void addTableExportAction(QMenu* menu, QAbstractItemView* view, const QString& baseName) {
    addTableCopyActions(menu, view);
    menu->addSeparator();
    QAction* csv = menu->addAction(QObject::tr("Export Table as &CSV…"));
    csv->setObjectName(QStringLiteral("exportTableCsv"));
    QObject::connect(csv, &QAction::triggered, view, [view, baseName] {
        exportWithDialog(view, QObject::tr("Export Table as CSV"), baseName + QStringLiteral(".csv"),
                         QObject::tr("CSV files (*.csv)"), QStringLiteral("csv"),
                         [view](const QString& path) { return writeTableCsv(view, path); });
    });
}

QMenu* createTableExportMenu(QAbstractItemView* view, const QString& baseName) {
    auto* menu = new QMenu(view);
    addTableExportAction(menu, view, baseName);
    return menu;
}

void installTableExportMenu(QAbstractItemView* view, const QString& baseName) {
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(view, &QWidget::customContextMenuRequested, view, [view, baseName](const QPoint& pos) {
        QMenu* menu = createTableExportMenu(view, baseName);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(view->viewport()->mapToGlobal(pos));
    });
}

}  // namespace fp8dash::ui::exporting
