// Precompiled header of facet_app, facet_cli_lib and facet_plots (facet_precompile): the
// solver's set plus the Qt Core and Gui classes most of their translation units include.
#pragma once

#include "solver_pch.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>

#include <chrono>
#include <list>
#include <mutex>
#include <variant>
