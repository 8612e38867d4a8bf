// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/thread_handoff.h"

#if defined(FACET_SANITIZE_THREAD)

#include <QCoreApplication>
#include <QObject>

extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
extern "C" void __tsan_ignore_thread_begin();
extern "C" void __tsan_ignore_thread_end();

namespace facet {
namespace {

// One token for every hand-off: it models "posted before delivered" for Qt's queues, which is
// what they guarantee, at the price of also ordering unrelated posts before later deliveries.
char g_handOffToken;

// Application event filters see every event delivered to an object of the GUI thread.
class HandOffReceiver : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject*, QEvent*) override
    {
        receiveHandOff();
        return false;
    }
};

} // namespace

void installHandOffReceiver()
{
    QCoreApplication::instance()->installEventFilter(
        new HandOffReceiver(QCoreApplication::instance()));
}

void publishHandOff()
{
    __tsan_release(&g_handOffToken);
}

void receiveHandOff()
{
    __tsan_acquire(&g_handOffToken);
}

void ignoreAccessesBegin()
{
    __tsan_ignore_thread_begin();
}

void ignoreAccessesEnd()
{
    __tsan_ignore_thread_end();
}

} // namespace facet

using facet::installHandOffReceiver;
Q_COREAPP_STARTUP_FUNCTION(installHandOffReceiver)

#endif
