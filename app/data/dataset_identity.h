// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"
#include "data/dataset.h"
#include "data/dataset_source.h"
#include "util/result.h"

#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <optional>
#include <string>

namespace facet {

// Which data a run factorized, so a run can be matched to its data later (in the explorer, in a
// session, from a run file): the dataset's name, where it came from, its preparation, and the
// SHA-256 of the prepared matrix. Two sets of one shape (ORL_32x32.mat and the att_faces folder
// at 32 x 32, or one file with and without equalization) differ in sha256.
struct DatasetIdentity {
    QString name; // "ORL_32x32"
    QString source; // the request's spec: a path or builtin:NAME (empty when unknown)
    QString preparation; // describePreparation of the request
    QString sha256; // dataSha256 of the prepared X, 64 hex digits; empty when unknown
    qint64 samples = 0;
    qint64 features = 0;
    // The run factorized this data with each sample scaled to unit L2 norm on top (the
    // explorer's per-sample normalization, automatic for the CF family); sha256 is the data's
    // before that step, the dataset as loaded.
    bool sampleL2 = false;

    bool known() const { return sha256.size() == 64; }
    // Same prepared data (sampleL2 aside: that is how a run used it, not which data it was).
    bool sameData(const DatasetIdentity& other) const { return known() && sha256 == other.sha256; }
};

// SHA-256 of X's bytes: float64, little-endian, column-major, one sample after another; in numpy
// hashlib.sha256(np.asfortranarray(X, dtype='<f8').tobytes()).hexdigest() for the same matrix.
// About 0.8 s for 70,000 x 1,024 (OpenSSL's libcrypto).
QString dataSha256(const Matrix& X);

// dataSha256 and dataChecksum of a matrix held in parts, in sample order: the ranks of a
// distributed run that read their own columns. Each holder add()s its columns in turn and hands
// state() to the next (fromState); after the last part, sha256() and checksum() are what
// dataSha256 and dataChecksum give for the whole matrix. A digest is sequential, so the parts
// take their turns one after another: the whole costs what one process's digest costs. The state
// is this build's bytes (OpenSSL's SHA256_CTX and the FNV-1a word), for the same build only.
class DataDigest {
public:
    DataDigest();
    // nullopt when `state` is not one this build's state() gives.
    static std::optional<DataDigest> fromState(const std::string& state);
    void add(MatrixCRef X); // X's columns, after those added before
    std::string state() const;
    QString sha256() const; // of everything added so far
    QString checksum() const;

private:
    std::string m_sha; // SHA256_CTX's bytes (kept out of this header with OpenSSL's)
    std::uint64_t m_fnv;
};

// "scaled to [0, 1], 32x32, equalized": the preparation steps of a request, in one line.
QString describePreparation(const DatasetRequest& request);

// The identity of `data`, loaded by `request`, with `sha256` already computed (dataSha256 of
// data.X; the caller hashes on a worker).
DatasetIdentity datasetIdentity(
    const Dataset& data, const DatasetRequest& request, const QString& sha256);

// "ORL_32x32 (/data/ORL_32x32.mat, scaled to [0, 1]; sha256 3f2a09c1…)"; "an unknown
// dataset" when nothing is known.
QString describeIdentity(const DatasetIdentity& identity);

// {"name", "preparation", "sha256", "samples", "features", "sample_l2"}; the source is a
// session's to store (relative to its folder), so it is not part of this object.
QJsonObject identityToJson(const DatasetIdentity& identity);
// The inverse; every field is optional (files from before identities were kept), and a sha256
// that is not 64 hex digits is an error naming `context`.
Result<DatasetIdentity> identityFromJson(const QJsonObject& object, const QString& context);

} // namespace facet
