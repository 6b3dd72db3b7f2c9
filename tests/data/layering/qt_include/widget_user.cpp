// Violates no-qt: a Qt module header.
#include <QtWidgets/QWidget>
