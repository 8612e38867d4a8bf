// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/bench_wire.h"

#include "core/huge_pages.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <istream>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace facet {
namespace {

constexpr char kMagic[8] = { 'F', 'A', 'C', 'E', 'T', 'D', 'S', '1' };
constexpr Eigen::Index kWireColumns = 256; // columns converted at a time

template <class T> void writeValue(std::ostream& out, const T& value)
{
    out.write(reinterpret_cast<const char*>(&value), sizeof(T));
}

template <class T> T readValue(std::istream& in)
{
    T value {};
    if (!in.read(reinterpret_cast<char*>(&value), sizeof(T)))
        throw std::runtime_error("benchmark dataset: the stream ends early");
    return value;
}

std::string clean(std::string text)
{
    std::replace_if(
        text.begin(), text.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
    return text;
}

std::string exactNumber(double value)
{
    std::ostringstream out;
    out.precision(17);
    out << value;
    return out.str();
}

double toDouble(const std::string& text)
{
    try {
        return std::stod(text);
    } catch (const std::exception&) {
        return 0;
    }
}

// The fields of a row, visited in one order for writing and reading. `f(key, member)` gets a
// double, a long long, a bool, a std::string or an optional<double>.
template <class Row, class F> void visitFields(Row& r, F&& f)
{
    f("dataset", r.dataset);
    f("method", r.method);
    f("precision", r.precision);
    f("rank", r.rank);
    f("m", r.m);
    f("n", r.n);
    f("iterations", r.iterations);
    f("repeats", r.repeats);
    f("ms", r.msPerIteration);
    f("ms_min", r.msMin);
    f("ms_max", r.msMax);
    f("setup_s", r.setupSeconds);
    f("graph_s", r.graphSeconds);
    f("knn", r.knnSearch);
    f("explicit_k", r.explicitKernel);
    f("fused", r.fusedPasses);
    f("nnz", r.graphNonZeros);
    f("modelled", r.modelled);
    f("flops", r.flopsPerIteration);
    f("bytes", r.bytesPerIteration);
    f("gflops", r.gflops);
    f("limit_ms", r.limitMs);
    f("limit_fraction", r.limitFraction);
    f("ceil_gemm", r.gemmGflops);
    f("ceil_triad", r.triadGBs);
    f("peak_bytes", r.peakMemoryBytes);
    f("ac", r.ac);
    f("nmi", r.nmi);
    f("objective", r.objective);
    f("error", r.error);
}

template <class Peaks, class F> void visitPeaks(Peaks& p, F&& f)
{
    f("threads", p.threads);
    f("gemm_size", p.gemmSize);
    f("gemm_gflops", p.gemmGflops);
    f("gemm_gflops_1", p.gemmGflopsOneThread);
    f("triad_gbs", p.triadGBs);
    f("triad_elements", p.triadElements);
}

struct Writer {
    std::string line;
    void add(const char* key, const std::string& value)
    {
        line += std::string("\t") + key + "=" + clean(value);
    }
    void operator()(const char* key, const std::string& v) { add(key, v); }
    void operator()(const char* key, double v) { add(key, exactNumber(v)); }
    void operator()(const char* key, bool v) { add(key, v ? "1" : "0"); }
    void operator()(const char* key, int v) { add(key, std::to_string(v)); }
    void operator()(const char* key, Eigen::Index v) { add(key, std::to_string(v)); }
    void operator()(const char* key, const std::optional<double>& v)
    {
        if (v)
            add(key, exactNumber(*v));
    }
};

struct Reader {
    std::map<std::string, std::string> fields;
    const std::string* find(const char* key) const
    {
        const auto it = fields.find(key);
        return it == fields.end() ? nullptr : &it->second;
    }
    void operator()(const char* key, std::string& v) const
    {
        if (const auto* s = find(key))
            v = *s;
    }
    void operator()(const char* key, double& v) const
    {
        if (const auto* s = find(key))
            v = toDouble(*s);
    }
    void operator()(const char* key, bool& v) const
    {
        if (const auto* s = find(key))
            v = *s == "1";
    }
    void operator()(const char* key, int& v) const
    {
        if (const auto* s = find(key))
            v = int(toDouble(*s));
    }
    void operator()(const char* key, Eigen::Index& v) const
    {
        if (const auto* s = find(key))
            v = Eigen::Index(toDouble(*s));
    }
    void operator()(const char* key, std::optional<double>& v) const
    {
        if (const auto* s = find(key))
            v = toDouble(*s);
    }
};

std::optional<Reader> splitLine(const std::string& line, const std::string& tag)
{
    std::istringstream in(line);
    std::string field;
    if (!std::getline(in, field, '\t') || field != tag)
        return std::nullopt;
    Reader reader;
    while (std::getline(in, field, '\t')) {
        const std::size_t eq = field.find('=');
        if (eq != std::string::npos)
            reader.fields[field.substr(0, eq)] = field.substr(eq + 1);
    }
    return reader;
}

} // namespace

void writeBenchDataset(
    std::ostream& out, const std::string& name, MatrixCRef X, const std::vector<int>& labels)
{
    out.write(kMagic, sizeof(kMagic));
    writeValue(out, std::int64_t(name.size()));
    out.write(name.data(), std::streamsize(name.size()));
    writeValue(out, std::int64_t(X.rows()));
    writeValue(out, std::int64_t(X.cols()));
    writeValue(out, std::int64_t(labels.size()));
    for (const int label : labels)
        writeValue(out, std::int32_t(label));
    Eigen::MatrixXd block;
    for (Eigen::Index j = 0; j < X.cols(); j += kWireColumns) {
        block = X.middleCols(j, std::min(kWireColumns, X.cols() - j)).cast<double>();
        out.write(reinterpret_cast<const char*>(block.data()),
            std::streamsize(block.size() * Eigen::Index(sizeof(double))));
    }
}

BenchDataset readBenchDataset(std::istream& in)
{
    char magic[sizeof(kMagic)] {};
    if (!in.read(magic, sizeof(magic)) || !std::equal(magic, magic + sizeof(magic), kMagic))
        throw std::runtime_error("not a benchmark dataset (no FACETDS1 header)");
    BenchDataset data;
    const auto nameSize = readValue<std::int64_t>(in);
    if (nameSize < 0 || nameSize > 4096)
        throw std::runtime_error("benchmark dataset: bad name length");
    data.name.resize(std::size_t(nameSize));
    in.read(data.name.data(), std::streamsize(nameSize));
    const auto m = readValue<std::int64_t>(in);
    const auto n = readValue<std::int64_t>(in);
    const auto labelCount = readValue<std::int64_t>(in);
    if (m < 1 || n < 1 || (labelCount != 0 && labelCount != n))
        throw std::runtime_error("benchmark dataset: bad sizes");
    data.labels.resize(std::size_t(labelCount));
    for (int& label : data.labels)
        label = readValue<std::int32_t>(in);
    data.X.resize(m, n);
    adviseHugePages(data.X);
    Eigen::MatrixXd block;
    for (Eigen::Index j = 0; j < n; j += kWireColumns) {
        block.resize(m, std::min(kWireColumns, Eigen::Index(n) - j));
        if (!in.read(reinterpret_cast<char*>(block.data()),
                std::streamsize(block.size() * Eigen::Index(sizeof(double)))))
            throw std::runtime_error("benchmark dataset: the stream ends early");
        data.X.middleCols(j, block.cols()) = block.cast<Scalar>();
    }
    return data;
}

std::string formatBenchRow(const BenchRow& row)
{
    Writer w { "row" };
    visitFields(row, w);
    return w.line;
}

std::optional<BenchRow> parseBenchRow(const std::string& line)
{
    const std::optional<Reader> reader = splitLine(line, "row");
    if (!reader)
        return std::nullopt;
    BenchRow row;
    visitFields(row, *reader);
    return row;
}

std::string formatMachinePeaks(const MachinePeaks& peaks)
{
    Writer w { "peaks" };
    visitPeaks(peaks, w);
    return w.line;
}

std::optional<MachinePeaks> parseMachinePeaks(const std::string& line)
{
    const std::optional<Reader> reader = splitLine(line, "peaks");
    if (!reader)
        return std::nullopt;
    MachinePeaks peaks;
    visitPeaks(peaks, *reader);
    return peaks;
}

} // namespace facet
