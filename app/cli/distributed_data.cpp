// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/distributed_data.h"

#include "cli/commands.h"
#include "core/update.h"
#include "data/dataset_identity.h"
#include "data/dataset_source.h"
#include "distributed/distributed_sweep.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace facet::cli {

using namespace Qt::StringLiterals;

QString eachRankReadsObstacle(const CliOptions& options)
{
    if (!options.classes.isEmpty())
        return u"--classes draws samples from the whole set"_s;
    return partLoadObstacle(options.dataset);
}

bool anyRankFailed(Collectives& comm, const QString& error, QTextStream& err)
{
    const std::vector<double> failed = valuePerRank(comm, error.isEmpty() ? 0 : 1);
    const auto first = std::find(failed.begin(), failed.end(), 1.0);
    if (first == failed.end())
        return false;
    if (first - failed.begin() == comm.rank()) {
        err << "facet-cli"
            << (comm.rank() == 0 ? QString()
                                 : u" ("_s + rankName(comm.rank(), comm.size(), {}) + u')')
            << ": " << error << Qt::endl;
        err.flush();
    }
    return true;
}

namespace {

// The digest of every rank's columns in rank order: each rank adds its columns to the state the
// rank before it passed on, one rank after another around the ring (N - 1 shifts); the last rank
// finishes it and gives it to all.
DataDigest chainedDigest(Collectives& comm, MatrixCRef X)
{
    const int rank = comm.rank(), ranks = comm.size();
    DataDigest digest;
    for (int turn = 0; turn < ranks - 1; ++turn) {
        if (rank == turn)
            digest.add(X);
        std::string passed = comm.sendReceive(rank == turn ? digest.state() : std::string(),
            (rank + 1) % ranks, (rank + ranks - 1) % ranks);
        if (rank == turn + 1) {
            const std::optional<DataDigest> received = DataDigest::fromState(passed);
            if (!received)
                throw std::runtime_error("the data's digest came from the rank before as "
                    + std::to_string(passed.size()) + " bytes, not a digest's state");
            digest = *received;
        }
    }
    std::string state;
    if (rank == ranks - 1) {
        digest.add(X);
        state = digest.state();
    }
    comm.broadcast(state, ranks - 1);
    if (const std::optional<DataDigest> whole = DataDigest::fromState(state))
        return *whole;
    throw std::runtime_error("the data's digest came from the last rank damaged");
}

double smallest(const std::vector<double>& values)
{
    return *std::min_element(values.begin(), values.end());
}

double largest(const std::vector<double>& values)
{
    return *std::max_element(values.begin(), values.end());
}

} // namespace

std::optional<int> loadOwnColumns(const CliOptions& options, Collectives& comm, Dataset& data,
    SampleRange& mine, QTextStream& err)
{
    const int rank = comm.rank(), ranks = comm.size();
    QString error;
    try {
        Result<Dataset> loaded = loadDatasetPart(options.dataset, rank, ranks);
        if (loaded)
            data = std::move(*loaded);
        else
            error = loaded.error();
    } catch (const std::exception& e) {
        error = QString::fromLocal8Bit(e.what());
    }
    if (error.isEmpty() && data.X.size() == 0)
        error = u"%1: this rank's part of the data is empty"_s.arg(options.dataset.spec);
    if (anyRankFailed(comm, error.isEmpty() ? error : error + u"; nothing was written"_s, err))
        return kExitFailure;

    // One set, cut where sampleRange cuts it: every rank's m, and its first column.
    const std::vector<double> counts = valuePerRank(comm, double(data.X.cols()));
    const std::vector<double> features = valuePerRank(comm, double(data.X.rows()));
    Eigen::Index n = 0;
    for (const double c : counts)
        n += Eigen::Index(c);
    mine = sampleRange(n, ranks, rank);
    if (smallest(features) != largest(features) || mine.count != data.X.cols())
        error = u"the ranks read parts that do not make one set (%1 features here, %2 samples "
                "where %3 of %4 were expected)"_s.arg(data.X.rows())
                    .arg(data.X.cols())
                    .arg(mine.count)
                    .arg(n);
    if (anyRankFailed(comm, error, err))
        return kExitFailure;

    // The preparation of the whole set, from its smallest and largest values.
    const auto range = [&] {
        return std::pair { smallest(valuePerRank(comm, double(data.X.minCoeff()))),
            largest(valuePerRank(comm, double(data.X.maxCoeff()))) };
    };
    const auto [lo, hi] = range();
    prepareDataset(data, options.dataset.prepare, lo, hi);
    const auto [low, high] = range();
    // As one process refuses the data (distributed_run's startOnRankZero, requireUsableData):
    // on every rank alike, from the whole set's values.
    if (low < 0)
        error = u"the data has negative entries: the distributed rules need X >= 0"_s;
    else if (const std::string problem = dataScaleProblem(high); !problem.empty())
        error = QString::fromStdString(problem);
    if (rank == 0 && !error.isEmpty())
        err << "facet-cli: " << error << "; nothing was written" << Qt::endl;
    if (!error.isEmpty())
        return kExitFailure;

    const DataDigest digest = chainedDigest(comm, data.X);
    data.whole
        = Dataset::Whole { n, Scalar(low), Scalar(high), digest.sha256(), digest.checksum() };
    return std::nullopt;
}

} // namespace facet::cli
