// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The embedded paper records (app/experiment/paper_record.h), one by key, for the reproduce tests.

#include "experiment/paper_record.h"

#include <QString>

#include <vector>

namespace facet::testing {

// The record with `key`, or an empty one (key empty) when there is none or the records fail to
// load.
inline PaperRecord paperRecordByKey(const QString& key)
{
    const Result<std::vector<PaperRecord>> all = loadPaperRecords();
    if (all)
        for (const PaperRecord& p : *all)
            if (p.key == key)
                return p;
    return {};
}

} // namespace facet::testing
