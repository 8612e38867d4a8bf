// SPDX-License-Identifier: GPL-3.0-or-later
#include "controls/method_combo_box.h"

#include <QAbstractItemView>
#include <QStyle>
#include <QStyleOptionComboBox>

namespace facet {

MethodComboBox::MethodComboBox(QWidget* parent)
    : QComboBox(parent)
{
    // Sized to its longest name the box would widen the whole panel; the short labels fit this.
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setMinimumContentsLength(14);
}

void MethodComboBox::addMethod(
    const QString& fullName, const QString& shortName, const QString& name)
{
    addItem(fullName, name);
    setItemData(count() - 1, shortName, kShortNameRole);
}

QRect MethodComboBox::textRect() const
{
    QStyleOptionComboBox option;
    QComboBox::initStyleOption(&option);
    return style()->subControlRect(
        QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this);
}

QString MethodComboBox::displayedText() const
{
    const QString full = currentText();
    if (fontMetrics().horizontalAdvance(full) <= textRect().width())
        return full;
    const QString shortName = currentData(kShortNameRole).toString();
    return shortName.isEmpty() ? full : shortName;
}

void MethodComboBox::initStyleOption(QStyleOptionComboBox* option) const
{
    QComboBox::initStyleOption(option);
    option->currentText = displayedText();
}

void MethodComboBox::showPopup()
{
    // Every full name readable in the list, however narrow the box: the popup may be wider.
    view()->setMinimumWidth(view()->sizeHintForColumn(0) + 2 * view()->frameWidth()
        + style()->pixelMetric(QStyle::PM_ScrollBarExtent));
    QComboBox::showPopup();
}

} // namespace facet
