// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>

namespace facet {

// The colour of class (or cluster) `group` of `groups`, the same in every view: Tableau 10, then
// evenly spaced hues with alternating lightness for sets with more classes.
QColor classColor(int group, int groups);

} // namespace facet
