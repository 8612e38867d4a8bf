// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/roofline.h"

#include "core/openmp.h"
#include "core/random.h"

#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace facet {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSinceStart(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

double bestGemmGflops(const Matrix& A, const Matrix& B, int repeats)
{
    Matrix C(A.rows(), B.cols());
    C.noalias() = A * B; // warm-up: page faults, the packing buffers, the thread pool
    double best = 0;
    for (int r = 0; r < repeats; ++r) {
        const auto start = Clock::now();
        C.noalias() = A * B;
        const double seconds = secondsSinceStart(start);
        best = std::max(
            best, 2.0 * double(A.rows()) * double(A.cols()) * double(B.cols()) / seconds);
    }
    return best * 1e-9;
}

// a = b + s c over OpenMP threads with a static schedule, so each thread touches the same pages
// in every pass (first touch happens in the same schedule).
double bestTriadGBs(Eigen::Index size, int repeats)
{
    Scalar* a = new Scalar[std::size_t(size)];
    Scalar* b = new Scalar[std::size_t(size)];
    Scalar* c = new Scalar[std::size_t(size)];
#pragma omp parallel for schedule(static)
    for (Eigen::Index i = 0; i < size; ++i) {
        a[i] = 0;
        b[i] = Scalar(1);
        c[i] = Scalar(2);
    }
    const Scalar s = Scalar(0.5);
    double best = 0;
    for (int r = 0; r < repeats + 1; ++r) {
        const auto start = Clock::now();
#pragma omp parallel for schedule(static)
        for (Eigen::Index i = 0; i < size; ++i)
            a[i] = b[i] + s * c[i];
        const double seconds = secondsSinceStart(start);
        if (r > 0) // the first pass is a warm-up
            best = std::max(best, 3.0 * double(sizeof(Scalar)) * double(size) / seconds);
    }
    // Keeps the stores observable, so the loops are not optimized away.
    volatile Scalar sink = a[size / 2];
    (void)sink;
    delete[] a;
    delete[] b;
    delete[] c;
    return best * 1e-9;
}

} // namespace

MachinePeaks measureMachinePeaks(Eigen::Index gemmSize, Eigen::Index triadElements, int repeats)
{
    if (gemmSize < 1 || triadElements < 1 || repeats < 1)
        throw std::invalid_argument("the machine peaks need positive sizes and repeats");
    MachinePeaks peaks;
    peaks.threads = Eigen::nbThreads();
    peaks.gemmSize = gemmSize;
    peaks.triadElements = triadElements;
    Rng rng(1);
    const Matrix A = rng.uniformMatrix(gemmSize, gemmSize);
    const Matrix B = rng.uniformMatrix(gemmSize, gemmSize);
    peaks.gemmGflops = bestGemmGflops(A, B, repeats);
    omp::setThreads(1); // Eigen follows this thread's OpenMP setting (core/openmp.h)
    peaks.gemmGflopsOneThread = bestGemmGflops(A, B, std::max(1, repeats / 2));
    omp::setThreads(peaks.threads);
    peaks.triadGBs = bestTriadGBs(triadElements, repeats);
    return peaks;
}

MachinePeaks measureCaseCeilings(const MachinePeaks& run)
{
    if (run.gemmSize < 1 || run.triadElements < 1)
        throw std::invalid_argument("the case ceilings need the run's measured sizes");
    constexpr int kRepeats = 3;
    MachinePeaks peaks = run;
    peaks.threads = Eigen::nbThreads();
    Rng rng(1);
    const Matrix A = rng.uniformMatrix(run.gemmSize, run.gemmSize);
    const Matrix B = rng.uniformMatrix(run.gemmSize, run.gemmSize);
    peaks.gemmGflops = bestGemmGflops(A, B, kRepeats);
    peaks.triadGBs = bestTriadGBs(run.triadElements, kRepeats);
    return peaks;
}

double rooflineSeconds(const IterationCost& cost, double gemmGflops, double triadGBs)
{
    if (!(gemmGflops > 0) || !(triadGBs > 0))
        throw std::invalid_argument("the roofline needs a positive peak and bandwidth");
    return std::max(cost.flops / (gemmGflops * 1e9), cost.bytes / (triadGBs * 1e9));
}

} // namespace facet
