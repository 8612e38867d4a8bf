// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/result.h"

#include <QString>

#include <vector>

namespace facet {

// "2-10", "2,4,6" or "2-5,8" (whole numbers from 1, a range at most 10,000 long): the values in
// the order given (facet-cli's --clusters and --ranks, the rank survey's Ranks field). The error
// names `what` and shows `example` ("counts such as 2-10 or 2,4,6").
Result<std::vector<int>> parseIntegerList(
    const QString& text, const QString& what, const QString& example);

} // namespace facet
