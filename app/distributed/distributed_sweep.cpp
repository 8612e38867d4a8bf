// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/distributed_sweep.h"

#include "experiment/sweep_json.h"

#include <QJsonDocument>

#include <chrono>
#include <thread>

namespace facet {

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

// The messages of a sweep, by tag; every payload is a compact JSON object.
enum Tag : int {
    kTagReport = 1, // any rank -> 0: RankReport
    kTagStart, // 0 -> any: JobStatus, exit code 0 to start
    kTagSlot, // any -> 0: a SlotReport (the slot is free again)
    kTagAssign, // 0 -> any: { slot, cell } with cell null to end the slot
    kTagInterrupt, // any -> 0: this rank was interrupted
    kTagStop, // 0 -> any: stop the running cells
    kTagFinish, // 0 -> any: JobStatus, the end of the job
};

// How often an idle loop looks for messages: a free slot waits at most this long for its next
// cell, which costs nothing next to a cell, and the waiting costs no measurable CPU.
constexpr auto kPoll = 1ms;

std::string encode(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

QJsonObject decode(const std::string& payload)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(payload)).object();
}

// The next message, waiting for it.
Message awaitMessage(Communicator& comm)
{
    for (;;) {
        if (std::optional<Message> m = comm.tryReceive())
            return std::move(*m);
        std::this_thread::sleep_for(kPoll);
    }
}

QJsonObject statusToJson(const JobStatus& s)
{
    return { { u"exit"_s, s.exitCode }, { u"message"_s, s.message } };
}

JobStatus statusFromJson(const QJsonObject& o)
{
    return { o.value(u"exit"_s).toInt(1), o.value(u"message"_s).toString() };
}

const char* kindName(SlotReport::Kind kind)
{
    switch (kind) {
    case SlotReport::Kind::Ready:
        return "ready";
    case SlotReport::Kind::Finished:
        return "finished";
    case SlotReport::Kind::Failed:
        return "failed";
    case SlotReport::Kind::Stopped:
        break;
    }
    return "stopped";
}

QJsonObject slotReportToJson(
    const SlotReport& r, const ExperimentOptions& options, const QStringList& classNames)
{
    QJsonObject o { { u"kind"_s, QString::fromLatin1(kindName(r.kind)) }, { u"slot"_s, r.slot },
        { u"cell"_s, qint64(r.cell) } };
    if (r.kind == SlotReport::Kind::Finished)
        o.insert(u"trial"_s, trialToJson(r.trial, options, classNames));
    if (r.kind == SlotReport::Kind::Failed)
        o.insert(u"error"_s, QString::fromStdString(r.error));
    return o;
}

SlotReport slotReportFromJson(const QJsonObject& o)
{
    SlotReport r;
    r.slot = o.value(u"slot"_s).toInt();
    r.cell = std::size_t(o.value(u"cell"_s).toInteger());
    const QString kind = o.value(u"kind"_s).toString();
    for (SlotReport::Kind k : { SlotReport::Kind::Ready, SlotReport::Kind::Finished,
             SlotReport::Kind::Failed, SlotReport::Kind::Stopped })
        if (kind == QLatin1StringView(kindName(k)))
            r.kind = k;
    r.error = o.value(u"error"_s).toString().toStdString();
    if (r.kind == SlotReport::Kind::Finished) {
        Result<TrialResult> trial = trialFromJson(o.value(u"trial"_s).toObject());
        if (trial) {
            r.trial = std::move(*trial);
        } else {
            r.kind = SlotReport::Kind::Failed;
            r.error = "its result did not arrive whole: " + trial.error().toStdString();
        }
    }
    return r;
}

} // namespace

QString rankName(int rank, int size, const QString& host)
{
    return host.isEmpty() ? u"rank %1 of %2"_s.arg(rank).arg(size)
                          : u"rank %1 of %2 (%3)"_s.arg(rank).arg(size).arg(host);
}

void sendRankReport(Communicator& comm, const RankReport& report)
{
    comm.send(0, kTagReport,
        encode({ { u"exit"_s, report.exitCode }, { u"error"_s, report.error },
            { u"host"_s, report.host }, { u"options"_s, report.options },
            { u"dataset"_s, report.dataset }, { u"threads"_s, report.threads } }));
}

std::vector<RankReport> collectRankReports(Communicator& comm, const RankReport& own)
{
    std::vector<RankReport> reports(std::size_t(comm.size()));
    std::vector<bool> arrived(reports.size(), false);
    reports[0] = own;
    for (int missing = comm.size() - 1; missing > 0;) {
        const Message m = awaitMessage(comm);
        const std::size_t r = std::size_t(m.source);
        if (m.tag != kTagReport || r == 0 || r >= reports.size() || arrived[r])
            continue;
        const QJsonObject o = decode(m.payload);
        reports[r] = { o.value(u"exit"_s).toInt(1), o.value(u"error"_s).toString(),
            o.value(u"host"_s).toString(), o.value(u"options"_s).toObject(),
            o.value(u"dataset"_s).toObject(), std::max(1, o.value(u"threads"_s).toInt(1)) };
        arrived[r] = true;
        --missing;
    }
    return reports;
}

void sendStart(Communicator& comm, const JobStatus& start)
{
    for (int r = 1; r < comm.size(); ++r)
        comm.send(r, kTagStart, encode(statusToJson(start)));
}

JobStatus waitForStart(Communicator& comm)
{
    for (;;) {
        const Message m = awaitMessage(comm);
        if (m.source == 0 && m.tag == kTagStart)
            return statusFromJson(decode(m.payload));
    }
}

void sendFinish(Communicator& comm, const JobStatus& end)
{
    for (int r = 1; r < comm.size(); ++r)
        comm.send(r, kTagFinish, encode(statusToJson(end)));
}

SweepRunOutcome coordinateCells(Communicator& comm, CellWorkers& local,
    const std::vector<RankReport>& ranks, const std::vector<std::size_t>& todo,
    std::stop_token stop, const TrialCallback& onTrial)
{
    SweepRunOutcome outcome;
    std::size_t next = 0;
    bool stopping = false; // no cell is handed out any more
    bool interrupted = false;
    int open = local.slotCount(); // slots, on every rank, not yet told to end
    for (std::size_t r = 1; r < ranks.size(); ++r)
        open += ranks[r].threads;
    const auto halt = [&] {
        if (stopping)
            return;
        stopping = true;
        local.stop();
        for (int r = 1; r < comm.size(); ++r)
            comm.send(r, kTagStop, {});
    };
    std::vector<TrialResult> finished;
    const auto handle = [&](int rank, SlotReport& report) {
        if (report.kind == SlotReport::Kind::Finished)
            finished.push_back(std::move(report.trial));
        if (report.kind == SlotReport::Kind::Failed && outcome.error.empty()) {
            const QString host
                = std::size_t(rank) < ranks.size() ? ranks[std::size_t(rank)].host : QString();
            outcome.error
                = "on " + rankName(rank, comm.size(), host).toStdString() + ": " + report.error;
            halt();
        }
        // The slot is free: its next cell, or its end.
        std::optional<std::size_t> cell;
        if (!stopping && next < todo.size())
            cell = todo[next++];
        else
            --open;
        if (rank == 0)
            local.assign(report.slot, cell);
        else
            comm.send(rank, kTagAssign,
                encode({ { u"slot"_s, report.slot },
                    { u"cell"_s, cell ? QJsonValue(qint64(*cell)) : QJsonValue() } }));
    };
    while (open > 0) {
        if (stop.stop_requested() && !interrupted) {
            interrupted = true;
            halt();
        }
        for (SlotReport& report : local.takeReports(kPoll))
            handle(0, report);
        while (std::optional<Message> m = comm.tryReceive()) {
            if (m->tag == kTagSlot) {
                SlotReport report = slotReportFromJson(decode(m->payload));
                handle(m->source, report);
            } else if (m->tag == kTagInterrupt && !interrupted) {
                interrupted = true;
                halt();
            }
        }
        // After the free slots have their next cells: saving a result (results.json grows
        // with the sweep) does not keep them waiting.
        for (const TrialResult& t : finished) {
            ++outcome.finished;
            if (onTrial)
                onTrial(t);
        }
        finished.clear();
    }
    outcome.stopped = interrupted && outcome.finished < int(todo.size());
    return outcome;
}

JobStatus workCells(Communicator& comm, CellWorkers& local, const ExperimentOptions& options,
    const QStringList& classNames, std::stop_token stop)
{
    bool interrupted = false;
    for (;;) {
        if (stop.stop_requested() && !interrupted) {
            interrupted = true;
            local.stop();
            comm.send(0, kTagInterrupt, {});
        }
        for (const SlotReport& report : local.takeReports(kPoll))
            comm.send(0, kTagSlot, encode(slotReportToJson(report, options, classNames)));
        while (std::optional<Message> m = comm.tryReceive()) {
            if (m->source != 0)
                continue;
            if (m->tag == kTagAssign) {
                const QJsonObject o = decode(m->payload);
                const QJsonValue cell = o.value(u"cell"_s);
                local.assign(o.value(u"slot"_s).toInt(),
                    cell.isNull() ? std::nullopt
                                  : std::optional<std::size_t>(std::size_t(cell.toInteger())));
            } else if (m->tag == kTagStop) {
                local.stop();
            } else if (m->tag == kTagFinish) {
                return statusFromJson(decode(m->payload));
            }
        }
    }
}

} // namespace facet
