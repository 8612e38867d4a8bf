// SPDX-License-Identifier: GPL-3.0-or-later
// adviseHugePages (core/huge_pages.h): a large X is marked for transparent huge pages (the
// mapping's VmFlags in /proc/self/smaps gain "hg"), a small one is left alone, and the values
// written afterwards are intact.
#include "core/huge_pages.h"

#include <QFile>
#include <QtTest>

#include <cstdint>

using namespace facet;

namespace {

// The VmFlags line of the mapping that contains `address`, or an empty string.
QByteArray vmFlagsOf(const void* address)
{
    QFile smaps(QStringLiteral("/proc/self/smaps"));
    if (!smaps.open(QIODevice::ReadOnly))
        return {};
    const auto target = reinterpret_cast<std::uintptr_t>(address);
    bool inside = false;
    for (const QByteArray& line : smaps.readAll().split('\n')) {
        const int dash = line.indexOf('-');
        const int space = line.indexOf(' ');
        // A mapping's header "begin-end perms offset dev inode path" (its dev has a ':' too);
        // the attribute lines are "Name: value".
        const int colon = line.indexOf(':');
        if (dash > 0 && space > dash && colon > space) {
            bool okBegin = false, okEnd = false;
            const auto begin = line.left(dash).toULongLong(&okBegin, 16);
            const auto end = line.mid(dash + 1, space - dash - 1).toULongLong(&okEnd, 16);
            inside = okBegin && okEnd && target >= begin && target < end;
        } else if (inside && line.startsWith("VmFlags:")) {
            return line;
        }
    }
    return {};
}

} // namespace

class HugePagesTest : public QObject {
    Q_OBJECT

private slots:
    void largeMatrixIsAdvised()
    {
        if (!QFile::exists(QStringLiteral("/sys/kernel/mm/transparent_hugepage/enabled")))
            QSKIP("this kernel has no transparent huge pages");
        Matrix X(1024, 8192); // 64 MiB in double, 32 MiB in float
        adviseHugePages(X);
        // An address 4 MiB into the buffer lies in one of the advised whole 2 MiB pages.
        const Scalar* inner = X.data() + (std::size_t(4) << 20) / sizeof(Scalar);
        const QByteArray flags = vmFlagsOf(inner);
        QVERIFY2(!flags.isEmpty(), "no mapping found in /proc/self/smaps");
        QVERIFY2(flags.contains(" hg"), flags.constData());
        for (Eigen::Index i = 0; i < X.size(); ++i)
            X.data()[i] = Scalar(i % 1000);
        QCOMPARE(X(3, 4000), Scalar((4000 * 1024 + 3) % 1000));
    }

    void smallMatrixIsLeftAlone()
    {
        Matrix X(64, 64);
        X.setConstant(Scalar(2));
        adviseHugePages(X);
        adviseHugePages(nullptr, std::size_t(1) << 30); // no buffer: nothing happens
        const QByteArray flags = vmFlagsOf(X.data());
        QVERIFY(!flags.contains(" hg"));
        QCOMPARE(X.sum(), Scalar(2 * 64 * 64));
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(HugePagesTest)
#include "test_huge_pages.moc"
