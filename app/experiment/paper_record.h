// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace facet {

// A paper's published clustering results as data (resources/papers/<paper>.json, format
// "facet-paper-1", embedded in the executables as Qt resources under :/papers/): its citation,
// the protocol it states, the choices it leaves open with the defaults Facet takes and why, the
// sweep options that run that protocol, its AC/NMI tables cell by cell (percent, as printed),
// and the gains its text states. `facet-cli reproduce` compares a sweep with it.

struct PaperMethod {
    QString paper; // the name in the paper's tables: "SparseNMF"
    QString facet; // the Facet method it is ("nmf"); empty when Facet has none
    QString why; // why there is none
    QString variant; // "ncw": the paper's form of the method, set by the sweep options
    QString note;
};

struct PaperDataset {
    QString key; // Facet's name for it: "yale", "orl", "coil20", "mnist", ...
    QString paperName; // "AT&T"
    QString file; // in the data folder (FACET_DATA_DIR); empty when not available
    bool available = false;
    QString why; // why it is not available
    QString note;
};

// One printed cell, in percent; a std that is not printed is absent.
struct PaperCell {
    QString method; // PaperMethod::paper
    int clusters = 0; // 0 in an average row
    double ac = 0;
    double nmi = 0;
    std::optional<double> acStd;
    std::optional<double> nmiStd;
};

struct PaperTable {
    QString dataset; // PaperDataset::key
    QString table; // "Table 2"
    QString caption;
    QString missing; // why no cell could be read (non-empty: the table holds no cells)
    int decimals = 2; // as printed
    QString averageRule; // how the printed Avg. row is made
    QString averagePlacement; // how a scrambled Avg. row was put back, when it was
    std::vector<PaperCell> cells;
    std::vector<PaperCell> average; // the printed Avg. row (clusters 0)

    bool hasCells() const { return !cells.empty(); }
    const PaperCell* cell(const QString& method, int clusters) const;
    const PaperCell* averageOf(const QString& method) const;
    std::vector<int> clusterCounts() const; // ascending, each once
};

// A statement of the text: "gain" (method beats `over` by `points` percentage points in the
// average of `metric`; `over` empty when the text names none) or "best" (method is first).
struct PaperClaim {
    QString kind; // "gain" or "best"
    QString dataset;
    QString metric; // "ac" or "nmi" (gain only)
    QString method;
    QString over;
    double points = 0;
    QString quote;
    QString check; // how the claim compares with the paper's own tables
    QString fits; // the method the stated gain is really over, when the text names another
    QString asPrinted; // the method name as printed, when it is read as another
};

struct PaperDefault {
    QString option;
    QString value;
    QString why;
};

struct PaperRecord {
    QString origin; // where it was read: ":/papers/lcf-ijcai2011.json"
    QString key; // "lcf": the name `facet-cli reproduce` takes
    QString title;
    QStringList authors;
    QString venue;
    int year = 0; // 0: not known
    QString source; // the paper's text in shared/papers
    bool reproducible = false;
    QString whyNot;
    std::vector<PaperMethod> methods;
    std::vector<PaperDataset> datasets;
    QJsonObject protocol; // what the paper states, as typed ("stated" quotes it)
    std::vector<PaperDefault> defaults;
    QJsonObject sweep; // facet-cli sweep options (name -> text, or true for a flag)
    std::vector<PaperTable> tables;
    std::vector<PaperClaim> claims;
    QStringList notes;

    // "Liu, Yang, Wu: Locality-Constrained Concept Factorization, IJCAI 2011".
    QString citation() const;
    const PaperTable* table(const QString& dataset) const;
    const PaperDataset* dataset(const QString& key) const;
    const PaperMethod* method(const QString& paperName) const;
    // The paper's name of a Facet method ("LCF" for "lcf"); empty when the paper has none.
    QString paperNameOf(const QString& facetMethod) const;
};

// Reads one record; every error names `origin` and the entry ("lcf-ijcai2011.json: tables[1]:
// cells[3]: "ac" must be a number from 0 to 100, found the text "8x.2"").
Result<PaperRecord> parsePaperRecord(const QByteArray& bytes, const QString& origin);

// Every record embedded in the executable (:/papers/*.json), sorted by key; the first that does
// not parse is the error.
Result<std::vector<PaperRecord>> loadPaperRecords();

// Disagreements of a record with itself that it does not record: a printed average (or its std)
// that is not the mean of its column to the printed rounding, and a stated gain that is not the
// difference of the printed averages of the methods it names (a claim whose `fits` names the
// method the numbers really fit is checked against that one). Empty for a consistent record.
QStringList paperDisagreements(const PaperRecord& record);

} // namespace facet
