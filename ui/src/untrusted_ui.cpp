#include "untrusted_ui.h"

#include <QCoreApplication>
#include <QLabel>
#include <QLocale>
#include <QTextDocument>

namespace fp8dash::ui {

QString excerpt(const QString& text) {
    if (text.size() <= kShownChars) return text;
    return text.left(kShownChars) +
           QCoreApplication::translate("fp8dash::ui", "… (%1 characters in all: the report shows them all)")
               .arg(QLocale().toString(text.size()));
}

QLabel* plainLabel(const QString& text, QWidget* parent) {
    auto* label = new QLabel(parent);
    setPlainText(label, text);
    return label;
}

void setPlainText(QLabel* label, const QString& text) {
    label->setTextFormat(Qt::PlainText);
    label->setText(text);
}

QString escapedTip(const QString& text) {
    // QToolTip reads a text as rich text exactly when Qt::mightBeRichText says so; only then does it need escaping.
    if (!Qt::mightBeRichText(text)) return text;
    // "<p>...</p>" with <, > and & escaped and line breaks as <br>: rich text whose rendering is the text itself.
    return Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal);
}

QString richTip(const QString& html) {
    if (html.isEmpty()) return {};
    return Qt::mightBeRichText(html) ? html : QStringLiteral("<qt>%1</qt>").arg(html);
}

QString chartText(const QString& text) {
    return text.toHtmlEscaped();
}

QMessageBox* plainMessageBox(QMessageBox::Icon icon, const QString& title, const QString& text,
                             const QString& informative, QMessageBox::StandardButtons buttons, QWidget* parent) {
    auto* box = new QMessageBox(icon, title, QString(), buttons, parent);
    box->setTextFormat(Qt::PlainText);
    box->setText(text);
    box->setAttribute(Qt::WA_DeleteOnClose);
    if (!informative.isEmpty()) {
        box->setInformativeText(informative);
        // QMessageBox creates the informative label on first use, in automatic format: make it plain too.
        for (auto* label : box->findChildren<QLabel*>(QStringLiteral("qt_msgbox_informativelabel")))
            label->setTextFormat(Qt::PlainText);
    }
    return box;
}

}  // namespace fp8dash::ui
