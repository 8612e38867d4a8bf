// SPDX-License-Identifier: GPL-3.0-or-later
// A MAT-file's bytes through loadMat, and through the warm start's readers of named matrices and
// of the facet_run text (readMatMatrices, readMatText). matio reads files only, so each input is
// written to this process's scratch folder first.
#include "data/mat_loader.h"
#include "fuzz_support.h"

#include <QFile>

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    facet::fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString path = facet::fuzz::scratchDir() + QStringLiteral("/input.mat");
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            __builtin_trap();
        file.write(reinterpret_cast<const char*>(data), qint64(size));
    }
    facet::MatLoadOptions options;
    // Far below libFuzzer's 2 GB RSS limit: a header asking for more must be refused, not tried.
    options.memoryBudgetBytes = qint64(64) << 20;
    const facet::Result<facet::Dataset> loaded = facet::loadMat(path, options);
    if (loaded.ok()) {
        const facet::Dataset& d = *loaded;
        // What the rest of Facet relies on: the image fills a column, one label per sample.
        if (d.X.size() == 0 || qint64(d.height) * d.width != d.X.rows()
            || (d.hasLabels() && qsizetype(d.labels.size()) != d.X.cols()) || !d.X.allFinite())
            __builtin_trap();
    } else if (loaded.error().isEmpty()) {
        __builtin_trap();
    }
    const auto matrices = facet::readMatMatrices(
        path, { QStringLiteral("fea") }, qint64(64) << 20, { QStringLiteral("objective") });
    if (matrices.ok() ? matrices->size() != 2 : matrices.error().isEmpty())
        __builtin_trap();
    const auto text = facet::readMatText(path, QStringLiteral("facet_run"), qint64(1) << 16);
    if (!text.ok() && text.error().isEmpty())
        __builtin_trap();
    return 0;
}
