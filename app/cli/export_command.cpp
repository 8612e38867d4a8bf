// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/export_command.h"

#include "cli/commands.h"
#include "cli/preprocess_options.h"
#include "data/dataset_source.h"
#include "data/mat_writer.h"
#include "util/atomic_write.h"

namespace facet::cli {

using namespace Qt::StringLiterals;

void addExportOptions(QCommandLineParser& p)
{
    p.addOptions({
        { u"out"_s, u"The MAT-file to write."_s, u"file"_s },
        { u"normalize"_s, u"none or l2"_s, u"mode"_s, u"none"_s },
        { u"no-scale"_s, u"Keep the values (0..255) instead of [0, 1]."_s },
        { u"mat73"_s,
            u"Write MAT 7.3 (HDF5), which each rank of a distributed run reads in part."_s },
    });
}

Result<bool> readExportOptions(const QCommandLineParser& p, CliOptions& o)
{
    if (!p.isSet(u"out"_s) || p.value(u"out"_s).isEmpty())
        return Error {
            u"export-dataset needs --out FILE.mat (see: facet-cli help export-dataset)"_s
        };
    o.outPath = p.value(u"out"_s);
    const QString normalize = p.value(u"normalize"_s);
    if (normalize != u"none" && normalize != u"l2")
        return Error { u"--normalize must be none or l2, got '%1'"_s.arg(normalize) };
    o.dataset.prepare.l2Normalize = normalize == u"l2";
    o.dataset.prepare.scaleTo01 = !p.isSet(u"no-scale"_s);
    o.exportMat73 = p.isSet(u"mat73"_s);
    return true;
}

QString exportUsage()
{
    return u"Usage: facet-cli export-dataset DATASET --out FILE.mat [options]\n"
           "  Writes the prepared set as MATLAB fea (n x m, one sample per row, column-major\n"
           "  pixels like Deng Cai's files) and gnd (n x 1: the labels' values when numeric,\n"
           "  else 1..c), plus im_height/im_width for non-square images.\n"
           "  --normalize MODE     none (default) or l2 per sample\n"
           "  --no-scale           keep 0..255 values instead of scaling to [0, 1]\n"
           "  --mat73              write MAT 7.3 (HDF5, uncompressed): under mpirun each rank of\n"
           "                       `run` reads only its own samples of it (docs/cluster.md)\n"
           "  --pixel-order, --data-var, --label-var as for info\n"_s
        + preprocessUsage();
}

int runExportDataset(const CliOptions& options, QTextStream& out, QTextStream& err)
{
    if (QString problem = outputPathProblem(options.outPath); !problem.isEmpty()
        || !(problem = overwritesDatasetProblem(options.outPath, options.dataset.spec)).isEmpty()) {
        err << "facet-cli: " << problem << Qt::endl;
        return kExitFailure;
    }
    const Result<Dataset> loaded = loadDataset(options.dataset);
    if (!loaded) {
        err << "facet-cli: " << loaded.error() << Qt::endl;
        return kExitFailure;
    }
    if (const Result<bool> written = writeDatasetMat(options.outPath, *loaded, options.exportMat73);
        !written) {
        err << "facet-cli: " << written.error() << Qt::endl;
        return kExitFailure;
    }
    out << describe(*loaded) << " -> " << options.outPath << '\n';
    for (const QString& note : loaded->notes)
        out << "note:     " << note << '\n';
    if (loaded->height == 28 && loaded->width == 28)
        out << "note:     28x28 images are read as row-major (MNIST) by default; load this file "
               "with --pixel-order column\n";
    out.flush();
    return kExitOk;
}

} // namespace facet::cli
