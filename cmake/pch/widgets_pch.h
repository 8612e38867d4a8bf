// Precompiled header of facet_widgets (facet_precompile). qcustomplot.h includes the whole of
// Qt Core, Gui, Widgets and Print Support (8.6 s to parse on its own), and a widget translation
// unit spent about two thirds of its compile time in headers (representation_heatmap.cpp:
// 12.7 s, 4.8 s with them precompiled).
#pragma once

#include "app_pch.h"

#include <qcustomplot.h>
