// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/input_file.h"

#include <QFile>

#include <sys/stat.h>

namespace facet {

using namespace Qt::StringLiterals;

QString inputFileProblem(const QString& path)
{
    struct stat status { };
    if (::stat(QFile::encodeName(path).constData(), &status) != 0)
        return {};
    if (S_ISREG(status.st_mode) || S_ISDIR(status.st_mode))
        return {};
    const QString kind = S_ISFIFO(status.st_mode) ? u"a FIFO (named pipe)"_s
        : S_ISCHR(status.st_mode)                 ? u"a character device"_s
        : S_ISBLK(status.st_mode)                 ? u"a block device"_s
        : S_ISSOCK(status.st_mode)                ? u"a socket"_s
                                                  : u"not a regular file"_s;
    return u"%1: is %2, not a file: Facet reads data and factors from regular files (a pipe "
           "would wait for a writer, a device has no end); save it to a file first"_s.arg(
               path, kind);
}

} // namespace facet
