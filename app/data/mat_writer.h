// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "experiment/run.h"
#include "util/atomic_write.h"
#include "util/result.h"

#include <QJsonObject>
#include <QStringList>

namespace facet {

// Writes a dataset the way Deng Cai's files hold one, so loadMat (and MATLAB code written for
// those files) reads it back: `fea` n x m double, one sample per row, each image in
// column-major pixel order (MATLAB reshape(fea(i,:), h, w)); `gnd` n x 1 double with the class
// names as values when they are all numbers, else 1..c in class order (no gnd when unlabelled);
// `im_height` and `im_width` for non-square images; `mask` of fea's shape and order for data
// with missing entries (0 = missing; `facet-cli run --mask FILE` reads it). MAT 5, zlib-compressed,
// or with `mat73` MAT 7.3 (HDF5), uncompressed, so that each rank of a distributed run reads only
// its own rows (a hyperslab of contiguous storage; compressed chunks would have every rank
// inflate them all). Written to a temporary file beside `path` and renamed over it, so a failure
// leaves no half file. 28x28 images load back with --pixel-order column: the loader takes that
// size for MNIST.
Result<bool> writeDatasetMat(const QString& path, const Dataset& data, bool mat73 = false);

// Writes a run's factors for MATLAB or scipy.io.loadmat, in the orientation of the data file
// writeDatasetMat makes (fea' ~ U * V'; for PCA, fea' minus its column mean):
//   U          m x k  the basis images (NMF: U; CF family: X W), pixels in fea's column-major
//                     order, so reshape(U(:, j), im_height, im_width) is image j upright
//   V          n x k  row i is the new representation of sample i
//   W          n x k  the CF family's association matrix (only for the CF family)
//   labels     n x 1  the predicted cluster of each sample, 1..c
//   gnd        n x 1  the true classes as writeDatasetMat writes them (labelled data only)
//   objective  T x 1  the objective after each iteration (NaN where it was not finite)
//   im_height, im_width  the image size (image data only)
//   facet_run  char   `report` as compact JSON (method, every option, seed, dataset and its
//                     preprocessing, scores, stop reason) without its labels and objective
//                     history, which are the variables above
// `data` is the data the run factorized (its image size and classes). Written through a temporary
// file like writeDatasetMat; the file is checked element by element before it replaces `path`.
Result<bool> writeFactorsMat(
    const QString& path, const Dataset& data, const RunResult& result, const QJsonObject& report);
// The same file written and checked, not yet renamed into place (StagedOutput), for a command
// that writes several outputs or none.
Result<StagedOutputPtr> stageFactorsMat(
    const QString& path, const Dataset& data, const RunResult& result, const QJsonObject& report);

// The row of `data.X` (row-major pixels) that holds row p of a written fea' or U (column-major
// pixels when the samples are images, else p itself).
Eigen::Index featureOfFilePixel(std::size_t p, const Dataset& data);

// The factors a warm start of `method` takes, as its run exports them: U and V for nmf, gnmf,
// semignmf, cnmf, W and V for cf, lccf, lcf, ccf and cf-ogl (cnmf and ccf map V to their Z,
// cf-ogl learns its graph anew from them: Method::stateFromFactors); none for k-means and PCA.
std::vector<QString> warmStartFactors(const std::string& method);
// Whether a start from a run's exported factors continues that run: every method above but
// cf-ogl, whose learned graph, embedding and beta the factors do not carry (it starts from
// them as a new run). The explorer offers Run > Continue for these.
bool warmStartContinues(const std::string& method);

// A warm start read from a file: the factors (DriverOptions::start) and the objective history
// of the run that ended at them (DriverOptions::startHistory; empty when the file has none, or
// when its run is not the one this start continues: `notes` says why).
struct StartFactors {
    std::vector<Matrix> factors;
    std::vector<double> history;
    // Where the file's own run (its facet_run) is not the one this start continues: another
    // method, or for cnmf and ccf other labelled samples. For the user; nothing is refused.
    QStringList notes;
};

// The start a run of `options.method` continues from: U and V (nmf, gnmf, semignmf, cnmf) or W
// and V (cf, lccf, lcf, ccf) from a MAT file as writeFactorsMat writes it, U brought back to the
// data's pixel order, and its `objective` vector when it has one, so the run counts on from that
// one. A `facet_run` report in the file is compared with `options` (StartFactors::notes); one that
// is not JSON is refused. Errors name the file, the variable and the shapes expected from `data`
// (n, m) and the rank; other methods keep other factors and are refused.
Result<StartFactors> readStartFactors(
    const QString& path, const Dataset& data, const RunOptions& options);

} // namespace facet
