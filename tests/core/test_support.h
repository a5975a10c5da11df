#pragma once
// Helpers shared by the QtTest files (core and views): whole-file reads, "this must fail with fxray::Error
// saying ...", whether a built fxray has its replay worker, and where the shared corpora are.
#include "base/error.h"
#include "base/subprocess.h"

#include <QtCore/QDirIterator>
#include <QtCore/QFile>
#include <QtTest/QtTest>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace fxray::test {

// A file of the shared corpora (`shared/corpora/<name>`, never committed): under $FXRAY_SHARED_DIR when set, else in
// the `shared` folder beside the checkout or beside any folder above it (a clone made elsewhere for CI, such as
// /work/cicheck/main, finds /work/shared). Where none exists: the path beside the checkout, for the skip message.
inline std::filesystem::path sharedCorpus(const std::string& name)
{
    namespace fs = std::filesystem;
    if (const char* dir = std::getenv("FXRAY_SHARED_DIR"))
        return fs::path(dir) / "corpora" / name;
    const fs::path source = fs::weakly_canonical(fs::path(FXRAY_SOURCE_DIR));
    for (fs::path up = source.parent_path(); !up.empty(); up = up.parent_path()) {
        const fs::path candidate = up / "shared" / "corpora" / name;
        if (fs::exists(candidate))
            return candidate;
        if (up == up.root_path())
            break;
    }
    return source.parent_path() / "shared" / "corpora" / name;
}

// The file's bytes; empty when it cannot be read.
inline std::string readAll(const std::string& path)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray b = f.readAll();
    return std::string(b.constData(), static_cast<std::size_t>(b.size()));
}

// Files under `dir` (any depth) whose names match `pattern`, sorted.
inline std::vector<QString> findFiles(const QString& dir, const QString& pattern)
{
    std::vector<QString> out;
    QDirIterator it(dir, {pattern}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        out.push_back(it.next());
    std::sort(out.begin(), out.end());
    return out;
}

// Runs `fn`, which must throw fxray::Error whose text contains every one of `needles`.
// Returns the error text ("" and a warning saying why otherwise).
inline std::string expectError(const std::function<void()>& fn, const std::vector<std::string>& needles)
{
    try {
        fn();
    } catch (const Error& e) {
        const std::string what = e.what();
        for (const auto& n : needles)
            if (what.find(n) == std::string::npos) {
                qWarning("error text lacks '%s': %s", n.c_str(), what.c_str());
                return {};
            }
        return what;
    } catch (const std::exception& e) {
        qWarning("unexpected exception type: %s", e.what());
        return {};
    }
    qWarning("no error was raised");
    return {};
}

// Whether the fxray executable at `path` serves `fxray worker` (builds with LibTorch list it among their commands).
inline bool fxrayHasWorker(const std::string& path)
{
    const CommandResult r = runCommand("'" + path + "' --help", std::chrono::seconds(30));
    return r.output.find("\n  worker ") != std::string::npos;
}

}  // namespace fxray::test

#define EXPECT_ERROR(expr, ...) QVERIFY(!fxray::test::expectError([&] { (void)(expr); }, {__VA_ARGS__}).empty())
