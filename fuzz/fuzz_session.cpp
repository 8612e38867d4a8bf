// SPDX-License-Identifier: GPL-3.0-or-later
// A session file's bytes through parseSession, resolved against a scratch session folder.
#include "fuzz_support.h"
#include "session/session.h"

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    facet::fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const QString sessionDir = facet::fuzz::scratchDir() + QStringLiteral("/session");
    const facet::Result<facet::Session> session
        = facet::parseSession(facet::fuzz::bytesOf(data, size), sessionDir);
    if (session.ok()) {
        // What the history view and the re-run rely on: factor shapes agree, values are finite.
        for (const facet::RunRecord& run : session->runs)
            if (run.hasFactors()
                && (run.basis.cols() != run.V.cols() || !run.basis.allFinite()
                    || !run.V.allFinite()))
                __builtin_trap();
    } else if (session.error().isEmpty()) {
        __builtin_trap();
    }
    return 0;
}
