// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"
#include "data/dataset_source.h"
#include "experiment/run.h"
#include "util/choices.h"
#include "util/result.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>

// The run command's flags and readers (cli_options.cpp), shared with the commands that take the
// same flags (sweep), so a flag added to `run` reaches them too.
namespace facet::cli {

// Every option of `facet-cli run` (dataset, method and rank, driver, clustering, every method
// parameter, outputs); data options come from addDataOptions.
QList<QCommandLineOption> runCommandOptions();
void addDataOptions(QCommandLineParser& p);
Result<bool> readDatasetOptions(const QCommandLineParser& p, DatasetRequest& d, bool paperSize);
// The method parameters (--lambda, --p, --weight, ..., --labeled-fraction/--labeled-per-class).
Result<bool> readMethodFlags(const QCommandLineParser& p, RunOptions& run);
// QCommandLineParser::parse, then a refusal of an option given twice: the parser keeps the last
// value, so "--method nmf --method cf" ran CF without a word. Empty when the line is sound, else
// the message.
QString parseEachOnce(QCommandLineParser& p, const QStringList& argv);
Result<int> readIntValue(const QString& text, const QString& what, int minimum, int maximum);
Result<double> readDoubleValue(const QString& text, const QString& what);

inline constexpr std::array<Choice<Normalize>, 3> kNormalizeChoices { {
    { u"auto", Normalize::Auto },
    { u"none", Normalize::None },
    { u"l2", Normalize::L2 },
} };

// The value of option `name` from its table; the error names the option and the choices.
template <class T, std::size_t N>
Result<T> readChoice(
    const QCommandLineParser& p, const QString& name, const std::array<Choice<T>, N>& table)
{
    const QString text = p.value(name);
    if (const std::optional<T> value = parseChoice(table, text))
        return *value;
    return Error { QStringLiteral("--%1 must be %2, got '%3'").arg(name, choiceList(table), text) };
}

} // namespace facet::cli
