// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/rank_survey_command.h"

#include "cli/cli_option_readers.h"
#include "cli/commands.h"
#include "core/random.h"
#include "data/dataset_identity.h"
#include "experiment/rank_survey.h"
#include "methods/mask.h"
#include "rank_survey_outputs.h"
#include "util/atomic_write.h"
#include "util/integer_list.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <exception>
#include <map>
#include <numeric>

namespace facet::cli {

using namespace Qt::StringLiterals;

namespace {

Error surveyError(const QString& message)
{
    return Error { message + u" (see: facet-cli help rank-survey)"_s };
}

// Sorted, each rank once.
Result<std::vector<int>> readRanks(const QString& text)
{
    Result<std::vector<int>> ranks
        = parseIntegerList(text, u"--ranks"_s, u"ranks such as 2-30 or 2,4,8"_s);
    if (!ranks)
        return surveyError(ranks.error());
    std::sort(ranks->begin(), ranks->end());
    ranks->erase(std::unique(ranks->begin(), ranks->end()), ranks->end());
    return ranks;
}

// `count` distinct samples of n, chosen by `seed`, in their original order.
std::vector<int> subsampleIndices(int n, int count, std::uint64_t seed)
{
    std::vector<int> all(static_cast<std::size_t>(n));
    std::iota(all.begin(), all.end(), 0);
    Rng rng(seed);
    for (int i = 0; i < count; ++i)
        std::swap(all[std::size_t(i)],
            all[std::size_t(i) + std::size_t(rng.below(std::uint64_t(n - i)))]);
    all.resize(std::size_t(count));
    std::sort(all.begin(), all.end());
    return all;
}

} // namespace

QString rankSurveyUsage()
{
    return u"Usage: facet-cli rank-survey --dataset DATASET --method METHOD --ranks 2-30 --out DIR "
           "[options]\n"
           "  Runs METHOD at every rank R times from seeds SEED, SEED+1, ... and writes, per "
           "rank,\n"
           "  the consensus of the runs' clusterings (cophenetic correlation and dispersion), the\n"
           "  AC/NMI spread when the data has labels, the reconstruction error, the sparseness of\n"
           "  V and of the basis, and the time: survey.json, survey.csv, survey.md, a plot of "
           "each\n"
           "  measure against k (PNG, SVG, PDF) and the ordered consensus of the suggested rank.\n"
           "  --ranks LIST         ranks such as 2-30 or 2,4,8\n"
           "  --runs R             runs per rank (10)\n"
           "  --folds F            held-out folds per rank (3; 0: none): each masks a random\n"
           "                       --holdout fraction of the entries (0.1), fits the rest and\n"
           "                       measures the error on them (nmf, gnmf, semignmf, cnmf)\n"
           "  --subsample N        survey N random samples (by --seed): the consensus is n x n\n"
           "  --threads T          fits computed at once, one core each (default: one per core;\n"
           "                       the results are the same for any T)\n"
           "  --out DIR            the output folder (made when missing)\n"
           "  Every option of `run` that sets the method, its weights, the algorithm, the limits,\n"
           "  the seed and the data's preparation applies (facet-cli help run); --rank, --json,\n"
           "  --factors, --basis-png, --init-from, --classes and the mask options do not.\n"_s;
}

Result<CliOptions> parseRankSurveyArguments(const QStringList& arguments)
{
    RankSurveyCliOptions survey;
    QString ranks, runs = u"10"_s, subsample = u"0"_s, folds = u"3"_s, holdout = u"0.1"_s;
    QStringList rest { u"run"_s };
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        QString arg = arguments.at(i);
        QString name = arg.startsWith(u"--"_s) ? arg.mid(2)
            : arg.startsWith(u'-')             ? arg.mid(1)
                                               : QString();
        QString value;
        const qsizetype eq = name.indexOf(u'=');
        if (eq >= 0) {
            value = name.mid(eq + 1);
            name = name.left(eq);
        }
        for (const char* refused :
            { "rank", "json", "factors", "basis-png", "init-from", "classes" })
            if (name == QLatin1String(refused))
                return surveyError(u"rank-survey does not take --%1%2"_s.arg(name,
                    name == u"rank"          ? u"; give the ranks with --ranks"_s
                        : name == u"classes" ? u"; survey a subsample with --subsample"_s
                                             : u"; it writes its outputs into --out"_s));
        QString* target = name == u"ranks" ? &ranks
            : name == u"runs"              ? &runs
            : name == u"subsample"         ? &subsample
            : name == u"folds"             ? &folds
            : name == u"holdout"           ? &holdout
            : name == u"out"               ? &survey.outDir
                                           : nullptr;
        if (!target) {
            rest << arg;
            if (name == u"dataset" && eq < 0 && i + 1 < arguments.size()) {
                QString spec = arguments.at(++i);
                if (!spec.startsWith(u"builtin:"_s) && !spec.startsWith(u"gen:"_s)
                    && QFileInfo::exists(spec))
                    spec = QFileInfo(spec).absoluteFilePath();
                rest << spec;
            }
            continue;
        }
        if (eq < 0) {
            if (i + 1 >= arguments.size())
                return surveyError(u"--%1 needs a value"_s.arg(name));
            value = arguments.at(++i);
        }
        *target = value;
    }
    if (ranks.isEmpty())
        return surveyError(u"rank-survey needs --ranks"_s);
    if (survey.outDir.isEmpty())
        return surveyError(u"rank-survey needs --out DIR"_s);
    const Result<std::vector<int>> parsedRanks = readRanks(ranks);
    if (!parsedRanks)
        return Error { parsedRanks.error() };
    survey.ranks = *parsedRanks;
    const Result<int> r = readIntValue(runs, u"--runs"_s, 1, 100000);
    if (!r)
        return Error { r.error() };
    survey.runs = *r;
    const Result<int> s
        = readIntValue(subsample, u"--subsample"_s, 0, std::numeric_limits<int>::max());
    if (!s)
        return Error { s.error() };
    survey.subsample = *s;
    const Result<int> f = readIntValue(folds, u"--folds"_s, 0, 1000);
    if (!f)
        return Error { f.error() };
    survey.folds = *f;
    const Result<double> h = readDoubleValue(holdout, u"--holdout"_s);
    if (!h)
        return Error { h.error() };
    if (!(*h > 0 && *h <= 0.5))
        return surveyError(u"--holdout must be in (0, 0.5], got %1"_s.arg(holdout));
    survey.holdout = *h;
    for (const char* required : { "dataset", "method" })
        if (!rest.contains(u"--"_s + QLatin1String(required))
            && std::none_of(rest.begin(), rest.end(), [&](const QString& a) {
                   return a.startsWith(u"--"_s + QLatin1String(required) + u'=');
               }))
            return surveyError(u"rank-survey needs --%1"_s.arg(QLatin1String(required)));
    survey.arguments = QStringList { u"rank-survey"_s } + rest.mid(1);
    survey.arguments << u"--ranks"_s << ranks << u"--runs"_s << QString::number(survey.runs)
                     << u"--folds"_s << QString::number(survey.folds) << u"--holdout"_s
                     << QString::number(survey.holdout);
    if (survey.subsample > 0)
        survey.arguments << u"--subsample"_s << QString::number(survey.subsample);
    rest << u"--rank"_s << QString::number(survey.ranks.front()) << u"--json"_s << u"-"_s;
    Result<CliOptions> o = parseArguments(rest);
    if (!o)
        return Error { QString(o.error()).replace(
            u"facet-cli help run"_s, u"facet-cli help rank-survey"_s) };
    o->command = Command::RankSurvey;
    o->jsonPath.clear();
    o->rankSurvey = std::move(survey);
    return o;
}

int runRankSurveyCommand(
    const CliOptions& options, QTextStream& out, QTextStream& err, std::stop_token stop)
{
    const RankSurveyCliOptions& survey = options.rankSurvey;
    if (!QDir().mkpath(survey.outDir)) {
        err << "facet-cli: cannot make the folder " << survey.outDir << Qt::endl;
        return kExitFailure;
    }
    if (const QString problem = outputPathProblem(QDir(survey.outDir).filePath(u"survey.json"_s));
        !problem.isEmpty()) {
        err << "facet-cli: " << problem << Qt::endl;
        return kExitFailure;
    }
    DatasetRequest request = options.dataset;
    request.mat.stop = stop;
    Result<Dataset> loaded = loadDataset(request);
    if (!loaded) {
        if (stop.stop_requested())
            return interruptedWhileLoading(options.dataset.spec, err);
        err << "facet-cli: " << loaded.error() << Qt::endl;
        return kExitFailure;
    }
    Dataset data = std::move(*loaded);
    if (survey.subsample > 0) {
        if (survey.subsample > data.samples()) {
            err << "facet-cli: --subsample " << survey.subsample << " is more than the "
                << data.samples() << " samples of " << data.name << Qt::endl;
            return kExitFailure;
        }
        const std::vector<int> keep
            = subsampleIndices(int(data.samples()), survey.subsample, options.run.driver.seed);
        Dataset part = data;
        part.X.resize(data.X.rows(), Eigen::Index(keep.size()));
        part.labels.clear();
        for (std::size_t j = 0; j < keep.size(); ++j) {
            part.X.col(Eigen::Index(j)) = data.X.col(keep[j]);
            if (data.hasLabels())
                part.labels.push_back(data.labels[std::size_t(keep[j])]);
        }
        part.notes << u"subsample of %1 of %2 samples (seed %3)"_s.arg(keep.size())
                          .arg(data.samples())
                          .arg(options.run.driver.seed);
        data = std::move(part);
    }

    RankSurveyOptions surveyOptions;
    surveyOptions.run = options.run;
    surveyOptions.ranks = survey.ranks;
    surveyOptions.runs = survey.runs;
    surveyOptions.folds = survey.folds;
    surveyOptions.holdout = survey.holdout;
    // --threads: the fits computed at once, each on one core (the survey's unit of parallel work;
    // the result is the same bits for any count).
    surveyOptions.workers = options.threads;
    const int perRank = survey.runs + (acceptsMask(options.run.method) ? survey.folds : 0);
    std::map<int, int> finished; // fits done per rank
    RankSurveyResult result;
    try {
        result = runRankSurvey(
            data.X, data.labels, surveyOptions,
            [&](int done, int total, int k, int) {
                if (done > 0 && k > 0 && ++finished[k] == perRank)
                    err << "rank-survey: k = " << k << " done (" << done << " of " << total
                        << " fits)" << Qt::endl;
            },
            stop);
    } catch (const std::exception& e) {
        err << "facet-cli: " << e.what() << Qt::endl;
        return kExitFailure;
    }
    if (result.cancelled) {
        err << "facet-cli: rank-survey interrupted after " << result.rows.size() << " of "
            << survey.ranks.size() << " ranks; nothing was written" << Qt::endl;
        return kExitInterrupted;
    }
    const DatasetIdentity identity = datasetIdentity(data, options.dataset, dataSha256(data.X));
    const Result<QStringList> written = plots::writeRankSurveyOutputs(
        survey.outDir, { identity, data.hasLabels(), survey.arguments, surveyOptions, result });
    if (!written) {
        err << "facet-cli: " << written.error() << Qt::endl;
        return kExitFailure;
    }
    out << "rank-survey of " << QString::fromStdString(options.run.method) << " on " << data.name
        << ", k = " << survey.ranks.front() << ".." << survey.ranks.back() << ", " << survey.runs
        << " runs each\n";
    if (result.byCophenetic.rank > 0)
        out << "suggested k = " << result.byCophenetic.rank << ": " << result.byCophenetic.why
            << '\n';
    out << "wrote " << written->join(u", "_s) << '\n';
    return kExitOk;
}

} // namespace facet::cli
