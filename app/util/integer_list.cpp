// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/integer_list.h"

namespace facet {

using namespace Qt::StringLiterals;

Result<std::vector<int>> parseIntegerList(
    const QString& text, const QString& what, const QString& example)
{
    std::vector<int> values;
    for (const QString& raw : text.split(u',', Qt::SkipEmptyParts)) {
        const QString part = raw.trimmed();
        const qsizetype dash = part.indexOf(u'-', 1);
        bool okA = false, okB = true;
        const int a = (dash > 0 ? part.left(dash) : part).toInt(&okA);
        const int b = dash > 0 ? part.mid(dash + 1).toInt(&okB) : a;
        if (!okA || !okB || b < a || a < 1 || b - a > 10000)
            return Error { u"%1 expects %2; got '%3'"_s.arg(what, example, part) };
        for (int v = a; v <= b; ++v)
            values.push_back(v);
    }
    if (values.empty())
        return Error { u"%1 expects %2"_s.arg(what, example) };
    return values;
}

} // namespace facet
