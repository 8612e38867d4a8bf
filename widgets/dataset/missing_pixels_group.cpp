// SPDX-License-Identifier: GPL-3.0-or-later
#include "dataset/missing_pixels_group.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace facet {

MissingPixelsGroup::MissingPixelsGroup(QWidget* parent)
    : QGroupBox(tr("Missing pixels"), parent)
    , m_kind(new QComboBox)
    , m_percentLabel(new QLabel(tr("&Share:")))
    , m_percent(new QDoubleSpinBox)
    , m_sideLabel(new QLabel(tr("Block si&de (pixels):")))
    , m_side(new QSpinBox)
    , m_seedLabel(new QLabel(tr("Seed:")))
    , m_seed(new QSpinBox)
    , m_fileLabel(new QLabel(tr("&Mask file:")))
    , m_file(new QLineEdit)
    , m_browse(new QPushButton(tr("&Browse...")))
    , m_variableLabel(new QLabel(tr("&Variable:")))
    , m_variable(new QLineEdit)
{
    setObjectName(QStringLiteral("missingPixelsGroup"));
    m_kind->setObjectName(QStringLiteral("missingKind"));
    m_kind->addItem(tr("None"), int(MissingKind::None));
    m_kind->addItem(tr("Random pixels"), int(MissingKind::Pixels));
    m_kind->addItem(tr("One block per image"), int(MissingKind::Block));
    m_kind->addItem(tr("From a mask file (.mat)"), int(MissingKind::File));
    m_kind->setToolTip(tr("Hidden entries leave the objective of NMF, GNMF, SemiGNMF and CNMF, "
                          "which fill them from the factors; the Reconstruction view shows the "
                          "fill-in beside the hidden values. The other methods refuse such "
                          "data."));
    m_percent->setRange(1, 95);
    m_percent->setDecimals(0);
    m_percent->setSuffix(QStringLiteral(" %"));
    m_percent->setValue(30);
    m_percent->setToolTip(tr("Of each sample's pixels, chosen at random per sample"));
    m_side->setRange(1, 4096);
    m_side->setValue(12);
    m_seed->setRange(0, 999999);
    m_file->setPlaceholderText(tr("a .mat file with a variable of fea's shape, 0 = missing"));
    m_variable->setPlaceholderText(QStringLiteral("mask"));
    m_percentLabel->setBuddy(m_percent);
    m_sideLabel->setBuddy(m_side);
    m_seedLabel->setBuddy(m_seed);
    m_fileLabel->setBuddy(m_file);
    m_variableLabel->setBuddy(m_variable);

    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(m_browse);
    auto* layout = new QFormLayout(this);
    layout->addRow(tr("&Hide:"), m_kind);
    layout->addRow(m_percentLabel, m_percent);
    layout->addRow(m_sideLabel, m_side);
    layout->addRow(m_seedLabel, m_seed);
    layout->addRow(m_fileLabel, fileRow);
    layout->addRow(m_variableLabel, m_variable);

    const auto emitChanged = [this] {
        updateEnabled();
        if (!m_updating)
            Q_EMIT changed();
    };
    connect(m_kind, &QComboBox::currentIndexChanged, this, emitChanged);
    connect(m_percent, &QDoubleSpinBox::valueChanged, this, emitChanged);
    for (QSpinBox* spin : { m_side, m_seed })
        connect(spin, &QSpinBox::valueChanged, this, emitChanged);
    for (QLineEdit* edit : { m_file, m_variable })
        connect(edit, &QLineEdit::textChanged, this, emitChanged);
    connect(m_browse, &QPushButton::clicked, this, &MissingPixelsGroup::browse);
    updateEnabled();
}

void MissingPixelsGroup::updateEnabled()
{
    const auto kind = MissingKind(m_kind->currentData().toInt());
    // Only the rows of the chosen kind are shown: the group stays short.
    const auto show = [](QWidget* label, QWidget* field, bool visible) {
        label->setVisible(visible);
        field->setVisible(visible);
    };
    show(m_percentLabel, m_percent, kind == MissingKind::Pixels);
    show(m_sideLabel, m_side, kind == MissingKind::Block);
    show(m_seedLabel, m_seed, kind == MissingKind::Pixels || kind == MissingKind::Block);
    show(m_fileLabel, m_file, kind == MissingKind::File);
    m_browse->setVisible(kind == MissingKind::File);
    show(m_variableLabel, m_variable, kind == MissingKind::File);
}

void MissingPixelsGroup::browse()
{
    const QString start = m_file->text().isEmpty() ? QString() : QFileInfo(m_file->text()).path();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Mask file"), start, tr("MATLAB files (*.mat);;All files (*)"));
    if (!path.isEmpty())
        m_file->setText(path);
}

void MissingPixelsGroup::setSettings(const MissingSettings& s)
{
    m_updating = true;
    m_kind->setCurrentIndex(m_kind->findData(int(s.kind)));
    if (s.kind == MissingKind::Pixels)
        m_percent->setValue(100 * s.amount);
    if (s.kind == MissingKind::Block)
        m_side->setValue(int(s.amount));
    if (s.kind == MissingKind::Pixels || s.kind == MissingKind::Block)
        m_seed->setValue(int(std::min<std::uint64_t>(s.seed, std::uint64_t(m_seed->maximum()))));
    m_file->setText(s.file);
    m_variable->setText(s.variable);
    m_updating = false;
    updateEnabled();
}

MissingSettings MissingPixelsGroup::settings() const
{
    MissingSettings s;
    s.kind = MissingKind(m_kind->currentData().toInt());
    switch (s.kind) {
    case MissingKind::Pixels:
        s.amount = std::round(m_percent->value()) / 100;
        s.seed = std::uint64_t(m_seed->value());
        break;
    case MissingKind::Block:
        s.amount = m_side->value();
        s.seed = std::uint64_t(m_seed->value());
        break;
    case MissingKind::File:
        s.file = m_file->text().trimmed();
        s.variable = m_variable->text().trimmed();
        break;
    case MissingKind::None:
        break;
    }
    return s;
}

} // namespace facet
