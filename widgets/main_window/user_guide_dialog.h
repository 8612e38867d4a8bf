// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QTextBrowser;

namespace facet {

// Help > User guide: what each view shows, what each method minimizes and what its parameters
// mean, and how a run stops; the page is resources/user_guide.html (METHODS.md's formulas).
// Not modal, so it can stay open beside the window it explains.
class UserGuideDialog : public QDialog {
    Q_OBJECT
public:
    explicit UserGuideDialog(QWidget* parent = nullptr);
    QTextBrowser* browser() const { return m_browser; }

private:
    QTextBrowser* m_browser = nullptr;
};

} // namespace facet
