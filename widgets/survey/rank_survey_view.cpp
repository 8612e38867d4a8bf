// SPDX-License-Identifier: GPL-3.0-or-later
#include "survey/rank_survey_view.h"

#include "rank_survey_outputs.h"
#include "runs/run_summary.h"
#include "util/integer_list.h"
#include "util/thread_handoff.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QThreadPool>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <exception>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

constexpr int kHeatmapSide = 260;

} // namespace

RankSurveyView::RankSurveyView(QWidget* parent)
    : QWidget(parent)
    , m_watcher(new QFutureWatcher<std::optional<RankSurveyResult>>(this))
    , m_method(new QLabel)
    , m_ranks(new QLineEdit(u"2-12"_s))
    , m_runs(new QSpinBox)
    , m_folds(new QSpinBox)
    , m_run(new QPushButton(tr("Run survey")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_export(new QPushButton(tr("Export…")))
    , m_progress(new QProgressBar)
    , m_plot(new QCustomPlot)
    , m_rankChoice(new QComboBox)
    , m_heatmap(new QLabel)
    , m_suggestion(new QLabel)
{
    m_ranks->setToolTip(tr("Ranks such as 2-20 or 2,4,8"));
    m_runs->setRange(2, 1000);
    m_runs->setValue(10);
    m_runs->setToolTip(tr("Runs per rank, from the Controls' seed on: their clusterings make the "
                          "consensus"));
    m_folds->setRange(0, 100);
    m_folds->setValue(3);
    m_folds->setToolTip(tr("Held-out folds per rank: each masks 10 % of the entries, fits the "
                           "rest and measures the error on them (nmf, gnmf, semignmf, cnmf); 0: "
                           "none"));
    m_method->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(tr("Method:"), m_method);
    form->addRow(tr("&Ranks:"), m_ranks);
    form->addRow(tr("R&uns per rank:"), m_runs);
    form->addRow(tr("Held-out &folds:"), m_folds);
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : { m_run, m_cancel, m_export })
        buttons->addWidget(b);
    buttons->addStretch(1);
    m_progress->setTextVisible(true);
    m_progress->setFormat(tr("idle"));
    m_progress->setValue(0);

    m_plot->setMinimumSize(420, 260);
    m_plot->xAxis->setLabel(tr("rank k"));
    m_plot->yAxis->setLabel(tr("cophenetic, dispersion"));
    m_plot->yAxis2->setLabel(tr("held-out error"));
    m_plot->yAxis2->setVisible(true);
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(font());
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignLeft);

    m_heatmap->setFixedSize(kHeatmapSide, kHeatmapSide);
    m_heatmap->setAlignment(Qt::AlignCenter);
    m_heatmap->setStyleSheet(u"border: 1px solid #999;"_s);
    m_heatmap->setToolTip(tr("The consensus of the chosen rank: black where every run put the two "
                             "samples in one cluster, white where none did; rows and columns in "
                             "average-linkage order, so agreed clusters are blocks on the "
                             "diagonal"));
    m_suggestion->setWordWrap(true);
    m_suggestion->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* heatmapBox = new QVBoxLayout;
    auto* choice = new QHBoxLayout;
    choice->addWidget(new QLabel(tr("Consensus at k =")));
    choice->addWidget(m_rankChoice);
    choice->addStretch(1);
    heatmapBox->addLayout(choice);
    heatmapBox->addWidget(m_heatmap);
    heatmapBox->addStretch(1);
    auto* results = new QHBoxLayout;
    results->addWidget(m_plot, 1);
    results->addLayout(heatmapBox);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addLayout(results, 1);
    layout->addWidget(m_suggestion);

    connect(m_run, &QPushButton::clicked, this, &RankSurveyView::start);
    connect(m_cancel, &QPushButton::clicked, this, &RankSurveyView::cancel);
    connect(m_export, &QPushButton::clicked, this, &RankSurveyView::exportDialog);
    connect(m_watcher, &QFutureWatcherBase::finished, this, &RankSurveyView::onFinished);
    connect(m_rankChoice, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            showRank(m_rankChoice->itemData(index).toInt());
    });
    setRunOptions({});
    updateEnabled();
}

RankSurveyView::~RankSurveyView()
{
    cancel();
    m_watcher->waitForFinished();
}

void RankSurveyView::setDataset(
    std::shared_ptr<const Dataset> dataset, const DatasetIdentity& identity)
{
    cancel();
    m_data = std::move(dataset);
    m_identity = identity;
    m_result.reset();
    m_rankChoice->clear();
    m_heatmap->clear();
    m_plot->clearGraphs();
    m_plot->replot();
    m_suggestion->clear();
    updateEnabled();
}

void RankSurveyView::setRunOptions(const RunOptions& options)
{
    m_runOptions = options;
    m_method->setText(tr("%1 with the Controls' options (seed %2 on)")
                          .arg(methodTitle(options.method))
                          .arg(options.driver.seed));
}

void RankSurveyView::start()
{
    if (m_running || !m_data)
        return;
    Result<std::vector<int>> parsed
        = parseIntegerList(m_ranks->text(), tr("Ranks"), tr("ranks such as 2-20 or 2,4,8"));
    if (!parsed) {
        Q_EMIT statusMessage(tr("Rank survey: %1.").arg(parsed.error()));
        return;
    }
    std::vector<int> ranks = std::move(*parsed);
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    m_surveyOptions = RankSurveyOptions {};
    m_surveyOptions.run = m_runOptions;
    m_surveyOptions.ranks = ranks;
    m_surveyOptions.runs = m_runs->value();
    m_surveyOptions.folds = m_folds->value();
    // Missing pixels of the data (Data > Preprocessing): every run leaves them out, and the
    // held-out folds are drawn among the observed entries.
    if (m_data->hasMask())
        m_surveyOptions.run.params.weights
            = std::shared_ptr<const Matrix>(m_data, &m_data->weights);
    m_stop = std::make_shared<std::stop_source>();
    m_running = true;
    m_error.clear();
    m_progress->setRange(0, 0);
    m_progress->setFormat(tr("starting…"));
    updateEnabled();
    const std::shared_ptr<const Dataset> surveyed = m_data;
    const RankSurveyOptions options = m_surveyOptions;
    const std::stop_token stop = m_stop->get_token();
    auto* error = &m_error;
    m_watcher->setFuture(runOnPool(QThreadPool::globalInstance(),
        [this, surveyed, options, stop, error]() -> std::optional<RankSurveyResult> {
            try {
                return runRankSurvey(
                    surveyed->X, surveyed->labels, options,
                    [this](int done, int total, int, int) {
                        handOff([&] {
                            QMetaObject::invokeMethod(
                                this, [this, done, total] { onProgress(done, total); },
                                Qt::QueuedConnection);
                        });
                    },
                    stop);
            } catch (const std::exception& e) {
                *error = QString::fromLocal8Bit(e.what()); // read after the future finished
                return std::nullopt;
            }
        }));
}

void RankSurveyView::cancel()
{
    if (m_running && m_stop)
        m_stop->request_stop();
}

void RankSurveyView::onProgress(int done, int total)
{
    if (!m_running)
        return;
    m_progress->setRange(0, std::max(total, 1));
    m_progress->setValue(done);
    m_progress->setFormat(tr("%1 of %2 fits").arg(done).arg(total));
}

void RankSurveyView::onFinished()
{
    m_running = false;
    std::optional<RankSurveyResult> result = m_watcher->result();
    m_progress->setRange(0, 1);
    if (!result) {
        m_progress->setValue(0);
        m_progress->setFormat(tr("failed"));
        Q_EMIT statusMessage(tr("Rank survey failed: %1").arg(m_error));
    } else if (result->cancelled) {
        m_progress->setValue(0);
        m_progress->setFormat(tr("cancelled"));
        Q_EMIT statusMessage(tr("Rank survey cancelled; the previous survey is kept."));
    } else {
        m_progress->setValue(1);
        m_progress->setFormat(tr("done"));
        m_result = std::move(result);
        showCurves();
        Q_EMIT statusMessage(tr("Rank survey done: %1").arg(m_suggestion->text()));
    }
    updateEnabled();
    Q_EMIT finished();
}

void RankSurveyView::showCurves()
{
    m_plot->clearGraphs();
    const std::vector<RankSurveyRow>& rows = m_result->rows;
    struct Series {
        QString name;
        QColor color;
        bool right;
        double (*value)(const RankSurveyRow&);
    };
    const Series series[] = {
        { tr("cophenetic correlation"), QColor(40, 90, 160), false,
            [](const RankSurveyRow& r) { return r.consensus.cophenetic; } },
        { tr("dispersion"), QColor(230, 130, 30), false,
            [](const RankSurveyRow& r) { return r.consensus.dispersion; } },
        { tr("held-out error"), QColor(60, 150, 60), true,
            [](const RankSurveyRow& r) { return r.heldOut.count > 0 ? r.heldOut.mean : NAN; } },
    };
    double rightMax = 0;
    for (const Series& s : series) {
        QVector<double> x, y;
        for (const RankSurveyRow& row : rows)
            if (std::isfinite(s.value(row))) {
                x << row.rank;
                y << s.value(row);
                if (s.right)
                    rightMax = std::max(rightMax, s.value(row));
            }
        if (x.isEmpty())
            continue;
        QCPGraph* graph = m_plot->addGraph(m_plot->xAxis, s.right ? m_plot->yAxis2 : m_plot->yAxis);
        graph->setName(s.name);
        graph->setPen(QPen(s.color, 2));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
        graph->setData(x, y);
    }
    m_plot->xAxis->setRange(rows.front().rank - 0.5, rows.back().rank + 0.5);
    m_plot->yAxis->setRange(0, 1.02);
    m_plot->yAxis2->setRange(0, rightMax > 0 ? rightMax * 1.1 : 1);
    m_plot->replot();

    QStringList lines;
    if (m_result->byCophenetic.rank > 0)
        lines << tr("Consensus suggests k = %1: %2.")
                     .arg(m_result->byCophenetic.rank)
                     .arg(m_result->byCophenetic.why);
    if (m_result->byHeldOut.rank > 0)
        lines << tr("Held-out error suggests k = %1: %2.")
                     .arg(m_result->byHeldOut.rank)
                     .arg(m_result->byHeldOut.why);
    else if (!m_result->heldOutNote.isEmpty())
        lines << tr("No held-out error: %1.").arg(m_result->heldOutNote);
    m_suggestion->setText(lines.join(u'\n'));

    const QSignalBlocker blocker(m_rankChoice);
    m_rankChoice->clear();
    for (const RankSurveyRow& row : rows)
        m_rankChoice->addItem(QString::number(row.rank), row.rank);
    const int suggested
        = m_result->byCophenetic.rank > 0 ? m_result->byCophenetic.rank : rows.front().rank;
    m_rankChoice->setCurrentIndex(m_rankChoice->findData(suggested));
    showRank(suggested);
}

void RankSurveyView::showRank(int rank)
{
    if (!m_result)
        return;
    for (const RankSurveyRow& row : m_result->rows) {
        if (row.rank != rank || row.consensus.matrix.size() == 0)
            continue;
        const QImage image = plots::consensusImage(row.consensus);
        const int n = image.width();
        m_heatmap->setPixmap(
            QPixmap::fromImage(image.scaled(kHeatmapSide - 2, kHeatmapSide - 2, Qt::KeepAspectRatio,
                n < kHeatmapSide ? Qt::FastTransformation : Qt::SmoothTransformation)));
        m_shownRank = rank;
        if (m_rankChoice->currentData().toInt() != rank)
            m_rankChoice->setCurrentIndex(m_rankChoice->findData(rank));
        return;
    }
}

bool RankSurveyView::exportTo(const QString& dir, QString* error)
{
    if (!m_result) {
        if (error)
            *error = tr("there is no finished survey to export");
        return false;
    }
    if (!QDir().mkpath(dir)) {
        if (error)
            *error = tr("cannot make the folder %1").arg(dir);
        return false;
    }
    QStringList arguments { u"rank-survey"_s, u"--dataset"_s, m_identity.source, u"--method"_s,
        QString::fromStdString(m_surveyOptions.run.method), u"--ranks"_s, m_ranks->text(),
        u"--runs"_s, QString::number(m_surveyOptions.runs), u"--folds"_s,
        QString::number(m_surveyOptions.folds), u"--seed"_s,
        QString::number(m_surveyOptions.run.driver.seed) };
    const Result<QStringList> written = plots::writeRankSurveyOutputs(
        dir, { m_identity, m_data && m_data->hasLabels(), arguments, m_surveyOptions, *m_result });
    if (!written) {
        if (error)
            *error = written.error();
        return false;
    }
    Q_EMIT statusMessage(
        tr("Rank survey: wrote %n file(s) to %1.", nullptr, int(written->size())).arg(dir));
    return true;
}

void RankSurveyView::exportDialog()
{
    const QString dir
        = QFileDialog::getSaveFileName(this, tr("Export the rank survey into a folder"),
            tr("rank_survey"), QString(), nullptr, QFileDialog::ShowDirsOnly);
    if (dir.isEmpty())
        return;
    QString error;
    if (!exportTo(dir, &error))
        Q_EMIT statusMessage(tr("Rank survey export failed: %1").arg(error));
}

void RankSurveyView::updateEnabled()
{
    m_run->setEnabled(!m_running && m_data);
    m_cancel->setEnabled(m_running);
    m_export->setEnabled(!m_running && m_result.has_value());
    for (QWidget* w : { static_cast<QWidget*>(m_ranks), static_cast<QWidget*>(m_runs),
             static_cast<QWidget*>(m_folds) })
        w->setEnabled(!m_running);
    if (!m_data)
        m_progress->setFormat(tr("load a dataset first"));
}

} // namespace facet
