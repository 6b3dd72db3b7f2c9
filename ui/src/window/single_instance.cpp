#include "fp8dash/ui/single_instance.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalServer>
#include <QLocalSocket>
#include <QPointer>

#include <memory>

#include <unistd.h>

namespace fp8dash::ui {

namespace {

constexpr qint64 kMaxMessageBytes = 1 << 20;  // a million bytes of paths is far more than a file manager sends

QByteArray line(const QJsonObject& object) {
    return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
}

}  // namespace

SingleInstance::SingleInstance(QObject* parent) : QObject(parent) {}

SingleInstance::~SingleInstance() = default;

QString SingleInstance::defaultServerName() {
    QString dir = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (dir.isEmpty() || !QFileInfo(dir).isDir()) {
        // No session runtime folder: a private one of our own in the temporary directory.
        dir = QDir::temp().filePath(QStringLiteral("fp8dash-%1").arg(::getuid()));
        QDir().mkpath(dir);
        QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }
    return QDir(dir).filePath(QStringLiteral("fp8dash-instance"));
}

std::optional<SingleInstance::HandOff> SingleInstance::handOff(const QStringList& files, bool present,
                                                               const QString& serverName, int timeoutMs,
                                                               const OpenPlace& place) {
    QLocalSocket socket;
    socket.connectToServer(serverName);
    if (!socket.waitForConnected(timeoutMs)) return std::nullopt;
    QJsonObject request;
    request[QStringLiteral("open")] = QJsonArray::fromStringList(files);
    request[QStringLiteral("present")] = present;
    request[QStringLiteral("pid")] = static_cast<qint64>(QCoreApplication::applicationPid());
    if (!place.isEmpty()) request[QStringLiteral("place")] = place.toJson();
    socket.write(line(request));
    if (!socket.waitForBytesWritten(timeoutMs)) return std::nullopt;
    QByteArray reply;
    while (!reply.contains('\n')) {
        if (!socket.waitForReadyRead(timeoutMs)) return std::nullopt;  // a hung instance: start our own
        reply += socket.readAll();
        if (reply.size() > kMaxMessageBytes) return std::nullopt;
    }
    const QJsonObject answer = QJsonDocument::fromJson(reply.left(reply.indexOf('\n'))).object();
    if (!answer.value(QStringLiteral("accepted")).toBool()) return std::nullopt;
    HandOff h;
    h.pid = answer.value(QStringLiteral("pid")).toInteger();
    h.files = answer.value(QStringLiteral("files")).toInt();
    return h;
}

bool SingleInstance::listen(const QString& serverName) {
    delete m_server;
    m_server = new QLocalServer(this);
    m_server->setSocketOptions(QLocalServer::UserAccessOption);
    connect(m_server, &QLocalServer::newConnection, this, &SingleInstance::handleConnection);
    if (m_server->listen(serverName)) return true;
    // A socket file left by an instance that crashed: nobody answers on it, so it may go.
    QLocalSocket probe;
    probe.connectToServer(serverName);
    if (probe.waitForConnected(500)) return false;  // an instance is alive after all
    QLocalServer::removeServer(serverName);
    return m_server->listen(serverName);
}

QString SingleInstance::serverName() const {
    return m_server ? m_server->fullServerName() : QString();
}

void SingleInstance::handleConnection() {
    while (QLocalSocket* socket = m_server->nextPendingConnection()) {
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        auto buffer = std::make_shared<QByteArray>();
        connect(socket, &QLocalSocket::readyRead, this, [this, socket, buffer] {
            *buffer += socket->readAll();
            if (buffer->size() > kMaxMessageBytes) {
                socket->abort();
                return;
            }
            const qsizetype end = buffer->indexOf('\n');
            if (end < 0) return;
            QJsonParseError parseError{};
            const QJsonDocument doc = QJsonDocument::fromJson(buffer->left(end), &parseError);
            buffer->clear();
            QJsonObject answer;
            answer[QStringLiteral("pid")] = static_cast<qint64>(QCoreApplication::applicationPid());
            if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
                answer[QStringLiteral("accepted")] = false;
                socket->write(line(answer));
                socket->disconnectFromServer();
                return;
            }
            QStringList files;
            for (const QJsonValue& v : doc.object().value(QStringLiteral("open")).toArray()) {
                const QString path = v.toString();
                if (!path.isEmpty() && QDir::isAbsolutePath(path)) files << QDir::cleanPath(path);
            }
            answer[QStringLiteral("accepted")] = true;
            answer[QStringLiteral("files")] = static_cast<int>(files.size());
            socket->write(line(answer));
            socket->flush();
            socket->disconnectFromServer();
            // The place's names are checked against the document where it opens (OpenPlace::fromJson keeps strings).
            const OpenPlace place = OpenPlace::fromJson(doc.object().value(QStringLiteral("place")).toObject());
            emit openRequested(files, doc.object().value(QStringLiteral("present")).toBool(), place.toJson());
        });
    }
}

}  // namespace fp8dash::ui
