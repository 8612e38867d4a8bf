// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/representation_view.h"

#include "views/principal_scatter.h"
#include "views/representation_heatmap.h"

#include <QSplitter>
#include <QVBoxLayout>

namespace facet {

RepresentationView::RepresentationView(QWidget* parent)
    : QWidget(parent)
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_heatmap(new RepresentationHeatmap)
    , m_scatter(new PrincipalScatter)
{
    m_splitter->setObjectName(QStringLiteral("representationSplitter"));
    m_splitter->addWidget(m_heatmap);
    m_splitter->addWidget(m_scatter);
    m_splitter->setChildrenCollapsible(false);
    // The scatter needs room for its legend and caption; the heatmap is a narrow k columns.
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_splitter);
    connect(m_heatmap, &RepresentationHeatmap::sampleActivated, this,
        &RepresentationView::sampleActivated);
    connect(
        m_scatter, &PrincipalScatter::sampleActivated, this, &RepresentationView::sampleActivated);
}

void RepresentationView::setResult(const Dataset& dataset, const RunResult& result)
{
    m_heatmap->setResult(dataset, result);
    m_scatter->setResult(dataset, result);
}

void RepresentationView::clear()
{
    m_heatmap->clear();
    m_scatter->clear();
}

Result<bool> RepresentationView::exportHeatmap(const QString& path)
{
    return m_heatmap->exportPlot(path);
}

Result<bool> RepresentationView::exportScatter(const QString& path)
{
    return m_scatter->exportPlot(path);
}

} // namespace facet
