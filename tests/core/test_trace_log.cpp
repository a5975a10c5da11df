// TORCH_TRACE reading: the real sample log (MD5s, graph records, frames, payload lines), broken logs in
// tests/data/bad/trace (written by make_bad_logs.py there), file-name ranks, sniffing; and MD5 itself,
// which the reader relies on to trust payloads.
#include "base/error.h"
#include "base/md5.h"
#include "io/graph_source.h"
#include "io/trace_log.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

using namespace fxray;
using namespace fxray::io;

namespace {

const std::string kSample = std::string(FXRAY_SAMPLES_DIR) + "/h100/trace/mlp_encoder_inductor.log";
const std::string kBad = std::string(FXRAY_TEST_DATA_DIR) + "/bad/trace/";

bool contains(const std::string& haystack, const std::string& needle)
{
    return haystack.find(needle) != std::string::npos;
}

const char* cstr(const std::string& s) { return s.c_str(); }

std::string header(std::string_view json)
{
    return "V1121 11:39:52.969000 453 torch/x.py:12] " + std::string(json) + "\n";
}

std::string withPayload(std::string_view json, const std::string& payload)
{
    std::string meta(json);
    meta.insert(meta.size() - 1, ", \"has_payload\": \"" + md5Hex(payload) + "\"");
    std::string out = header(meta);
    out.pop_back();
    std::size_t start = 0;
    for (;;) {
        const std::size_t nl = payload.find('\n', start);
        out += "\n\t" + payload.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
        if (nl == std::string::npos)
            break;
        start = nl + 1;
    }
    return out + "\n";
}

}  // namespace

class TestTraceLog : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // ---- MD5 --------------------------------------------------------------------------------------------

    void md5MatchesRfc1321Vectors_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("digest");
        // RFC 1321, appendix A.5.
        QTest::newRow("empty") << QByteArray("") << "d41d8cd98f00b204e9800998ecf8427e";
        QTest::newRow("a") << QByteArray("a") << "0cc175b9c0f1b6a831c399e269772661";
        QTest::newRow("abc") << QByteArray("abc") << "900150983cd24fb0d6963f7d28e17f72";
        QTest::newRow("message digest") << QByteArray("message digest") << "f96b697d7cb7938d525a2f31aaf161d0";
        QTest::newRow("alphabet") << QByteArray("abcdefghijklmnopqrstuvwxyz") << "c3fcd3d76192e4007dfb496cca67e13b";
        QTest::newRow("alphanumeric") << QByteArray("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
                                      << "d174ab98d277d9f5a5611c2c9f419d9f";
        QTest::newRow("digits x8") << QByteArray("12345678901234567890123456789012345678901234567890123456789012345678901234567890")
                                   << "57edf4a22be3c955ac49da2e2107b67a";
    }

    void md5MatchesRfc1321Vectors()
    {
        QFETCH(QByteArray, input);
        QFETCH(QString, digest);
        const std::string_view data(input.constData(), std::size_t(input.size()));
        QCOMPARE(QString::fromStdString(md5Hex(data)), digest);
        // Fed byte by byte, the digest is the same.
        Md5 md5;
        for (char c : data)
            md5.update(std::string_view(&c, 1));
        QCOMPARE(QString::fromStdString(md5.finishHex()), digest);
    }

    void md5IsIndependentOfChunkingAcrossBlockBoundaries()
    {
        // Lengths around the 56- and 64-byte padding edges, in uneven pieces.
        std::string data;
        for (int i = 0; i < 300; ++i)
            data += char('a' + i % 26);
        for (std::size_t len : {55u, 56u, 57u, 63u, 64u, 65u, 119u, 120u, 128u, 300u}) {
            const std::string_view whole(data.data(), len);
            const std::string expected = md5Hex(whole);
            Md5 md5;
            for (std::size_t pos = 0, step = 1; pos < len; pos += step, step = step * 2 + 1)
                md5.update(whole.substr(pos, step));
            QCOMPARE(md5.finishHex(), expected);
        }
        QCOMPARE(md5Hex("The quick brown fox jumps over the lazy dog"), std::string("9e107d9d372bb6826bd81d3542a419d6"));
    }

    // ---- The real sample --------------------------------------------------------------------------------

    void readsSampleLogWithoutProblems()
    {
        QVERIFY2(QFileInfo::exists(QString::fromStdString(kSample)), cstr(kSample));
        const TraceLog log = readTraceLog(kSample);
        QCOMPARE(log.records.size(), std::size_t(513));  // grep -vc $'^\t'
        QCOMPARE(log.lineCount, 16505);                  // wc -l
        QCOMPARE(log.problemCount(), std::size_t(0));
        QVERIFY(log.diagnostics.empty());
        QCOMPARE(log.rank, -1);
        QCOMPARE(log.records.front().kind, std::string("chromium_event"));
        QCOMPARE(log.records.front().line, 1);
    }

    void everySamplePayloadVerifiesItsMd5()
    {
        const TraceLog log = readTraceLog(kSample);
        int withPayload = 0;
        for (const TraceRecord& r : log.records) {
            QVERIFY2(r.error.empty(), cstr(r.error));
            QVERIFY(r.payloadOk);
            if (r.hasPayload) {
                ++withPayload;
                QVERIFY(r.payloadLine == r.line + 1);
                QCOMPARE(md5Hex(r.payload), r.header["has_payload"].asString());
            } else {
                QCOMPARE(r.payloadLineCount, 0);
            }
        }
        QCOMPARE(withPayload, 444);  // grep -c has_payload
    }

    void listsSampleGraphRecordsWithGrepCounts()
    {
        const TraceLog log = readTraceLog(kSample);
        std::map<std::string, int> counts;
        for (const TraceGraphRecord& g : graphRecords(log)) {
            QCOMPARE(g.name, log.records[g.index].name());
            QVERIFY(log.records[g.index].isGraph);
            ++counts[g.name];
        }
        // Each count checked with grep on the log: grep -c '{"aot_joint_graph"', grep -c '"name": "fx_graph_runnable"', ...
        const std::map<std::string, int> expected = {
            {"dynamo_output_graph", 2},   {"aot_joint_graph", 2},          {"aot_forward_graph", 2},
            {"aot_backward_graph", 2},    {"before_pre_grad_graph", 2},    {"after_pre_grad_graph", 2},
            {"before_post_grad_graph", 4}, {"inductor_post_grad_graph", 4}, {"fx_graph_runnable", 4},
        };
        QCOMPARE(counts, expected);
        // Look-alikes that are not graphs: aot_forward_graph_fw_metadata (a string artifact not named *_graph).
        for (const TraceRecord& r : log.records) {
            if (r.name() == "aot_forward_graph_fw_metadata" || r.kind == "chromium_event" || r.kind == "inductor_output_code")
                QVERIFY(!r.isGraph);
        }
    }

    void sampleHasFramesZeroAndOne()
    {
        const TraceLog log = readTraceLog(kSample);
        std::set<int> frames;
        std::set<std::pair<int, std::string>> graphsPerFrame;
        for (const TraceRecord& r : log.records) {
            if (r.frameId >= 0) {
                frames.insert(r.frameId);
                QCOMPARE(r.frameCompileId, 0);
                QCOMPARE(r.attempt, 0);
            }
        }
        QCOMPARE(frames, (std::set<int>{0, 1}));
        for (const TraceGraphRecord& g : graphRecords(log))
            graphsPerFrame.insert({log.records[g.index].frameId, g.name});
        QVERIFY(graphsPerFrame.count({0, "aot_forward_graph"}) == 1);
        QVERIFY(graphsPerFrame.count({1, "aot_forward_graph"}) == 1);
        QVERIFY(graphsPerFrame.count({1, "dynamo_output_graph"}) == 1);
        // "str" records (the interned file-name table) carry no frame.
        const auto str = std::find_if(log.records.begin(), log.records.end(), [](const TraceRecord& r) { return r.kind == "str"; });
        QVERIFY(str != log.records.end());
        QCOMPARE(str->frameId, -1);
        QCOMPARE(str->frameCompileId, -1);
    }

    void firstForwardGraphHasItsPayloadAndLines()
    {
        const TraceLog log = readTraceLog(kSample);
        const auto fw = std::find_if(log.records.begin(), log.records.end(),
                                     [](const TraceRecord& r) { return r.kind == "aot_forward_graph"; });
        QVERIFY(fw != log.records.end());
        // grep -n '{"aot_forward_graph"' gives 1256; its payload starts on the next line.
        QCOMPARE(fw->line, 1256);
        QCOMPARE(fw->payloadLine, 1257);
        QVERIFY(fw->payload.starts_with("class GraphModule(torch.nn.Module):\n    def forward(\n"));
        QCOMPARE(fw->frameId, 0);
        QCOMPARE(fw->level, 'V');
        QCOMPARE(fw->pid, 453);
        QCOMPARE(fw->timestamp, std::string("1121 11:39:52.969000"));
        QCOMPARE(fw->source, std::string("torch/_functorch/_aot_autograd/graph_compile.py:1708"));
        QVERIFY(fw->isGraph);
        QCOMPARE(fw->header["has_payload"].asString(), std::string("23206f67a02123c143cf6c623499a5c6"));
        // The payload's line count matches the lines until the next header.
        const TraceRecord& next = *(fw + 1);
        QCOMPARE(fw->payloadLine + fw->payloadLineCount, next.line);
        QCOMPARE(int(std::count(fw->payload.begin(), fw->payload.end(), '\n')) + 1, fw->payloadLineCount);
    }

    void artifactRecordsCarryTheirName()
    {
        const TraceLog log = readTraceLog(kSample);
        int runnables = 0;
        for (const TraceRecord& r : log.records) {
            if (r.kind != "artifact") {
                QVERIFY(r.artifactName.empty());
                continue;
            }
            QVERIFY(!r.artifactName.empty());
            QCOMPARE(r.artifactName, r.header["artifact"]["name"].asString());
            if (r.artifactName == "fx_graph_runnable") {
                ++runnables;
                QVERIFY(contains(r.payload, "def forward("));
            }
        }
        QCOMPARE(runnables, 4);
    }

    void withoutPayloadsKeepsVerdictsAndGraphList()
    {
        const TraceLog full = readTraceLog(kSample);
        const TraceLog lean = readTraceLog(kSample, false);
        QCOMPARE(lean.records.size(), full.records.size());
        for (std::size_t i = 0; i < lean.records.size(); ++i) {
            QVERIFY(lean.records[i].payload.empty());
            QCOMPARE(lean.records[i].payloadOk, full.records[i].payloadOk);
            QCOMPARE(lean.records[i].payloadLine, full.records[i].payloadLine);
            QCOMPARE(lean.records[i].isGraph, full.records[i].isGraph);
        }
        QCOMPARE(graphRecords(lean).size(), graphRecords(full).size());
        QCOMPARE(graphRecords(lean).size(), std::size_t(24));
    }

    // The index (keepPayloads = false) reads the file in 4 MiB chunks and keeps only where each payload is: for
    // the sample, every broken log, and a log of three samples (lines cut across chunk boundaries), each record
    // has the same verdict, error, warning and line numbers as a full read, and tracePayload gives its payload
    // byte for byte (CRLF, a "\r" that belongs to the payload, blank lines whose tab an editor stripped).
    void indexGivesEveryPayloadAsAFullRead()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string tripled = dir.filePath("tripled.log").toStdString();
        {
            std::ifstream in(kSample, std::ios::binary);
            const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            std::ofstream out(tripled, std::ios::binary);
            for (int k = 0; k < 3; ++k)
                out << text;
        }
        std::vector<std::string> logs = {kSample, tripled};
        for (const auto& e : std::filesystem::directory_iterator(kBad))
            if (e.path().extension() == ".log")
                logs.push_back(e.path().string());
        QVERIFY(logs.size() > 10);
        for (const std::string& path : logs) {
            const TraceLog full = readTraceLog(path);
            const TraceLog index = readTraceLog(path, false);
            QVERIFY2(!index.payloadsKept, cstr(path));
            QCOMPARE(index.records.size(), full.records.size());
            QCOMPARE(index.lineCount, full.lineCount);
            QCOMPARE(index.diagnostics.size(), full.diagnostics.size());
            for (std::size_t i = 0; i < index.records.size(); ++i) {
                const TraceRecord& a = index.records[i];
                const TraceRecord& b = full.records[i];
                const std::string where = path + " record " + std::to_string(i);
                QVERIFY2(a.payload.empty(), cstr(where));
                QVERIFY2(a.payloadOk == b.payloadOk && a.isGraph == b.isGraph && a.line == b.line, cstr(where));
                QVERIFY2(a.payloadLine == b.payloadLine && a.payloadLineCount == b.payloadLineCount, cstr(where));
                QVERIFY2(a.error == b.error, cstr(where + ": " + a.error + " vs " + b.error));
                QVERIFY2(a.warning == b.warning, cstr(where));
                QVERIFY2(tracePayload(index, a) == b.payload, cstr(where));
            }
        }
        QCOMPARE(graphRecords(readTraceLog(tripled, false)).size(), std::size_t(72));
    }

    // A log rewritten after it was indexed: reading a payload back is an error naming the record's line, never
    // another record's text.
    void payloadOfAChangedLogIsAnError()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("x.log").toStdString();
        std::filesystem::copy_file(kSample, path);
        const TraceLog index = readTraceLog(path, false);
        const std::vector<TraceGraphRecord> graphs = graphRecords(index);
        QVERIFY(!graphs.empty());
        const TraceRecord& r = index.records[graphs.front().index];
        QVERIFY(tracePayload(index, r).find("def forward(") != std::string::npos);
        {
            std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(static_cast<std::streamoff>(r.payloadOffset + 10));
            f.put('#');
        }
        try {
            tracePayload(index, r);
            QFAIL("a changed payload was read back");
        } catch (const Error& e) {
            QVERIFY2(contains(e.what(), "changed since it was read") && contains(e.what(), ":" + std::to_string(r.line)), e.what());
        }
    }

    void readsSampleQuickly()
    {
        // The target is well under 50 ms in an optimized build; the bound here only catches pathologies
        // (it must also hold in debug and sanitizer builds).
        qint64 best = std::numeric_limits<qint64>::max();
        for (int i = 0; i < 5; ++i) {
            QElapsedTimer timer;
            timer.start();
            const TraceLog log = readTraceLog(kSample);
            best = std::min(best, timer.nsecsElapsed());
            QCOMPARE(log.records.size(), std::size_t(513));
        }
        qInfo("readTraceLog(mlp_encoder_inductor.log, 2.1 MB): best of 5 = %.2f ms", double(best) / 1e6);
        QVERIFY(best < 1000 * 1000 * 1000LL);
    }

    // ---- Names and sniffing -----------------------------------------------------------------------------

    void rankComesFromFileName_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("rank");
        QTest::newRow("rank 3") << "dedicated_log_torch_trace_rank_3_abc.log" << 3;
        QTest::newRow("rank 0 in dir") << "/tmp/logs/dedicated_log_torch_trace_rank_0_x1y2z3.log" << 0;
        QTest::newRow("rank 12") << "dedicated_log_torch_trace_rank_12_q_w.log" << 12;
        QTest::newRow("no rank") << "dedicated_log_torch_trace_abc.log" << -1;
        QTest::newRow("rank word only") << "dedicated_log_torch_trace_rank_abc.log" << -1;
        QTest::newRow("other name") << "mlp_encoder_inductor.log" << -1;
        QTest::newRow("rank in directory only") << "/x/dedicated_log_torch_trace_rank_3_abc/other.log" << -1;
        QTest::newRow("huge rank") << "dedicated_log_torch_trace_rank_99999999999_abc.log" << -1;
        QTest::newRow("empty") << "" << -1;
    }

    void rankComesFromFileName()
    {
        QFETCH(QString, path);
        QFETCH(int, rank);
        QCOMPARE(traceLogRank(path.toStdString()), rank);
    }

    void recognisesRecordHeaders_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<bool>("isHeader");
        QTest::newRow("sample") << R"(V1121 11:39:50.185000 453 torch/_dynamo/utils.py:2126] {"chromium_event": {}})" << true;
        QTest::newRow("info level") << R"(I0101 00:00:00.000001 1 a.py:1] {})" << true;
        QTest::newRow("critical level") << R"(C0101 00:00:00.000001 1 a.py:1] {})" << true;
        QTest::newRow("space in path") << R"(W1121 11:39:50.185000 453 /home/J Doe/a b.py:7] {"x": 1})" << true;
        QTest::newRow("colon in path") << R"(E1121 11:39:50.185000 453 C:\torch\a.py:7] {"x": 1})" << true;
        QTest::newRow("trace id group") << R"(V1121 11:39:50.185000 453 a.py:7] [0/0] {"x": 1})" << true;
        QTest::newRow("plain TORCH_LOGS text") << R"(V1121 11:39:50.185000 453 a.py:7] [0/0] some message)" << false;
        QTest::newRow("level D") << R"(D1121 11:39:50.185000 453 a.py:7] {})" << false;
        QTest::newRow("no line number") << R"(V1121 11:39:50.185000 453 a.py] {})" << false;
        QTest::newRow("no path") << R"(V1121 11:39:50.185000 453 :7] {})" << false;
        QTest::newRow("bad time") << R"(V1121 11:39:5.185000 453 a.py:7] {})" << false;
        QTest::newRow("no pid") << R"(V1121 11:39:50.185000 a.py:7] {})" << false;
        QTest::newRow("payload line") << "\tclass GraphModule(torch.nn.Module):" << false;
        QTest::newRow("empty") << "" << false;
    }

    void recognisesRecordHeaders()
    {
        QFETCH(QString, line);
        QFETCH(bool, isHeader);
        QCOMPARE(isTraceRecordHeader(line.toStdString()), isHeader);
    }

    void sniffsTraceLogsByTheirFirstLine()
    {
        QVERIFY(looksLikeTraceLog(kSample));
        QVERIFY(looksLikeTraceLog(kBad + "good.log"));
        QVERIFY(looksLikeTraceLog(kBad + "crlf.log"));
        QVERIFY(looksLikeTraceLog(kBad + "md5_mismatch.log"));  // sniffing looks at the first line only
        QVERIFY(!looksLikeTraceLog(kBad + "garbage.log"));
        QVERIFY(!looksLikeTraceLog(kBad + "empty.log"));
        QVERIFY(!looksLikeTraceLog(kBad + "blank_lines.log"));
        QVERIFY(!looksLikeTraceLog(kBad + "stray_lines.log"));  // starts with orphan payload lines
        QVERIFY(!looksLikeTraceLog(kBad + "make_bad_logs.py"));
        QVERIFY(!looksLikeTraceLog(kBad + "does_not_exist.log"));
        QVERIFY(!looksLikeTraceLog(kBad));  // a directory
        QVERIFY(!looksLikeTraceLog(""));
    }

    void sniffingSkipsLeadingBlankLinesAndBom()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("x.log").toStdString();
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("\xEF\xBB\xBF\n\r\n");
        f.write(header(R"({"str": ["a.py", 0]})").c_str());
        f.close();
        QVERIFY(looksLikeTraceLog(path));
        QCOMPARE(readTraceLog(path).records.size(), std::size_t(1));
    }

    // ---- Broken logs --------------------------------------------------------------------------------------

    void goodLogReadsCleanly()
    {
        const TraceLog log = readTraceLog(kBad + "good.log");
        QCOMPARE(log.records.size(), std::size_t(3));
        QCOMPARE(log.problemCount(), std::size_t(0));
        const auto graphs = graphRecords(log);
        QCOMPARE(graphs.size(), std::size_t(2));
        QCOMPARE(graphs[0].name, std::string("aot_forward_graph"));
        QCOMPARE(graphs[0].index, std::size_t(1));
        QCOMPARE(graphs[1].name, std::string("before_pre_grad_graph"));
        // A trailing payload line of spaces (the payload ended in "\n        ") is kept exactly.
        QVERIFY(log.records[1].payload.ends_with("return (relu,)\n        "));
        QCOMPARE(log.records[1].line, 8);
        QCOMPARE(log.records[1].payloadLine, 9);
        QCOMPARE(log.records[1].payloadLineCount, 6);
    }

    void md5MismatchMarksOnlyThatRecord()
    {
        const std::string path = kBad + "md5_mismatch.log";
        const TraceLog log = readTraceLog(path);
        QCOMPARE(log.records.size(), std::size_t(3));
        QVERIFY(log.diagnostics.empty());
        QCOMPARE(log.problemCount(), std::size_t(1));
        QVERIFY(log.records[0].payloadOk && log.records[0].error.empty());
        QVERIFY(log.records[2].payloadOk && log.records[2].error.empty());
        const TraceRecord& bad = log.records[1];
        QVERIFY(!bad.payloadOk);
        QVERIFY(bad.hasPayload);
        QVERIFY2(bad.error.starts_with(path + ":8: payload md5 mismatch: header says 51b1e7476a446a05cc07899213f2b74e, "
                                              "payload (lines 9-14) hashes to "),
                 cstr(bad.error));
        QVERIFY(!contains(bad.error, "truncated"));
        // Still listed as a graph, so the user sees it exists and why it cannot be used.
        QCOMPARE(graphRecords(log).size(), std::size_t(2));
    }

    void malformedJsonHeaderKeepsItsNeighbours()
    {
        const std::string path = kBad + "malformed_header.log";
        const TraceLog log = readTraceLog(path);
        QCOMPARE(log.records.size(), std::size_t(3));
        QVERIFY(log.diagnostics.empty());  // its payload lines stay with it, not reported one by one
        const TraceRecord& bad = log.records[1];
        QVERIFY(bad.kind.empty());
        QVERIFY(bad.header.isNull());
        QVERIFY(!bad.payloadOk);
        QVERIFY(!bad.isGraph);
        QCOMPARE(bad.payloadLine, 9);
        // JSON starts at column 81; the second comma of ",," is byte 77 of the JSON.
        QCOMPARE(bad.error, path + ":8:158: malformed JSON header: invalid JSON: unexpected ',', expected a string key at byte 77");
        QVERIFY(log.records[2].error.empty());
        QCOMPARE(log.records[2].artifactName, std::string("before_pre_grad_graph"));
        QCOMPARE(graphRecords(log).size(), std::size_t(1));
    }

    void truncatedPayloadIsReportedAsTruncated()
    {
        const std::string path = kBad + "truncated_payload.log";
        const TraceLog log = readTraceLog(path);
        QCOMPARE(log.records.size(), std::size_t(2));
        QVERIFY(log.records[0].payloadOk);
        const TraceRecord& cut = log.records[1];
        QVERIFY(!cut.payloadOk);
        QCOMPARE(cut.payloadLineCount, 4);  // the 4th line stops mid-way
        QVERIFY2(cut.error.starts_with(path + ":8: payload md5 mismatch"), cstr(cut.error));
        QVERIFY2(contains(cut.error, "(lines 9-12)"), cstr(cut.error));
        QVERIFY2(cut.error.ends_with("(the file ends inside this payload: truncated?)"), cstr(cut.error));
    }

    void truncatedHeaderIsAMalformedRecord()
    {
        const std::string path = kBad + "truncated_header.log";
        const TraceLog log = readTraceLog(path);
        QCOMPARE(log.records.size(), std::size_t(2));
        QVERIFY(log.records[0].payloadOk);
        QVERIFY2(log.records[1].error.starts_with(path + ":8:"), cstr(log.records[1].error));
        QVERIFY(contains(log.records[1].error, "malformed JSON header"));
        QVERIFY(log.records[1].error.ends_with("(the file ends inside this line: truncated?)"));
    }

    void garbageBinaryGivesDiagnosticsNotRecords()
    {
        const TraceLog log = readTraceLog(kBad + "garbage.log");
        QVERIFY(log.records.empty());
        QVERIFY(!log.diagnostics.empty());
        // Consecutive bad lines are reported together, so there are at most as many diagnostics as lines.
        int covered = 0;
        for (const TraceDiagnostic& d : log.diagnostics) {
            QVERIFY(d.line >= 1 && d.line <= log.lineCount);
            QVERIFY(d.lineCount >= 1);
            covered += d.lineCount;
        }
        QVERIFY(covered <= log.lineCount);
        QCOMPARE(log.problemCount(), log.diagnostics.size());
    }

    void crlfLineEndingsAreTolerated()
    {
        // CRLF is stripped to LF, and the MD5 is checked over the LF form (what PyTorch hashed).
        const TraceLog crlf = readTraceLog(kBad + "crlf.log");
        const TraceLog lf = readTraceLog(kBad + "good.log");
        QCOMPARE(crlf.problemCount(), std::size_t(0));
        QCOMPARE(crlf.records.size(), lf.records.size());
        for (std::size_t i = 0; i < crlf.records.size(); ++i) {
            QVERIFY(crlf.records[i].payloadOk);
            QCOMPARE(crlf.records[i].payload, lf.records[i].payload);
            QCOMPARE(crlf.records[i].payloadLine, lf.records[i].payloadLine);
            QVERIFY(crlf.records[i].payload.find('\r') == std::string::npos);
        }
        QCOMPARE(graphRecords(crlf).size(), std::size_t(2));
    }

    void payloadLinesReallyEndingInCrStillVerify()
    {
        // The payload "x\r\ny\r\nz" was hashed with its "\r"s: stripping them fails, keeping them matches.
        const TraceLog log = readTraceLog(kBad + "cr_in_payload.log");
        QCOMPARE(log.problemCount(), std::size_t(0));
        QCOMPARE(log.records.size(), std::size_t(2));
        QCOMPARE(log.records[1].payload, std::string("x\r\ny\r\nz"));
        QVERIFY(log.records[1].payloadOk);
    }

    void strayLinesBecomeDiagnosticsWithLineNumbers()
    {
        const std::string path = kBad + "stray_lines.log";
        const TraceLog log = readTraceLog(path);
        QCOMPARE(log.records.size(), std::size_t(3));
        for (const TraceRecord& r : log.records)
            QVERIFY2(r.payloadOk && r.error.empty(), cstr(r.error));
        QCOMPARE(log.diagnostics.size(), std::size_t(4));
        QCOMPARE(log.diagnostics[0].line, 1);
        QCOMPARE(log.diagnostics[0].lineCount, 2);
        QCOMPARE(log.diagnostics[0].message, path + ":1: lines 1-2 are payload lines with no record header before them");
        QCOMPARE(log.diagnostics[1].line, 10);
        QCOMPARE(log.diagnostics[1].lineCount, 2);
        QCOMPARE(log.diagnostics[1].message, path + ":10: lines 10-11 are neither TORCH_TRACE record headers nor payload lines");
        QCOMPARE(log.diagnostics[2].line, 12);
        QCOMPARE(log.diagnostics[2].message, path + ":12: line 12 is a payload line with no record header before it");
        QCOMPARE(log.diagnostics[3].line, 20);
        QCOMPARE(log.diagnostics[3].message, path + ":20: line 20 is neither a TORCH_TRACE record header nor a payload line");
        QCOMPARE(log.records[1].line, 13);
        QCOMPARE(log.records[2].line, 21);
    }

    void emptyFileHasNoRecords()
    {
        for (const char* name : {"empty.log", "blank_lines.log"}) {
            const TraceLog log = readTraceLog(kBad + name);
            QVERIFY(log.records.empty());
            QVERIFY(log.diagnostics.empty());
            QVERIFY(graphRecords(log).empty());
        }
    }

    void unreadablePathsThrowError()
    {
        QVERIFY_THROWS_EXCEPTION(Error, readTraceLog(kBad + "does_not_exist.log"));
        QVERIFY_THROWS_EXCEPTION(Error, readTraceLog(kBad));  // a directory
        try {
            readTraceLog(kBad + "does_not_exist.log");
        } catch (const Error& e) {
            QCOMPARE(e.where().file, kBad + "does_not_exist.log");
        }
    }

    // ---- What discovery and loading make of damaged logs (graph_source) ---------------------------------

    void discoveryReportsRecordsThatMayHaveBeenGraphs()
    {
        // malformed_header.log listed its one good graph and `fxray info` exited 0: the record behind the
        // broken header (a graph) was dropped without a word.
        const Discovery d = discover(kBad + "malformed_header.log");
        QCOMPARE(d.graphs.size(), std::size_t(1));
        QCOMPARE(d.errors.size(), std::size_t(1));
        QVERIFY2(contains(d.errors[0], "malformed_header.log:8:158: malformed JSON header"), cstr(d.errors[0]));
        QVERIFY(discover(kBad + "good.log").errors.empty());
        // A log cut inside a header's prefix: the line is a diagnostic, and the only news there is.
        try {
            discover(kBad + "truncated_prefix.log");
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(contains(e.what(), "truncated_prefix.log:8: line 8 is neither a TORCH_TRACE record header"), e.what());
        }
    }

    void payloadErrorsNameTheLogsLineAndColumn()
    {
        // Columns were the payload's, one short of the log's (payload lines start with a tab).
        try {
            loadAddress(kBad + "payload_undefined_name.log#0/0/aot_forward_graph");
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(contains(e.what(), "payload_undefined_name.log:12:70: node 'relu': undefined name 'permutee'"), e.what());
        }
    }

    // ---- Record rules, on text in memory ------------------------------------------------------------------

    void unknownGraphArtifactsNeedAForwardDefinition()
    {
        const std::string graph = "class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        return (x,)";
        const std::string text =
            withPayload(R"({"artifact": {"name": "custom_pass_graph", "encoding": "string"}})", graph)
            + withPayload(R"({"artifact": {"name": "custom_pass_graph", "encoding": "string"}})", "no code here")
            + withPayload(R"({"artifact": {"name": "custom_json_graph", "encoding": "json"}})", graph)
            + withPayload(R"({"optimize_ddp_split_graph": {}})", graph)
            + withPayload(R"({"aot_inference_graph": {}})", graph)
            + withPayload(R"({"artifact": {"name": "compiled_autograd_graph", "encoding": "string"}})", graph);
        const TraceLog log = parseTraceLog(text);
        QCOMPARE(log.problemCount(), std::size_t(0));
        const auto graphs = graphRecords(log);
        QCOMPARE(graphs.size(), std::size_t(4));
        QCOMPARE(graphs[0].index, std::size_t(0));
        QCOMPARE(graphs[1].name, std::string("optimize_ddp_split_graph"));
        QCOMPARE(graphs[2].name, std::string("aot_inference_graph"));
        QCOMPARE(graphs[3].name, std::string("compiled_autograd_graph"));
    }

    void headerProblemsAreRecordErrors()
    {
        const std::string text = header(R"({"x": 1})") + "\tunexpected payload\n"  // no has_payload
                                 + header(R"({"y": 1, "has_payload": 5})")        // not a string
                                 + header("{}")                                   // no kind
                                 + header(R"({"z": {}, "has_payload": "d41d8cd98f00b204e9800998ecf8427e"})")  // md5("")
                                 + "\t\n";
        const TraceLog log = parseTraceLog(text, "t.log");
        QCOMPARE(log.records.size(), std::size_t(4));
        QCOMPARE(log.records[0].error, std::string("t.log:1: payload lines (line 2) follow a header without \"has_payload\""));
        QCOMPARE(log.records[1].error, std::string("t.log:3: \"has_payload\" is not a string"));
        QCOMPARE(log.records[2].error, std::string("t.log:4: header object is empty: no record kind"));
        // An empty payload is written as one lone tab.
        QVERIFY(log.records[3].payloadOk);
        QCOMPARE(log.records[3].payloadLineCount, 1);
        QVERIFY(log.records[3].payload.empty());
        QCOMPARE(log.problemCount(), std::size_t(3));
    }

    void manyStrayLinesAreCapped()
    {
        // Alternating header-less payload lines and stray text: every line is its own diagnostic, up to a cap.
        std::string text;
        for (int i = 0; i < 5000; ++i)
            text += "junk\n\torphan\n";
        const TraceLog log = parseTraceLog(text);
        QVERIFY(log.diagnostics.size() <= 1001);
        QVERIFY(contains(log.diagnostics.back().message, "more problems not listed"));
        QCOMPARE(log.lineCount, 10000);
    }

    // ---- Logs edited after writing, export logs (tlparse's export.log) ------------------------------------

    void blankLinesInsideAPayloadAreItsEmptyLines()
    {
        // An editor stripped the lone tab of an empty payload line: the record used to end there and the rest
        // of its payload became "payload lines with no record header".
        const std::string payload = "class G(torch.nn.Module):\n\n    def forward(self, x):\n        return (x,)";
        std::string text = withPayload(R"({"aot_forward_graph": {}})", payload);
        const std::size_t tabOnly = text.find("\n\t\n");
        QVERIFY(tabOnly != std::string::npos);
        text.erase(tabOnly + 1, 1);
        text += "\n" + header(R"({"str": ["x", 0]})");  // a blank line after a payload ends it
        const TraceLog log = parseTraceLog(text, "t.log");
        QCOMPARE(log.problemCount(), std::size_t(0));
        QCOMPARE(log.records.size(), std::size_t(2));
        QCOMPARE(log.records[0].payload, payload);
        QCOMPARE(log.records[0].payloadLineCount, 4);
        QVERIFY(log.records[0].warning.empty());  // the MD5 still matches: the stripped line held only the tab
    }

    void whitespaceStrippedFromAPayloadLeavesItUsableWithAWarning()
    {
        // print_readable's blank lines inside an indented ExportedProgram carry spaces; stripped, the MD5 fails.
        const std::string payload = "ExportedProgram:\n    class GraphModule(torch.nn.Module):\n"
                                    "        def forward(self, x: \"f32[4]\"):\n            \n"
                                    "            relu = torch.ops.aten.relu.default(x)\n            return (relu,)\n"
                                    "\nGraph signature: ExportGraphSignature(input_specs=[])";
        std::string text = withPayload(R"({"exported_program": {}, "stack": []})", payload);
        const std::size_t spaces = text.find("\n\t            \n");
        QVERIFY(spaces != std::string::npos);
        text.erase(spaces + 1, 13);
        const std::string path = std::string(FXRAY_BINARY_DIR) + "/test_tmp/export_stripped.log";
        std::filesystem::create_directories(std::filesystem::path(path).parent_path());
        std::ofstream(path, std::ios::binary) << text;
        const TraceLog log = readTraceLog(path);
        QCOMPARE(log.problemCount(), std::size_t(0));
        QVERIFY(log.records[0].payloadOk);
        QVERIFY2(contains(log.records[0].warning, "export_stripped.log:1: payload md5 mismatch")
                     && contains(log.records[0].warning, "line 5 is blank where PyTorch writes a tab"),
                 cstr(log.records[0].warning));
        // Discovery lists it under an address that works (records of no frame printed '-1/-1', unparseable).
        const Discovery d = discover(path);
        QVERIFY(d.errors.empty());
        QCOMPARE(d.graphs.size(), std::size_t(1));
        QCOMPARE(d.graphs[0].address, path + "#-/exported_program");
        QCOMPARE(d.graphs[0].group, std::string("[-]"));
        const LoadedGraph lg = loadAddress(d.graphs[0].address);
        QCOMPARE(lg.graph.nodes.size(), std::size_t(3));
        QCOMPARE(lg.warnings.size(), std::size_t(1));
        QVERIFY(contains(lg.warnings[0], "used unverified"));
        std::filesystem::remove(path);
    }

    void editedPayloadWithoutBlankLinesIsStillDamaged()
    {
        // The warning is only for blank lines: any other edit keeps failing the record.
        std::string text = withPayload(R"({"aot_forward_graph": {}})", "a\nb");
        text.replace(text.find("\tb"), 2, "\tc");
        const TraceLog log = parseTraceLog(text, "t.log");
        QVERIFY(!log.records[0].payloadOk);
        QVERIFY(log.records[0].warning.empty());
        QVERIFY(contains(log.records[0].error, "payload md5 mismatch"));
    }

    void exportAndRecompileRecordsAreGraphRecords()
    {
        const std::string graph = "class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        return (x,)";
        std::string text = withPayload(R"({"exported_program": {}})", "ExportedProgram:\n" + graph);
        for (const char* name : {"before_recompile_pre_grad", "after_recompile_pre_grad", "before_recompile_post_grad",
                                 "after_recompile_post_grad"})
            text += withPayload(R"({"artifact": {"name": ")" + std::string(name) + R"(", "encoding": "string"}})", graph);
        const auto graphs = graphRecords(parseTraceLog(text));
        QCOMPARE(graphs.size(), std::size_t(5));
        QCOMPARE(graphs[0].name, std::string("exported_program"));
        QCOMPARE(graphs[4].name, std::string("after_recompile_post_grad"));
    }
};

QTEST_APPLESS_MAIN(TestTraceLog)
#include "test_trace_log.moc"
