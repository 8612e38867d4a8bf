// SPDX-License-Identifier: GPL-3.0-or-later
#include "dataset/preprocess_dialog.h"

#include "dataset/preprocess_form.h"
#include "dataset/preprocess_preview.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace facet {

namespace {

const QString kStepsKey = QStringLiteral("preprocess/steps");
const QString kScaleKey = QStringLiteral("preprocess/scaleTo01");
const QString kL2Key = QStringLiteral("preprocess/l2Normalize");

QString sourceTitle(const QString& spec)
{
    const QFileInfo info(spec);
    return info.exists() ? info.fileName() : spec;
}

} // namespace

PreprocessDialog::PreprocessDialog(const DatasetRequest& request, QWidget* parent)
    : QDialog(parent)
    , m_request(request)
    , m_form(new PreprocessForm)
    , m_preview(new PreprocessPreview)
    , m_summary(new QLabel)
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel))
{
    setObjectName(QStringLiteral("preprocessDialog"));
    setWindowTitle(tr("Preprocessing — %1").arg(sourceTitle(request.spec)));
    loadButton()->setText(tr("&Load"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* source = new QLabel(tr("<b>Source:</b> %1").arg(request.spec.toHtmlEscaped()));
    source->setWordWrap(true);
    source->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* columns = new QHBoxLayout;
    columns->addWidget(m_form);
    columns->addSpacing(12);
    columns->addWidget(m_preview, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(source);
    layout->addLayout(columns, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_form, &PreprocessForm::changed, this, [this] {
        const PreprocessSettings settings = m_form->settings();
        m_summary->setText(
            tr("<b>Steps:</b> %1").arg(describePreprocess(settings).toHtmlEscaped()));
        m_preview->setSettings(settings);
    });
    m_form->setRequest(request);
    m_preview->setSource(request);
}

QPushButton* PreprocessDialog::loadButton() const
{
    return m_buttons->button(QDialogButtonBox::Ok);
}

DatasetRequest PreprocessDialog::request() const
{
    DatasetRequest request = m_request;
    request.preprocess = m_form->settings();
    request.prepare = m_form->prepareOptions();
    return request;
}

DatasetRequest PreprocessDialog::lastUsedRequest(const QString& spec)
{
    DatasetRequest request;
    request.spec = spec;
    request.preprocess.height = request.preprocess.width = 32;
    const QSettings settings;
    const QJsonDocument steps
        = QJsonDocument::fromJson(settings.value(kStepsKey).toString().toUtf8());
    if (steps.isObject()) {
        // A saved value this version cannot read falls back to the defaults.
        if (auto parsed = preprocessFromJson(steps.object()))
            request.preprocess = *parsed;
    }
    request.prepare.scaleTo01 = settings.value(kScaleKey, true).toBool();
    request.prepare.l2Normalize = settings.value(kL2Key, false).toBool();
    return request;
}

void PreprocessDialog::rememberRequest(const DatasetRequest& request)
{
    QSettings settings;
    // Missing pixels are an experiment on one dataset, not a habit for the next folder: the
    // session keeps them with its dataset, the settings do not.
    PreprocessSettings steps = request.preprocess;
    steps.missing = {};
    settings.setValue(kStepsKey,
        QString::fromUtf8(QJsonDocument(preprocessToJson(steps)).toJson(QJsonDocument::Compact)));
    settings.setValue(kScaleKey, request.prepare.scaleTo01);
    settings.setValue(kL2Key, request.prepare.l2Normalize);
}

} // namespace facet
