// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/collectives.h"

#include <algorithm>

namespace facet {

namespace {
thread_local SampleDistribution t_distribution;
} // namespace

SampleDistribution currentDistribution()
{
    return t_distribution;
}

DistributedScope::DistributedScope(const SampleDistribution& distribution)
    : m_previous(t_distribution)
{
    t_distribution = distribution;
}

DistributedScope::~DistributedScope()
{
    t_distribution = m_previous;
}

std::vector<double> valuePerRank(Collectives& comm, double mine)
{
    Matrix all = Matrix::Zero(comm.size(), 1);
    all(comm.rank(), 0) = Scalar(mine);
    comm.sumReduce(all.data(), std::size_t(all.size()));
    return { all.data(), all.data() + all.size() };
}

void sumOverSamples(const SampleDistribution& d, Matrix& M)
{
    if (d.comm)
        d.comm->sumReduce(M.data(), std::size_t(M.size()));
}

double sumOverSamples(const SampleDistribution& d, double value)
{
    if (!d.comm)
        return value;
    Scalar v = Scalar(value);
    d.comm->sumReduce(&v, 1);
    return double(v);
}

Eigen::Index totalSamples(const SampleDistribution& d, Eigen::Index localSamples)
{
    return d.comm ? d.totalSamples : localSamples;
}

} // namespace facet
