// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/class_colors.h"

#include <iterator>

namespace facet {

QColor classColor(int group, int groups)
{
    static const QColor palette[] = { QColor(0x4e79a7), QColor(0xf28e2b), QColor(0xe15759),
        QColor(0x76b7b2), QColor(0x59a14f), QColor(0xedc948), QColor(0xb07aa1), QColor(0xff9da7),
        QColor(0x9c755f), QColor(0xbab0ac) };
    if (groups <= int(std::size(palette)))
        return palette[group % int(std::size(palette))];
    // Alternate lightness so neighbouring hues stay apart.
    return QColor::fromHsv(360 * group / groups, 200, group % 2 ? 170 : 230);
}

} // namespace facet
