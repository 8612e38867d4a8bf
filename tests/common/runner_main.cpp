// SPDX-License-Identifier: GPL-3.0-or-later
// The main of each test folder's executable (tests/CMakeLists.txt): runs the one registered test
// class its first argument names (see facet_test.h), passing the remaining arguments to Qt Test.
//
//   facet_tests_solver kmeans              every test function of tests/solver/test_kmeans.cpp
//   facet_tests_solver kmeans -v2 seeding  Qt Test's own options and function names after it
//   facet_tests_solver --list              the names this executable holds
#include "facet_test.h"

#include <QCoreApplication>
#include <QtTest>

#if defined(QT_WIDGETS_LIB)
#include <QApplication>
using DefaultApplication = QApplication;
#elif defined(QT_GUI_LIB)
#include <QGuiApplication>
using DefaultApplication = QGuiApplication;
#else
using DefaultApplication = QCoreApplication;
#endif

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace {

using facet::test::AppKind;
using facet::test::RegisteredTest;

std::vector<RegisteredTest> sortedTests()
{
    std::vector<RegisteredTest> tests = facet::test::registeredTests();
    std::sort(tests.begin(), tests.end(),
        [](const RegisteredTest& a, const RegisteredTest& b) { return a.name < b.name; });
    return tests;
}

int usage(const char* program, const char* problem)
{
    if (problem)
        std::fprintf(stderr, "%s\n", problem);
    std::fprintf(stderr, "usage: %s NAME [Qt Test options and functions]\n       %s --list\n",
        program, program);
    return 2;
}

// Qt Test sees the program name and everything after the test's name, as it would have as the
// test's own executable.
int runOne(const RegisteredTest& test, int argc, char** argv)
{
    std::vector<char*> args;
    args.push_back(argv[0]);
    for (int i = 2; i < argc; ++i)
        args.push_back(argv[i]);
    args.push_back(nullptr);
    int qtArgc = static_cast<int>(args.size()) - 1;
    char** qtArgv = args.data();

    auto run = [&] {
        const std::unique_ptr<QObject> object = test.make();
        return QTest::qExec(object.get(), qtArgc, qtArgv);
    };
    switch (test.app) {
    case AppKind::None:
        return run();
    case AppKind::Core: {
        QCoreApplication app(qtArgc, qtArgv);
        return run();
    }
    case AppKind::Default: {
        DefaultApplication app(qtArgc, qtArgv);
#if defined(QT_GUI_LIB)
        app.setAttribute(Qt::AA_Use96Dpi, true); // as QTEST_MAIN does
#endif
        return run();
    }
    }
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    const std::vector<RegisteredTest> tests = sortedTests();
    if (argc < 2)
        return usage(argv[0], "name the test to run");
    const std::string name = argv[1];
    if (name == "--list") {
        for (const RegisteredTest& test : tests)
            std::printf("%.*s\n", static_cast<int>(test.name.size()), test.name.data());
        return 0;
    }
    const auto found = std::find_if(
        tests.begin(), tests.end(), [&](const RegisteredTest& test) { return test.name == name; });
    if (found == tests.end()) {
        const std::string problem = "no test named '" + name + "' here (--list names them)";
        return usage(argv[0], problem.c_str());
    }
    return runOne(*found, argc, argv);
}
