#include "widgets/untrusted_ui.h"

#include <QCoreApplication>
#include <QLabel>
#include <QLocale>
#include <QTextDocument>

namespace fp8dash::ui {

QString excerpt(const QString& whole) {
    const QString text = visibleText(whole);  // shown: its controls visible (visibleText is idempotent)
    if (text.size() <= kShownChars) return text;
    return text.left(kShownChars) +
           QCoreApplication::translate("fp8dash::ui", "… (%1 characters in all: the report shows them all)")
               .arg(QLocale().toString(whole.size()));  // the note's own length
}

QString visibleText(const QString& text) {
    const auto escapedChar = [](char16_t c) {
        if (c < 0x20) return c != u'\n' && c != u'\t';
        if (c >= 0x7F && c <= 0x9F) return true;
        if (c >= 0x202A && c <= 0x202E) return true;
        if (c >= 0x2066 && c <= 0x2069) return true;
        return c == 0x200E || c == 0x200F || c == 0x061C || c == 0x2028 || c == 0x2029;
    };
    qsizetype first = 0;
    while (first < text.size() && !escapedChar(text[first].unicode())) ++first;
    if (first == text.size()) return text;  // the usual case: nothing to show differently
    QString out = text.left(first);
    for (qsizetype i = first; i < text.size(); ++i) {
        const char16_t c = text[i].unicode();
        if (escapedChar(c))
            out += QStringLiteral("\\u") + QString::number(c, 16).toUpper().rightJustified(4, QLatin1Char('0'));
        else
            out += text[i];
    }
    return out;
}

QLabel* plainLabel(const QString& text, QWidget* parent) {
    auto* label = new QLabel(parent);
    setPlainText(label, text);
    return label;
}

void setPlainText(QLabel* label, const QString& text) {
    label->setTextFormat(Qt::PlainText);
    label->setText(visibleText(text));
}

QString escapedTip(const QString& text) {
    // QToolTip reads a text as rich text exactly when Qt::mightBeRichText says so; only then does it need escaping.
    const QString shown = visibleText(text);
    if (!Qt::mightBeRichText(shown)) return shown;
    // "<p>...</p>" with <, > and & escaped and line breaks as <br>: rich text whose rendering is the text itself.
    return Qt::convertFromPlainText(shown, Qt::WhiteSpaceNormal);
}

QString richTip(const QString& html) {
    if (html.isEmpty()) return {};
    return Qt::mightBeRichText(html) ? html : QStringLiteral("<qt>%1</qt>").arg(html);
}

QString chartText(const QString& text) {
    return visibleText(text).toHtmlEscaped();
}

QMessageBox* plainMessageBox(QMessageBox::Icon icon, const QString& title, const QString& text,
                             const QString& informative, QMessageBox::StandardButtons buttons, QWidget* parent) {
    auto* box = new QMessageBox(icon, title, QString(), buttons, parent);
    box->setTextFormat(Qt::PlainText);
    box->setText(visibleText(text));
    box->setAttribute(Qt::WA_DeleteOnClose);
    if (!informative.isEmpty()) {
        box->setInformativeText(visibleText(informative));
        // QMessageBox creates the informative label on first use, in automatic format: make it plain too.
        for (auto* label : box->findChildren<QLabel*>(QStringLiteral("qt_msgbox_informativelabel")))
            label->setTextFormat(Qt::PlainText);
    }
    return box;
}

}  // namespace fp8dash::ui
