// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/dataset_source.h"

#include "core/collectives.h"
#include "data/csv_loader.h"
#include "data/folder_loader.h"
#include "data/image_decode.h"
#include "data/mat_loader.h"
#include "data/mat_reader_process.h"
#include "data/missing_entries.h"
#include "data/noise.h"
#include "data/preprocess.h"
#include "data/synthetic.h"
#include "util/atomic_write.h"
#include "util/input_file.h"

#include "bench/lowrank_data.h"

#include <QFile>
#include <QFileInfo>

#include <cmath>
#include <exception>
#include <new>

namespace facet {
namespace {

const QString kBuiltinPrefix = QStringLiteral("builtin:");
const QString kGeneratedPrefix = QStringLiteral("gen:");

QString supportedForms()
{
    QStringList builtins;
    for (const QString& name : builtinDatasetNames())
        builtins << kBuiltinPrefix + name;
    return QStringLiteral("supported: a MATLAB .mat file (v4, v5 or v7.3), a folder of images "
                          "(one subfolder per class, or flat), an image list (.csv or .tsv of "
                          "path,label), %1, or gen:NxM (a generated low-rank set of n samples "
                          "and m features, as facet-cli bench uses)")
        .arg(builtins.join(QStringLiteral(", ")));
}

// MAT-files are recognised by content so a renamed file still loads: v5 and v7.3 files begin
// with the text "MATLAB" in their 128-byte header (v7.3 is HDF5 with that header in front).
bool looksLikeMatFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    return file.read(6) == "MATLAB";
}

bool isImageFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly)
        && sniffImageFormat(file.peek(16)) != ImageFormat::Unknown;
}

} // namespace

QString generatedSpecProblem(const QString& spec)
{
    const std::optional<LowRankSpec> parsed
        = parseLowRankName(spec.trimmed().toLower().toStdString());
    if (!parsed || parsed->samples < 1 || parsed->features < 1)
        return QStringLiteral("%1: a generated set is written gen:NxM with n samples and m "
                              "features, both at least 1, e.g. gen:20000x784")
            .arg(spec);
    // The generator's doubles, before Dataset copies them: refuse what cannot fit up front.
    const double bytes = 8.0 * double(parsed->samples) * double(parsed->features);
    constexpr double kMaxBytes = double(qint64(8) << 30);
    if (bytes > kMaxBytes)
        return QStringLiteral("%1 would need %2 GiB for its data (at most 8)")
            .arg(spec)
            .arg(bytes / double(1 << 30), 0, 'f', 1);
    return {};
}

namespace {

// "gen:NxM": the bench's generated set (bench/lowrank_data.h, seed 0), 10 clusters. Its samples
// are not images; when m is a square they are drawn as sqrt(m) x sqrt(m) tiles.
// The whole set, or part `part` of `parts` (loadDatasetPart).
Result<Dataset> makeGenerated(const QString& spec, int part = 0, int parts = 1)
{
    if (const QString problem = generatedSpecProblem(spec); !problem.isEmpty())
        return Error { problem };
    const std::optional<LowRankSpec> parsed
        = parseLowRankName(spec.trimmed().toLower().toStdString());
    if (parts < 1 || part < 0 || part >= parts || parsed->samples < parts)
        return Error { QStringLiteral("%1: %2 samples cannot be split into %3 parts")
                           .arg(spec.trimmed())
                           .arg(parsed->samples)
                           .arg(parts) };
    const SampleRange range = sampleRange(parsed->samples, parts, part);
    LowRankData generated = makeLowRankData(*parsed, range.first, range.count);
    Dataset data;
    data.name = spec.trimmed();
    data.source = spec.trimmed();
    data.X = std::move(generated.X);
    data.labels = std::move(generated.labels);
    for (int c = 0; c < parsed->rank; ++c)
        data.classNames << QString::number(c + 1);
    const int side = int(std::lround(std::sqrt(double(parsed->features))));
    const bool square = Eigen::Index(side) * side == parsed->features;
    data.height = square ? side : 1;
    data.width = square ? side : int(parsed->features);
    data.notes << QStringLiteral("generated: non-negative rank %1 plus noise, %2 clusters, seed %3")
                      .arg(parsed->rank)
                      .arg(parsed->rank)
                      .arg(parsed->seed);
    return data;
}

Result<Dataset> makeBuiltin(const QString& spec)
{
    if (spec.trimmed().startsWith(kGeneratedPrefix, Qt::CaseInsensitive))
        return makeGenerated(spec);
    const QString name = spec.mid(kBuiltinPrefix.size()).trimmed().toLower();
    if (name == u"swimmer")
        return makeSwimmer();
    if (name == u"bars")
        return makeBars();
    if (name == u"gaussians")
        return makeGaussians();
    return Error { QStringLiteral("unknown built-in dataset '%1'; %2")
                       .arg(spec.mid(kBuiltinPrefix.size()), supportedForms()) };
}

Result<Dataset> loadUnprepared(const DatasetRequest& request, const QString& spec)
{
    const PreprocessSettings& steps = request.preprocess;
    switch (datasetKind(spec)) {
    case DatasetKind::Builtin: {
        auto data = makeBuiltin(spec);
        return data ? preprocessDataset(*data, steps) : data;
    }
    case DatasetKind::ImageFolder: {
        auto set = loadImageFolder(spec);
        if (!set)
            return Error { set.error() };
        return preprocessImages(*set, steps);
    }
    case DatasetKind::ImageList: {
        auto set = loadImageList(spec);
        if (!set)
            return Error { QStringLiteral("%1; %2").arg(set.error(), supportedForms()) };
        return preprocessImages(*set, steps);
    }
    case DatasetKind::MatFile: {
        auto data = loadMat(spec, request.mat);
        return data ? preprocessDataset(*data, steps) : data;
    }
    case DatasetKind::Unknown:
        break;
    }
    const QFileInfo info(spec);
    if (!info.exists())
        return Error { QStringLiteral("%1: file not found; %2").arg(spec, supportedForms()) };
    if (const QString problem = inputFileProblem(spec); !problem.isEmpty())
        return Error { problem };
    if (isImageFile(spec))
        return Error { QStringLiteral("%1: a single image is not a dataset; give the folder that "
                                      "holds the images, or list them in a .csv file")
                           .arg(spec) };
    return Error { QStringLiteral("%1: not a MAT-file and not a known dataset form; %2")
                       .arg(spec, supportedForms()) };
}

} // namespace

DatasetKind datasetKind(const QString& spec)
{
    const QString s = spec.trimmed();
    if (s.startsWith(kBuiltinPrefix, Qt::CaseInsensitive)
        || s.startsWith(kGeneratedPrefix, Qt::CaseInsensitive))
        return DatasetKind::Builtin;
    const QFileInfo info(s);
    if (!info.exists())
        return DatasetKind::Unknown;
    if (info.isDir())
        return DatasetKind::ImageFolder;
    if (!info.isFile()) // a FIFO, device or socket: never opened to sniff it (loadUnprepared says
                        // why)
        return DatasetKind::Unknown;
    // A .mat that fails the content check is still handed to matio: MAT v4 files have no text
    // header, and a broken file gets matio's more precise complaint.
    if (looksLikeMatFile(s)
        || info.suffix().compare(QStringLiteral("mat"), Qt::CaseInsensitive) == 0)
        return DatasetKind::MatFile;
    if (!isImageFile(s) && looksLikeImageList(s))
        return DatasetKind::ImageList;
    return DatasetKind::Unknown;
}

QString overwritesDatasetProblem(const QString& outputPath, const QString& spec)
{
    if (QString problem = overwritesInputProblem(outputPath, spec); !problem.isEmpty())
        return problem;
    const QFileInfo output(outputPath);
    if (outputPath.isEmpty() || !output.exists())
        return {};
    const QString source = spec.trimmed();
    switch (datasetKind(source)) {
    case DatasetKind::ImageFolder: {
        // An image anywhere below the folder is one of its samples (the loader reads nested
        // folders too); other files there are not data.
        const QString folder = QFileInfo(source).canonicalFilePath();
        if (!folder.isEmpty() && output.canonicalFilePath().startsWith(folder + u'/')
            && isImageFile(outputPath))
            return QStringLiteral("%1 is an image of the folder %2: writing it would replace one "
                                  "of the samples the data was made from; choose another file")
                .arg(outputPath, spec);
        return {};
    }
    case DatasetKind::ImageList:
        for (const QString& image : imageListPaths(source))
            if (!overwritesInputProblem(outputPath, image).isEmpty())
                return QStringLiteral("%1 is the image %2 of the list %3: writing it would replace "
                                      "one of the samples the data was made from; choose another "
                                      "file")
                    .arg(outputPath, image, spec);
        return {};
    default:
        return {};
    }
}

QStringList builtinDatasetNames()
{
    return { QStringLiteral("swimmer"), QStringLiteral("bars"), QStringLiteral("gaussians") };
}

Result<Dataset> loadDataset(const DatasetRequest& request)
{
    const QString spec = request.spec.trimmed();
    if (spec.isEmpty())
        return Error { QStringLiteral("no dataset given; %1").arg(supportedForms()) };
    try {
        auto loaded = loadUnprepared(request, spec);
        if (!loaded)
            return loaded;
        Dataset data = std::move(*loaded);
        if (request.mat.allowNan)
            markNanMissing(data);
        if (auto noisy = addNoise(data, request.preprocess.noise); !noisy)
            return Error { QStringLiteral("%1: %2").arg(spec, noisy.error()) };
        prepareDataset(data, request.prepare);
        if (auto hidden
            = applyMissing(data, request.preprocess.missing, int(request.mat.pixelOrder));
            !hidden)
            return Error { QStringLiteral("%1: %2").arg(spec, hidden.error()) };
        return data;
    } catch (const std::bad_alloc&) {
        return Error { QStringLiteral("%1: not enough memory to load the data").arg(spec) };
    } catch (const std::exception& e) {
        return Error { QStringLiteral("%1: %2").arg(spec, QString::fromLocal8Bit(e.what())) };
    }
}

QString partLoadObstacle(const DatasetRequest& request)
{
    const QString spec = request.spec.trimmed();
    const PreprocessSettings& steps = request.preprocess;
    if (steps.changesImages() || steps.noise.kind != NoiseKind::None
        || steps.missing.kind != MissingKind::None)
        return QStringLiteral("the image steps, the noise and the missing entries look at the "
                              "whole set");
    if (request.mat.allowNan)
        return QStringLiteral("--missing nan keeps NaN entries, which only a Level 5 file read "
                              "whole holds");
    if (spec.startsWith(kGeneratedPrefix, Qt::CaseInsensitive))
        return {};
    if (datasetKind(spec) == DatasetKind::MatFile && isHdf5MatFile(spec)) // a file that exists
        return {};
    return QStringLiteral("only a generated set (gen:NxM) and a MAT 7.3 (HDF5) file are read in "
                          "parts; to have each rank read its own columns, convert the set once "
                          "with facet-cli export-dataset --mat73");
}

Result<Dataset> loadDatasetPart(const DatasetRequest& request, int part, int parts)
{
    const QString spec = request.spec.trimmed();
    if (const QString obstacle = partLoadObstacle(request); !obstacle.isEmpty())
        return Error { QStringLiteral("%1 cannot be read in parts: %2").arg(spec, obstacle) };
    try {
        if (spec.startsWith(kGeneratedPrefix, Qt::CaseInsensitive))
            return makeGenerated(spec, part, parts);
        MatLoadOptions options = request.mat;
        options.part = part;
        options.parts = parts;
        return loadMat(spec, options);
    } catch (const std::bad_alloc&) {
        return Error { QStringLiteral("%1: not enough memory to load the data").arg(spec) };
    } catch (const std::exception& e) {
        return Error { QStringLiteral("%1: %2").arg(spec, QString::fromLocal8Bit(e.what())) };
    }
}

Result<ImageSet> loadImageSet(const QString& spec)
{
    try {
        switch (datasetKind(spec)) {
        case DatasetKind::ImageFolder:
            return loadImageFolder(spec);
        case DatasetKind::ImageList:
            return loadImageList(spec);
        default:
            break;
        }
    } catch (const std::exception& e) {
        return Error { QStringLiteral("%1: %2").arg(spec, QString::fromLocal8Bit(e.what())) };
    }
    return Error { QStringLiteral("%1: not an image folder or image list").arg(spec) };
}

void prepareDataset(Dataset& data, const PrepareOptions& options)
{
    if (data.X.size() == 0)
        return;
    prepareDataset(data, options, double(data.X.minCoeff()), double(data.X.maxCoeff()));
}

void prepareDataset(Dataset& data, const PrepareOptions& options, double lo, double hi)
{
    if (options.scaleTo01) {
        if (lo < 0) {
            // Negative values mean the data is not intensities (already centred or a feature
            // matrix); dividing by 255 would not bring it to [0, 1], so leave it alone and say so.
            data.notes << QStringLiteral("not scaled to [0, 1]: the data has negative values "
                                         "(min %1)")
                              .arg(lo, 0, 'g', 4);
        } else if (hi > 255) {
            data.X /= Scalar(hi);
            data.notes << QStringLiteral("divided by the maximum %1 (values above 255) to [0, 1]")
                              .arg(hi, 0, 'g', 6);
        } else if (hi > 1) {
            data.X /= Scalar(255);
            data.notes
                << QStringLiteral("divided by 255 to [0, 1] (max was %1)").arg(hi, 0, 'g', 6);
        }
    }
    if (options.l2Normalize) {
        int zero = 0;
        for (Eigen::Index j = 0; j < data.X.cols(); ++j) {
            // Over the observed entries only when some are missing (their X entries hold 0,
            // weighted entries count in full): a missing entry says nothing about the scale.
            const Scalar norm = data.hasMask()
                ? (data.weights.col(j).array() > 0).select(data.X.col(j), Scalar(0)).matrix().norm()
                : data.X.col(j).norm();
            // A blank image has no direction; it stays zero rather than becoming NaN.
            if (norm > 0)
                data.X.col(j) /= norm;
            else
                ++zero;
        }
        data.notes << (zero ? QStringLiteral("each sample scaled to unit L2 norm (%1 all-zero "
                                             "samples left zero)")
                                  .arg(zero)
                            : QStringLiteral("each sample scaled to unit L2 norm"));
    }
}

} // namespace facet
