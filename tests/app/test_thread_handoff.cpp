// SPDX-License-Identifier: GPL-3.0-or-later
// The hand-off helpers every worker uses (util/thread_handoff.h): runOnPool behaves like
// QtConcurrent::run (a result, an exception, void work, a watcher's finished on the GUI thread),
// a JobInbox hands requests over in order, stopJobThread destroys a job on its own thread. The
// tsan preset runs this file too, where the annotations themselves are exercised.
#include "core/random.h"
#include "jobs/solve_job.h"
#include "util/thread_handoff.h"

#include <QFutureWatcher>
#include <QSignalSpy>
#include <QThreadPool>
#include <QtTest>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace facet;

class TestThreadHandoff : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void runOnPoolReturnsTheResultToAWatcher()
    {
        QThreadPool pool;
        const std::vector<double> input { 1.0, 2.0, 3.5 };
        QFutureWatcher<std::vector<double>> watcher;
        QSignalSpy finished(&watcher, &QFutureWatcherBase::finished);
        const Qt::HANDLE gui = QThread::currentThreadId();
        std::atomic<bool> ranElsewhere { false };
        watcher.setFuture(runOnPool(&pool, [input, gui, &ranElsewhere] {
            ranElsewhere = QThread::currentThreadId() != gui;
            std::vector<double> doubled = input;
            for (double& x : doubled)
                x *= 2;
            return doubled;
        }));
        QVERIFY(finished.wait(10000));
        QVERIFY(ranElsewhere);
        QCOMPARE(watcher.result(), (std::vector<double> { 2.0, 4.0, 7.0 }));
    }

    void runOnPoolRethrowsTheWorksException()
    {
        QThreadPool pool;
        QFuture<int> future
            = runOnPool(&pool, []() -> int { throw std::runtime_error("the work failed"); });
        try {
            (void)future.result(); // waits, then rethrows (as waitForFinished() would)
            QFAIL("the exception was lost");
        } catch (const std::runtime_error& e) {
            receiveHandOff(); // waited on the future, not on a watcher's signal
            QCOMPARE(std::string(e.what()), std::string("the work failed"));
        }
    }

    // The work's exception lives in the future's shared state, which Qt reference-counts inside
    // QtCore. Here the pool thread drops the last reference: the work's captures take 200 ms to
    // destroy, before the task's promise goes, and meanwhile the GUI thread reads the message and
    // drops its future. Under the tsan preset this fails if that free on the pool thread is
    // recorded (it is ordered after the read only by Qt's uninstrumented count).
    void runOnPoolLetsThePoolThreadFreeTheException()
    {
        const QString message = QStringLiteral("the work failed; its captures are slow to go");
        QThreadPool pool;
        {
            std::shared_ptr<int> slowToRelease(new int(0), [](int* p) {
                QThread::msleep(200);
                delete p;
            });
            // The task holds the only reference to slowToRelease.
            QFuture<int> future
                = runOnPool(&pool, [message, slow = std::move(slowToRelease)]() -> int {
                      throw std::runtime_error(message.toStdString());
                  });
            try {
                (void)future.result();
                QFAIL("the exception was lost");
            } catch (const std::runtime_error& e) {
                receiveHandOff();
                QCOMPARE(QString::fromStdString(e.what()), message);
            }
        } // the GUI thread's reference to the shared state goes here, during the 200 ms
        pool.waitForDone();
    }

    void runOnPoolRunsVoidWork()
    {
        QThreadPool pool;
        std::atomic<int> calls { 0 };
        for (int i = 0; i < 20; ++i)
            runOnPool(&pool, [&calls] { ++calls; });
        pool.waitForDone();
        QCOMPARE(calls.load(), 20);
    }

    void inboxKeepsOrder()
    {
        JobInbox<int> inbox;
        QVERIFY(!inbox.take());
        for (int i = 0; i < 5; ++i)
            inbox.push(i);
        for (int i = 0; i < 5; ++i)
            QCOMPARE(inbox.take().value_or(-1), i);
        QVERIFY(!inbox.take());
    }

    // Two requests submitted back to back: both are answered, in order, the first one cancelled
    // by the second (SolveJob::submit supersedes) - the inbox loses neither.
    void solveJobAnswersEveryRequestInOrder()
    {
        QThread thread;
        auto* job = new SolveJob;
        job->moveToThread(&thread);
        connect(&thread, &QThread::finished, job, &QObject::deleteLater);
        QList<quint64> answered;
        QObject receiver;
        connect(job, &SolveJob::finished, &receiver,
            [&answered](quint64 id, const RunResult&) { answered << id; });
        connect(job, &SolveJob::failed, &receiver,
            [&answered](quint64 id, const QString&) { answered << id; });
        thread.start();
        auto data = std::make_shared<Dataset>();
        data->X = Matrix::Constant(6, 8, 1.0);
        data->X(0, 0) = 2.0;
        data->height = 2;
        data->width = 3;
        for (quint64 id : { 1ULL, 2ULL }) {
            SolveRequest request;
            request.runId = id;
            request.data = data;
            request.options.method = "nmf";
            request.options.params.rank = 2;
            request.options.driver.maxIter = 50;
            job->submit(request);
        }
        QTRY_COMPARE_WITH_TIMEOUT(answered.size(), 2, 30000);
        QCOMPARE(answered, (QList<quint64> { 1, 2 }));
        QPointer<SolveJob> watch(job);
        stopJobThread(thread);
        QTRY_VERIFY(watch.isNull()); // destroyed on its thread as it finished
    }

    // Re-runs on the same data share its kNN graph (SolveJob's SetupCache): another lambda or
    // seed does not search again, other data does, and so does a single-inner-thread request.
    void solveJobReusesTheGraphOfTheSameData()
    {
        QThread thread;
        auto* job = new SolveJob;
        job->moveToThread(&thread);
        connect(&thread, &QThread::finished, job, &QObject::deleteLater);
        int searches = 0;
        int answers = 0;
        QObject receiver;
        connect(job, &SolveJob::stageStarted, &receiver, [&searches](quint64, const QString& s) {
            searches += s == QStringLiteral("the nearest-neighbour search");
        });
        connect(job, &SolveJob::finished, &receiver, [&answers](quint64, const RunResult& r) {
            answers += r.factorization.V.rows() == 80 ? 1 : 1000;
        });
        connect(job, &SolveJob::failed, &receiver,
            [&answers](quint64, const QString&) { answers += 1000; });
        thread.start();
        Rng rng(5);
        auto first = std::make_shared<Dataset>();
        first->X = rng.uniformMatrix(12, 80);
        first->height = 3;
        first->width = 4;
        auto second = std::make_shared<Dataset>(*first); // the same numbers, another data set
        quint64 id = 0;
        const auto run = [&](const std::shared_ptr<Dataset>& data, double lambda, bool single) {
            SolveRequest request;
            request.runId = ++id;
            request.data = data;
            request.options.method = "lccf";
            request.options.params.rank = 3;
            request.options.params.lambda = lambda;
            request.options.driver.maxIter = 5;
            request.singleInnerThread = single;
            job->submit(request);
            QTRY_COMPARE_WITH_TIMEOUT(answers, int(id), 30000);
        };
        run(first, 100, false);
        QCOMPARE(searches, 1);
        run(first, 10, false);
        QCOMPARE(searches, 1);
        run(second, 10, false);
        QCOMPARE(searches, 2);
        run(first, 1, false); // both data sets are kept
        QCOMPARE(searches, 2);
        run(first, 1, true);
        QCOMPARE(searches, 3);
        const std::weak_ptr<Dataset> released = second;
        second.reset();
        QTRY_VERIFY(released.expired()); // the job's entry does not hold the data
        run(first, 2, false);
        QCOMPARE(searches, 3);
        stopJobThread(thread);
    }
};

#include "facet_test.h"
FACET_TEST_MAIN(TestThreadHandoff)
#include "test_thread_handoff.moc"
