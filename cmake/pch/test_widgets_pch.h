// Precompiled header of the GUI's Qt Test programs (tests/widgets).
#pragma once

#include "widgets_pch.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
