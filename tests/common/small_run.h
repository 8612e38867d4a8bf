// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Small real runs for the view tests: the first classes of ORL (FACET_DATA_DIR) or Swimmer,
// factorized and clustered on the test's thread (the views under test never run solvers).

#include "data/dataset_source.h"
#include "data/synthetic.h"
#include "experiment/run.h"
#include "screenshot.h"
#include "test_data.h"

#include <QtTest>

#include <numeric>

namespace facet::testing {

// The first `classes` subjects of ORL_32x32.mat, scaled to [0, 1]; an invalid Dataset (no
// samples) and a recorded failure message when the file cannot be read.
inline Dataset orlClasses(int classes, QString& failure)
{
    DatasetRequest request;
    request.spec = facetDataFile(QStringLiteral("ORL_32x32.mat"));
    const Result<Dataset> loaded = loadDataset(request);
    if (!loaded) {
        failure = loaded.error();
        return {};
    }
    std::vector<int> first(static_cast<std::size_t>(classes));
    std::iota(first.begin(), first.end(), 0);
    return loaded->selectClasses(first);
}

inline RunResult runMethod(
    const Dataset& data, const std::string& method, int rank, int maxIter = 150)
{
    RunOptions options;
    options.method = method;
    options.params.rank = rank;
    options.driver.maxIter = maxIter;
    options.driver.seed = 7;
    options.cluster.replicates = 5;
    return runAndCluster(data.X, data.labels, options);
}

} // namespace facet::testing

// Loads the first `classes` ORL subjects into `var`, skipping (or failing in CI) without data.
#define FACET_LOAD_ORL(var, classes)                                                               \
    FACET_REQUIRE_DATA(facetDataFile(QStringLiteral("ORL_32x32.mat")));                            \
    QString var##Failure;                                                                          \
    const Dataset var = facet::testing::orlClasses(classes, var##Failure);                         \
    QVERIFY2(var.samples() > 0, qPrintable(var##Failure))
