#pragma once
// What the files of TimelineSourceDialog share (timeline_source_*.cpp): the combo boxes' indices, the progress
// scale, the keychain's typing pause and the form's small widgets. Internal to fp8dash_ui.

#include <QLabel>
#include <QLineEdit>
#include <QString>

#include "fp8dash/core/http_client.h"
#include "fp8dash/ui/timeline_source_dialog.h"
#include "widgets/ui_style.h"

namespace fp8dash::ui::timeline_source_parts {

inline constexpr int kProgressSteps = 1000;
enum AuthIndex { AuthNone = 0, AuthBasic = 1, AuthBearer = 2 };
enum QualityIndex { QualityNone = 0, QualityPrometheus = 1, QualityLangfuse = 2 };

inline constexpr int kLookupDelayMs = 250;

// The "Extra headers" box, one "Name: value" a line, through core's one header parser (errors name the field).
inline Result<Headers> parseHeaders(const QString& text) {
    return parseHeaderList(text.toStdString(), TimelineSourceDialog::tr("Extra headers").toStdString());
}

inline QString sessionOnlyTip() {
    return TimelineSourceDialog::tr(
        "Kept in memory for this session, and in the system keychain when “Remember in the system keychain” is "
        "ticked; never written to the comparison file or the settings. Empty: the system keychain, then the "
        "environment variable named in the field.");
}

// A caption on one line: word-wrapped labels make a QFormLayout compute its height for a width, which in Qt 6.4
// under-counts fixed-height rows (the headers box) and lets the rows overlap.
inline QLabel* lineCaption(const QString& text, QWidget* parent) {
    QLabel* label = style::caption(text, parent);
    label->setWordWrap(false);
    return label;
}

inline QLineEdit* secretEdit(const QString& objectName, QWidget* parent) {
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(objectName);
    edit->setEchoMode(QLineEdit::Password);
    edit->setToolTip(sessionOnlyTip());
    return edit;
}

inline QString envPlaceholder(const char* variable, const QString& otherwise = {}) {
    return qEnvironmentVariableIsSet(variable)
               ? TimelineSourceDialog::tr("empty: %1 from the environment").arg(QString::fromLatin1(variable))
               : otherwise;
}

}  // namespace fp8dash::ui::timeline_source_parts
