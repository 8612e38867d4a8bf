// SPDX-License-Identifier: GPL-3.0-or-later
// facet: the GUI. Everything happens in MainWindow; this file turns the command line into its
// first actions and, for --screenshot, into a scripted run that saves the window and quits.

#include "controls/control_panel.h"
#include "controls/method_parameters.h"
#include "controls/parameter_panel.h"
#include "data/mat_reader_process.h"
#include "dataset/preprocess_dialog.h"
#include "dataset/preprocess_preview.h"
#include "main_window/main_window.h"
#include "methods/registry.h"
#include "util/openmp_environment.h"
#include "views/basis_gallery.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QTextStream>
#include <QTimer>

#include <cmath>
#include <cstdio>
#include <memory>

namespace {

// After the last result arrives the plot replots on the next event-loop pass (rpQueuedReplot);
// waiting a moment lets every view paint before the window is grabbed.
constexpr int kSettleMs = 300;

void printError(const QString& message)
{
    QTextStream(stderr) << "facet: " << message << Qt::endl;
}

// Whether the command line asks only for text (--help, --version): a QCoreApplication prints it,
// where a QApplication would first need a display and fail without one.
bool asksForText(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a == "-h" || a == "--help" || a == "-?" || a == "--help-all" || a == "-v"
            || a == "--version")
            return true;
    }
    return false;
}

QString knownMethods()
{
    QStringList names;
    for (const facet::MethodInfo& info : facet::methodCatalog())
        names << QString::fromStdString(info.name);
    return names.join(QStringLiteral(", "));
}

} // namespace

int main(int argc, char* argv[])
{
    // may start the program again
    facet::ensureOpenMpWaitPolicy(argv, facet::OpenMpUse::Shared);
    // --help and --version print and exit, with or without a display; parser.process() below
    // does both, before any window exists.
    const std::unique_ptr<QCoreApplication> core = asksForText(argc, argv)
        ? std::make_unique<QCoreApplication>(argc, argv)
        : std::make_unique<QApplication>(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Facet"));
    QCoreApplication::setApplicationName(QStringLiteral("Facet"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    auto* gui = qobject_cast<QApplication*>(core.get());
    if (gui) {
        QApplication::setApplicationDisplayName(QStringLiteral("Facet"));
        QApplication::setWindowIcon(QIcon(QStringLiteral(":/facet.svg")));
    }
    // The hand-back folders of MAT 7.3 loads whose process was killed (data/mat_reader_process.h).
    facet::reclaimAbandonedHelperFolders();

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate(
        "main", "Explore matrix factorizations (NMF, concept factorization, ...) of image sets."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption datasetOption(QStringLiteral("dataset"),
        QApplication::translate("main",
            "Dataset: a .mat file, an image folder or list (with the last used "
            "preprocessing), or builtin:swimmer."),
        QStringLiteral("D"), QStringLiteral("builtin:swimmer"));
    const QCommandLineOption methodOption(QStringLiteral("method"),
        QApplication::translate("main", "Method: %1.").arg(knownMethods()), QStringLiteral("M"));
    const QCommandLineOption rankOption(
        QStringLiteral("rank"), QApplication::translate("main", "Rank k."), QStringLiteral("K"));
    const QCommandLineOption maxIterOption(QStringLiteral("max-iter"),
        QApplication::translate("main", "Maximum number of iterations."), QStringLiteral("N"));
    const QCommandLineOption seedOption(QStringLiteral("seed"),
        QApplication::translate("main", "Random seed."), QStringLiteral("S"));
    const QCommandLineOption lambdaOption(QStringLiteral("lambda"),
        QApplication::translate("main", "Regularization weight lambda, 0.01 to 10000."),
        QStringLiteral("L"));
    const QCommandLineOption neighboursOption(QStringLiteral("p"),
        QApplication::translate("main", "Graph neighbours p, 1 to 50."), QStringLiteral("P"));
    const QCommandLineOption betaOption(QStringLiteral("beta"),
        QApplication::translate("main", "CF_OGL: initial beta, 0.001 to 1000."),
        QStringLiteral("B"));
    const QCommandLineOption muOption(QStringLiteral("mu"),
        QApplication::translate("main", "CF_OGL: mu, 0.001 to 1000."), QStringLiteral("U"));
    const QCommandLineOption runOption(QStringLiteral("run"),
        QApplication::translate("main", "Start a run once the dataset is loaded."));
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
        QApplication::translate("main",
            "Save the window as PNG after the run (or after loading without "
            "--run) and quit; exit code 1 on any error."),
        QStringLiteral("PNG"));
    const QCommandLineOption preprocessShotOption(QStringLiteral("screenshot-preprocess"),
        QApplication::translate("main",
            "Open the preprocessing dialog for --dataset, save it as PNG once its preview shows "
            "and quit; exit code 1 on any error."),
        QStringLiteral("PNG"));
    parser.addOptions({ datasetOption, methodOption, rankOption, maxIterOption, seedOption,
        lambdaOption, neighboursOption, betaOption, muOption, runOption, screenshotOption,
        preprocessShotOption });
    parser.process(*core);
    if (!gui) { // an argument read as -h or -v was an option's value: process() went on
        printError(QStringLiteral("an option's value reads as --help or --version (-h, -v, -?); "
                                  "write it as --name=value"));
        return 2;
    }
    QApplication& app = *gui;

    facet::MainWindow window;
    facet::ControlPanel* controls = window.controlPanel();
    if (parser.isSet(methodOption) && !controls->setMethod(parser.value(methodOption))) {
        printError(QApplication::translate("main", "unknown method '%1' (known: %2)")
                       .arg(parser.value(methodOption), knownMethods()));
        return 1;
    }
    const auto positive = [&](const QCommandLineOption& option, int minimum, auto apply) {
        if (!parser.isSet(option))
            return true;
        bool ok = false;
        const int value = parser.value(option).toInt(&ok);
        if (!ok || value < minimum) {
            printError(QApplication::translate("main", "--%1 needs an integer >= %2, got '%3'")
                           .arg(option.names().front())
                           .arg(minimum)
                           .arg(parser.value(option)));
            return false;
        }
        apply(value);
        return true;
    };
    if (!positive(rankOption, 1, [&](int v) { controls->setRank(v); })
        || !positive(maxIterOption, 1, [&](int v) { controls->setMaxIterations(v); })
        || !positive(seedOption, 0, [&](int v) { controls->setSeed(v); }))
        return 1;

    // The method's parameters, after the method: each method keeps its own values.
    facet::ParameterPanel* params = controls->parameterPanel();
    const auto parameter = [&](const QCommandLineOption& option, facet::Parameter which,
                               double minimum, double maximum, bool integer, auto apply) {
        if (!parser.isSet(option))
            return true;
        bool ok = false;
        const double value = parser.value(option).toDouble(&ok);
        if (!ok || !(value >= minimum && value <= maximum)
            || (integer && value != std::floor(value))) {
            printError(QApplication::translate("main", "--%1 needs %2 in [%3, %4], got '%5'")
                           .arg(option.names().front(),
                               integer ? QApplication::translate("main", "an integer")
                                       : QApplication::translate("main", "a number"))
                           .arg(minimum)
                           .arg(maximum)
                           .arg(parser.value(option)));
            return false;
        }
        if (!params->parameters().testFlag(which))
            printError(QApplication::translate("main", "note: %1 does not read --%2; ignored")
                           .arg(controls->method(), option.names().front()));
        apply(value);
        return true;
    };
    if (!parameter(lambdaOption, facet::Parameter::Lambda, 1e-2, 1e4, false,
            [&](double v) { params->setLambda(v); })
        || !parameter(neighboursOption, facet::Parameter::Neighbours, 1, 50, true,
            [&](double v) { params->setNeighbours(int(v)); })
        || !parameter(betaOption, facet::Parameter::Beta, 1e-3, 1e3, false,
            [&](double v) { params->setBeta(v); })
        || !parameter(
            muOption, facet::Parameter::Mu, 1e-3, 1e3, false, [&](double v) { params->setMu(v); }))
        return 1;

    const QString preprocessShot = parser.value(preprocessShotOption);
    if (!preprocessShot.isEmpty()) {
        window.setErrorDialogsEnabled(false);
        window.resize(1400, 900);
        window.show();
        facet::PreprocessDialog* dialog
            = window.showPreprocessing(window.requestFor(parser.value(datasetOption)));
        QObject::connect(dialog->preview(), &facet::PreprocessPreview::failed, dialog,
            [](const QString& message) {
                printError(message);
                QCoreApplication::exit(1);
            });
        QObject::connect(
            dialog->preview(), &facet::PreprocessPreview::previewReady, dialog,
            [dialog, preprocessShot] {
                QTimer::singleShot(kSettleMs, dialog, [dialog, preprocessShot] {
                    const bool saved = dialog->grab().save(preprocessShot, "PNG");
                    if (!saved)
                        printError(QApplication::translate("main", "could not write %1")
                                       .arg(preprocessShot));
                    QCoreApplication::exit(saved ? 0 : 1);
                });
            },
            Qt::SingleShotConnection);
        return app.exec();
    }

    const bool run = parser.isSet(runOption);
    const QString screenshot = parser.value(screenshotOption);
    if (!screenshot.isEmpty()) {
        // A screenshot is a scripted session: no dialog may wait for a click, and the size is
        // the default one whatever an earlier session saved.
        window.setErrorDialogsEnabled(false);
        window.resize(1400, 900);
        const auto fail = [](const QString& message) {
            printError(message);
            QCoreApplication::exit(1);
        };
        const auto save = [&window, screenshot] {
            QTimer::singleShot(kSettleMs, &window, [&window, screenshot] {
                if (!window.grab().save(screenshot, "PNG")) {
                    printError(
                        QApplication::translate("main", "could not write %1").arg(screenshot));
                    QCoreApplication::exit(1);
                    return;
                }
                QCoreApplication::exit(0);
            });
        };
        QObject::connect(&window, &facet::MainWindow::datasetLoadFailed, &window, fail);
        QObject::connect(&window, &facet::MainWindow::runFailed, &window, fail);
        if (run)
            QObject::connect(&window, &facet::MainWindow::runFinished, &window, save);
        else
            QObject::connect(&window, &facet::MainWindow::datasetLoaded, &window, save);
    }
    if (run)
        QObject::connect(
            &window, &facet::MainWindow::datasetLoaded, &window, [&window] { window.startRun(); },
            Qt::SingleShotConnection);

    window.show();
    window.openDataset(parser.value(datasetOption));
    return app.exec();
}
