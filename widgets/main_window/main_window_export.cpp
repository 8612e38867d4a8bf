// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's exports (File and Data menus): the basis as a PNG mosaic, the shown result's
// factors and the prepared dataset as MAT files. None of them may replace the open dataset.
#include "main_window/main_window.h"

#include "data/dataset_source.h"
#include "data/image_render.h"
#include "data/mat_writer.h"
#include "experiment/run_report.h"
#include "views/basis_gallery.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStatusBar>

#include <cmath>

namespace facet {

void MainWindow::exportBasisDialog()
{
    if (!m_result)
        return;
    const QString suggestion
        = tr("%1_%2_k%3_basis.png")
              .arg(m_resultData->name, QString::fromStdString(m_resultOptions.method))
              .arg(m_resultOptions.params.rank);
    const QString path = exportPath(
        tr("Export basis image"), suggestion, tr("PNG images (*.png)"), QStringLiteral("png"));
    if (!path.isEmpty())
        exportBasis(path);
}

bool MainWindow::exportBasis(const QString& path)
{
    if (!m_result || !m_resultData) {
        showError(tr("Nothing to export"), tr("Run a factorization first."));
        return false;
    }
    const Matrix& basis = m_result->factorization.basis;
    const int columns = std::max(1, int(std::ceil(std::sqrt(double(basis.cols())))));
    QImage mosaic;
    try {
        mosaic = imageMosaic(basis, m_resultData->height, m_resultData->width, columns, 4, 2,
            m_gallery->exportScaling());
    } catch (const std::exception& error) {
        showError(tr("Could not export the basis"), QString::fromStdString(error.what()));
        return false;
    }
    if (mosaic.isNull() || !mosaic.save(path, "PNG")) {
        showError(tr("Could not export the basis"), tr("Writing %1 failed.").arg(path));
        return false;
    }
    statusBar()->showMessage(tr("Saved the basis images to %1.").arg(path));
    return true;
}

DatasetRequest MainWindow::resultRequest() const
{
    // The samples were scaled to unit norm when the set was loaded that way, or when the run
    // took the normalized copy (runData: the CF family under Auto, or L2 for every method).
    DatasetRequest request = m_request;
    request.prepare.l2Normalize = m_request.prepare.l2Normalize || m_resultData != m_dataset;
    return request;
}

QString MainWindow::exportPath(
    const QString& title, const QString& suggestion, const QString& filter, const QString& suffix)
{
    QSettings settings;
    const QString folder = settings.value(QStringLiteral("export/folder")).toString();
    QString path = QFileDialog::getSaveFileName(
        this, title, folder.isEmpty() ? suggestion : QDir(folder).filePath(suggestion), filter);
    if (path.isEmpty())
        return path;
    if (!path.endsWith(u'.' + suffix, Qt::CaseInsensitive))
        path += u'.' + suffix;
    settings.setValue(QStringLiteral("export/folder"), QFileInfo(path).absolutePath());
    return path;
}

void MainWindow::exportFactorsDialog()
{
    if (!m_result || !m_resultData)
        return;
    const QString path = exportPath(tr("Export factors"),
        tr("%1_%2_k%3_factors.mat")
            .arg(m_resultData->name, QString::fromStdString(m_resultOptions.method))
            .arg(m_resultOptions.params.rank),
        tr("MATLAB files (*.mat)"), QStringLiteral("mat"));
    if (!path.isEmpty())
        exportFactors(path);
}

bool MainWindow::exportFactors(const QString& path)
{
    if (!m_result || !m_resultData) {
        showError(tr("Nothing to export"), tr("Run a factorization first."));
        return false;
    }
    if (const QString problem = overwritesDatasetProblem(path, m_request.spec);
        !problem.isEmpty()) {
        showError(tr("Could not export the factors"), problem);
        return false;
    }
    QJsonObject report = runReport(*m_resultData, resultRequest(), m_resultOptions, *m_result, {});
    // The explorer does not time loading per run; only the run's own phases are recorded.
    QJsonObject timings = report.value(QStringLiteral("timings")).toObject();
    timings.remove(QStringLiteral("load_s"));
    timings.remove(QStringLiteral("prepare_s"));
    report.insert(QStringLiteral("timings"), timings);
    if (const Result<bool> written = writeFactorsMat(path, *m_resultData, *m_result, report);
        !written) {
        showError(tr("Could not export the factors"), written.error());
        return false;
    }
    statusBar()->showMessage(tr("Saved the factors to %1.").arg(path));
    return true;
}

void MainWindow::exportDatasetDialog()
{
    if (!m_dataset)
        return;
    const QString path
        = exportPath(tr("Export prepared dataset"), tr("%1_prepared.mat").arg(m_dataset->name),
            tr("MATLAB files (*.mat)"), QStringLiteral("mat"));
    if (!path.isEmpty())
        exportDataset(path);
}

bool MainWindow::exportDataset(const QString& path)
{
    if (!m_dataset) {
        showError(tr("Nothing to export"), tr("Open a dataset first."));
        return false;
    }
    if (const QString problem = overwritesDatasetProblem(path, m_request.spec);
        !problem.isEmpty()) {
        showError(tr("Could not export the dataset"), problem);
        return false;
    }
    if (const Result<bool> written = writeDatasetMat(path, *m_dataset); !written) {
        showError(tr("Could not export the dataset"), written.error());
        return false;
    }
    statusBar()->showMessage(tr("Saved %1 (%2 samples) to %3.")
                                 .arg(m_dataset->name)
                                 .arg(m_dataset->samples())
                                 .arg(path));
    return true;
}

} // namespace facet
