// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QtTest>

#include <string>

namespace facet {
// Found by QCOMPARE through argument-dependent lookup: prints stop reasons by name.
inline char* toString(StopReason reason)
{
    return qstrdup(std::string(stopReasonName(reason)).c_str());
}
} // namespace facet
