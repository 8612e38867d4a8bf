// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/mat_loader.h"

#include <QStringList>

#include <optional>

namespace facet {

// MAT 7.3 files are HDF5 files, which matio reads through Debian's libhdf5; fuzzing found
// damaged ones on which libhdf5 itself crashes (a SEGV in H5Gget_info under Mat_Open,
// RELIABILITY.md). So Facet reads them in a helper process, facet-mat-reader, which loads the
// file with loadMat and hands the dataset back through a temporary file (data/dataset_transfer.h):
// a crash there is an error message here, and the window keeps everything it had.

// Whether matio would read `path` through libhdf5: the 128-byte MAT header says version 0x0200,
// or the HDF5 signature sits at byte 512 where MATLAB puts it.
bool isHdf5MatFile(const QString& path);

// Loads `path` in facet-mat-reader with `options`; nullopt when the helper cannot be found
// (beside the running executable, or in the build tree), and the caller then reads the file
// itself. Blocks until the helper ends or `options.stop` is requested: call it off the GUI thread,
// as every load is. The helper dies with the thread that started it (PR_SET_PDEATHSIG), and hands
// the dataset back in a folder <temp>/facet-mat-reader-<PID>-XXXXXX of the caller's process.
std::optional<Result<Dataset>> loadMatInHelper(const QString& path, const MatLoadOptions& options);

// Removes the hand-back folders of this user's processes that no longer run (a facet-cli killed
// during a load left its 1 GB dataset.bin behind); returns how many. loadMatInHelper calls it,
// and facet and facet-cli at their start.
int reclaimAbandonedHelperFolders();

// The helper's command line for `path`, `output` and `options`, and back (facet-mat-reader's
// main); fromHelperArguments returns nullopt for a malformed list.
QStringList helperArguments(
    const QString& path, const QString& output, const MatLoadOptions& options);
struct HelperRequest {
    QString path;
    QString output;
    MatLoadOptions options;
};
std::optional<HelperRequest> fromHelperArguments(const QStringList& arguments);

// facet-mat-reader's exit codes besides 0: a load error (its message on stderr); orphaned, when
// the process that started it ended before its exec; any other code, or a signal other than
// those that stop a process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGKILL), means it crashed.
inline constexpr int kHelperLoadError = 3;
inline constexpr int kHelperUsage = 2;
inline constexpr int kHelperOrphaned = 4;

} // namespace facet
