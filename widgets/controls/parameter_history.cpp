// SPDX-License-Identifier: GPL-3.0-or-later
#include "controls/parameter_history.h"

#include "controls/control_panel.h"

#include <QUndoCommand>
#include <QUndoStack>

namespace facet {

namespace {

void collectChanges(
    const QVariantMap& before, const QVariantMap& after, const QString& prefix, QStringList& keys)
{
    QStringList all = before.keys() + after.keys();
    all.removeDuplicates();
    for (const QString& key : std::as_const(all)) {
        const QVariant a = before.value(key);
        const QVariant b = after.value(key);
        if (a.typeId() == QMetaType::QVariantMap && b.typeId() == QMetaType::QVariantMap)
            collectChanges(a.toMap(), b.toMap(), prefix + key + QLatin1Char('/'), keys);
        else if (a != b)
            keys.append(prefix + key);
    }
}

} // namespace

QStringList changedOptionKeys(const QVariantMap& before, const QVariantMap& after)
{
    QStringList keys;
    collectChanges(before, after, {}, keys);
    return keys;
}

// One recorded change: the options before and after it. Pushing it changes nothing (the panel
// already shows `after`); undo and redo put the snapshots back.
class ParameterHistory::Step : public QUndoCommand {
public:
    Step(ParameterHistory* owner, QVariantMap before, QVariantMap after, QStringList keys)
        : m_owner(owner)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_keys(std::move(keys))
    {
        setText(m_keys.size() == 1 ? QObject::tr("change of %1").arg(displayKey(m_keys.front()))
                                   : QObject::tr("change of %n options", nullptr, m_keys.size()));
    }

    int id() const override { return 1; }
    void undo() override { m_owner->apply(m_before); }
    void redo() override
    {
        if (m_pushed)
            m_owner->apply(m_after);
        m_pushed = true;
    }
    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* next = static_cast<const Step*>(other);
        if (next->m_keys != m_keys || !next->m_merge)
            return false;
        m_after = next->m_after;
        return true;
    }

    bool m_merge = false; // set when it follows the previous step closely

private:
    static QString displayKey(const QString& key)
    {
        return key.startsWith(QStringLiteral("params/")) ? key.mid(7) : key;
    }

    ParameterHistory* m_owner;
    QVariantMap m_before;
    QVariantMap m_after;
    QStringList m_keys;
    bool m_pushed = false;
};

ParameterHistory::ParameterHistory(ControlPanel* panel, QObject* parent)
    : QObject(parent)
    , m_panel(panel)
    , m_stack(new QUndoStack(this))
{
    m_stack->setObjectName(QStringLiteral("parameterUndoStack"));
    connect(panel, &ControlPanel::optionsChanged, this, &ParameterHistory::onOptionsChanged);
    reset();
}

void ParameterHistory::reset()
{
    m_stack->clear();
    m_current = m_panel->snapshot();
    m_sinceLast.invalidate();
}

void ParameterHistory::onOptionsChanged()
{
    if (m_applying)
        return;
    QVariantMap now = m_panel->snapshot();
    QStringList keys = changedOptionKeys(m_current, now);
    if (keys.isEmpty())
        return;
    auto* step = new Step(this, m_current, now, std::move(keys));
    step->m_merge = m_sinceLast.isValid() && m_sinceLast.elapsed() < kMergeWindowMs;
    m_current = std::move(now);
    m_sinceLast.start();
    m_stack->push(step);
}

void ParameterHistory::apply(const QVariantMap& snapshot)
{
    m_applying = true;
    m_panel->restoreSnapshot(snapshot);
    m_applying = false;
    m_current = m_panel->snapshot();
    m_sinceLast.invalidate(); // the next edit is a new step, never merged into an undone one
}

} // namespace facet
