// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/paper_record.h"

#include "methods/registry.h"
#include "util/json_read.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <set>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

constexpr auto kFormat = "facet-paper-1";

// A string that may be null (a paper method Facet lacks: "facet": null).
void readNullableString(JsonReader& r, const QJsonObject& o, const QString& key, QString& target)
{
    if (o.value(key).isNull())
        target.clear();
    else
        r.readString(key, target);
}

// The objects of array `key`, each with its context ("tables[2]"); an error in `r` when `key`
// is not an array of objects.
std::vector<std::pair<QJsonObject, QString>> objectsOf(
    JsonReader& r, const QJsonObject& o, const QString& key, const QString& context, bool required)
{
    std::vector<std::pair<QJsonObject, QString>> out;
    if (!r.ok())
        return out;
    if (!o.contains(key)) {
        if (required)
            r.fail(u"%1: \"%2\" is missing"_s.arg(context, key));
        return out;
    }
    const QJsonValue v = o.value(key);
    if (!v.isArray()) {
        r.fail(u"%1: \"%2\" must be an array"_s.arg(context, key));
        return out;
    }
    const QJsonArray array = v.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        if (!array.at(i).isObject()) {
            r.fail(u"%1: %2[%3] must be an object"_s.arg(context, key).arg(i));
            return {};
        }
        out.emplace_back(array.at(i).toObject(), u"%1: %2[%3]"_s.arg(context, key).arg(i));
    }
    return out;
}

QStringList stringsOf(JsonReader& r, const QJsonObject& o, const QString& key, const QString& ctx)
{
    QStringList out;
    if (!o.contains(key) || !r.ok())
        return out;
    const QJsonValue v = o.value(key);
    const QJsonArray array = v.toArray();
    for (const QJsonValue& s : array) {
        if (!s.isString()) {
            r.fail(u"%1: \"%2\" must be an array of strings"_s.arg(ctx, key));
            return {};
        }
        out << s.toString();
    }
    if (!v.isArray())
        r.fail(u"%1: \"%2\" must be an array of strings"_s.arg(ctx, key));
    return out;
}

PaperCell readCell(JsonReader& outer, const QJsonObject& o, const QString& ctx, bool average)
{
    PaperCell cell;
    JsonReader r(o, ctx);
    r.readString(u"method"_s, cell.method, true);
    if (!average)
        r.readInt(u"c"_s, cell.clusters, 2, 100000, true);
    r.readDouble(u"ac"_s, cell.ac, 0, 100, true);
    r.readDouble(u"nmi"_s, cell.nmi, 0, 100, true);
    r.readOptionalDouble(u"ac_std"_s, cell.acStd, 0, 100);
    r.readOptionalDouble(u"nmi_std"_s, cell.nmiStd, 0, 100);
    if (!r.ok())
        outer.fail(r.error());
    return cell;
}

// Cross references: every name a table or claim uses is declared once in methods/datasets.
void checkReferences(JsonReader& r, const PaperRecord& p)
{
    std::set<QString> methods, datasets;
    for (const PaperMethod& m : p.methods)
        if (!methods.insert(m.paper).second)
            r.fail(u"method \"%1\" is listed twice"_s.arg(m.paper));
    for (const PaperDataset& d : p.datasets)
        if (!datasets.insert(d.key).second)
            r.fail(u"dataset \"%1\" is listed twice"_s.arg(d.key));
    for (const PaperTable& t : p.tables) {
        if (!datasets.count(t.dataset))
            r.fail(u"%1 names the dataset \"%2\", which \"datasets\" does not list"_s.arg(
                t.table, t.dataset));
        std::set<std::pair<QString, int>> seen;
        for (const PaperCell& c : t.cells) {
            if (!methods.count(c.method))
                r.fail(u"%1 has a cell of the method \"%2\", which \"methods\" does not list"_s.arg(
                    t.table, c.method));
            if (!seen.insert({ c.method, c.clusters }).second)
                r.fail(
                    u"%1 has two cells for %2 at c = %3"_s.arg(t.table, c.method).arg(c.clusters));
        }
        for (const PaperCell& c : t.average)
            if (!methods.count(c.method))
                r.fail(u"%1's average row names the method \"%2\", which \"methods\" does not "
                       "list"_s.arg(t.table, c.method));
        if (t.missing.isEmpty() == t.cells.empty())
            r.fail(u"%1 must have either cells or a \"missing\" reason, not %2"_s.arg(
                t.table, t.cells.empty() ? u"neither"_s : u"both"_s));
    }
    for (const PaperClaim& c : p.claims) {
        if (!datasets.count(c.dataset))
            r.fail(u"a claim names the dataset \"%1\", which \"datasets\" does not list"_s.arg(
                c.dataset));
        for (const QString& m : { c.method, c.over, c.fits })
            if (!m.isEmpty() && !methods.count(m))
                r.fail(
                    u"a claim names the method \"%1\", which \"methods\" does not list"_s.arg(m));
    }
}

} // namespace

Result<PaperRecord> parsePaperRecord(const QByteArray& bytes, const QString& origin)
{
    const QString name = QFileInfo(origin).fileName();
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Error { u"%1 is not valid JSON: %2 at byte %3"_s.arg(name, parseError.errorString())
                           .arg(parseError.offset) };
    if (!document.isObject())
        return Error { u"%1 must hold one JSON object"_s.arg(name) };
    const QJsonObject o = document.object();
    PaperRecord p;
    p.origin = origin;
    JsonReader r(o, name);
    QString format;
    r.readString(u"format"_s, format, true);
    if (r.ok() && format != QLatin1String(kFormat))
        return Error { u"%1: \"format\" must be \"%2\", found \"%3\""_s.arg(
            name, QLatin1String(kFormat), format) };
    r.readString(u"paper"_s, p.key, true);
    r.readString(u"title"_s, p.title, true);
    r.readString(u"venue"_s, p.venue);
    r.readString(u"source"_s, p.source, true);
    if (!o.value(u"year"_s).isNull())
        r.readInt(u"year"_s, p.year, 1900, 2100);
    r.readBool(u"reproducible"_s, p.reproducible, true);
    r.readString(u"why_not"_s, p.whyNot);
    p.authors = stringsOf(r, o, u"authors"_s, name);
    p.notes = stringsOf(r, o, u"notes"_s, name);
    p.protocol = r.object(u"protocol"_s, true);
    p.sweep = r.object(u"sweep"_s, p.reproducible);
    if (r.ok() && p.key.isEmpty())
        r.fail(u"%1: \"paper\" is empty"_s.arg(name));
    if (r.ok() && !p.reproducible && p.whyNot.isEmpty())
        r.fail(u"%1: a paper that is not reproducible needs \"why_not\""_s.arg(name));
    for (auto it = p.sweep.begin(); r.ok() && it != p.sweep.end(); ++it)
        if (!it.value().isString() && !(it.value().isBool() && it.value().toBool()))
            r.fail(
                u"%1: sweep: \"%2\" must be a string (or true for a flag)"_s.arg(name, it.key()));

    for (const auto& [m, ctx] : objectsOf(r, o, u"methods"_s, name, true)) {
        PaperMethod method;
        JsonReader mr(m, ctx);
        mr.readString(u"paper"_s, method.paper, true);
        readNullableString(mr, m, u"facet"_s, method.facet);
        mr.readString(u"why"_s, method.why);
        mr.readString(u"variant"_s, method.variant);
        mr.readString(u"note"_s, method.note);
        if (mr.ok() && !method.facet.isEmpty() && !findMethod(method.facet.toStdString()))
            mr.fail(u"%1: \"facet\": Facet has no method \"%2\""_s.arg(ctx, method.facet));
        if (mr.ok() && method.facet.isEmpty() && method.why.isEmpty())
            mr.fail(u"%1: a method Facet lacks needs \"why\""_s.arg(ctx));
        if (!mr.ok())
            r.fail(mr.error());
        p.methods.push_back(method);
    }
    for (const auto& [d, ctx] : objectsOf(r, o, u"datasets"_s, name, true)) {
        PaperDataset dataset;
        JsonReader dr(d, ctx);
        dr.readString(u"key"_s, dataset.key, true);
        dr.readString(u"paper_name"_s, dataset.paperName, true);
        readNullableString(dr, d, u"file"_s, dataset.file);
        dr.readBool(u"available"_s, dataset.available, true);
        dr.readString(u"why"_s, dataset.why);
        dr.readString(u"note"_s, dataset.note);
        if (dr.ok() && dataset.available == dataset.file.isEmpty())
            dr.fail(u"%1: an available dataset needs a \"file\", and only one"_s.arg(ctx));
        if (dr.ok() && !dataset.available && dataset.why.isEmpty())
            dr.fail(u"%1: a dataset that is not available needs \"why\""_s.arg(ctx));
        if (!dr.ok())
            r.fail(dr.error());
        p.datasets.push_back(dataset);
    }
    for (const auto& [d, ctx] : objectsOf(r, o, u"defaults"_s, name, false)) {
        PaperDefault option;
        JsonReader dr(d, ctx);
        dr.readString(u"option"_s, option.option, true);
        dr.readString(u"value"_s, option.value, true);
        dr.readString(u"why"_s, option.why, true);
        if (!dr.ok())
            r.fail(dr.error());
        p.defaults.push_back(option);
    }
    for (const auto& [t, ctx] : objectsOf(r, o, u"tables"_s, name, true)) {
        PaperTable table;
        JsonReader tr(t, ctx);
        tr.readString(u"dataset"_s, table.dataset, true);
        tr.readString(u"table"_s, table.table, true);
        tr.readString(u"caption"_s, table.caption);
        tr.readString(u"missing"_s, table.missing);
        tr.readInt(u"decimals"_s, table.decimals, 0, 6);
        tr.readString(u"average_rule"_s, table.averageRule);
        tr.readString(u"average_placement"_s, table.averagePlacement);
        if (!tr.ok())
            r.fail(tr.error());
        for (const auto& [c, cctx] : objectsOf(r, t, u"cells"_s, ctx, false))
            table.cells.push_back(readCell(r, c, cctx, false));
        for (const auto& [c, cctx] : objectsOf(r, t, u"average"_s, ctx, false))
            table.average.push_back(readCell(r, c, cctx, true));
        p.tables.push_back(table);
    }
    for (const auto& [c, ctx] : objectsOf(r, o, u"claims"_s, name, false)) {
        PaperClaim claim;
        JsonReader cr(c, ctx);
        cr.readString(u"kind"_s, claim.kind, true);
        cr.readString(u"dataset"_s, claim.dataset, true);
        cr.readString(u"method"_s, claim.method, true);
        cr.readString(u"quote"_s, claim.quote, true);
        cr.readString(u"check"_s, claim.check);
        cr.readString(u"fits"_s, claim.fits);
        cr.readString(u"as_printed"_s, claim.asPrinted);
        if (cr.ok() && claim.kind == u"gain") {
            cr.readString(u"metric"_s, claim.metric, true);
            readNullableString(cr, c, u"over"_s, claim.over);
            cr.readDouble(u"points"_s, claim.points, -100, 100, true);
            if (cr.ok() && claim.metric != u"ac" && claim.metric != u"nmi")
                cr.fail(u"%1: \"metric\" must be \"ac\" or \"nmi\", found \"%2\""_s.arg(
                    ctx, claim.metric));
        } else if (cr.ok() && claim.kind != u"best") {
            cr.fail(
                u"%1: \"kind\" must be \"gain\" or \"best\", found \"%2\""_s.arg(ctx, claim.kind));
        }
        if (!cr.ok())
            r.fail(cr.error());
        p.claims.push_back(claim);
    }
    if (r.ok())
        checkReferences(r, p);
    if (!r.ok())
        return Error { r.error().startsWith(name) ? r.error() : name + u": "_s + r.error() };
    return p;
}

Result<std::vector<PaperRecord>> loadPaperRecords()
{
    const QDir dir(u":/papers"_s);
    const QStringList files = dir.entryList({ u"*.json"_s }, QDir::Files, QDir::Name);
    if (files.isEmpty())
        return Error { u"no paper records are embedded in this program (:/papers is empty); "
                       "it was built without resources/papers"_s };
    std::vector<PaperRecord> records;
    for (const QString& file : files) {
        QFile in(dir.filePath(file));
        if (!in.open(QIODevice::ReadOnly))
            return Error { u"cannot read the embedded %1"_s.arg(file) };
        Result<PaperRecord> record = parsePaperRecord(in.readAll(), in.fileName());
        if (!record)
            return Error { record.error() };
        records.push_back(std::move(*record));
    }
    std::sort(records.begin(), records.end(),
        [](const PaperRecord& a, const PaperRecord& b) { return a.key < b.key; });
    for (std::size_t i = 1; i < records.size(); ++i)
        if (records[i].key == records[i - 1].key)
            return Error { u"%1 and %2 both describe the paper \"%3\""_s.arg(
                records[i - 1].origin, records[i].origin, records[i].key) };
    return records;
}

} // namespace facet
