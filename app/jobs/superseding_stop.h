// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <mutex>
#include <stop_token>

namespace facet {

// The stop source of a job's newest request: a new request cancels the one before it, and
// cancel() stops whatever runs now. Safe from any thread (submit on the GUI thread, the token
// read on the worker).
class SupersedingStop {
public:
    // Stops the current request and returns the token of the next one.
    std::stop_token renew()
    {
        std::lock_guard lock(m_mutex);
        m_source.request_stop();
        m_source = std::stop_source();
        return m_source.get_token();
    }

    void cancel()
    {
        std::lock_guard lock(m_mutex);
        m_source.request_stop();
    }

private:
    std::mutex m_mutex;
    std::stop_source m_source;
};

} // namespace facet
