// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/sanitizers.h"

#include <QFuture>
#include <QPromise>
#include <QRunnable>
#include <QThread>
#include <QThreadPool>

#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>

namespace facet {

// Cross-thread hand-offs that ThreadSanitizer can check although Debian's Qt is not built with
// it (RELIABILITY.md). Qt's event queue orders a sender's writes before the receiver's reads, but
// it synchronizes through raw futex calls TSan never sees, so without help every value handed
// through it looks like a race, and suppressing those reports would hide real ones.
//
// - Requests into a worker go through a JobInbox (a std::mutex TSan sees); the worker is woken
//   by QMetaObject::invokeMethod by name, which writes nothing in instrumented code.
// - Answers out of a worker are queued signals emitted through handOff() (below); the GUI
//   thread calls receiveHandOff() before it delivers any event (an application event filter
//   installed at QCoreApplication start-up). A job's owner publishes its last use of the job
//   before it stops the job's thread; the job receives it in its destructor.
// - Background tasks go through runOnPool() instead of QtConcurrent::run: the task object is
//   built and published before the pool sees it, and its result is handed off into the future.
// In builds without TSan all of this is empty inline functions.
#if defined(FACET_SANITIZE_THREAD)
void publishHandOff();
void receiveHandOff();
void installHandOffReceiver(); // run at QCoreApplication start-up
void ignoreAccessesBegin();
void ignoreAccessesEnd();
#else
inline void publishHandOff()
{
}
inline void receiveHandOff()
{
}
inline void ignoreAccessesBegin()
{
}
inline void ignoreAccessesEnd()
{
}
#endif

// Hands `send` (a Q_EMIT of a queued signal, or a result stored in a future) to another thread.
// What this thread wrote before is published; during `send` Qt copies the arguments into its
// event on this thread, after the publication, so the copying itself is not recorded: the copies
// are read only by the receiver, which owns them from then on. (A direct connection's slot would
// run unrecorded too; the jobs' signals go to other threads.)
template <typename Send> void handOff(Send&& send)
{
    publishHandOff();
    ignoreAccessesBegin();
    try {
        send();
    } catch (...) {
        ignoreAccessesEnd();
        throw;
    }
    ignoreAccessesEnd();
}

// Stops a job's thread and waits for it: the owner's last uses of the job are published first,
// since the job (deleteLater on QThread::finished) is destroyed on that thread.
inline void stopJobThread(QThread& thread)
{
    publishHandOff();
    thread.quit();
    thread.wait();
}

// The requests a job's owner has submitted and its worker has not taken yet, in order.
template <typename Item> class JobInbox {
public:
    void push(Item item)
    {
        std::lock_guard lock(m_mutex);
        m_items.push_back(std::move(item));
    }

    std::optional<Item> take()
    {
        std::lock_guard lock(m_mutex);
        if (m_items.empty())
            return std::nullopt;
        std::optional<Item> item(std::move(m_items.front()));
        m_items.pop_front();
        return item;
    }

private:
    std::mutex m_mutex;
    std::deque<Item> m_items;
};

// QtConcurrent::run(pool, work) with its hand-offs visible to ThreadSanitizer: `work` (and what it
// captures) is published before the pool takes the task, received by the task before it reads
// it, and its result is published before the future stores it. An exception thrown by `work` is
// rethrown by the future's result(), as with QtConcurrent. The result is read through a
// QFutureWatcher's finished signal (received with the event); a caller that waits on the future
// instead (result(), waitForFinished()) calls receiveHandOff() before it reads.
template <typename Work>
auto runOnPool(QThreadPool* pool, Work work) -> QFuture<std::invoke_result_t<Work&>>
{
    using T = std::invoke_result_t<Work&>;
    class Task : public QRunnable {
    public:
        Task(Work w, QPromise<T> promise)
            : m_work(std::move(w))
            , m_promise(std::move(promise))
        {
        }
        // Run by the pool on its thread after run(). The work's captures go first, recorded as
        // usual. Then the promise drops this thread's reference to the future's shared state,
        // which Qt counts inside QtCore: when it is the last one, the result or the exception
        // the receiver has read is freed here, ordered after that read by Qt's atomic count,
        // which ThreadSanitizer does not see. So that destruction is not recorded.
        ~Task() override
        {
            m_work.reset();
            ignoreAccessesBegin();
            {
                QPromise<T> last(std::move(m_promise));
            }
            ignoreAccessesEnd();
        }
        void run() override
        {
            receiveHandOff();
            std::exception_ptr error;
            if constexpr (std::is_void_v<T>) {
                try {
                    (*m_work)();
                } catch (...) {
                    error = std::current_exception();
                }
                handOff([&] {
                    if (error)
                        m_promise.setException(error);
                    m_promise.finish();
                });
            } else {
                std::optional<T> result;
                try {
                    result.emplace((*m_work)());
                } catch (...) {
                    error = std::current_exception();
                }
                handOff([&] {
                    if (error)
                        m_promise.setException(error);
                    else
                        m_promise.addResult(std::move(*result));
                    m_promise.finish();
                });
            }
        }

    private:
        std::optional<Work> m_work;
        QPromise<T> m_promise;
    };
    QPromise<T> promise;
    // Started here, as QtConcurrent::run does, so waitForFinished() and result() wait for a task
    // the pool has not begun yet.
    promise.start();
    QFuture<T> future = promise.future();
    auto* task = new Task(std::move(work), std::move(promise)); // the pool deletes it
    publishHandOff();
    pool->start(task);
    return future;
}

} // namespace facet
