// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/dataset_identity.h"

#include "util/json_read.h"

#include <QByteArray>
#include <QStringList>

#include <openssl/evp.h>

#include <bit>
#include <limits>
#include <memory>
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

struct DigestContextFree {
    void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
};

} // namespace

QString dataSha256(const Matrix& X)
{
    static_assert(std::endian::native == std::endian::little,
        "the digest is of little-endian "
        "bytes");
    std::unique_ptr<EVP_MD_CTX, DigestContextFree> context(EVP_MD_CTX_new());
    if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 is not available from libcrypto");
    // In Scalar's bytes as stored; a float build hashes its values widened to float64, so the
    // digest names the values, not the precision they were computed in.
    if constexpr (std::is_same_v<Scalar, double>) {
        if (X.size() > 0
            && EVP_DigestUpdate(context.get(), X.data(), std::size_t(X.size()) * sizeof(double))
                != 1)
            throw std::runtime_error("SHA-256 failed");
    } else {
        std::vector<double> column(std::size_t(X.rows()));
        for (Eigen::Index j = 0; j < X.cols(); ++j) {
            for (Eigen::Index i = 0; i < X.rows(); ++i)
                column[std::size_t(i)] = double(X(i, j));
            if (EVP_DigestUpdate(context.get(), column.data(), column.size() * sizeof(double)) != 1)
                throw std::runtime_error("SHA-256 failed");
        }
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(context.get(), digest, &length) != 1 || length != 32)
        throw std::runtime_error("SHA-256 failed");
    return QString::fromLatin1(
        QByteArray(reinterpret_cast<const char*>(digest), qsizetype(length)).toHex());
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
