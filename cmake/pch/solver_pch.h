// Precompiled header of facet_solver and facet_solver_float (cmake/FacetHelpers.cmake,
// facet_precompile): the headers nearly every solver translation unit parses, Eigen's core and
// sparse modules above all. Only third-party and standard headers belong here: a project header
// in it would rebuild every object when it changes.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>
