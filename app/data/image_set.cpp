// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/image_set.h"

#include "data/natural_sort.h"

#include <QHash>

#include <algorithm>
#include <cmath>

namespace facet {

bool classNamesAreNumbers(const QStringList& classNames)
{
    if (classNames.isEmpty())
        return false;
    return std::all_of(classNames.begin(), classNames.end(), [](const QString& name) {
        bool ok = false;
        const double v = name.trimmed().toDouble(&ok);
        return ok && std::isfinite(v);
    });
}

void assignClasses(ImageSet& set, const QStringList& classOfImage)
{
    QStringList names = classOfImage;
    names.removeDuplicates();
    if (classNamesAreNumbers(names))
        std::stable_sort(names.begin(), names.end(), [](const QString& a, const QString& b) {
            return a.trimmed().toDouble() < b.trimmed().toDouble();
        });
    else
        naturalSort(names);
    QHash<QString, int> index;
    for (int c = 0; c < names.size(); ++c)
        index.insert(names[c], c);
    set.classNames = names;
    set.labels.clear();
    set.labels.reserve(std::size_t(classOfImage.size()));
    for (const QString& name : classOfImage)
        set.labels.push_back(index.value(name));
}

QString listSome(const QStringList& items, int shown)
{
    if (items.size() <= shown)
        return items.join(QStringLiteral(", "));
    return QStringLiteral("%1 and %2 more")
        .arg(items.mid(0, shown).join(QStringLiteral(", ")))
        .arg(items.size() - shown);
}

} // namespace facet
