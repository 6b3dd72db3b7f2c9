#pragma once
// Opening a comparison at a place: `fp8dash FILE.fp8cmp --tab NAME --task TASK --candidate LABEL` (docs/cli.md,
// docs/desktop-app.md "Open at a place"). The tab by its visible title, in any case, '-' or '_' for a space, the part
// after " · " left out ("Offline evals", "offline-evals", "which layers", "Review"); the task selected in the Offline
// evals table (exact name first, else the one name equal in any case); the candidate picked in the "Candidate:"
// picker of a several-variant comparison (its label, in any case). A task or a candidate without a tab shows the
// Offline evals tab. A name the comparison lacks is a problem that names the option and the valid choices; the rest
// of the place is still applied and the file stays open. A second `fp8dash FILE --tab …` hands the place to the
// running instance with the file (single_instance.h). GUI thread only.

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace fp8dash::ui {

class MainWindow;

struct OpenPlace {
    QString tab;
    QString task;
    QString candidate;

    bool isEmpty() const { return tab.isEmpty() && task.isEmpty() && candidate.isEmpty(); }
    // For the single-instance hand-off: {"tab": …, "task": …, "candidate": …}, the empty ones left out.
    QJsonObject toJson() const;
    static OpenPlace fromJson(const QJsonObject& object);
};

// A name the comparison does not have: the option ("tab", "task", "candidate"), what was given, the valid choices.
struct PlaceProblem {
    QString option;
    QString given;
    QStringList choices;
    // The terminal's line: `--task "gsm8": no such task in this comparison; its tasks: arc_easy, gsm8k`.
    QString terminalText() const;
    // The window's sentence (no command-line flag: "The task “gsm8” asked for is not in this comparison. …").
    QString windowText() const;
};

// Brings the document `window` shows to `place` now: the candidate first (the table follows it), then the task,
// then the tab. Returns what it could not find (empty when everything was found, or there is no document).
QList<PlaceProblem> goToPlace(MainWindow& window, const OpenPlace& place);

// goToPlace once `window` shows the document of `path` (now, when it already does; "" for whatever it shows next),
// then, when a name was not found, says so: on stderr (with the options' names) and in a message box over the window
// (object name "openPlaceProblems", non-modal). Nothing for an empty place.
void goToPlaceWhenShown(MainWindow* window, const QString& path, const OpenPlace& place);

// The tabs' titles the place accepts, as shown (for the messages and the docs).
QStringList placeTabTitles(const MainWindow& window);

}  // namespace fp8dash::ui
