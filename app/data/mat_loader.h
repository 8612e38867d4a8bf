// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "util/result.h"

#include <QString>
#include <QStringList>

#include <Eigen/Core>

#include <optional>
#include <stop_token>
#include <vector>

namespace facet {

// Pixel order of the images inside the file's rows (METHODS.md section 8, data README).
enum class PixelOrder {
    Auto, // 28x28 (MNIST) row-major, everything else column-major (Deng Cai's sets)
    ColumnMajor,
    RowMajor,
};

struct MatLoadOptions {
    PixelOrder pixelOrder = PixelOrder::Auto;
    QString dataVariable; // empty = first of fea, X, data
    QString labelVariable; // empty = first of gnd, Y, class (none found: unlabelled)
    int height = 0; // 0 = from im_height/im_width, else a square image
    int width = 0;
    // Files whose data would need more memory than this (the file's class plus the double copy)
    // are refused before anything is allocated, so a huge or corrupt header cannot exhaust RAM.
    qint64 memoryBudgetBytes = qint64(8) << 30;
    // MAT 7.3 (HDF5) files are read in the helper process facet-mat-reader, where a damaged file
    // that crashes libhdf5 cannot take the caller down (data/mat_reader_process.h). The helper
    // itself reads with this off; without the helper (not found) the file is read here.
    bool isolateHdf5 = true;
    // The helper only: once the variables' sizes are known, cap the process's address space at
    // what reading them needs plus a margin (RLIMIT_AS), so that libhdf5 cannot allocate far
    // beyond the declared data (a damaged 3.4 KB file had it zero a 4 GB buffer first).
    bool capAddressSpace = false;
    // Watched while the helper reads a MAT 7.3 file: a stop request (facet-cli's Ctrl+C) ends the
    // helper at once, and the load fails saying it was interrupted; the caller, which asked for
    // the stop, reports the interrupt rather than the error.
    std::stop_token stop;
    // NaN entries of the data are kept (facet-cli --missing nan: they become missing entries,
    // loadDataset's Dataset::weights); infinities are still refused. Level 5 files only: the
    // MAT 7.3 helper process refuses NaN as before.
    bool allowNan = false;
    // Part `part` of `parts`: the samples sampleRange (core/collectives.h) gives that part, so
    // that a rank of a distributed run reads only its own columns. MAT 7.3 files only, read as
    // an HDF5 hyperslab; the labels are read whole (Dataset::labels then holds every sample's,
    // so that every part numbers the classes alike), and a part without samples is an error.
    int part = 0;
    int parts = 1;
};

// Loads a MATLAB Level 5 (or 7.3 via matio's HDF5) file holding one sample per row. Values are
// converted from the stored type to double; labels must be finite integers, one per sample.
// Errors name the file, the variable, what was expected and what was found. MAT 7.3 files are
// read in a helper process (MatLoadOptions::isolateHdf5).
Result<Dataset> loadMat(const QString& path, const MatLoadOptions& options = {});

// The named real 2-D matrices of a Level 5 MAT-file, each rows x columns as stored (MATLAB's
// orientation), with the same structural checks as loadMat and `memoryBudgetBytes` over their
// total. Errors name the file and the variable; a missing one lists what the file has. MAT 7.3
// files are refused (save them with -v7), since they would be read in this process. The names in
// `ifPresent` follow `names` in the result, each an empty matrix where the file has no such
// variable.
Result<std::vector<Eigen::MatrixXd>> readMatMatrices(const QString& path, const QStringList& names,
    qint64 memoryBudgetBytes = qint64(1) << 30, const QStringList& ifPresent = {});

// The char variable `name` of a Level 5 MAT-file as text, after the same structural checks;
// std::nullopt when the file has no such variable. Refused past `maxCharacters`, and when the
// variable is not a char row.
Result<std::optional<QString>> readMatText(
    const QString& path, const QString& name, qint64 maxCharacters = qint64(1) << 20);

} // namespace facet
