// SPDX-License-Identifier: GPL-3.0-or-later
// facet-mat-reader: reads one MAT 7.3 (HDF5) file for Facet in a process of its own, so that a
// damaged file which crashes libhdf5 takes only this process down (data/mat_reader_process.h).
// Usage (Facet's, not a user's): facet-mat-reader IN OUT BUDGET ORDER HEIGHT WIDTH =DATA =LABELS
#include "data/dataset_transfer.h"
#include "data/mat_reader_process.h"

#include <QStringList>

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>

namespace {

// std::_Exit: no exit handlers, so the result is the exit code alone (a sanitizer build's leak
// check at exit would otherwise replace it).
[[noreturn]] void finish(int code, const QString& message = {})
{
    if (!message.isEmpty()) {
        const QByteArray text = message.toUtf8();
        std::fwrite(text.constData(), 1, std::size_t(text.size()), stderr);
        std::fflush(stderr);
    }
    std::_Exit(code);
}

} // namespace

int main(int argc, char** argv)
{
    // A crash inside libhdf5 is reported by Facet; a core file of it would only fill the disk.
    const rlimit noCore { 0, 0 };
    setrlimit(RLIMIT_CORE, &noCore);
    QStringList arguments;
    for (int i = 1; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    const std::optional<facet::HelperRequest> request = facet::fromHelperArguments(arguments);
    if (!request)
        finish(facet::kHelperUsage,
            QStringLiteral("facet-mat-reader is Facet's helper for MAT 7.3 files; it is started "
                           "by Facet, not by hand"));
    facet::MatLoadOptions options = request->options;
    options.capAddressSpace = true;
    const facet::Result<facet::Dataset> loaded = facet::loadMat(request->path, options);
    if (!loaded)
        finish(facet::kHelperLoadError, loaded.error());
    if (const facet::Result<bool> written = facet::writeDatasetTransfer(*loaded, request->output);
        !written)
        finish(facet::kHelperLoadError, written.error());
    finish(0);
}
