// SPDX-License-Identifier: GPL-3.0-or-later
// `facet-cli reproduce`: its command line, the sweep it makes of a paper's protocol, and `list`.
#include "cli/cli_option_readers.h"
#include "cli/reproduce_command.h"
#include "util/integer_list.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

#include <algorithm>
#include <limits>

namespace facet::cli {

using namespace Qt::StringLiterals;

namespace {

Error reproduceError(const QString& message)
{
    return Error { message + u" (see: facet-cli help reproduce)"_s };
}

QString presetValue(const PaperRecord& paper, const QString& name)
{
    const QJsonValue v = paper.sweep.value(name);
    return v.isString() ? v.toString() : QString();
}

// The paper's data sets this run takes: --datasets, else every available one.
std::vector<const PaperDataset*> chosenDatasets(
    const PaperRecord& paper, const ReproduceCliOptions& options)
{
    std::vector<const PaperDataset*> chosen;
    for (const PaperDataset& d : paper.datasets)
        if (options.datasets.isEmpty() ? d.available : options.datasets.contains(d.key))
            chosen.push_back(&d);
    return chosen;
}

QString keyList(const std::vector<PaperRecord>& papers, bool reproducible)
{
    QStringList keys;
    for (const PaperRecord& p : papers)
        if (p.reproducible == reproducible)
            keys << p.key;
    return keys.join(u", "_s);
}

} // namespace

QString reproduceUsage()
{
    return u"Usage: facet-cli reproduce PAPER --out DIR [options]\n"
           "       facet-cli reproduce list\n"
           "Runs a paper's evaluation protocol as it states it (resources/papers/PAPER.json holds\n"
           "its published AC/NMI numbers, the protocol and the defaults Facet takes where the\n"
           "paper is silent), one `facet-cli sweep` per data set into DIR/<data set>/, and\n"
           "writes reproduction.md, .csv and .json (the paper's mean ± std beside Facet's per\n"
           "cluster count and on average, the difference, the ranking of the methods on each\n"
           "side, the gains the text states) and reproduction_<data set>_ac/_nmi .png/.svg/.pdf\n"
           "(the paper's curves dashed over Facet's). A DIR that holds a sweep of the same\n"
           "options continues it. PAPER is lcf, cnmf, ccf or cf-ogl (lccf: its document corpora\n"
           "are not available); `reproduce list` shows each with its data and methods.\n"
           "Each option below departs from the paper's protocol, and every output says so:\n"
           "  --datasets LIST      some of the paper's data sets, e.g. yale,orl\n"
           "  --trials T           trials per c (the paper's, mostly 10)\n"
           "  --clusters LIST      cluster counts, e.g. 2-10 or 2,3\n"
           "  --subruns R          restarts per trial (LCF: 10, best AC)\n"
           "  --max-iter N         iterations per run at most (3000; cf-ogl: outer iterations,\n"
           "                       at most 30)\n"
           "These do not change what is computed:\n"
           "  --seed S             experiment seed (0)\n"
           "  --threads T          cells run side by side (0 = one per core)\n"
           "  --data-dir DIR       where the data files are (FACET_DATA_DIR, else\n"
           "                       ../shared/data)\n"
           "Where a gap comes from:\n"
           "  --sensitivity        runs the protocol above as the baseline, then once per\n"
           "                       other value of each choice the paper leaves open (sample\n"
           "                       normalization, mu converged or at a fixed iteration count,\n"
           "                       start, k-means restarts and cosine, sub-run selection, rank\n"
           "                       c or c + 1, scored samples, LCF's and CF_OGL's variants),\n"
           "                       one change per row, into DIR/<row>/<data set>/, and writes\n"
           "                       sensitivity.md, .csv and .json: each method's average and\n"
           "                       its change per row, the ranking, and for each gap to the\n"
           "                       paper over 3 points the choice that closes it, if one does\n"
           "  --fixed-iterations LIST  the fixed counts of those rows (100,500)\n"_s;
}

QString reproduceDataDir(const ReproduceCliOptions& options)
{
    if (!options.dataDir.isEmpty())
        return options.dataDir;
    const QString env = qEnvironmentVariable("FACET_DATA_DIR");
    return env.isEmpty() ? u"../shared/data"_s : env;
}

Result<CliOptions> parseReproduceArguments(const QStringList& arguments)
{
    CliOptions o;
    o.command = Command::Reproduce;
    ReproduceCliOptions& r = o.reproduce;
    QCommandLineParser p;
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    p.addOptions({ { u"out"_s, u"Output folder"_s, u"dir"_s },
        { u"datasets"_s, u"Data sets"_s, u"list"_s }, { u"trials"_s, u"Trials"_s, u"t"_s },
        { u"clusters"_s, u"Cluster counts"_s, u"list"_s }, { u"subruns"_s, u"Restarts"_s, u"r"_s },
        { u"max-iter"_s, u"Iterations"_s, u"n"_s }, { u"seed"_s, u"Seed"_s, u"s"_s },
        { u"threads"_s, u"Threads"_s, u"t"_s }, { u"data-dir"_s, u"Data folder"_s, u"dir"_s },
        { u"sensitivity"_s, u"One choice at a time"_s },
        { u"fixed-iterations"_s, u"Fixed iteration counts"_s, u"list"_s } });
    QStringList argv = arguments;
    argv[0] = u"facet-cli"_s;
    if (const QString problem = parseEachOnce(p, argv); !problem.isEmpty())
        return reproduceError(u"reproduce: "_s + problem);
    const QStringList positional = p.positionalArguments();
    if (positional.size() != 1)
        return reproduceError(positional.isEmpty()
                ? u"reproduce needs a PAPER (lcf, cnmf, ccf, cf-ogl) or list"_s
                : u"reproduce takes one PAPER, got %1"_s.arg(positional.join(u' ')));
    r.arguments = arguments;
    r.dataDir = p.value(u"data-dir"_s);
    if (p.isSet(u"data-dir"_s) && r.dataDir.isEmpty())
        return reproduceError(u"--data-dir is empty"_s);
    if (positional.first() == u"list") {
        for (const QString& name : p.optionNames())
            if (name != u"data-dir")
                return reproduceError(u"reproduce list takes no --%1"_s.arg(name));
        r.list = true;
        return o;
    }
    const Result<std::vector<PaperRecord>> papers = loadPaperRecords();
    if (!papers)
        return Error { papers.error() };
    const QString key = positional.first().toLower();
    const auto paper = std::find_if(papers->begin(), papers->end(),
        [&](const PaperRecord& record) { return record.key == key; });
    if (paper == papers->end())
        return reproduceError(
            u"unknown paper '%1'; the papers are %2 (facet-cli reproduce list)"_s.arg(
                positional.first(), keyList(*papers, true)));
    if (!paper->reproducible)
        return reproduceError(u"the %1 paper cannot be reproduced: %2"_s.arg(key, paper->whyNot));
    r.paper = key;
    if (!p.isSet(u"out"_s) || p.value(u"out"_s).isEmpty())
        return reproduceError(u"reproduce needs --out DIR"_s);
    r.outDir = p.value(u"out"_s);

    constexpr int kMaxInt = std::numeric_limits<int>::max();
    const auto readCount
        = [&](const QString& name, int maximum, std::optional<int>& target) -> Result<bool> {
        if (!p.isSet(name))
            return true;
        const Result<int> v = readIntValue(p.value(name), u"--"_s + name, 1, maximum);
        if (!v)
            return reproduceError(v.error());
        target = *v;
        return true;
    };
    for (const auto& [name, maximum, target] : { std::tuple { u"trials"_s, 1000000, &r.trials },
             std::tuple { u"subruns"_s, 10000, &r.subruns },
             std::tuple { u"max-iter"_s, kMaxInt, &r.maxIter } })
        if (const Result<bool> ok = readCount(name, maximum, *target); !ok)
            return Error { ok.error() };
    if (p.isSet(u"clusters"_s)) {
        const Result<std::vector<int>> counts = parseIntegerList(
            p.value(u"clusters"_s), u"--clusters"_s, u"counts such as 2-10 or 2,3"_s);
        if (!counts)
            return reproduceError(counts.error());
        if (const auto low
            = std::find_if(counts->begin(), counts->end(), [](int c) { return c < 2; });
            low != counts->end())
            return reproduceError(
                u"--clusters: a cluster count must be at least 2, got %1"_s.arg(*low));
        r.clusters = *counts;
        r.clustersText = p.value(u"clusters"_s);
    }
    r.sensitivity = p.isSet(u"sensitivity"_s);
    if (p.isSet(u"fixed-iterations"_s)) {
        if (!r.sensitivity)
            return reproduceError(u"--fixed-iterations goes with --sensitivity"_s);
        const Result<std::vector<int>> counts = parseIntegerList(p.value(u"fixed-iterations"_s),
            u"--fixed-iterations"_s, u"iteration counts such as 100,500"_s);
        if (!counts)
            return reproduceError(counts.error());
        for (const int n : *counts)
            if (n < 1 || (r.maxIter && n > *r.maxIter))
                return reproduceError(r.maxIter
                        ? u"--fixed-iterations: %1 is above --max-iter %2, the baseline's limit"_s
                              .arg(n)
                              .arg(*r.maxIter)
                        : u"--fixed-iterations: a count must be at least 1, got %1"_s.arg(n));
        r.fixedIterations = *counts;
    }
    if (p.isSet(u"seed"_s)) {
        bool ok = false;
        r.seed = p.value(u"seed"_s).toULongLong(&ok);
        if (!ok)
            return reproduceError(
                u"--seed expects a non-negative whole number, got '%1'"_s.arg(p.value(u"seed"_s)));
    }
    const Result<int> threads = readIntValue(
        p.isSet(u"threads"_s) ? p.value(u"threads"_s) : u"0"_s, u"--threads"_s, 0, 1024);
    if (!threads)
        return reproduceError(threads.error());
    o.threads = *threads;
    if (p.isSet(u"datasets"_s)) {
        for (const QString& raw : p.value(u"datasets"_s).split(u',', Qt::SkipEmptyParts)) {
            const QString name = raw.trimmed().toLower();
            const PaperDataset* d = paper->dataset(name);
            if (!d) {
                QStringList keys;
                for (const PaperDataset& known : paper->datasets)
                    keys << known.key;
                return reproduceError(u"--datasets: the %1 paper has no data set '%2' (it has "
                                      "%3)"_s.arg(key, raw.trimmed(), keys.join(u", "_s)));
            }
            if (!d->available)
                return reproduceError(
                    u"--datasets: %1 is not available: %2"_s.arg(d->paperName, d->why));
            if (!r.datasets.contains(name))
                r.datasets << name;
        }
        if (r.datasets.isEmpty())
            return reproduceError(u"--datasets expects names such as yale,orl"_s);
    }
    return o;
}

QJsonObject reproducePreset(const PaperRecord& paper, const ReproduceCliOptions& options)
{
    QJsonObject preset = paper.sweep;
    if (options.trials)
        preset.insert(u"trials"_s, QString::number(*options.trials));
    if (!options.clusters.empty())
        preset.insert(u"clusters"_s, options.clustersText);
    if (options.subruns)
        preset.insert(u"subruns"_s, QString::number(*options.subruns));
    if (options.seed)
        preset.insert(u"seed"_s, QString::number(*options.seed));
    if (options.maxIter) {
        preset.insert(u"max-iter"_s, QString::number(*options.maxIter));
        // The driver's floor of 30 iterations and CF_OGL's 30 outer iterations, capped with it.
        if (*options.maxIter < 30) {
            preset.insert(u"min-iter"_s, QString::number(*options.maxIter));
            if (presetValue(paper, u"methods"_s).split(u',').contains(u"cf-ogl"_s))
                preset.insert(u"outer-iterations"_s, QString::number(*options.maxIter));
        }
    }
    return preset;
}

QStringList presetSweepArguments(const QJsonObject& preset, const QString& dataPath)
{
    QStringList args { u"sweep"_s };
    for (auto it = preset.begin(); it != preset.end(); ++it) {
        args << u"--"_s + it.key();
        if (it.value().isString())
            args << it.value().toString();
    }
    return args << u"--dataset"_s << dataPath;
}

QStringList reproduceSweepArguments(
    const PaperRecord& paper, const ReproduceCliOptions& options, const QString& dataPath)
{
    return presetSweepArguments(reproducePreset(paper, options), dataPath);
}

QStringList reproduceDepartures(const PaperRecord& paper, const ReproduceCliOptions& options)
{
    QStringList out;
    const auto paperSays = [&](const QString& name, const QString& fallback) {
        const QString v = presetValue(paper, name);
        return v.isEmpty() ? fallback : u"the paper: %1"_s.arg(v);
    };
    if (!options.datasets.isEmpty()) {
        QStringList left;
        for (const PaperDataset* d : chosenDatasets(paper, {}))
            if (!options.datasets.contains(d->key))
                left << d->key;
        if (!left.isEmpty())
            out << u"--datasets %1 (left out: %2)"_s.arg(
                options.datasets.join(u','), left.join(u", "_s));
    }
    if (options.trials)
        out << u"--trials %1 (%2)"_s.arg(*options.trials).arg(paperSays(u"trials"_s, u"10"_s));
    if (!options.clusters.empty())
        out << u"--clusters %1 (%2)"_s.arg(
            options.clustersText, paperSays(u"clusters"_s, u"2-10"_s));
    if (options.subruns)
        out << u"--subruns %1 (%2)"_s.arg(*options.subruns)
                   .arg(paperSays(u"subruns"_s, u"the paper: one run per trial"_s));
    if (options.maxIter)
        out << u"--max-iter %1 (the paper states none; Facet's default is 3000)"_s.arg(
            *options.maxIter);
    return out;
}

QString reproduceListText(const std::vector<PaperRecord>& papers, const QString& dataDir)
{
    QString text
        = u"Papers (their published numbers: resources/papers/*.json; data from %1):\n"_s.arg(
            QDir(dataDir).absolutePath());
    for (const PaperRecord& p : papers) {
        text += u"\n%1  %2\n"_s.arg(p.key.leftJustified(6), p.citation());
        if (!p.reproducible) {
            text += u"        not reproducible: %1\n"_s.arg(p.whyNot);
            continue;
        }
        QStringList data, methods, lacking, tables;
        for (const PaperDataset& d : p.datasets)
            data << (d.available ? u"%1 (%2: %3)"_s.arg(d.paperName, d.file,
                         QFileInfo::exists(QDir(dataDir).filePath(d.file)) ? u"found"_s
                                                                           : u"MISSING"_s)
                                 : u"%1 (not available)"_s.arg(d.paperName));
        for (const PaperMethod& m : p.methods)
            (m.facet.isEmpty() ? lacking : methods) << (m.facet.isEmpty()
                    ? m.paper
                    : u"%1 = %2%3"_s.arg(m.paper, m.facet,
                        m.variant.isEmpty() ? QString() : u" (%1)"_s.arg(m.variant)));
        for (const PaperTable& t : p.tables)
            tables << u"%1 (%2)"_s.arg(t.table, t.hasCells() ? u"cells"_s : u"lost"_s);
        text += u"        data:     %1\n"_s.arg(data.join(u", "_s));
        text += u"        methods:  %1%2\n"_s.arg(methods.join(u", "_s),
            lacking.isEmpty() ? QString() : u"; not in Facet: %1"_s.arg(lacking.join(u", "_s)));
        text += u"        numbers:  %1%2\n"_s.arg(tables.join(u", "_s),
            p.claims.empty() ? QString() : u"; %1 claims of the text"_s.arg(p.claims.size()));
        const QStringList sweep = reproduceSweepArguments(p, {}, u"FILE"_s).mid(1, -1);
        text += u"        protocol: %1\n"_s.arg(sweep.mid(0, sweep.size() - 2).join(u' '));
        const int methodCount = int(presetValue(p, u"methods"_s).split(u',').size());
        const int trials = presetValue(p, u"trials"_s).toInt();
        const int subruns = std::max(1, presetValue(p, u"subruns"_s).toInt());
        const Result<std::vector<int>> counts
            = parseIntegerList(presetValue(p, u"clusters"_s), u"clusters"_s, QString());
        const int cells = methodCount * trials * (counts ? int(counts->size()) : 0)
            * int(chosenDatasets(p, {}).size());
        text += u"        needs:    the data files above; %1 cells (%2 factorizations)\n"_s
                    .arg(cells)
                    .arg(cells * subruns);
    }
    return text;
}

} // namespace facet::cli
