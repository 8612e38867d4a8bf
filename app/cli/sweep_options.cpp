// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/sweep_options.h"
#include "cli/mask_options.h"

#include "cli/cli_option_readers.h"
#include "experiment/sweep_json.h"
#include "util/integer_list.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QHash>

#include <algorithm>
#include <limits>

namespace facet::cli {

using namespace Qt::StringLiterals;

namespace {

constexpr int kMaxInt = std::numeric_limits<int>::max();

Error sweepOptionError(const QString& message)
{
    return Error { message };
}

// "2-10", "2,4,6" or "2-5,8": the values of c.
Result<std::vector<int>> clusterList(const QString& text)
{
    return parseIntegerList(text, u"--clusters"_s, u"counts such as 2-10 or 2,4,6"_s);
}

// "lambda=0.01,0.1,1,10".
Result<bool> readParameter(const QString& text, ExperimentOptions& e)
{
    const qsizetype eq = text.indexOf(u'=');
    const QString name = eq > 0 ? text.left(eq).trimmed().toLower() : QString();
    e.parameter = sweepParameterFromName(name.toStdString());
    if (e.parameter == SweepParameter::None)
        return sweepOptionError(
            u"--param expects NAME=v1,v2,... with NAME lambda, p, beta or rank; got '%1'"_s.arg(
                text));
    for (const QString& v : text.mid(eq + 1).split(u',', Qt::SkipEmptyParts)) {
        const Result<double> value = readDoubleValue(v.trimmed(), u"--param %1"_s.arg(name));
        if (!value)
            return Error { value.error() };
        e.parameterValues.push_back(*value);
    }
    if (e.parameterValues.empty())
        return sweepOptionError(u"--param %1 has no values"_s.arg(name));
    return true;
}

// The arguments that reproduce the numbers: --out, --resume and --threads are dropped (they do
// not change a result) and the dataset path is made absolute, so sweep-cell can run from any
// folder.
QStringList canonicalArguments(const QStringList& arguments, const QList<QCommandLineOption>& all)
{
    QHash<QString, bool> takesValue;
    for (const QCommandLineOption& o : all)
        for (const QString& name : o.names())
            takesValue.insert(name, !o.valueName().isEmpty());
    QStringList out { arguments.first() };
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString arg = arguments.at(i);
        if (!arg.startsWith(u'-')) {
            out << arg;
            continue;
        }
        QString name = arg.mid(arg.startsWith(u"--"_s) ? 2 : 1);
        QString value;
        bool hasValue = false;
        if (const qsizetype eq = name.indexOf(u'='); eq >= 0) {
            value = name.mid(eq + 1);
            name = name.left(eq);
            hasValue = true;
        } else if (takesValue.value(name) && i + 1 < arguments.size()) {
            value = arguments.at(++i);
            hasValue = true;
        }
        if (name == u"out" || name == u"resume" || name == u"threads")
            continue;
        if (name == u"dataset" && !value.startsWith(u"builtin:"_s) && QFileInfo::exists(value))
            value = QFileInfo(value).absoluteFilePath();
        out << u"--"_s + name;
        if (hasValue)
            out << value;
    }
    return out;
}

Result<CliOptions> parseSweepCell(const QStringList& arguments)
{
    CliOptions o;
    o.command = Command::SweepCell;
    QCommandLineParser p;
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    p.addOptions({ { u"from"_s, u"Sweep folder"_s, u"dir"_s }, { u"method"_s, u"Method"_s, u"m"_s },
        { u"clusters"_s, u"c"_s, u"c"_s }, { u"trial"_s, u"Trial (from 1)"_s, u"t"_s },
        { u"param-value"_s, u"Grid value"_s, u"v"_s }, { u"json"_s, u"Output"_s, u"file"_s } });
    QStringList argv = arguments;
    argv[0] = u"facet-cli"_s;
    if (const QString problem = parseEachOnce(p, argv); !problem.isEmpty())
        return sweepOptionError(problem);
    if (!p.positionalArguments().isEmpty())
        return sweepOptionError(
            u"sweep-cell: unexpected argument '%1'"_s.arg(p.positionalArguments().first()));
    for (const QString& required : { u"from"_s, u"method"_s, u"clusters"_s, u"trial"_s })
        if (!p.isSet(required))
            return sweepOptionError(
                u"sweep-cell needs --%1 (see: facet-cli help sweep-cell)"_s.arg(required));
    SweepCliOptions& s = o.sweep;
    s.fromDir = p.value(u"from"_s);
    s.cell.method = p.value(u"method"_s).toLower().toStdString();
    const Result<int> c = readIntValue(p.value(u"clusters"_s), u"--clusters"_s, 1, kMaxInt);
    if (!c)
        return Error { c.error() };
    const Result<int> t = readIntValue(p.value(u"trial"_s), u"--trial"_s, 1, kMaxInt);
    if (!t)
        return Error { t.error() };
    s.cell.clusters = *c;
    s.cell.trial = *t - 1;
    if (p.isSet(u"param-value"_s)) {
        const Result<double> v = readDoubleValue(p.value(u"param-value"_s), u"--param-value"_s);
        if (!v)
            return Error { v.error() };
        s.parameterValue = *v;
    }
    s.cellJsonPath = p.value(u"json"_s);
    return o;
}

// `sweep --resume DIR` without --dataset and --methods: the sweep's own command, recorded in
// DIR/results.json, followed by what was typed now (--resume DIR, --threads T, and any other
// option, which then differs from the file and is refused by runSweep with the difference).
Result<QStringList> recordedSweepArguments(const QString& dir, const QStringList& typed)
{
    const QString path = QDir(dir).filePath(u"results.json"_s);
    if (!QFileInfo::exists(path))
        return sweepOptionError(u"nothing to resume: %1 does not exist"_s.arg(path));
    const Result<SweepFile> file = readSweepFile(path);
    if (!file)
        return Error { file.error() };
    const QStringList& recorded = file->arguments;
    if (recorded.value(0) != u"sweep" || !recorded.contains(u"--dataset"_s)
        || !recorded.contains(u"--methods"_s))
        return sweepOptionError(
            u"%1 does not record the sweep's command; give it again with --resume %2"_s.arg(
                path, dir));
    return recorded + typed.mid(1);
}

} // namespace

namespace {

// `recordedThenTyped`: a resumed sweep's recorded command followed by the options typed with
// --resume, which may repeat the recorded ones (the typed value is then compared with the file);
// anywhere else an option given twice is refused.
Result<CliOptions> parseSweep(const QStringList& arguments, bool recordedThenTyped)
{
    CliOptions o;
    o.command = Command::Sweep;
    QCommandLineParser p;
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    addDataOptions(p);
    QList<QCommandLineOption> options = runCommandOptions();
    options += QList<QCommandLineOption> {
        { u"methods"_s, u"Methods"_s, u"list"_s },
        { u"trials"_s, u"Trials per c"_s, u"t"_s, u"10"_s },
        { u"subruns"_s, u"Restarts per trial"_s, u"r"_s, u"1"_s },
        { u"select"_s, u"objective or accuracy"_s, u"rule"_s, u"objective"_s },
        { u"rank-offset"_s, u"k = c + offset"_s, u"n"_s, u"0"_s },
        { u"evaluate"_s, u"all or unlabeled"_s, u"set"_s, u"all"_s },
        { u"param"_s, u"NAME=v1,v2,..."_s, u"grid"_s },
        { u"out"_s, u"Output folder"_s, u"dir"_s },
        { u"resume"_s, u"Folder of an interrupted sweep"_s, u"dir"_s },
        { u"compare"_s, u"Two methods to compare"_s, u"a,b"_s },
    };
    p.addOptions(options);
    p.addOptions(maskCommandOptions()); // refused below: a sweep takes no mask yet
    QStringList argv = arguments;
    argv[0] = u"facet-cli"_s;
    if (const QString problem
        = recordedThenTyped ? (p.parse(argv) ? QString() : p.errorText()) : parseEachOnce(p, argv);
        !problem.isEmpty())
        return sweepOptionError(problem);
    if (!p.positionalArguments().isEmpty())
        return sweepOptionError(
            u"sweep: unexpected argument '%1'"_s.arg(p.positionalArguments().first()));
    for (const QString& runOnly :
        { u"method"_s, u"rank"_s, u"json"_s, u"basis-png"_s, u"factors"_s, u"init-from"_s,
            u"classes"_s, u"mask"_s, u"mask-var"_s, u"missing"_s, u"occlusion-missing"_s })
        if (p.isSet(runOnly))
            return sweepOptionError(
                u"sweep does not take --%1 (see: facet-cli help sweep)"_s.arg(runOnly));
    if (p.isSet(u"resume"_s) && !p.isSet(u"dataset"_s) && !p.isSet(u"methods"_s)) {
        const Result<QStringList> recorded
            = recordedSweepArguments(p.value(u"resume"_s), arguments);
        if (!recorded)
            return Error { recorded.error() };
        return parseSweep(*recorded, true); // holds --dataset and --methods: no second pass
    }
    if (!p.isSet(u"dataset"_s) || !p.isSet(u"methods"_s))
        return sweepOptionError(
            u"sweep needs --dataset and --methods (see: facet-cli help sweep)"_s);
    if (!p.isSet(u"out"_s) && !p.isSet(u"resume"_s))
        return sweepOptionError(u"sweep needs --out DIR (or --resume DIR to continue one)"_s);

    SweepCliOptions& s = o.sweep;
    ExperimentOptions& e = s.experiment;
    s.resume = p.isSet(u"resume"_s);
    s.outDir = s.resume ? p.value(u"resume"_s) : p.value(u"out"_s);
    if (s.resume && p.isSet(u"out"_s)
        && QFileInfo(p.value(u"out"_s)).absoluteFilePath()
            != QFileInfo(s.outDir).absoluteFilePath())
        return sweepOptionError(
            u"--resume continues in its own folder; leave out --out or give the same one"_s);

    o.dataset.spec = p.value(u"dataset"_s);
    // Absolute, so a resumed sweep or sweep-cell started from another folder finds the same file
    // and compares equal.
    if (!o.dataset.spec.startsWith(u"builtin:"_s) && QFileInfo::exists(o.dataset.spec))
        o.dataset.spec = QFileInfo(o.dataset.spec).absoluteFilePath();
    if (const Result<bool> data = readDatasetOptions(p, o.dataset, true); !data)
        return Error { data.error() };
    o.dataset.prepare.l2Normalize = false; // per method, by the experiment (experiment_data.h)
    for (const QString& m : p.value(u"methods"_s).split(u',', Qt::SkipEmptyParts)) {
        const std::string name = m.trimmed().toLower().toStdString();
        if (!findMethod(name))
            return sweepOptionError(
                u"unknown method '%1' (see: facet-cli help)"_s.arg(m.trimmed()));
        e.methods.push_back(name);
    }
    const Result<std::vector<int>> counts
        = clusterList(p.isSet(u"clusters"_s) ? p.value(u"clusters"_s) : u"2-10"_s);
    if (!counts)
        return Error { counts.error() };
    e.clusterCounts = *counts;
    o.sweep.clustersDefaulted = !p.isSet(u"clusters"_s);

#define FACET_TAKE(var, expr)                                                                      \
    const auto var = (expr);                                                                       \
    if (!var)                                                                                      \
        return Error { var.error() };
    FACET_TAKE(trials, readIntValue(p.value(u"trials"_s), u"--trials"_s, 1, 1000000))
    FACET_TAKE(subruns, readIntValue(p.value(u"subruns"_s), u"--subruns"_s, 1, 10000))
    FACET_TAKE(offset, readIntValue(p.value(u"rank-offset"_s), u"--rank-offset"_s, 0, 1000))
    FACET_TAKE(maxIter, readIntValue(p.value(u"max-iter"_s), u"--max-iter"_s, 1, kMaxInt))
    FACET_TAKE(minIter, readIntValue(p.value(u"min-iter"_s), u"--min-iter"_s, 0, kMaxInt))
    FACET_TAKE(replicates, readIntValue(p.value(u"replicates"_s), u"--replicates"_s, 1, 10000))
    FACET_TAKE(kmReplicates,
        readIntValue(p.value(u"kmeans-replicates"_s), u"--kmeans-replicates"_s, 1, 10000))
    FACET_TAKE(threads, readIntValue(p.value(u"threads"_s), u"--threads"_s, 0, 1024))
    FACET_TAKE(tol, readDoubleValue(p.value(u"tol"_s), u"--tol"_s))
#undef FACET_TAKE
    if (*tol < 0)
        return sweepOptionError(u"--tol must be >= 0, got %1"_s.arg(*tol));
    bool seedOk = false;
    e.seed = p.value(u"seed"_s).toULongLong(&seedOk);
    if (!seedOk)
        return sweepOptionError(
            u"--seed expects a non-negative whole number, got '%1'"_s.arg(p.value(u"seed"_s)));
    e.trials = *trials;
    e.subruns = *subruns;
    e.rankOffset = *offset;
    o.threads = *threads;

    RunOptions& run = e.base;
    run.driver.maxIter = *maxIter;
    run.driver.minIter = *minIter;
    run.driver.tol = *tol;
    run.driver.replicates = *replicates;
    run.cluster.replicates = *kmReplicates;
    run.cluster.cosine = p.isSet(u"cosine"_s);
    if (const Result<bool> m = readMethodFlags(p, run); !m)
        return Error { m.error() };
    e.labeledFraction = run.labeledFraction;
    e.labeledPerClass = run.labeledPerClass;
    run.labeledFraction = 0;
    run.labeledPerClass = 0;

    const QString cluster = p.value(u"cluster"_s);
    if (cluster != u"kmeans" && cluster != u"argmax")
        return sweepOptionError(u"--cluster must be kmeans or argmax, got '%1'"_s.arg(cluster));
    run.cluster.mode = cluster == u"argmax" ? ClusterMode::ArgMax : ClusterMode::KMeans;
    const QString select = p.value(u"select"_s);
    if (select != u"objective" && select != u"accuracy")
        return sweepOptionError(u"--select must be objective or accuracy, got '%1'"_s.arg(select));
    e.selection = select == u"accuracy" ? SubrunSelection::Accuracy : SubrunSelection::Objective;
    const QString evaluate = p.value(u"evaluate"_s);
    if (evaluate != u"all" && evaluate != u"unlabeled")
        return sweepOptionError(u"--evaluate must be all or unlabeled, got '%1'"_s.arg(evaluate));
    e.evaluate = evaluate == u"unlabeled" ? EvaluateOn::Unlabeled : EvaluateOn::All;
    if (e.evaluate == EvaluateOn::Unlabeled && !e.semiSupervised())
        return sweepOptionError(
            u"--evaluate unlabeled needs --labeled-fraction or --labeled-per-class"_s);
    const Result<Normalize> normalize = readChoice(p, u"normalize"_s, kNormalizeChoices);
    if (!normalize)
        return Error { normalize.error() };
    o.normalize = *normalize;
    if (p.isSet(u"param"_s))
        if (const Result<bool> r = readParameter(p.value(u"param"_s), e); !r)
            return Error { r.error() };
    if (p.isSet(u"compare"_s)) {
        s.compare = p.value(u"compare"_s).toLower().split(u',', Qt::SkipEmptyParts);
        for (QString& m : s.compare)
            m = m.trimmed();
        if (s.compare.size() != 2 || s.compare[0] == s.compare[1])
            return sweepOptionError(
                u"--compare expects two different methods, e.g. --compare lcf,cf"_s);
        for (const QString& m : s.compare)
            if (std::find(e.methods.begin(), e.methods.end(), m.toStdString()) == e.methods.end())
                return sweepOptionError(u"--compare: '%1' is not among --methods"_s.arg(m));
    }
    // Data options missing from `options` still round-trip: their values follow as plain tokens.
    s.arguments = canonicalArguments(arguments, options);
    return o;
}

} // namespace

Result<CliOptions> parseSweepArguments(const QStringList& arguments)
{
    if (arguments.first() == u"sweep-cell")
        return parseSweepCell(arguments);
    return parseSweep(arguments, false);
}

QString sweepUsage()
{
    return u"Usage: facet-cli sweep --dataset DATASET --methods M1,M2,... --out DIR [options]\n"
           "The evaluation protocols of METHODS.md section 6. Each cell (method, c, trial) draws\n"
           "c classes, takes all their samples, factorizes with k = c, clusters, and scores AC\n"
           "and NMI; every method sees the same classes in the same trial. Writes\n"
           "results.json (after every finished cell), results.csv (one line per cell),\n"
           "table.md, summary.csv and summary.json (mean and std per c and their average) and\n"
           "ac/nmi .png/.svg/.pdf to DIR.\n"
           "  --clusters LIST      cluster counts c, e.g. 2-10 (default) or 2,4,8\n"
           "  --trials T           trials per c (10)\n"
           "  --subruns R          full restarts per trial (1); one is kept by --select\n"
           "  --select RULE        objective (lowest objective of the returned factors,\n"
           "                       default) or accuracy (best AC: the papers' optimistic\n"
           "                       \"oracle selection\")\n"
           "  --labeled-fraction F | --labeled-per-class N   semi-supervised protocol\n"
           "  --rank-offset N      k = c + N (0; the semi-supervised papers also use 1)\n"
           "  --evaluate SET       all (default) or unlabeled samples only\n"
           "  --param NAME=V,...   parameter sweep over lambda, p, beta or rank\n"
           "  --compare A,B        the paired test of A against B (default: each vs the best)\n"
           "  --threads T          cells run side by side (0 = one per core; under mpirun, per\n"
           "                       process, default 1); every cell uses one inner thread, so\n"
           "                       the numbers do not depend on T\n"
           "  --seed S             experiment seed (0); cell seeds are derived from it\n"
           "  --resume DIR         continue an interrupted sweep: alone, with the options "
           "recorded\n"
           "                       in DIR/results.json; with options, they must be the same\n"
           "  --normalize MODE     auto (L2 per sample for the CF family), none or l2\n"
           "  --max-iter, --min-iter, --tol, --replicates, --cluster, --cosine,\n"
           "  --kmeans-replicates and every method parameter as for run (facet-cli help run)\n"
           "Ctrl+C stops after the running cells' next iteration and keeps finished cells.\n"
           "mpirun -np N facet-cli sweep ... (or srun) spreads the cells over N processes, with\n"
           "the same results (docs/cluster.md).\n"_s;
}

QString sweepCellUsage()
{
    return u"Usage: facet-cli sweep-cell --from DIR --method M --clusters C --trial T "
           "[--param-value V] [--json OUT]\n"
           "Re-runs one cell of the sweep in DIR from its seed (the options are read from\n"
           "DIR/results.json) and compares it with the recorded cell; exit code 1 when they\n"
           "differ. Trials are numbered from 1, as in results.json.\n"_s;
}

} // namespace facet::cli
