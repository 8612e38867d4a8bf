// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QComboBox>

namespace facet {

// The method chooser: each item is a method's full name ("LCCF — Locally Consistent CF (Cai, He
// & Han)"), its data the method's name, kShortNameRole its short label ("LCCF"). The popup is
// as wide as the longest name; the closed box shows the full name when it fits and the short
// label otherwise, never a name cut off mid-word, and its tooltip gives the full name.
class MethodComboBox : public QComboBox {
    Q_OBJECT
    Q_PROPERTY(QString displayedText READ displayedText)

public:
    static constexpr int kShortNameRole = Qt::UserRole + 1;

    explicit MethodComboBox(QWidget* parent = nullptr);

    void addMethod(const QString& fullName, const QString& shortName, const QString& name);
    // What the closed box draws now.
    QString displayedText() const;
    // The room the closed box has for its text.
    QRect textRect() const;
    void showPopup() override;

protected:
    void initStyleOption(QStyleOptionComboBox* option) const override;
};

} // namespace facet
