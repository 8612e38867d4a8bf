// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The widget tests' screenshots: a widget as it is drawn, saved as a PNG in the test's working
// folder (build/<preset>/tests/widgets; README.md shows some of them).

#include <QCoreApplication>
#include <QDir>
#include <QString>
#include <QWidget>
#include <QtTest>

namespace facet::testing {

inline void saveScreenshot(QWidget& widget, const QString& name)
{
    QCoreApplication::processEvents(); // let queued replots happen
    const QString path = QDir::current().filePath(name);
    QVERIFY2(widget.grab().save(path, "PNG"), qPrintable(path));
}

} // namespace facet::testing
