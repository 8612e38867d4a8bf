// Precompiled header of the solver's Qt Test programs (tests/solver, tests/solver_float): a test
// translation unit spent about 5 of its 7 s in <QtTest> (all of Qt Core) and Eigen.
#pragma once

#include "solver_pch.h"

#include <QtTest>
