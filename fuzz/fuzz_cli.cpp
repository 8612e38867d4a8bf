// SPDX-License-Identifier: GPL-3.0-or-later
// facet-cli's argument vector (one argument per line of the input) through parseArguments.
#include "cli/cli_options.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    facet::fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const facet::Result<facet::cli::CliOptions> parsed
        = facet::cli::parseArguments(facet::fuzz::splitArguments(data, size));
    if (!parsed.ok() && parsed.error().isEmpty())
        __builtin_trap();
    return 0;
}
