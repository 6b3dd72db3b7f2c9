// Opening a comparison at a place (open_place.h): `fp8dash FILE --tab NAME --task TASK --candidate LABEL`.
#include "fp8dash/ui/open_place.h"

#include <QComboBox>
#include <QLineEdit>
#include <QMessageBox>
#include <QTabWidget>
#include <QTimer>
#include <QTreeView>

#include <iostream>
#include <vector>

#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/task_table_view.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {

namespace {

// How a name is compared with a tab's title: lower case, '-' and '_' as spaces, spaces collapsed.
QString placeNormalized(const QString& name) {
    QString s = name.toLower();
    s.replace(QLatin1Char('-'), QLatin1Char(' '));
    s.replace(QLatin1Char('_'), QLatin1Char(' '));
    return s.simplified();
}

// The tab's title without what it says of the document ("Domain judge · GO" -> "Domain judge").
QString placeTabTitle(const QTabWidget* tabs, int index) {
    QString title = tabs->tabText(index);
    title.remove(QLatin1Char('&'));
    const qsizetype dot = title.indexOf(QStringLiteral(" · "));
    return (dot < 0 ? title : title.left(dot)).trimmed();
}

// The index of `given` among `names`: the exact name, else the one name equal to it in any case; -1 otherwise.
int placeIndexOf(const QStringList& names, const QString& given) {
    const int exact = static_cast<int>(names.indexOf(given));
    if (exact >= 0) return exact;
    int found = -1;
    for (int i = 0; i < names.size(); ++i) {
        if (names[i].compare(given, Qt::CaseInsensitive) != 0) continue;
        if (found >= 0) return -1;  // two names differ only in case: neither is meant more than the other
        found = i;
    }
    return found;
}

void placeTaskNames(const std::vector<TaskComparison>& tasks, QStringList& out) {
    for (const TaskComparison& t : tasks) {
        out << toQString(t.task);
        placeTaskNames(t.subtasks, out);
    }
}

QString placeChoicesNoun(const QString& option) {
    return option == QStringLiteral("tab")    ? QStringLiteral("tabs")
           : option == QStringLiteral("task") ? QStringLiteral("tasks")
                                              : QStringLiteral("candidates");
}

void reportPlaceProblems(MainWindow* window, const QList<PlaceProblem>& problems) {
    if (problems.isEmpty()) return;
    QStringList sentences;
    for (const PlaceProblem& p : problems) {
        std::cerr << "fp8dash: " << p.terminalText().toStdString() << "\n";
        sentences << p.windowText();
    }
    auto* box = new QMessageBox(QMessageBox::Information, MainWindow::tr("Opened, but not at that place"),
                                sentences.join(QStringLiteral("\n\n")) + QStringLiteral("\n\n") +
                                    MainWindow::tr("The comparison is open; the rest of the place asked for is shown."),
                                QMessageBox::Ok, window);
    box->setObjectName(QStringLiteral("openPlaceProblems"));
    box->setTextFormat(Qt::PlainText);  // the choices are names from the file
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

}  // namespace

QJsonObject OpenPlace::toJson() const {
    QJsonObject o;
    if (!tab.isEmpty()) o[QStringLiteral("tab")] = tab;
    if (!task.isEmpty()) o[QStringLiteral("task")] = task;
    if (!candidate.isEmpty()) o[QStringLiteral("candidate")] = candidate;
    return o;
}

OpenPlace OpenPlace::fromJson(const QJsonObject& object) {
    // Names from another process of this user: strings or nothing, and no longer than a name can sensibly be.
    const auto text = [&object](const char* key) {
        const QString s = object.value(QLatin1String(key)).toString();
        return s.size() > 4096 ? QString() : s;
    };
    return {text("tab"), text("task"), text("candidate")};
}

QString PlaceProblem::terminalText() const {
    QString line = QStringLiteral("--%1 \"%2\": ").arg(option, visibleText(given));
    if (choices.isEmpty())
        return line + (option == QStringLiteral("task") ? QStringLiteral("this comparison has no offline evals")
                                                        : QStringLiteral("this comparison has none"));
    QStringList shown;
    for (const QString& c : choices) shown << visibleText(c);
    return line + QStringLiteral("no such %1 in this comparison; its %2: %3")
                      .arg(option, placeChoicesNoun(option), shown.join(QStringLiteral(", ")));
}

QString PlaceProblem::windowText() const {
    const QString what = option == QStringLiteral("tab")    ? MainWindow::tr("The tab")
                         : option == QStringLiteral("task") ? MainWindow::tr("The task")
                                                            : MainWindow::tr("The candidate");
    QString text = MainWindow::tr("%1 “%2” asked for when fp8dash was started is not in this comparison.")
                       .arg(what, visibleText(given));
    if (choices.isEmpty()) return text + QLatin1Char(' ') + MainWindow::tr("It has no offline evals.");
    QStringList shown;
    for (const QString& c : choices) shown << visibleText(c);
    const QString list = shown.join(QStringLiteral(", "));
    if (option == QStringLiteral("tab")) return text + QLatin1Char(' ') + MainWindow::tr("Its tabs: %1.").arg(list);
    if (option == QStringLiteral("task")) return text + QLatin1Char(' ') + MainWindow::tr("Its tasks: %1.").arg(list);
    return text + QLatin1Char(' ') + MainWindow::tr("Its candidates: %1.").arg(list);
}

QStringList placeTabTitles(const MainWindow& window) {
    QStringList titles;
    const QTabWidget* tabs = window.comparisonView()->tabs();
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->isTabVisible(i)) titles << placeTabTitle(tabs, i);
    return titles;
}

QList<PlaceProblem> goToPlace(MainWindow& window, const OpenPlace& place) {
    QList<PlaceProblem> problems;
    const LoadedComparison* loaded = window.current();
    if (!loaded || place.isEmpty()) return problems;
    ComparisonView* view = window.comparisonView();
    const bool evals = loaded->document.hasEvals;
    const VariantComparison* variants = evals && loaded->decision.variants ? &*loaded->decision.variants : nullptr;

    if (!place.candidate.isEmpty()) {
        QStringList labels;
        if (variants) {
            for (const VariantResult& v : variants->variants) labels << toQString(v.label);
        } else if (evals) {
            labels << toQString(loaded->document.candidate.label);
        }
        const int k = placeIndexOf(labels, place.candidate);
        if (k < 0)
            problems.append({QStringLiteral("candidate"), place.candidate, labels});
        else if (variants)
            view->showCandidate(k);
    }
    if (!place.task.isEmpty()) {
        QStringList names;
        if (variants) {
            const int shown = view->shownCandidate();
            if (shown >= 0 && shown < static_cast<int>(variants->variants.size()))
                placeTaskNames(variants->variants[static_cast<std::size_t>(shown)].report.tasks, names);
        } else if (evals) {
            placeTaskNames(loaded->report.tasks, names);
        }
        const int t = placeIndexOf(names, place.task);
        if (t < 0) {
            problems.append({QStringLiteral("task"), place.task, names});
        } else {
            view->showTab(ComparisonView::EvalsTab);
            TaskTableView* table = view->taskTable();
            if (!table->selectTask(names[t])) {
                table->filterEdit()->clear();  // filtered out: the whole table, then the task
                table->selectTask(names[t]);
            }
            table->treeView()->setFocus(Qt::OtherFocusReason);
        }
    }
    if (place.tab.isEmpty()) {
        if (evals && (!place.task.isEmpty() || !place.candidate.isEmpty())) view->showTab(ComparisonView::EvalsTab);
    } else {
        QTabWidget* tabs = view->tabs();
        int found = -1;
        for (int i = 0; i < tabs->count() && found < 0; ++i)
            if (tabs->isTabVisible(i) && placeNormalized(placeTabTitle(tabs, i)) == placeNormalized(place.tab))
                found = i;
        if (found < 0)
            problems.append({QStringLiteral("tab"), place.tab, placeTabTitles(window)});
        else
            tabs->setCurrentIndex(found);
    }
    return problems;
}

void goToPlaceWhenShown(MainWindow* window, const QString& path, const OpenPlace& place) {
    if (!window || place.isEmpty()) return;
    // After the window has settled on the document (its own candidate, sort and tab), in the next turn of the loop.
    const auto apply = [window, place] {
        QTimer::singleShot(0, window, [window, place] { reportPlaceProblems(window, goToPlace(*window, place)); });
    };
    if (window->current() && !window->isLoading() && (path.isEmpty() || window->documentPath() == path)) {
        apply();
        return;
    }
    QObject::connect(
        window, &MainWindow::documentShown, window,
        [apply, path](const QString& shown) {
            if (path.isEmpty() || shown == path) apply();
        },
        Qt::SingleShotConnection);
}

}  // namespace fp8dash::ui
