// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QImage>
#include <QString>
#include <QStringList>

#include <vector>

namespace facet {

// Decoded image files before preprocessing: sizes may differ and colour is still there, so the
// preprocessing (and a GUI showing "before" next to "after") starts from what the files hold.
struct ImageSet {
    QString name; // the folder's or list's base name
    QString source; // the folder or list path
    std::vector<QImage> images; // Format_Grayscale8, or Format_RGB888 for colour files
    QStringList files; // one per image, relative to the source folder, for notes and the GUI
    std::vector<int> labels; // one 0-based class index per image; empty when unlabelled
    QStringList classNames;
    QStringList notes; // the layout found, skipped files and why

    int size() const { return int(images.size()); }
    bool hasLabels() const { return !labels.empty(); }
};

// Turns one class name per image into labels and class names. Classes are ordered by value
// when every name is a number, else naturally ("s2" before "s10").
void assignClasses(ImageSet& set, const QStringList& classOfImage);

// True when every class name reads as a finite number (then it is the label value in exports).
bool classNamesAreNumbers(const QStringList& classNames);

// "a, b, c and 7 more": keeps long lists of files in notes readable.
QString listSome(const QStringList& items, int shown = 10);

} // namespace facet
