#include "fp8dash/ui/credential_store.h"

namespace fp8dash::ui {

namespace {

QString keyFor(const char* kind, const QString& url) {
    QString u = url.trimmed();
    while (u.endsWith(QLatin1Char('/'))) u.chop(1);
    return u.isEmpty() ? QString() : QString::fromLatin1(kind) + QLatin1Char(' ') + u;
}

}  // namespace

QString CredentialStore::prometheusKey(const QString& url) {
    return keyFor("prometheus", url);
}

QString CredentialStore::langfuseKey(const QString& url) {
    return keyFor("langfuse", url);
}

}  // namespace fp8dash::ui
