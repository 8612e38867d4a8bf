// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDir>
#include <QFileInfo>
#include <QString>
#include <QtTest>

// The shared data folder: FACET_DATA_DIR, else ../shared/data next to the checkout.
inline QString facetDataDir()
{
    const QByteArray env = qgetenv("FACET_DATA_DIR");
    return env.isEmpty() ? QStringLiteral("../shared/data") : QString::fromLocal8Bit(env);
}

inline QString facetDataFile(const QString& name)
{
    return QDir(facetDataDir()).filePath(name);
}

// In CI (CI=true) a missing data file fails the test; elsewhere it is a clear skip.
#define FACET_REQUIRE_DATA(path)                                                                   \
    do {                                                                                           \
        if (!QFileInfo::exists(path)) {                                                            \
            const QString why                                                                      \
                = QStringLiteral("data file missing: %1 (set FACET_DATA_DIR)").arg(path);          \
            if (qgetenv("CI") == "true")                                                           \
                QFAIL(qPrintable(why));                                                            \
            QSKIP(qPrintable(why));                                                                \
        }                                                                                          \
    } while (false)
