#pragma once
// ModelNotice: the framed note above the Capacity and Local benchmarks figures that says which model they are for
// when it is not plainly the compared one (compared_model.h): a warning (another model's figures, or a model fp8dash
// does not know) in the caution colour, or an information (another name, the same architecture) in the notice colours;
// an optional action button beside it. Hidden while its text is empty. GUI thread only.

#include <QFrame>
#include <QString>

class QLabel;
class QPushButton;

namespace fp8dash::ui {

class ModelNotice : public QFrame {
public:
    ModelNotice(const QString& objectName, QWidget* parent);

    enum class Kind { Warning, Information };
    // html: markup of ours, data escaped by the caller. Empty: hidden. buttonText empty: no button.
    void setNote(const QString& html, Kind kind, const QString& buttonText = QString());
    QString text() const;  // the note as plain text; empty while hidden
    QPushButton* button() const { return m_button; }

private:
    void paint();

    Kind m_kind = Kind::Warning;
    QLabel* m_label = nullptr;
    QPushButton* m_button = nullptr;
};

}  // namespace fp8dash::ui
