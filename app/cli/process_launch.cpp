// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/process_launch.h"

#include <cstdlib>
#include <string>

namespace facet::cli {

namespace {

int positive(const char* name)
{
    const char* value = std::getenv(name);
    if (!value || !*value)
        return 0;
    char* end = nullptr;
    const long n = std::strtol(value, &end, 10);
    return *end == '\0' && n > 0 && n < 1 << 24 ? int(n) : 0;
}

bool set(const char* name)
{
    const char* value = std::getenv(name);
    return value && *value;
}

} // namespace

ProcessLaunch processLaunch()
{
    ProcessLaunch launch;
    launch.parallel
        = set("OMPI_COMM_WORLD_SIZE") || set("PMIX_RANK") || set("PMI_RANK") || set("PMI_SIZE");
    if (!launch.parallel)
        return launch;
    for (const char* name : { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS" })
        if (const int n = positive(name)) {
            launch.processes = n;
            break;
        }
    return launch;
}

} // namespace facet::cli
