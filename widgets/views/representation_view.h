// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "experiment/run.h"
#include "util/result.h"

#include <QWidget>

class QSplitter;

namespace facet {

class PrincipalScatter;
class RepresentationHeatmap;

// What the factorization made of the samples: V as a heatmap sorted by class (sparsity and
// locality at a glance) beside the samples on V's first two principal axes with the clusters'
// cells. Each plot saves itself as PNG, SVG or PDF from its right-click menu or the methods
// below; a click on a sample (heatmap row or scatter point) emits sampleActivated.
class RepresentationView : public QWidget {
    Q_OBJECT

public:
    explicit RepresentationView(QWidget* parent = nullptr);

    void setResult(const Dataset& dataset, const RunResult& result);
    void clear();

    RepresentationHeatmap* heatmap() const { return m_heatmap; }
    PrincipalScatter* scatter() const { return m_scatter; }
    Result<bool> exportHeatmap(const QString& path);
    Result<bool> exportScatter(const QString& path);

Q_SIGNALS:
    void sampleActivated(int sample);

private:
    QSplitter* m_splitter = nullptr;
    RepresentationHeatmap* m_heatmap = nullptr;
    PrincipalScatter* m_scatter = nullptr;
};

} // namespace facet
