// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/dataset_identity.h"

#include "util/json_read.h"

#include <QByteArray>
#include <QStringList>

// SHA256_Init/Update/Final are deprecated in OpenSSL 3 in favour of EVP, whose context cannot
// be copied out to another process; a digest over parts held by several processes
// (DataDigest) needs the context's bytes.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include <bit>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

bool isHexDigest(const QString& text)
{
    if (text.size() != 64)
        return false;
    for (QChar c : text)
        if (!((c >= u'0' && c <= u'9') || (c >= u'a' && c <= u'f')))
            return false;
    return true;
}

SHA256_CTX shaStart()
{
    static_assert(
        std::endian::native == std::endian::little, "the digest is of little-endian bytes");
    SHA256_CTX context;
    if (SHA256_Init(&context) != 1)
        throw std::runtime_error("SHA-256 is not available from libcrypto");
    return context;
}

// X's values as float64, little-endian, one column after another: a float build hashes its
// values widened, so the digest names the values, not the precision they were computed in.
void shaAdd(SHA256_CTX& context, MatrixCRef X)
{
    const auto update = [&](const void* bytes, std::size_t count) {
        if (count > 0 && SHA256_Update(&context, bytes, count) != 1)
            throw std::runtime_error("SHA-256 failed");
    };
    if constexpr (std::is_same_v<Scalar, double>) {
        if (X.outerStride() == X.rows())
            update(X.data(), std::size_t(X.size()) * sizeof(double));
        else
            for (Eigen::Index j = 0; j < X.cols(); ++j)
                update(X.col(j).data(), std::size_t(X.rows()) * sizeof(double));
    } else {
        std::vector<double> column(std::size_t(X.rows()));
        for (Eigen::Index j = 0; j < X.cols(); ++j) {
            for (Eigen::Index i = 0; i < X.rows(); ++i)
                column[std::size_t(i)] = double(X(i, j));
            update(column.data(), column.size() * sizeof(double));
        }
    }
}

QString shaHex(SHA256_CTX context)
{
    unsigned char digest[SHA256_DIGEST_LENGTH];
    if (SHA256_Final(digest, &context) != 1)
        throw std::runtime_error("SHA-256 failed");
    return QString::fromLatin1(
        QByteArray(reinterpret_cast<const char*>(digest), SHA256_DIGEST_LENGTH).toHex());
}

SHA256_CTX contextOf(const std::string& bytes)
{
    SHA256_CTX context;
    std::memcpy(&context, bytes.data(), sizeof context);
    return context;
}

} // namespace

DataDigest::DataDigest()
    : m_sha(sizeof(SHA256_CTX), '\0')
    , m_fnv(kChecksumStart)
{
    const SHA256_CTX context = shaStart();
    std::memcpy(m_sha.data(), &context, sizeof context);
}

std::optional<DataDigest> DataDigest::fromState(const std::string& state)
{
    if (state.size() != sizeof(SHA256_CTX) + sizeof(std::uint64_t))
        return std::nullopt;
    DataDigest digest;
    digest.m_sha = state.substr(0, sizeof(SHA256_CTX));
    std::memcpy(&digest.m_fnv, state.data() + sizeof(SHA256_CTX), sizeof digest.m_fnv);
    return digest;
}

std::string DataDigest::state() const
{
    std::string state = m_sha;
    state.append(reinterpret_cast<const char*>(&m_fnv), sizeof m_fnv);
    return state;
}

void DataDigest::add(MatrixCRef X)
{
    for (Eigen::Index j = 0; j < X.cols(); ++j)
        m_fnv = checksumAdd(m_fnv, X.col(j).data(), std::size_t(X.rows()));
    SHA256_CTX context = contextOf(m_sha);
    shaAdd(context, X);
    std::memcpy(m_sha.data(), &context, sizeof context);
}

QString DataDigest::sha256() const
{
    return shaHex(contextOf(m_sha)); // a copy: this digest stays open for more parts
}

QString DataDigest::checksum() const
{
    return QString::number(m_fnv, 16);
}

QString dataSha256(const Matrix& X)
{
    SHA256_CTX context = shaStart();
    shaAdd(context, X);
    return shaHex(context);
}

QString describePreparation(const DatasetRequest& request)
{
    QStringList steps;
    if (request.prepare.scaleTo01)
        steps << u"scaled to [0, 1]"_s;
    const QString images = describePreprocess(request.preprocess);
    if (images != u"as loaded"_s)
        steps << images;
    if (request.prepare.l2Normalize)
        steps << u"unit L2 norm per sample"_s;
    return steps.isEmpty() ? u"as loaded"_s : steps.join(u", "_s);
}

DatasetIdentity datasetIdentity(
    const Dataset& data, const DatasetRequest& request, const QString& sha256)
{
    DatasetIdentity identity;
    identity.name = data.name;
    identity.source = request.spec.isEmpty() ? data.source : request.spec;
    identity.preparation = describePreparation(request);
    identity.sha256 = sha256;
    identity.samples = data.samples();
    identity.features = data.features();
    return identity;
}

QString describeIdentity(const DatasetIdentity& identity)
{
    if (identity.name.isEmpty() && !identity.known())
        return u"an unknown dataset"_s;
    QStringList details;
    if (!identity.source.isEmpty())
        details << identity.source;
    if (!identity.preparation.isEmpty())
        details << identity.preparation;
    QString text = identity.name.isEmpty() ? u"a dataset"_s : identity.name;
    QString inside = details.join(u", "_s);
    if (identity.known())
        inside += (inside.isEmpty() ? u""_s : u"; "_s) + u"sha256 "_s + identity.sha256.left(12)
            + u"…"_s;
    if (identity.sampleL2)
        inside += (inside.isEmpty() ? u""_s : u"; "_s) + u"each sample scaled to unit L2 norm"_s;
    return inside.isEmpty() ? text : u"%1 (%2)"_s.arg(text, inside);
}

QJsonObject identityToJson(const DatasetIdentity& identity)
{
    return QJsonObject {
        { u"name"_s, identity.name },
        { u"preparation"_s, identity.preparation },
        { u"sha256"_s, identity.sha256 },
        { u"samples"_s, identity.samples },
        { u"features"_s, identity.features },
        { u"sample_l2"_s, identity.sampleL2 },
    };
}

Result<DatasetIdentity> identityFromJson(const QJsonObject& object, const QString& context)
{
    DatasetIdentity identity;
    JsonReader in(object, context);
    in.readString(u"name"_s, identity.name);
    in.readString(u"preparation"_s, identity.preparation);
    in.readString(u"sha256"_s, identity.sha256);
    in.readInt64(u"samples"_s, identity.samples, 0, std::numeric_limits<int>::max());
    in.readInt64(u"features"_s, identity.features, 0, std::numeric_limits<int>::max());
    in.readBool(u"sample_l2"_s, identity.sampleL2);
    if (!in.ok())
        return in.failure();
    if (!identity.sha256.isEmpty() && !isHexDigest(identity.sha256))
        return Error { u"%1: \"sha256\" must be 64 lower-case hex digits"_s.arg(context) };
    identity.name.truncate(256);
    identity.preparation.truncate(1024);
    return identity;
}

} // namespace facet
