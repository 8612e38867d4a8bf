// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/method_parameter_text.h"

#include "util/params_json.h"

#include <QJsonObject>
#include <QRegularExpression>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

// Keys the experiment sets itself, and the form field that sets them.
QString ownedBy(const QString& key)
{
    if (key == u"max-iter")
        return u"Max iterations"_s;
    if (key == u"algorithm")
        return u"Algorithm"_s;
    if (key == u"rank")
        return u"Rank and Clusters c"_s;
    if (key == u"clusters")
        return u"Clusters c"_s;
    if (key == u"seed")
        return u"Seed"_s;
    if (key == u"labeled-fraction" || key == u"labeled-per-class")
        return u"Protocol (semi-supervised)"_s;
    if (key == u"init-from")
        return u"-"_s; // a warm start from a file has no meaning across cells
    return {};
}

} // namespace

QStringList methodParameterNames()
{
    QStringList names;
    const QJsonObject defaults = runParamsToJson(RunOptions {});
    for (auto it = defaults.begin(); it != defaults.end(); ++it)
        if (ownedBy(it.key()).isEmpty())
            names << it.key();
    return names;
}

Result<RunOptions> parseMethodParameters(const QString& text)
{
    static const QRegularExpression separators(u"[,;\\s]+"_s);
    const QJsonObject defaults = runParamsToJson(RunOptions {});
    QJsonObject object { { u"method"_s, u"nmf"_s }, { u"rank"_s, 1 } };
    for (QString token : text.split(separators, Qt::SkipEmptyParts)) {
        if (token.startsWith(u"--"_s))
            token = token.mid(2);
        const qsizetype eq = token.indexOf(u'=');
        const QString key = (eq < 0 ? token : token.left(eq)).toLower();
        const QString value = eq < 0 ? QString() : token.mid(eq + 1);
        if (const QString field = ownedBy(key); field == u"-")
            return Error { u"Method parameters: %1 is not taken by an experiment"_s.arg(key) };
        else if (!field.isEmpty())
            return Error { u"Method parameters: set %1 with the form's %2 field"_s.arg(
                key, field) };
        if (!defaults.contains(key))
            return Error { u"Method parameters: unknown name '%1'; the names are %2"_s.arg(
                key, methodParameterNames().join(u", "_s)) };
        if (object.contains(key))
            return Error { u"Method parameters: %1 is given twice"_s.arg(key) };
        const QJsonValue kind = defaults.value(key);
        if (kind.isBool()) {
            const QString v = value.toLower();
            if (eq >= 0 && v != u"true" && v != u"false" && v != u"on" && v != u"off")
                return Error { u"Method parameters: %1 is a switch: write %1 alone, or "
                               "%1=on or %1=off; got '%2'"_s.arg(key, value) };
            object.insert(key, eq < 0 || v == u"true" || v == u"on");
            continue;
        }
        if (eq < 0 || value.isEmpty())
            return Error { u"Method parameters: give %1 a value, e.g. %1=%2"_s.arg(
                key, kind.isString() ? kind.toString() : u"1"_s) };
        if (kind.isString()) {
            object.insert(key, value.toLower());
            continue;
        }
        // A number, or an optional one (null: the method's default, e.g. lambda).
        bool ok = false;
        const double number = value.toDouble(&ok);
        if (!ok)
            return Error { u"Method parameters: %1 takes a number; got '%2'"_s.arg(key, value) };
        object.insert(key, number);
    }
    Result<RunOptions> options = runOptionsFromJson(object, u"Method parameters"_s);
    if (!options)
        return options;
    // "method" and "rank" were only there for the reader: each cell sets its own.
    options->method = RunOptions {}.method;
    options->params.rank = RunOptions {}.params.rank;
    if (const std::string problem = parameterBoundProblem(options->params); !problem.empty())
        return Error { u"Method parameters: "_s + QString::fromStdString(problem) };
    return options;
}

} // namespace facet
