// SPDX-License-Identifier: GPL-3.0-or-later
// The experiment form's "Preset": a paper's protocol (resources/papers/<paper>.json, "sweep": the
// facet-cli sweep options `facet-cli reproduce` runs) put into the form's fields, and the note
// that says whether the loaded dataset is one the paper ran on. The data is never changed here.
#include "experiment/experiment_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QJsonValue>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

// The sweep options the form has fields for; the others go to its "Parameters" line.
bool ownField(const QString& key)
{
    static const QStringList fields { u"methods"_s, u"clusters"_s, u"trials"_s,
        u"labeled-fraction"_s, u"labeled-per-class"_s, u"evaluate"_s, u"rank-offset"_s,
        u"subruns"_s, u"select"_s, u"algorithm"_s, u"max-iter"_s, u"seed"_s };
    return fields.contains(key);
}

} // namespace

QWidget* ExperimentForm::makePresetRow()
{
    m_preset = new QComboBox;
    m_preset->setObjectName(u"experimentPreset"_s);
    m_preset->addItem(tr("None"));
    m_preset->setToolTip(tr("Fill the form with a paper's evaluation protocol, as facet-cli "
                            "reproduce runs it. The loaded dataset stays; the note says whether "
                            "the paper ran on it."));
    Result<std::vector<PaperRecord>> papers = loadPaperRecords();
    if (papers) {
        for (PaperRecord& p : *papers)
            if (p.reproducible && !p.sweep.isEmpty())
                m_papers.push_back(std::move(p));
    } else {
        m_preset->setToolTip(papers.error());
        m_preset->setEnabled(false);
    }
    for (const PaperRecord& p : m_papers) {
        const QString author
            = p.authors.isEmpty() ? QString() : p.authors.first().section(u' ', -1);
        QString label = p.key.toUpper();
        if (!author.isEmpty())
            label += p.year > 0 ? u" (%1 et al. %2)"_s.arg(author).arg(p.year)
                                : u" (%1 et al.)"_s.arg(author);
        m_preset->addItem(label, p.key);
        m_preset->setItemData(m_preset->count() - 1, p.citation(), Qt::ToolTipRole);
    }
    m_presetNote = new QLabel;
    m_presetNote->setObjectName(u"experimentPresetNote"_s);
    m_presetNote->setWordWrap(true);
    m_presetNote->setTextFormat(Qt::RichText);
    m_presetNote->setVisible(false);
    auto* widget = new QWidget;
    auto* layout = new QVBoxLayout(widget);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_preset);
    layout->addWidget(m_presetNote);
    connect(m_preset, &QComboBox::currentIndexChanged, this, [this] {
        applyPreset();
        updatePresetNote();
    });
    return widget;
}

const PaperRecord* ExperimentForm::chosenPaper() const
{
    const QString key = m_preset->currentData().toString();
    const auto it = std::find_if(
        m_papers.begin(), m_papers.end(), [&](const PaperRecord& p) { return p.key == key; });
    return key.isEmpty() || it == m_papers.end() ? nullptr : &*it;
}

bool ExperimentForm::choosePreset(const QString& key)
{
    const int index = key.isEmpty() ? 0 : m_preset->findData(key);
    if (index < 0)
        return false;
    m_preset->setCurrentIndex(index);
    return true;
}

void ExperimentForm::setDatasetSource(const QString& spec, const QString& name)
{
    m_datasetSpec = spec;
    m_datasetName = name;
    updatePresetNote();
}

void ExperimentForm::applyPreset()
{
    const PaperRecord* paper = chosenPaper();
    if (!paper)
        return; // None leaves the fields as they are
    const QJsonObject& sweep = paper->sweep;
    const auto text = [&](const QString& key, const QString& fallback) {
        const QJsonValue v = sweep.value(key);
        return v.isString() ? v.toString() : fallback;
    };
    // facet-cli sweep's defaults stand where the record gives no value.
    setCheckedMethods(text(u"methods"_s, QString()).split(u',', Qt::SkipEmptyParts));
    m_clusters->setText(text(u"clusters"_s, u"2-10"_s));
    m_trials->setValue(text(u"trials"_s, u"10"_s).toInt());
    const bool fraction = sweep.contains(u"labeled-fraction"_s);
    const bool perClass = sweep.contains(u"labeled-per-class"_s);
    m_protocol->setCurrentIndex(fraction || perClass ? SemiSupervised : Unsupervised);
    if (fraction) {
        m_labeledMode->setCurrentIndex(0);
        m_labeledFraction->setValue(text(u"labeled-fraction"_s, QString()).toDouble());
    } else if (perClass) {
        m_labeledMode->setCurrentIndex(1);
        m_labeledCount->setValue(text(u"labeled-per-class"_s, QString()).toInt());
    }
    m_unlabeledOnly->setChecked(text(u"evaluate"_s, u"all"_s) == u"unlabeled");
    m_rankOffset->setCurrentIndex(text(u"rank-offset"_s, u"0"_s).toInt() == 1 ? 1 : 0);
    m_subruns->setValue(std::max(1, text(u"subruns"_s, u"1"_s).toInt()));
    m_selection->setCurrentIndex(text(u"select"_s, u"objective"_s) == u"accuracy" ? 1 : 0);
    m_algorithm->setCurrentIndex(std::max(0, m_algorithm->findText(text(u"algorithm"_s, {}))));
    if (sweep.contains(u"max-iter"_s))
        m_maxIter->setValue(text(u"max-iter"_s, QString()).toInt());
    if (sweep.contains(u"seed"_s))
        m_seed->setValue(text(u"seed"_s, QString()).toInt());
    // The rest are run options, in the Parameters line's syntax: a flag alone, else NAME=VALUE.
    QStringList parameters;
    for (auto it = sweep.begin(); it != sweep.end(); ++it)
        if (!ownField(it.key()))
            parameters << (it.value().isString() ? u"%1=%2"_s.arg(it.key(), it.value().toString())
                                                 : it.key());
    m_methodParameters->setText(parameters.join(u", "_s));
    Q_EMIT changed();
}

void ExperimentForm::updatePresetNote()
{
    const PaperRecord* paper = chosenPaper();
    m_presetNote->setVisible(paper != nullptr);
    if (!paper)
        return;
    const QString file = QFileInfo(m_datasetSpec).fileName();
    QStringList ran, lacking;
    QString matched;
    for (const PaperDataset& d : paper->datasets) {
        ran << (d.available ? u"%1 (%2)"_s.arg(d.paperName, d.file)
                            : tr("%1 (not available)").arg(d.paperName));
        if (d.available && !file.isEmpty() && file.compare(d.file, Qt::CaseInsensitive) == 0)
            matched = d.paperName;
    }
    for (const PaperMethod& m : paper->methods)
        if (m.facet.isEmpty())
            lacking << m.paper;
    QString note = tr("The %1 paper ran on %2.")
                       .arg(paper->key.toUpper(), ran.join(u", "_s).toHtmlEscaped());
    if (!lacking.isEmpty())
        note += u' ' + tr("Not in Facet: %1.").arg(lacking.join(u", "_s).toHtmlEscaped());
    if (!matched.isEmpty())
        note += u' '
            + tr("The loaded %1 is its %2 data; facet-cli reproduce %3 puts such a run beside "
                 "the paper's numbers.")
                  .arg(file.toHtmlEscaped(), matched.toHtmlEscaped(), paper->key);
    else if (m_datasetSpec.isEmpty())
        note += u" <b>"_s + tr("No dataset is loaded.") + u"</b>"_s;
    else
        note += u" <b>"_s
            + tr("The loaded dataset, %1, is not the paper's:")
                  .arg((m_datasetName.isEmpty() ? m_datasetSpec : m_datasetName).toHtmlEscaped())
            + u"</b> "_s
            + tr("the form holds the paper's protocol, the data stays; open one of the files "
                 "above to compare with its numbers.");
    m_presetNote->setText(note);
}

} // namespace facet
