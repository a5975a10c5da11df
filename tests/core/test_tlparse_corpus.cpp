// tlparse's test logs (../shared/corpora/tlparse_test_inputs.tgz, BSD, unpacked at test time and never
// committed): every log reads, every graph record in it is listed and loads by its address. Exits 77 (CTest:
// skipped) when the corpus is not beside the repository.
#include "base/error.h"
#include "io/graph_source.h"
#include "io/trace_log.h"

#include "test_support.h"

#include <QtTest/QtTest>

#include <cstdio>
#include <filesystem>
#include <map>

using namespace fxray;
using namespace fxray::io;
namespace fs = std::filesystem;

namespace {

const fs::path kArchive = fxray::test::sharedCorpus("tlparse_test_inputs.tgz");
const fs::path kUnpacked = fs::path(FXRAY_BINARY_DIR) / "test_tmp" / "tlparse_corpus";

// Graph records found in tlparse's logs when the loader learnt their grammar (dynamo, AOT, inductor pre/post
// grad and recompile artifacts, fx_graph_runnable, exported_program). Fewer means records went unrecognised.
constexpr std::size_t kKnownGraphRecords = 482;

}  // namespace

class TestTlparseCorpus : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        fs::remove_all(kUnpacked);
        fs::create_directories(kUnpacked);
        QProcess tar;
        tar.start("tar", {"-xzf", QString::fromStdString(kArchive.string()), "-C", QString::fromStdString(kUnpacked.string())});
        QVERIFY2(tar.waitForFinished(60000), "tar did not finish");
        QVERIFY2(tar.exitStatus() == QProcess::NormalExit && tar.exitCode() == 0, tar.readAllStandardError().constData());
    }

    void everyLogReadsAndEveryGraphRecordLoads()
    {
        std::size_t logs = 0, records = 0, loaded = 0;
        std::map<std::string, int> byRecord;
        std::vector<std::string> failures;
        std::vector<fs::path> files;
        for (const auto& e : fs::recursive_directory_iterator(kUnpacked))
            if (e.is_regular_file())
                files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const fs::path& file : files) {
            if (fs::file_size(file) == 0)
                continue;  // multi_rank_messy_input's decoys: empty files beside the logs
            ++logs;
            if (!looksLikeTraceLog(file.string())) {
                failures.push_back(file.string() + ": not recognised as a TORCH_TRACE log");
                continue;
            }
            try {
                const TraceLog log = readTraceLog(file.string(), /*keepPayloads=*/false);
                records += graphRecords(log).size();
                const Discovery d = discover(file.string());
                for (const std::string& e : d.errors)
                    failures.push_back(e);
                for (const GraphEntry& entry : d.graphs) {
                    try {
                        const LoadedGraph lg = loadAddress(entry.address);
                        if (lg.graph.outputNode() < 0)
                            throw Error("loaded without an output node", SourceLocation{file.string(), entry.trace->line, 0, {}});
                        ++loaded;
                        ++byRecord[entry.trace->record];
                    } catch (const Error& e) {
                        failures.push_back(e.what());
                    }
                }
            } catch (const Error& e) {
                failures.push_back(e.what());
            }
        }
        for (const auto& [record, count] : byRecord)
            qInfo("  %-28s %d", record.c_str(), count);
        qInfo("%zu logs, %zu graph records, %zu loaded", logs, records, loaded);
        for (const std::string& f : failures)
            qWarning("%s", f.c_str());
        QVERIFY2(failures.empty(), (std::to_string(failures.size()) + " failures (listed above)").c_str());
        QCOMPARE(loaded, records);
        QVERIFY2(records >= kKnownGraphRecords, std::to_string(records).c_str());
        QCOMPARE(logs, std::size_t(36));
    }

    void cleanupTestCase() { fs::remove_all(kUnpacked); }
};

int main(int argc, char** argv)
{
    if (!fs::exists(kArchive)) {
        std::printf("SKIP: %s not found (the shared corpora are not beside the repository)\n", kArchive.c_str());
        return 77;
    }
    TestTlparseCorpus test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_tlparse_corpus.moc"
