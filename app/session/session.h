// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "data/dataset_identity.h"
#include "data/dataset_source.h"
#include "experiment/run.h"
#include "util/result.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>

#include <limits>
#include <optional>
#include <vector>

namespace facet {

// The numbers a run ended with, as the run history shows them.
struct RunSummary {
    int iterations = 0;
    StopReason stopReason = StopReason::MaxIterations;
    double objective = 0; // last entry of the history; NaN when there is none
    // At the returned, normalized factors (Factorization::returnedObjective); NaN when unknown
    // (files from before it was kept).
    double returnedObjective = std::numeric_limits<double>::quiet_NaN();
    std::optional<double> ac;
    std::optional<double> nmi;
    std::optional<double> graphAc; // CF_OGL: by Q's connected components
    std::optional<double> graphNmi;
    double reconstructionError = 0; // ||X - basis V^T|| / ||X||; NaN where undefined (PCA)
    double sparseness = 0; // Hoyer, of V
    double seconds = 0; // set-up + initialization + solve + clustering
    // Its parts before and after the solve (the kNN graph or kernel; the clustering of V), so a
    // run shown again reports its timings as the run did; 0 in files from before they were kept.
    double setupSeconds = 0;
    double clusterSeconds = 0;
};

// One finished run, enough to show it, compare it and re-run it exactly.
struct RunRecord {
    int id = 0; // unique within a session; 0 until a RunHistoryModel assigns one
    QString name; // editable by the user
    RunOptions options; // options.method names the method
    RunSummary summary;
    std::vector<double> history; // objective after each iteration (NaN for a non-finite one)
    std::vector<int> segmentStarts; // CF_OGL beta segments
    // Seconds from the start of the solve at each of the last times.size() iterations
    // (Factorization::times); empty in sessions from before they were kept.
    std::vector<double> times;
    std::vector<int> predicted; // cluster of each sample, 0-based
    Matrix basis; // m x k basis images (NMF: U; CF family: X W); empty when not kept
    Matrix V; // n x k representation
    Matrix W; // n x k CF-family association matrix (basis = X W); empty for the other methods
    int imageHeight = 0; // basis columns are imageHeight x imageWidth images, row-major
    int imageWidth = 0;
    QDateTime created;
    // The data the run factorized (name, source, preparation, sha256); unknown (empty sha256)
    // for runs from sessions written before it was kept: those are matched by shape alone.
    DatasetIdentity dataset;

    bool hasFactors() const { return basis.size() > 0 && V.size() > 0; }
};

// A run's default name: the method and rank, then `detail` (what a tuning gesture changed, say
// "λ=31.6"), then how it started when not from its seed ("GNMF k=40 λ=31.6, warm start").
QString defaultRunName(const RunOptions& options, const QString& detail = {});

// A record of a finished run of `data` (for the image size of the basis columns).
RunRecord makeRunRecord(
    const RunOptions& options, const RunResult& result, const Dataset& data, const QString& name);

// A dataset a session's runs used, so the session can open it again: how to load it and what
// it holds.
struct SessionDataset {
    DatasetRequest request;
    QString name;
    QString sha256; // of the prepared X (DatasetIdentity::sha256)
};

// A session: the dataset open when it was saved, every dataset its runs used, and the runs, in
// history order.
struct Session {
    std::optional<DatasetRequest> dataset; // none: the runs were loaded without their data
    // Set when the file named a dataset the loader refused to follow (a relative path that leaves
    // the session folder); `dataset` is then empty and the user opens the data themselves.
    QString datasetProblem;
    // One per sha256 (the open dataset's included when known); a run's dataset.source is filled
    // from here on load. Entries whose path the loader refused to follow are left out.
    std::vector<SessionDataset> datasets;
    std::vector<RunRecord> runs;
    // The id of the run on screen when the session was saved (0: none); one of `runs`.
    int shownRunId = 0;
};

inline constexpr int kSessionFormatVersion = 1;

// Largest total of factor values one session may hold (16 GiB of doubles would not fit anyway);
// checked before any allocation sized by the file.
inline constexpr qint64 kSessionMaxFactorBytes = qint64(2) << 30;

// The session as JSON: {"format": "facet-session", "version": 1, "dataset": {...},
// "datasets": [{request..., "name", "sha256"}], "runs": [{..., "dataset": identityToJson}]}.
// Factors are base64 of little-endian float64 in column-major order with their shape. A dataset
// path inside `sessionDir` is stored relative to it, any other path absolute; builtin:NAME as is.
QByteArray serializeSession(const Session& session, const QString& sessionDir);

// The inverse, for files from anyone: every field is type-checked, shapes are checked against the
// payload with overflow checks and kSessionMaxFactorBytes, non-finite factors and unknown methods
// are refused, a newer version is refused with both version numbers. Version 0 (a facet-cli
// `run --json` report) is migrated to a one-run session without factors. Relative dataset paths
// resolve against `sessionDir`; one that climbs out of it is reported in datasetProblem.
Result<Session> parseSession(const QByteArray& json, const QString& sessionDir);

// Through a temporary file renamed over `path` (the old file stays intact on any failure).
Result<bool> saveSession(const Session& session, const QString& path);
Result<Session> loadSession(const QString& path);

} // namespace facet
