// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window/user_guide_dialog.h"

#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace facet {

UserGuideDialog::UserGuideDialog(QWidget* parent)
    : QDialog(parent)
    , m_browser(new QTextBrowser)
{
    setObjectName(QStringLiteral("userGuideDialog"));
    setWindowTitle(tr("Facet user guide"));
    setModal(false);
    m_browser->setObjectName(QStringLiteral("userGuideText"));
    m_browser->setOpenExternalLinks(true);
    m_browser->setSource(QUrl(QStringLiteral("qrc:/help/user_guide.html")));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_browser);
    layout->addWidget(buttons);
    resize(760, 820);
}

} // namespace facet
