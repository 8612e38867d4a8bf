// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace facet {

// "s2" < "s10": runs of digits compare by their value, the rest case-insensitively (ties broken
// case-sensitively, so the order is total). Written out rather than QCollator::setNumericMode,
// which silently does nothing on Qt builds without ICU.
bool naturalLess(const QString& a, const QString& b);

void naturalSort(QStringList& list);

} // namespace facet
