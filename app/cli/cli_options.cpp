// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/cli_options.h"
#include "util/atomic_write.h"

#include "cli/bench_command.h"
#include "cli/cli_option_readers.h"
#include "cli/export_command.h"
#include "cli/mask_options.h"
#include "cli/preprocess_options.h"
#include "cli/rank_survey_command.h"
#include "cli/reproduce_command.h"
#include "cli/sweep_options.h"

#include <QCommandLineParser>

#include <limits>

namespace facet::cli {
namespace {

using namespace Qt::StringLiterals;

Error optionError(const QString& message)
{
    return Error { message };
}

// Integer option with range check; `what` names the option in the message.
Result<int> intValue(const QString& text, const QString& what, int minimum, int maximum)
{
    bool ok = false;
    const qlonglong v = text.toLongLong(&ok);
    if (!ok)
        return optionError(u"%1 expects a whole number, got '%2'"_s.arg(what, text));
    if (v < minimum || v > maximum)
        return optionError(
            u"%1 must be between %2 and %3, got %4"_s.arg(what).arg(minimum).arg(maximum).arg(v));
    return int(v);
}

Result<double> doubleValue(const QString& text, const QString& what)
{
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok || !std::isfinite(v))
        return optionError(u"%1 expects a finite number, got '%2'"_s.arg(what, text));
    return v;
}

// "1,2,5" or "1-5,8": class names; a numeric range expands to every number in it.
Result<QStringList> classList(const QString& text)
{
    QStringList names;
    for (const QString& raw : text.split(u',', Qt::SkipEmptyParts)) {
        const QString part = raw.trimmed();
        const qsizetype dash = part.indexOf(u'-', 1);
        if (dash > 0) {
            bool okA = false, okB = false;
            const int a = part.left(dash).toInt(&okA);
            const int b = part.mid(dash + 1).toInt(&okB);
            if (okA && okB) {
                if (b < a || b - a > 100000)
                    return optionError(u"--classes: bad range '%1'"_s.arg(part));
                for (int v = a; v <= b; ++v)
                    names << QString::number(v);
                continue;
            }
        }
        names << part;
    }
    if (names.isEmpty())
        return optionError(u"--classes expects a list such as 1,2,5 or 1-10"_s);
    return names;
}

void addCommonDataOptions(QCommandLineParser& p)
{
    p.addOption({ u"pixel-order"_s, u"Pixel order of .mat images: auto, column or row."_s,
        u"order"_s, u"auto"_s });
    p.addOption(
        { u"data-var"_s, u"Variable holding the samples (default fea, X or data)."_s, u"name"_s });
    p.addOption(
        { u"label-var"_s, u"Variable holding the labels (default gnd, Y or class)."_s, u"name"_s });
    addPreprocessOptions(p);
}

// `paperSize`: image folders and lists default to 32x32 (run, export-dataset), see
// readPreprocessOptions.
Result<bool> readDataOptions(const QCommandLineParser& p, DatasetRequest& d, bool paperSize = false)
{
    const QString order = p.value(u"pixel-order"_s);
    if (order == u"auto")
        d.mat.pixelOrder = PixelOrder::Auto;
    else if (order == u"column")
        d.mat.pixelOrder = PixelOrder::ColumnMajor;
    else if (order == u"row")
        d.mat.pixelOrder = PixelOrder::RowMajor;
    else
        return optionError(u"--pixel-order must be auto, column or row, got '%1'"_s.arg(order));
    d.mat.dataVariable = p.value(u"data-var"_s);
    d.mat.labelVariable = p.value(u"label-var"_s);
    return readPreprocessOptions(p, d, paperSize);
}

// The method parameters of METHODS.md (issue "Every method"): names as in the JSON params.
Result<bool> readMethodOptions(const QCommandLineParser& p, RunOptions& run)
{
    MethodOptions& m = run.params;
    if (p.isSet(u"lambda"_s)) {
        const Result<double> v = doubleValue(p.value(u"lambda"_s), u"--lambda"_s);
        if (!v)
            return Error { v.error() };
        if (*v < 0)
            return optionError(u"--lambda must be >= 0, got %1"_s.arg(*v));
        m.lambda = *v;
    }
    const Result<int> pp = intValue(p.value(u"p"_s), u"--p"_s, 1, std::numeric_limits<int>::max());
    if (!pp)
        return Error { pp.error() };
    m.p = *pp;
    const Result<GraphWeight> weight = readChoice(p, u"weight"_s, kGraphWeightChoices);
    if (!weight)
        return Error { weight.error() };
    m.weight = *weight;
    const Result<KnnSearch> knn = readChoice(p, u"knn"_s, kKnnSearchChoices);
    if (!knn)
        return Error { knn.error() };
    m.knnSearch = *knn;
    const auto positive = [&](const QString& name, double& target) -> Result<bool> {
        const Result<double> v = doubleValue(p.value(name), u"--"_s + name);
        if (!v)
            return Error { v.error() };
        if (!(*v > 0))
            return optionError(u"--%1 must be > 0, got %2"_s.arg(name).arg(*v));
        target = *v;
        return true;
    };
    for (const auto& [name, target] : { std::pair { u"beta"_s, &m.beta },
             std::pair { u"mu"_s, &m.mu }, std::pair { u"degree"_s, &m.degree } })
        if (const Result<bool> r = positive(name, *target); !r)
            return r;
    const Result<double> offset = doubleValue(p.value(u"offset"_s), u"--offset"_s);
    if (!offset)
        return Error { offset.error() };
    m.offset = *offset;
    for (const auto& [name, target] :
        { std::pair { u"heat-t"_s, &m.heatT }, std::pair { u"sigma"_s, &m.sigma } }) {
        if (!p.isSet(name))
            continue;
        double value = 0;
        if (const Result<bool> r = positive(name, value); !r)
            return r;
        *target = value;
    }
    if (p.isSet(u"outer-iterations"_s)) {
        const Result<int> v
            = intValue(p.value(u"outer-iterations"_s), u"--outer-iterations"_s, 1, 1000000);
        if (!v)
            return Error { v.error() };
        m.outerIterations = *v;
    }
    const Result<int> inner = intValue(p.value(u"inner-steps"_s), u"--inner-steps"_s, 1, 1000000);
    if (!inner)
        return Error { inner.error() };
    m.innerSteps = *inner;
    m.paperVariant = p.isSet(u"paper-variant"_s);
    m.ncw = p.isSet(u"ncw"_s);
    m.generalForm = p.isSet(u"general-form"_s);
    m.normalizeEach = p.isSet(u"normalize-each"_s);

    const Result<KernelKind> kernel = readChoice(p, u"kernel"_s, kKernelChoices);
    if (!kernel)
        return Error { kernel.error() };
    m.kernel = *kernel;

    if (p.isSet(u"algorithm"_s)) {
        const Result<Algorithm> algorithm = readChoice(p, u"algorithm"_s, kAlgorithmChoices);
        if (!algorithm)
            return Error { algorithm.error() };
        m.algorithm = *algorithm;
    }
    if (p.isSet(u"init"_s)) {
        const Result<InitKind> init = readChoice(p, u"init"_s, kInitChoices);
        if (!init)
            return Error { init.error() };
        m.init = *init;
        m.initSet = true;
    }
    if (p.isSet(u"labeled-fraction"_s) && p.isSet(u"labeled-per-class"_s))
        return optionError(u"give either --labeled-fraction or --labeled-per-class, not both"_s);
    if (p.isSet(u"labeled-fraction"_s)) {
        const Result<double> v
            = doubleValue(p.value(u"labeled-fraction"_s), u"--labeled-fraction"_s);
        if (!v)
            return Error { v.error() };
        if (!(*v > 0 && *v < 1))
            return optionError(u"--labeled-fraction must be in (0, 1), got %1"_s.arg(*v));
        run.labeledFraction = *v;
    }
    if (p.isSet(u"labeled-per-class"_s)) {
        const Result<int> v = intValue(p.value(u"labeled-per-class"_s), u"--labeled-per-class"_s, 1,
            std::numeric_limits<int>::max());
        if (!v)
            return Error { v.error() };
        run.labeledPerClass = *v;
    }
    // Weights whose products overflow, refused with the bound before anything is loaded (the
    // solver refuses them too, for the explorer).
    if (const std::string problem = parameterBoundProblem(m); !problem.empty())
        return optionError(u"--"_s + QString::fromStdString(problem));
    return true;
}

// The options of `run`, also taken by `sweep` (cli_option_readers.h).
QList<QCommandLineOption> runOptionList()
{
    return {
        { u"dataset"_s, u"Dataset"_s, u"path"_s },
        { u"method"_s, u"Method"_s, u"name"_s },
        { u"rank"_s, u"Rank k"_s, u"k"_s },
        { u"max-iter"_s, u"Max iterations"_s, u"n"_s, QString::number(kDefaultMaxIterations) },
        { u"min-iter"_s, u"Min iterations"_s, u"n"_s, u"30"_s },
        { u"tol"_s, u"Tolerance"_s, u"t"_s, u"1e-5"_s },
        { u"stationarity-tol"_s, u"Stationarity tolerance"_s, u"t"_s, u"1e-4"_s },
        { u"seed"_s, u"Seed"_s, u"s"_s, u"0"_s },
        { u"replicates"_s, u"Replicates"_s, u"r"_s, u"1"_s },
        { u"cluster"_s, u"kmeans or argmax"_s, u"mode"_s, u"kmeans"_s },
        { u"cosine"_s, u"Cosine k-means"_s },
        { u"kmeans-replicates"_s, u"k-means restarts"_s, u"n"_s, u"20"_s },
        { u"clusters"_s, u"Number of clusters"_s, u"c"_s, u"0"_s },
        { u"classes"_s, u"Classes to keep"_s, u"list"_s },
        { u"normalize"_s, u"auto, none or l2"_s, u"mode"_s, u"auto"_s },
        { u"threads"_s, u"Threads"_s, u"t"_s, u"0"_s },
        { u"json"_s, u"JSON output"_s, u"file"_s },
        { u"lambda"_s, u"Regularization weight"_s, u"x"_s },
        { u"p"_s, u"Neighbours of the kNN graph"_s, u"p"_s, u"5"_s },
        { u"weight"_s, u"Graph weights"_s, u"mode"_s, u"binary"_s },
        { u"knn"_s, u"kNN search: exact, approx or auto"_s, u"mode"_s, u"auto"_s },
        { u"heat-t"_s, u"Heat kernel width"_s, u"t"_s },
        { u"beta"_s, u"CF_OGL beta0"_s, u"x"_s, u"0.1"_s },
        { u"mu"_s, u"CF_OGL mu"_s, u"x"_s, u"1"_s },
        { u"outer-iterations"_s, u"CF_OGL outer iterations"_s, u"n"_s },
        { u"inner-steps"_s, u"CF_OGL multiplicative steps per outer iteration"_s, u"n"_s, u"10"_s },
        { u"paper-variant"_s, u"CF_OGL: the paper's Q step"_s },
        { u"kernel"_s, u"linear, poly or gauss"_s, u"kind"_s, u"linear"_s },
        { u"degree"_s, u"Polynomial degree"_s, u"d"_s, u"2"_s },
        { u"offset"_s, u"Polynomial offset"_s, u"c0"_s, u"0"_s },
        { u"sigma"_s, u"Gaussian width"_s, u"s"_s },
        { u"ncw"_s, u"Normalized-cut weighting"_s },
        { u"general-form"_s, u"Force the general form"_s },
        { u"normalize-each"_s, u"LCF: normalize after every iteration"_s },
        { u"init"_s, u"random, nndsvd, nmf or kmeans"_s, u"kind"_s },
        { u"algorithm"_s, u"mu, hals, mu-ex or hals-ex"_s, u"name"_s },
        { u"labeled-fraction"_s, u"Labelled fraction per class"_s, u"f"_s },
        { u"labeled-per-class"_s, u"Labelled samples per class"_s, u"n"_s },
        { u"basis-png"_s, u"Basis PNG"_s, u"file"_s },
        { u"factors"_s, u"Factors MAT-file"_s, u"file"_s },
        { u"init-from"_s, u"Start from the factors in a MAT-file"_s, u"file"_s },
    };
}

} // namespace

QList<QCommandLineOption> runCommandOptions()
{
    return runOptionList();
}

void addDataOptions(QCommandLineParser& p)
{
    addCommonDataOptions(p);
}

Result<bool> readDatasetOptions(const QCommandLineParser& p, DatasetRequest& d, bool paperSize)
{
    return readDataOptions(p, d, paperSize);
}

Result<bool> readMethodFlags(const QCommandLineParser& p, RunOptions& run)
{
    return readMethodOptions(p, run);
}

QString parseEachOnce(QCommandLineParser& p, const QStringList& argv)
{
    if (!p.parse(argv))
        return p.errorText();
    QStringList seen;
    for (const QString& name : p.optionNames()) {
        if (seen.contains(name))
            return u"--%1 is given twice; give it once"_s.arg(name);
        seen << name;
    }
    return {};
}

Result<int> readIntValue(const QString& text, const QString& what, int minimum, int maximum)
{
    return intValue(text, what, minimum, maximum);
}

Result<double> readDoubleValue(const QString& text, const QString& what)
{
    return doubleValue(text, what);
}

QString usageText(Command command)
{
    switch (command) {
    case Command::Info:
        return u"Usage: facet-cli info DATASET [--pixel-order auto|column|row] [--data-var NAME] "
               u"[--label-var NAME]\n"
               "  DATASET is a .mat file (fea/gnd, X/Y or data/class), a folder of images (one\n"
               "  subfolder per class, or flat), an image list (.csv/.tsv of path,label) or\n"
               "  builtin:swimmer, builtin:bars, builtin:gaussians.\n"_s
            + preprocessUsage();
    case Command::ExportDataset:
        return exportUsage();
    case Command::Sweep:
        return sweepUsage();
    case Command::SweepCell:
        return sweepCellUsage();
    case Command::Bench:
        return benchUsage();
    case Command::RankSurvey:
        return rankSurveyUsage();
    case Command::Reproduce:
        return reproduceUsage();
    case Command::Run:
        return u"Usage: facet-cli run --dataset DATASET --method METHOD --rank K --json OUT "
               u"[options]\n"
               "  --json OUT           the run's JSON: a file, or - for standard output (what\n"
               "                       the run says then goes to standard error)\n"
               "  --max-iter N         iterations at most (3000)\n"
               "  --min-iter N         iterations at least before the tolerance test (30)\n"
               "  --tol T              relative decrease over 10 iterations that stops the run "
               "(1e-5)\n"
               "  --stationarity-tol T the run also stops once its optimality violation is T\n"
               "                       times the first iteration's (1e-4; hals measures it,\n"
               "                       mu does not; 0: off); stop_rule in the JSON says which\n"
               "  --seed S             random seed (0); the same seed gives the same factors\n"
               "  --replicates R       seeded starts; the lowest objective after min-iter "
               "continues (1)\n"
               "  --cluster MODE       kmeans (default) or argmax, on the rows of V\n"
               "  --cosine             k-means on L2-normalized rows of V\n"
               "  --kmeans-replicates N  k-means restarts (20)\n"
               "  --clusters C         number of clusters (default: classes, else the rank)\n"
               "  --classes LIST       keep only these classes, e.g. 1,2,5 or 1-10\n"
               "  --normalize MODE     auto (L2 per sample for the CF family), none or l2\n"
               "  --threads T          cores for the inner products (default: all)\n"
               "  --basis-png PNG      also write the basis images as one PNG\n"
               "  --factors FILE.mat   also write the factors for MATLAB/scipy: U (m x k, pixels\n"
               "                       in fea's column-major order), V, W (CF family), labels\n"
               "                       (1..c), gnd, objective and facet_run (this JSON as text)\n"
               "Method parameters (METHODS.md; each method reads the ones it uses):\n"
               "  --lambda X           regularization weight (lccf/gnmf 100, lcf 0.3, cf-ogl 1)\n"
               "  --p P                neighbours of the kNN graph (5)\n"
               "  --weight MODE        graph weights: binary (default), heat or cosine\n"
               "  --heat-t T           heat kernel width (default: mean pairwise distance)\n"
               "  --knn MODE           kNN search: exact, approx (HNSW) or auto (approx from "
               "50000 samples)\n"
               "  --beta B, --mu M     cf-ogl: initial beta (0.1) and mu (1)\n"
               "  --outer-iterations N cf-ogl outer iterations (30; the driver's iterations)\n"
               "  --inner-steps N      cf-ogl multiplicative steps per outer iteration (10)\n"
               "  --paper-variant      cf-ogl: the paper's Q step (drops the lambda term)\n"
               "  --kernel KIND        CF family: linear (default), poly or gauss\n"
               "  --degree D, --offset C0, --sigma S   kernel parameters (2, 0, mean distance)\n"
               "  --ncw                normalized-cut weighting (nmf, cf, lccf)\n"
               "  --general-form       force the general form of 1.4 (cf, lccf, ccf)\n"
               "  --normalize-each     lcf: normalize after every iteration (not monotone)\n"
               "  --init KIND          random, nndsvd, nmf or kmeans (ccf: nmf)\n"
               "  --algorithm NAME     mu (the papers' multiplicative rules, every method),\n"
               "                       hals (accelerated coordinate descent: nmf, gnmf,\n"
               "                       semignmf), mu-ex or hals-ex (the same with extrapolation;\n"
               "                       mu-ex: every method but cf-ogl). Default: hals-ex for nmf,\n"
               "                       mu-ex for cf, lccf, lcf, cnmf, ccf; mu for the others\n"
               "  --init-from FILE.mat start from the U and V (nmf, gnmf, semignmf, cnmf) or W\n"
               "                       and V (cf, lccf, lcf, ccf) of a --factors file: a warm\n"
               "                       start that continues that run, counting on from its\n"
               "                       iterations (its 'objective'); --max-iter counts the new\n"
               "                       ones (graph methods: from the saved, normalized factors'\n"
               "                       objective, a new segment); --rank must match, and cnmf\n"
               "                       and ccf need the run's --seed and label options to\n"
               "                       label the same samples (a note says when the file's run\n"
               "                       differs; the start then counts from 1); cf-ogl starts\n"
               "                       from W and V as a new run (its graph is learned anew)\n"
               "  --labeled-fraction F | --labeled-per-class N   cnmf, ccf, semignmf\n"
               "  --pixel-order, --data-var, --label-var as for info\n"
               "  --size, --detect-faces, --no-face, --equalize, --noise ... as for info\n"_s
            + maskUsage();
    default:
        break;
    }
    QString methods;
    for (const MethodInfo& info : methodCatalog())
        methods += u"    %1  %2\n"_s.arg(QString::fromStdString(info.name).leftJustified(10),
            QString::fromStdString(info.title));
    return u"facet-cli — matrix factorization of image sets (headless twin of Facet)\n\n"
           "Usage: facet-cli COMMAND [options]\n"
           "  info DATASET          summary of a dataset\n"
           "  run --dataset ...     factorize, cluster, score, write JSON\n"
           "  export-dataset DATASET --out FILE.mat   the prepared set as a MAT-file\n"
           "  sweep --dataset ... --methods ... --out DIR   the papers' evaluation protocols\n"
           "  sweep-cell --from DIR --method M --clusters C --trial T   re-run one sweep cell\n"
           "  bench [--datasets ...] --json OUT   time every method against the roofline\n"
           "  rank-survey --dataset ... --method M --ranks 2-30 --out DIR   choose k: consensus, "
           "scores, errors per rank\n"
           "  reproduce PAPER --out DIR   a paper's protocol, its published numbers beside "
           "Facet's\n"
           "  reproduce list        the papers, their data sets and methods\n"
           "  help [COMMAND]        this text or a command's options\n"
           "  --version\n\nMethods:\n"_s
        + methods;
}

namespace {

// The command a help topic names; Help (the overview) for none or an unknown one.
Command helpTopic(const QString& topic)
{
    return topic == u"info"          ? Command::Info
        : topic == u"run"            ? Command::Run
        : topic == u"export-dataset" ? Command::ExportDataset
        : topic == u"sweep"          ? Command::Sweep
        : topic == u"sweep-cell"     ? Command::SweepCell
        : topic == u"bench"          ? Command::Bench
        : topic == u"rank-survey"    ? Command::RankSurvey
        : topic == u"reproduce"      ? Command::Reproduce
                                     : Command::Help;
}

} // namespace

Result<CliOptions> parseArguments(const QStringList& arguments)
{
    CliOptions o;
    if (arguments.isEmpty() || arguments.first() == u"help" || arguments.first() == u"--help"
        || arguments.first() == u"-h") {
        const QString topic = arguments.size() > 1 ? arguments.at(1) : QString();
        // An unknown topic is a usage error, not the general help with success.
        if (!topic.isEmpty() && helpTopic(topic) == Command::Help && topic != u"help")
            return Error {
                u"help: no command '%1'; the commands are info, run, "
                "export-dataset, sweep, sweep-cell, bench, rank-survey and reproduce"_s.arg(topic)
            };
        o.command = Command::Help;
        o.helpText = usageText(helpTopic(topic));
        return o;
    }
    // COMMAND --help (or -h) anywhere among its options: that command's help, as most tools do.
    if (const Command topic = helpTopic(arguments.first()); topic != Command::Help
        && (arguments.contains(u"--help"_s) || arguments.contains(u"-h"_s))) {
        o.command = Command::Help;
        o.helpText = usageText(topic);
        return o;
    }
    if (arguments.first() == u"--version") {
        o.command = Command::Version;
        return o;
    }

    const QString command = arguments.first();
    QCommandLineParser p;
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    addCommonDataOptions(p);
    // QCommandLineParser expects the program name first.
    QStringList argv = arguments;
    argv[0] = u"facet-cli"_s;

    if (command == u"info") {
        o.command = Command::Info;
        p.addPositionalArgument(u"dataset"_s, u"A .mat file or builtin:NAME"_s);
        if (const QString problem = parseEachOnce(p, argv); !problem.isEmpty())
            return optionError(problem);
        if (p.positionalArguments().size() != 1)
            return optionError(
                u"info expects exactly one DATASET (a .mat file, image folder, image list or builtin:NAME)"_s);
        o.dataset.spec = p.positionalArguments().first();
        const Result<bool> data = readDataOptions(p, o.dataset);
        if (!data)
            return Error { data.error() };
        return o;
    }
    if (command == u"export-dataset") {
        o.command = Command::ExportDataset;
        addExportOptions(p);
        p.addPositionalArgument(u"dataset"_s, u"A folder, image list, .mat file or builtin:NAME"_s);
        if (const QString problem = parseEachOnce(p, argv); !problem.isEmpty())
            return optionError(problem);
        if (p.positionalArguments().size() != 1)
            return optionError(u"export-dataset expects exactly one DATASET and --out FILE.mat"_s);
        o.dataset.spec = p.positionalArguments().first();
        if (const Result<bool> data = readDataOptions(p, o.dataset, true); !data)
            return Error { data.error() };
        if (const Result<bool> e = readExportOptions(p, o); !e)
            return Error { e.error() };
        return o;
    }
    if (command == u"bench") {
        o.command = Command::Bench;
        addBenchOptions(p);
        if (const QString problem = parseEachOnce(p, argv); !problem.isEmpty())
            return optionError(problem);
        if (const Result<bool> b = readBenchOptions(p, o); !b)
            return Error { b.error() };
        return o;
    }
    if (command == u"sweep" || command == u"sweep-cell")
        return parseSweepArguments(arguments);
    if (command == u"rank-survey")
        return parseRankSurveyArguments(arguments);
    if (command == u"reproduce")
        return parseReproduceArguments(arguments);
    if (command != u"run")
        return optionError(u"unknown command '%1' (try: facet-cli help)"_s.arg(command));

    o.command = Command::Run;
    const QList<QCommandLineOption> options = runOptionList();
    p.addOptions(options);
    p.addOptions(maskCommandOptions());
    if (const QString problem = parseEachOnce(p, argv); !problem.isEmpty())
        return optionError(problem);
    if (!p.positionalArguments().isEmpty())
        return optionError(u"run: unexpected argument '%1'"_s.arg(p.positionalArguments().first()));
    for (const char* required : { "dataset", "method", "rank", "json" })
        if (!p.isSet(QString::fromLatin1(required)))
            return optionError(
                u"run needs --%1 (see: facet-cli help run)"_s.arg(QString::fromLatin1(required)));

    o.dataset.spec = p.value(u"dataset"_s);
    if (const Result<bool> data = readDataOptions(p, o.dataset, true); !data)
        return Error { data.error() };
    o.run.method = p.value(u"method"_s).toLower().toStdString();
    if (!findMethod(o.run.method))
        return optionError(
            u"unknown method '%1' (see: facet-cli help)"_s.arg(p.value(u"method"_s)));

    constexpr int kMaxInt = std::numeric_limits<int>::max();
#define FACET_TAKE(var, expr)                                                                      \
    const auto var = (expr);                                                                       \
    if (!var)                                                                                      \
        return Error { var.error() };
    FACET_TAKE(rank, intValue(p.value(u"rank"_s), u"--rank"_s, 1, kMaxInt))
    FACET_TAKE(maxIter, intValue(p.value(u"max-iter"_s), u"--max-iter"_s, 1, kMaxInt))
    FACET_TAKE(minIter, intValue(p.value(u"min-iter"_s), u"--min-iter"_s, 0, kMaxInt))
    FACET_TAKE(replicates, intValue(p.value(u"replicates"_s), u"--replicates"_s, 1, 10000))
    FACET_TAKE(
        kmReplicates, intValue(p.value(u"kmeans-replicates"_s), u"--kmeans-replicates"_s, 1, 10000))
    // 0, the default, stands for "the classes, else the rank"; given, it is a count.
    FACET_TAKE(clusters,
        intValue(p.value(u"clusters"_s), u"--clusters"_s, p.isSet(u"clusters"_s) ? 1 : 0, kMaxInt))
    FACET_TAKE(threads, intValue(p.value(u"threads"_s), u"--threads"_s, 0, 1024))
    FACET_TAKE(tol, doubleValue(p.value(u"tol"_s), u"--tol"_s))
    FACET_TAKE(
        stationarityTol, doubleValue(p.value(u"stationarity-tol"_s), u"--stationarity-tol"_s))
#undef FACET_TAKE
    if (*tol < 0)
        return optionError(u"--tol must be >= 0, got %1"_s.arg(*tol));
    if (*stationarityTol < 0)
        return optionError(u"--stationarity-tol must be >= 0, got %1"_s.arg(*stationarityTol));
    bool seedOk = false;
    const qulonglong seed = p.value(u"seed"_s).toULongLong(&seedOk);
    if (!seedOk)
        return optionError(
            u"--seed expects a non-negative whole number, got '%1'"_s.arg(p.value(u"seed"_s)));

    o.run.params.rank = *rank;
    o.run.driver.maxIter = *maxIter;
    o.run.driver.minIter = *minIter;
    o.run.driver.tol = *tol;
    o.run.driver.stationarityTol = *stationarityTol;
    o.run.driver.replicates = *replicates;
    o.run.driver.seed = seed;
    o.run.cluster.replicates = *kmReplicates;
    o.run.cluster.cosine = p.isSet(u"cosine"_s);
    o.run.clusters = *clusters;
    o.threads = *threads;

    if (const Result<bool> m = readMethodOptions(p, o.run); !m)
        return Error { m.error() };
    if (o.run.method == "cf-ogl") {
        // CF_OGL: one driver iteration is one outer iteration (METHODS.md section 3).
        if (p.isSet(u"outer-iterations"_s))
            o.run.driver.maxIter = o.run.params.outerIterations;
        else if (!p.isSet(u"max-iter"_s))
            o.run.driver.maxIter = o.run.params.outerIterations;
        if (!p.isSet(u"min-iter"_s))
            o.run.driver.minIter = std::min(o.run.driver.minIter, o.run.driver.maxIter);
    }

    // Options that contradict each other are refused, not silently overruled.
    if (p.isSet(u"min-iter"_s) && p.isSet(u"max-iter"_s)
        && o.run.driver.minIter > o.run.driver.maxIter)
        return optionError(u"--min-iter %1 is above --max-iter %2: the run would stop before the "
                           "tolerance test could stop it; lower --min-iter or raise --max-iter"_s
                               .arg(o.run.driver.minIter)
                               .arg(o.run.driver.maxIter));

    const QString cluster = p.value(u"cluster"_s);
    if (cluster == u"kmeans")
        o.run.cluster.mode = ClusterMode::KMeans;
    else if (cluster == u"argmax")
        o.run.cluster.mode = ClusterMode::ArgMax;
    else
        return optionError(u"--cluster must be kmeans or argmax, got '%1'"_s.arg(cluster));
    if (o.run.cluster.mode == ClusterMode::ArgMax && p.isSet(u"clusters"_s)
        && o.run.clusters != o.run.params.rank)
        return optionError(u"--clusters %1 does not apply to --cluster argmax, which puts each "
                           "sample in the cluster of its largest coefficient: one cluster per "
                           "basis vector, %2 (the rank); leave --clusters out or use --cluster "
                           "kmeans"_s.arg(o.run.clusters)
                               .arg(o.run.params.rank));

    const Result<Normalize> normalize = readChoice(p, u"normalize"_s, kNormalizeChoices);
    if (!normalize)
        return Error { normalize.error() };
    o.normalize = *normalize;
    const MethodInfo* info = findMethod(o.run.method);
    o.dataset.prepare.l2Normalize
        = o.normalize == Normalize::L2 || (o.normalize == Normalize::Auto && info->cfFamily);

    if (const Result<bool> mask = readMaskOptions(p, o); !mask)
        return optionError(mask.error());

    if (p.isSet(u"classes"_s)) {
        const Result<QStringList> list = classList(p.value(u"classes"_s));
        if (!list)
            return Error { list.error() };
        o.classes = *list;
    }
    // Given but empty (--json ""): refused here, not after the solve, and not taken for "none".
    for (const char* flag : { "json", "basis-png", "factors", "init-from" })
        if (p.value(QString::fromLatin1(flag)).isEmpty())
            if (p.isSet(QString::fromLatin1(flag)))
                return optionError(
                    u"--%1 is empty; give a file name%2"_s.arg(QString::fromLatin1(flag),
                        qstrcmp(flag, "json") == 0 ? u" (or - for standard output)"_s : QString()));
    o.jsonPath = p.value(u"json"_s);
    o.basisPngPath = p.value(u"basis-png"_s);
    o.factorsPath = p.value(u"factors"_s);
    o.initFromPath = p.value(u"init-from"_s);
    if (!o.initFromPath.isEmpty() && o.run.driver.replicates != 1)
        return optionError(
            u"--init-from starts from the given factors: it runs one replicate, not %1"_s.arg(
                o.run.driver.replicates));
    if (!o.initFromPath.isEmpty() && o.run.params.initSet)
        return optionError(u"--init and --init-from both choose the start; give one of them"_s);
    if (const QString clash = sameOutputProblem({ { u"--json"_s, o.jsonPath },
            { u"--basis-png"_s, o.basisPngPath }, { u"--factors"_s, o.factorsPath } });
        !clash.isEmpty())
        return optionError(clash);
    for (const auto& [flag, path] : { std::pair { u"--basis-png"_s, o.basisPngPath },
             std::pair { u"--factors"_s, o.factorsPath } })
        if (path == QLatin1String(kStandardOutputPath))
            return optionError(
                u"%1 writes a file; only --json can go to standard output (-)"_s.arg(flag));
    return o;
}

} // namespace facet::cli
