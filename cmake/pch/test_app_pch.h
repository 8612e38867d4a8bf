// Precompiled header of the app's Qt Test programs (tests/app).
#pragma once

#include "app_pch.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
