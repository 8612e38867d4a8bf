// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One Qt Test class per test_<name>.cpp, and one executable per test folder (tests/CMakeLists.txt):
// FACET_TEST_MAIN and its variants replace QTEST_MAIN and its variants. They register the class
// under the file's name, and the folder's runner (runner_main.cpp) runs the one class its
// first argument names, with the application object the Qt macro would have made:
//
//   FACET_TEST_APPLESS_MAIN(C)  no application object        (QTEST_APPLESS_MAIN)
//   FACET_TEST_GUILESS_MAIN(C)  QCoreApplication             (QTEST_GUILESS_MAIN)
//   FACET_TEST_MAIN(C)          QApplication, QGuiApplication or QCoreApplication, whichever the
//                               executable links, with 96 DPI as QTEST_MAIN sets it (QTEST_MAIN)
//
// CTest runs `<folder executable> <name>` once per file, so each class still runs in a process
// of its own: a crash, a leak report or a stray static of one test cannot reach another.

#include <QObject>

#include <memory>
#include <string_view>
#include <vector>

namespace facet::test {

enum class AppKind {
    None, // FACET_TEST_APPLESS_MAIN
    Core, // FACET_TEST_GUILESS_MAIN
    Default, // FACET_TEST_MAIN: the richest application type the executable links
};

struct RegisteredTest {
    std::string_view name; // the file's stem without "test_": "kmeans" for test_kmeans.cpp
    AppKind app;
    std::unique_ptr<QObject> (*make)();
};

inline std::vector<RegisteredTest>& registeredTests()
{
    static std::vector<RegisteredTest> tests;
    return tests;
}

// "…/tests/solver/test_kmeans.cpp" -> "kmeans".
constexpr std::string_view testNameOfFile(std::string_view file)
{
    const auto slash = file.find_last_of("/\\");
    std::string_view stem = slash == std::string_view::npos ? file : file.substr(slash + 1);
    if (const auto dot = stem.rfind('.'); dot != std::string_view::npos)
        stem = stem.substr(0, dot);
    if (stem.starts_with("test_"))
        stem.remove_prefix(5);
    return stem;
}

struct TestRegistrar {
    TestRegistrar(std::string_view file, AppKind app, std::unique_ptr<QObject> (*make)())
    {
        registeredTests().push_back({ testNameOfFile(file), app, make });
    }
};

} // namespace facet::test

#define FACET_TEST_REGISTER_(TestObject, kind)                                                     \
    namespace {                                                                                    \
    const facet::test::TestRegistrar facetTestRegistrar##TestObject(__FILE__, kind,                \
        []() -> std::unique_ptr<QObject> { return std::make_unique<TestObject>(); });              \
    }

#define FACET_TEST_APPLESS_MAIN(TestObject)                                                        \
    FACET_TEST_REGISTER_(TestObject, facet::test::AppKind::None)
#define FACET_TEST_GUILESS_MAIN(TestObject)                                                        \
    FACET_TEST_REGISTER_(TestObject, facet::test::AppKind::Core)
#define FACET_TEST_MAIN(TestObject) FACET_TEST_REGISTER_(TestObject, facet::test::AppKind::Default)
