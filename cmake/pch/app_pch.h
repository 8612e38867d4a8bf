// Precompiled header of facet_app and facet_cli_lib (facet_precompile; facet_plots, three files,
// has none): the solver's set plus the Qt Core and Gui classes most of their files include.
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
