// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/natural_sort.h"

#include <algorithm>

namespace facet {
namespace {

// Compares the digit runs a[i..) and b[j..) by value (leading zeros ignored) and advances both.
int compareNumbers(const QString& a, qsizetype& i, const QString& b, qsizetype& j)
{
    auto run = [](const QString& s, qsizetype& k) {
        while (k < s.size() && s[k] == u'0' && k + 1 < s.size() && s[k + 1].isDigit())
            ++k;
        const qsizetype start = k;
        while (k < s.size() && s[k].isDigit())
            ++k;
        return QStringView(s).mid(start, k - start);
    };
    const QStringView x = run(a, i), y = run(b, j);
    // Without leading zeros a longer run is a larger number; equal lengths compare digit-wise.
    if (x.size() != y.size())
        return x.size() < y.size() ? -1 : 1;
    const int c = x.compare(y);
    return c < 0 ? -1 : c > 0 ? 1 : 0;
}

} // namespace

bool naturalLess(const QString& a, const QString& b)
{
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            if (const int c = compareNumbers(a, i, b, j); c != 0)
                return c < 0;
            continue;
        }
        const QChar x = a[i].toCaseFolded(), y = b[j].toCaseFolded();
        if (x != y)
            return x < y;
        ++i;
        ++j;
    }
    if ((a.size() - i) != (b.size() - j))
        return (a.size() - i) < (b.size() - j);
    return a < b;
}

void naturalSort(QStringList& list)
{
    std::stable_sort(list.begin(), list.end(), naturalLess);
}

} // namespace facet
