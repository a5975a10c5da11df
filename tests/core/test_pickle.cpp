// The restricted unpickler (core/io/pickle.h) and the seed layout's .input reader (core/io/input_pickle.h).
// Hand-made files come from tests/data/bad/make_bad_pickles.py.
#include "base/error.h"
#include "graph/dtype.h"
#include "graph/tensor_meta.h"
#include "io/input_pickle.h"
#include "io/pickle.h"

#include "test_support.h"

#include <QtTest/QtTest>

#include <cmath>
#include <functional>
#include <limits>
#include <random>

using namespace fxray;
using namespace fxray::io;
using namespace std::string_view_literals;

namespace {

const QString kSamples = QStringLiteral(FXRAY_SAMPLES_DIR "/h100/dumps");
const std::string kBad = FXRAY_TEST_DATA_DIR "/bad/pickle/";
const char* const kPwned = "/tmp/fxray_pickle_pwned";  // what the hostile pickles would create if run

using fxray::test::expectError;
using fxray::test::readAll;

// "f32[8, 3, 32, 32][3072, 1, 96, 3]cuda:0": the print_readable annotation of a tensor input.
std::string annotation(const graph::ValueMeta& m)
{
    if (m.kind != graph::ValueMeta::Kind::Tensor)
        return "<not a tensor>";
    auto list = [](const std::vector<graph::SymDim>& v) {
        std::string s = "[";
        for (std::size_t i = 0; i < v.size(); ++i)
            s += (i ? ", " : "") + v[i].expr;
        return s + "]";
    };
    const auto& t = m.tensor;
    return std::string(graph::dtypeAbbrev(t.dtype)) + list(t.sizes) + (t.strides ? list(*t.strides) : "")
        + (t.device ? t.device->str() : "");
}

// Placeholder annotations of a .readable.py, in order: inline in `def forward(...)` or, for joint graphs,
// as bare `name: "..."` statements. Node annotations are followed by " = " and are skipped.
std::vector<std::pair<std::string, std::string>> placeholderAnnotations(const QString& readablePath)
{
    QFile f(readablePath);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    const QString text = QString::fromUtf8(f.readAll());
    static const QRegularExpression re(QStringLiteral("(\\w+): \"([^\"]*)\"(?!\\s*=)"));
    std::vector<std::pair<std::string, std::string>> out;
    auto it = re.globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        out.emplace_back(m.captured(1).toStdString(), m.captured(2).toStdString());
    }
    return out;
}

std::vector<QString> sampleFiles(const QString& pattern) { return fxray::test::findFiles(kSamples, pattern); }

const PickleValue* dictGet(const Pickle& p, const PickleValue& dict, const std::string& key)
{
    for (const auto& [k, v] : dict.entries)
        if (p[k].kind == PickleKind::String && p[k].text == key)
            return &p[v];
    return nullptr;
}

std::vector<std::int64_t> ints(const Pickle& p, const PickleValue& seq)
{
    std::vector<std::int64_t> out;
    for (const auto id : seq.items)
        out.push_back(p[id].kind == PickleKind::Int ? p[id].integer : -999);
    return out;
}

}  // namespace

class TestPickle : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QDir(kSamples).exists(), "samples missing: copy /work/shared/samples/dumps to samples/h100/");
    }

    // ---- the samples ----
    void everySampleInputMatchesItsReadableAnnotations()
    {
        const auto inputs = sampleFiles(QStringLiteral("*.input"));
        QCOMPARE(inputs.size(), std::size_t{9});
        for (const QString& path : inputs) {
            const auto metas = readInputPickle(path.toStdString());
            QString readable = path;
            readable.replace(QStringLiteral(".input"), QStringLiteral(".readable.py"));
            const auto expected = placeholderAnnotations(readable);
            QVERIFY2(!expected.empty(), qPrintable(readable));
            QCOMPARE(metas.size(), expected.size());
            for (std::size_t i = 0; i < metas.size(); ++i) {
                QVERIFY2(annotation(metas[i]) == expected[i].second,
                         qPrintable(path + ": " + QString::fromStdString(expected[i].first + " " + annotation(metas[i])
                                                                        + " vs " + expected[i].second)));
            }
        }
    }

    // Hard-coded from cnn_channels_last_forward_0.readable.py: primals_3 "f32[8, 3, 32, 32][3072, 1, 96, 3]cuda:0",
    // primals_4 "i64[][]cuda:0"; backward_0: convolution "f32[8, 16, 32, 32][16384, 1, 512, 16]cuda:0",
    // getitem_6 "i64[8, 16, 16, 16][4096, 1, 256, 16]cuda:0".
    void cnnChannelsLastInputsKeepChannelsLastStrides()
    {
        using graph::SymDim;
        const auto fwd = readInputPickle((kSamples + "/cnn_channels_last/cnn_channels_last_forward_0/"
                                                     "cnn_channels_last_forward_0.input").toStdString());
        QCOMPARE(fwd.size(), std::size_t{10});
        const auto& x = fwd[2].tensor;
        QCOMPARE(fwd[2].kind, graph::ValueMeta::Kind::Tensor);
        QCOMPARE(x.dtype, graph::DType::Float32);
        QVERIFY((x.sizes == std::vector{SymDim::constant(8), SymDim::constant(3), SymDim::constant(32),
                                        SymDim::constant(32)}));
        QVERIFY((*x.strides == std::vector{SymDim::constant(3072), SymDim::constant(1), SymDim::constant(96),
                                           SymDim::constant(3)}));
        QCOMPARE(x.device->type, std::string("cuda"));
        QCOMPARE(x.device->index, 0);
        QCOMPARE(fwd[3].tensor.dtype, graph::DType::Int64);
        QVERIFY(fwd[3].tensor.sizes.empty());
        QVERIFY(fwd[3].tensor.strides && fwd[3].tensor.strides->empty());

        const auto bwd = readInputPickle((kSamples + "/cnn_channels_last/cnn_channels_last_backward_0/"
                                                     "cnn_channels_last_backward_0.input").toStdString());
        QCOMPARE(bwd.size(), std::size_t{14});
        QCOMPARE(annotation(bwd[3]), std::string("f32[8, 16, 32, 32][16384, 1, 512, 16]cuda:0"));
        QCOMPARE(annotation(bwd[10]), std::string("i64[8, 16, 16, 16][4096, 1, 256, 16]cuda:0"));
    }

    // Hard-coded from embed_ce_forward_0.readable.py: primals_2 / primals_5 "i64[8, 32][32, 1]cuda:0";
    // embed_ce_backward_0: primals_2 "i64[8, 32][32, 1]cuda:0", view_3 "i64[256][1]cuda:0".
    void embedCeIndexInputsAreInt64()
    {
        const auto fwd = readInputPickle(
            (kSamples + "/embed_ce/embed_ce_forward_0/embed_ce_forward_0.input").toStdString());
        QCOMPARE(fwd.size(), std::size_t{5});
        QCOMPARE(annotation(fwd[1]), std::string("i64[8, 32][32, 1]cuda:0"));
        QCOMPARE(annotation(fwd[4]), std::string("i64[8, 32][32, 1]cuda:0"));
        QCOMPARE(fwd[0].tensor.dtype, graph::DType::Float32);
        const auto bwd = readInputPickle(
            (kSamples + "/embed_ce/embed_ce_backward_0/embed_ce_backward_0.input").toStdString());
        QCOMPARE(bwd.size(), std::size_t{8});
        QCOMPARE(annotation(bwd[0]), std::string("i64[8, 32][32, 1]cuda:0"));
        QCOMPARE(annotation(bwd[3]), std::string("i64[256][1]cuda:0"));
    }

    // ---- golden pickles from Python's own pickle, protocols 0-5 ----
    void goldenPicklesMatchPythonValues_data()
    {
        QTest::addColumn<int>("protocol");
        for (int p = 0; p <= 5; ++p)
            QTest::newRow(qPrintable(QStringLiteral("protocol %1").arg(p))) << p;
    }
    void goldenPicklesMatchPythonValues()
    {
        QFETCH(int, protocol);
        const Pickle p = readPickleFile(kBad + "golden_p" + std::to_string(protocol) + ".pkl");
        if (protocol >= 2)
            QCOMPARE(p.protocol(), protocol);
        const PickleValue& root = p.root();
        QCOMPARE(root.kind, PickleKind::Dict);
        const std::vector<std::string> keys = {"none", "true", "false", "ints", "floats", "str", "long_str",
                                               "empty_str", "bytes", "long_bytes", "empty_bytes", "bytearray",
                                               "tuples", "set", "frozenset", "shared", "nested", "od"};
        QCOMPARE(root.entries.size(), keys.size() + 1);
        for (std::size_t i = 0; i < keys.size(); ++i)
            QCOMPARE(p[root.entries[i].first].text, keys[i]);  // insertion order kept
        const auto& last = root.entries.back();
        QCOMPARE(p[last.first].kind, PickleKind::Int);
        QCOMPARE(p[last.first].integer, std::int64_t{7});
        QCOMPARE(p[last.second].text, std::string("int key"));

        QCOMPARE(dictGet(p, root, "none")->kind, PickleKind::None);
        QCOMPARE(dictGet(p, root, "true")->kind, PickleKind::Bool);
        QVERIFY(dictGet(p, root, "true")->boolean);
        QVERIFY(!dictGet(p, root, "false")->boolean);
        const std::vector<std::int64_t> expectedInts = {0, 1, -1, 255, 256, 65535, 65536, -2147483648LL,
                                                        2147483647LL, 2147483648LL,
                                                        std::numeric_limits<std::int64_t>::max(),
                                                        std::numeric_limits<std::int64_t>::min()};
        QCOMPARE(ints(p, *dictGet(p, root, "ints")), expectedInts);
        const auto& floats = dictGet(p, root, "floats")->items;
        QCOMPARE(floats.size(), std::size_t{4});
        QCOMPARE(p[floats[0]].real, 0.5);
        QCOMPARE(p[floats[1]].real, -1.25e300);
        QCOMPARE(p[floats[2]].real, 3.0);
        QVERIFY(std::isinf(p[floats[3]].real) && p[floats[3]].real > 0);
        QCOMPARE(dictGet(p, root, "str")->text, std::string("h\xc3\xa9llo \xe2\x9c\x93"));
        QCOMPARE(dictGet(p, root, "long_str")->text, std::string(300, 'x'));
        QCOMPARE(dictGet(p, root, "empty_str")->kind, PickleKind::String);
        QVERIFY(dictGet(p, root, "empty_str")->text.empty());
        QCOMPARE(dictGet(p, root, "bytes")->kind, PickleKind::Bytes);
        QCOMPARE(dictGet(p, root, "bytes")->text, std::string("\x00\x01\xff", 3));
        std::string longBytes;
        for (int r = 0; r < 2; ++r)
            for (int b = 0; b < 256; ++b)
                longBytes += static_cast<char>(b);
        QCOMPARE(dictGet(p, root, "long_bytes")->kind, PickleKind::Bytes);
        QCOMPARE(dictGet(p, root, "long_bytes")->text, longBytes);
        QCOMPARE(dictGet(p, root, "empty_bytes")->kind, PickleKind::Bytes);
        QVERIFY(dictGet(p, root, "empty_bytes")->text.empty());
        QCOMPARE(dictGet(p, root, "bytearray")->kind, PickleKind::Bytes);
        QCOMPARE(dictGet(p, root, "bytearray")->text, std::string("ab"));

        const auto& tuples = dictGet(p, root, "tuples")->items;
        QCOMPARE(tuples.size(), std::size_t{5});
        for (std::size_t n = 0; n < 5; ++n) {
            QCOMPARE(p[tuples[n]].kind, PickleKind::Tuple);
            std::vector<std::int64_t> expected;
            for (std::size_t k = 1; k <= n; ++k)
                expected.push_back(static_cast<std::int64_t>(k));
            QCOMPARE(ints(p, p[tuples[n]]), expected);
        }
        QCOMPARE(dictGet(p, root, "set")->kind, PickleKind::Set);
        QCOMPARE(ints(p, *dictGet(p, root, "set")), (std::vector<std::int64_t>{1, 2, 3}));
        QCOMPARE(dictGet(p, root, "frozenset")->kind, PickleKind::Set);
        QCOMPARE(ints(p, *dictGet(p, root, "frozenset")), (std::vector<std::int64_t>{4}));

        const auto& shared = dictGet(p, root, "shared")->items;
        QCOMPARE(shared.size(), std::size_t{2});
        QCOMPARE(shared[0], shared[1]);  // one list referenced twice through the memo
        QCOMPARE(ints(p, p[shared[0]]), (std::vector<std::int64_t>{7, 8}));

        const PickleValue* nested = dictGet(p, root, "nested");
        for (int level = 0; level < 3; ++level) {
            QCOMPARE(nested->kind, PickleKind::List);
            QCOMPARE(nested->items.size(), std::size_t{1});
            nested = &p[nested->items[0]];
        }
        QVERIFY(nested->kind == PickleKind::List && nested->items.empty());

        const PickleValue* od = dictGet(p, root, "od");
        QCOMPARE(od->kind, PickleKind::Call);
        QCOMPARE(p[od->callee].qualifiedName(), std::string("collections.OrderedDict"));
        QCOMPARE(od->entries.size(), std::size_t{2});
        QCOMPARE(p[od->entries[0].first].text, std::string("b"));
        QCOMPARE(p[od->entries[0].second].integer, std::int64_t{1});
        QCOMPARE(p[od->entries[1].first].text, std::string("a"));
    }

    // ---- broken and hostile pickles ----
    void truncatedPicklesFailAtEveryOffset()
    {
        const std::vector<std::string> files = {
            kBad + "golden_p0.pkl", kBad + "golden_p2.pkl", kBad + "golden_p4.pkl", kBad + "golden_p5.pkl",
            (kSamples + "/mlp/mlp_joint_0/mlp_joint_0.input").toStdString()};
        for (const auto& file : files) {
            const std::string data = readAll(file);
            QVERIFY(!data.empty());
            QVERIFY(parsePickle(data, file).size() > 0);
            for (std::size_t len = 0; len < data.size(); ++len)
                EXPECT_ERROR(parsePickle(std::string_view(data).substr(0, len), file), file, "at byte");
        }
        const std::string input = readAll(files.back());
        EXPECT_ERROR(parseInputPickle(std::string_view(input).substr(0, input.size() / 2), "half.input"),
                     "half.input", "truncated");
    }

    void garbageBytesAreRejected()
    {
        const std::string file = kBad + "garbage.pkl";
        EXPECT_ERROR(readPickleFile(file), file, "at byte 0", "unknown 0xde", "not a pickle opcode");
        EXPECT_ERROR(readInputPickle(file), file);
        EXPECT_ERROR(parsePickle("", "empty.pkl"), "empty.pkl", "ended without STOP");
        EXPECT_ERROR(readPickleFile(kBad + "does_not_exist.pkl"), "does_not_exist.pkl", "cannot open");
    }

    // Random byte flips in real pickles: each one parses or fails with fxray::Error, never anything else.
    void randomMutationsNeverCrash()
    {
        std::mt19937 rng(1234);
        const std::vector<std::string> seeds = {
            readAll(kBad + "golden_p2.pkl"), readAll(kBad + "golden_p4.pkl"),
            readAll((kSamples + "/cnn_channels_last/cnn_channels_last_forward_0/cnn_channels_last_forward_0.input")
                        .toStdString())};
        int parsed = 0;
        int failed = 0;
        for (int round = 0; round < 3000; ++round) {
            std::string data = seeds[static_cast<std::size_t>(round) % seeds.size()];
            const int flips = 1 + static_cast<int>(rng() % 4);
            for (int f = 0; f < flips; ++f)
                data[rng() % data.size()] = static_cast<char>(rng() & 0xFF);
            try {
                const Pickle p = parsePickle(data, "mutant.pkl");
                (void)p.describe(p.rootId());
                try {
                    (void)parseInputPickle(data, "mutant.input");
                } catch (const Error&) {
                }
                ++parsed;
            } catch (const Error&) {
                ++failed;
            }
        }
        QCOMPARE(parsed + failed, 3000);
        QVERIFY(failed > 0);
    }

    void disallowedGlobalsAreNamedAndNothingRuns_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("global");
        QTest::newRow("os.system, protocol 0") << "os_system_p0.pkl" << "os.system";
        QTest::newRow("posix.system, protocol 4") << "posix_system_p4.pkl" << "posix.system";
        QTest::newRow("builtins.eval, protocol 2") << "builtins_eval_p2.pkl" << "builtins.eval";
    }
    void disallowedGlobalsAreNamedAndNothingRuns()
    {
        QFETCH(QString, file);
        QFETCH(QString, global);
        QFile::remove(QString::fromLatin1(kPwned));
        const std::string path = kBad + file.toStdString();
        EXPECT_ERROR(readPickleFile(path), path, "pickle global '" + global.toStdString() + "' is not allowed");
        EXPECT_ERROR(readInputPickle(path), "pickle global '" + global.toStdString() + "' is not allowed");
        QVERIFY(!QFile::exists(QString::fromLatin1(kPwned)));
    }

    void callerWhitelistReplacesTheDefault()
    {
        const std::string path = (kSamples + "/mlp/mlp_forward_0/mlp_forward_0.input").toStdString();
        PickleOptions none;
        EXPECT_ERROR(readPickleFile(path, none),
                     "pickle global 'torch._subclasses.fake_tensor.FakeTensor' is not allowed");
        PickleOptions exact;
        exact.allowedGlobals = {"torch._subclasses.fake_tensor.FakeTensor", "torch.Size", "torch.float32",
                                "torch.device"};
        const Pickle p = readPickleFile(path, exact);
        QCOMPARE(p.root().items.size(), std::size_t{5});
        QVERIFY(defaultAllowedGlobals().contains("torch.bfloat16"));
        QVERIFY(defaultAllowedGlobals().contains("torch._utils._rebuild_tensor_v2"));
        QVERIFY(!defaultAllowedGlobals().contains("os.system"));
        QVERIFY(!defaultAllowedGlobals().contains("builtins.eval"));
        QVERIFY(!defaultAllowedGlobals().contains("builtins.getattr"));
    }

    void selfReferencingListParsesWithoutLooping()
    {
        const std::string path = kBad + "recursive_list.pkl";
        const Pickle p = readPickleFile(path);
        QCOMPARE(p.root().kind, PickleKind::List);
        QCOMPARE(p.root().items.size(), std::size_t{1});
        QCOMPARE(p.root().items[0], p.rootId());
        const std::string shown = p.describe(p.rootId());
        QVERIFY(shown.size() < 200);
        QVERIFY(shown.find("...") != std::string::npos);
        EXPECT_ERROR(readInputPickle(path), path, "input entry 0");
    }

    void hugeDeclaredLengthIsRejectedWithoutAllocating()
    {
        const std::string s = kBad + "huge_string.pkl";
        const std::string what = expectError([&] { readPickleFile(s); },
                                             {s, "declared length 2147483647 exceeds the 3 bytes left"});
        QVERIFY(!what.empty());
        EXPECT_ERROR(readPickleFile(kBad + "huge_bytes8.pkl"), "declared length 4611686018427387904", "BINBYTES8");
        // A FRAME larger than the data is refused the same way.
        EXPECT_ERROR(parsePickle("\x80\x04\x95\xff\xff\xff\xff\xff\xff\xff\x7fN."sv, "f.pkl"),
                     "frame of", "FRAME");
    }

    void errorsNameFileOffsetAndOpcode()
    {
        const std::string s = kBad + "huge_string.pkl";
        try {
            readPickleFile(s);
            QFAIL("no error");
        } catch (const Error& e) {
            QCOMPARE(e.where().file, s);
            QVERIFY2(e.message().find("at byte 2, opcode BINUNICODE 0x58") != std::string::npos, e.what());
        }
    }

    void nestingBeyondLimitIsRejected()
    {
        for (const char* f : {"deep_lists.pkl", "deep_tuples.pkl", "deep_marks.pkl"})
            EXPECT_ERROR(readPickleFile(kBad + f), kBad + f, "nesting deeper than 256 levels");
        PickleOptions generous = defaultPickleOptions();
        generous.limits.maxDepth = 400;
        QCOMPARE(readPickleFile(kBad + "deep_lists.pkl", generous).root().kind, PickleKind::List);
        PickleOptions strict = defaultPickleOptions();
        strict.limits.maxDepth = 4;
        EXPECT_ERROR(readPickleFile(kBad + "golden_p4.pkl", strict), "nesting deeper than 4 levels");
    }

    void otherLimitsAreEnforced()
    {
        const std::string path = kBad + "golden_p4.pkl";
        PickleOptions o = defaultPickleOptions();
        o.limits.maxMemo = 3;
        EXPECT_ERROR(readPickleFile(path, o), "memo larger than 3");
        o = defaultPickleOptions();
        o.limits.maxStack = 5;
        EXPECT_ERROR(readPickleFile(path, o), "stack larger than 5");
        o = defaultPickleOptions();
        o.limits.maxValues = 10;
        EXPECT_ERROR(readPickleFile(path, o), "more than 10 values");
    }

    void unsupportedOpcodesAreNamed()
    {
        EXPECT_ERROR(readPickleFile(kBad + "next_buffer_p5.pkl"), "out-of-band buffers", "NEXT_BUFFER");
        EXPECT_ERROR(parsePickle("(i__main__\nX\n."sv, "inst.pkl"), "class instances", "INST");
        EXPECT_ERROR(parsePickle("\x80\x02\x82\x01."sv, "ext.pkl"), "extension", "EXT1");
        EXPECT_ERROR(parsePickle("\x80\x02\xff."sv, "op.pkl"), "unknown 0xff");
        EXPECT_ERROR(parsePickle("\x80\x06N."sv, "p6.pkl"), "unsupported pickle protocol 6");
    }

    void stackAndMemoMisuseIsReported()
    {
        EXPECT_ERROR(readPickleFile(kBad + "bad_memo.pkl"), "memo entry 5 is missing", "BINGET");
        EXPECT_ERROR(parsePickle("\x80\x02" "a."sv, "x.pkl"), "stack underflow", "APPEND");
        EXPECT_ERROR(parsePickle("\x80\x02" ")Na."sv, "x.pkl"), "cannot append to a tuple");
        EXPECT_ERROR(parsePickle("\x80\x02" "K\x01t."sv, "x.pkl"), "no MARK", "TUPLE");
        EXPECT_ERROR(parsePickle("\x80\x02" "}Nb."sv, "x.pkl"), "BUILD on a dict");
        EXPECT_ERROR(parsePickle("\x80\x02" "K\x01K\x02\x93."sv, "x.pkl"), "STACK_GLOBAL needs two strings");
        EXPECT_ERROR(parsePickle("\x80\x02" "cbuiltins\nint\nK\x01R."sv, "x.pkl"),
                     "call arguments must be a tuple", "REDUCE");
        EXPECT_ERROR(parsePickle("\x80\x02" "."sv, "x.pkl"), "stack underflow", "STOP");
        // Values below a MARK are out of reach, as in Python.
        EXPECT_ERROR(parsePickle("\x80\x02" "](a."sv, "x.pkl"), "stack underflow");
        EXPECT_ERROR(parsePickle("\x80\x02\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x01."sv, "x.pkl"),
                     "does not fit in 64 bits", "LONG1");
    }

    void textOpcodesOfOldProtocolsAreDecoded()
    {
        // INT/LONG/FLOAT/STRING/UNICODE/PUT/GET/DICT/LIST/TUPLE as protocol 0 writes them.
        const std::string data = "(dp0\nS'a\\x41\\n'\np1\nI42\nsVh\\u00e9\\u2713\np2\nL-5L\nsS\"q\"\nF1.5\nsg1\n"
                                 "((lI01\naI00\natp3\ns.";
        const Pickle p = parsePickle(data, "p0.pkl");
        const auto& root = p.root();
        QCOMPARE(root.kind, PickleKind::Dict);
        QCOMPARE(root.entries.size(), std::size_t{4});
        QCOMPARE(p[root.entries[0].first].text, std::string("aA\n"));
        QCOMPARE(p[root.entries[0].second].integer, std::int64_t{42});
        QCOMPARE(p[root.entries[1].first].text, std::string("h\xc3\xa9\xe2\x9c\x93"));
        QCOMPARE(p[root.entries[1].second].integer, std::int64_t{-5});
        QCOMPARE(p[root.entries[2].second].real, 1.5);
        QCOMPARE(root.entries[3].first, root.entries[0].first);  // GET 1 -> the memoized key
        const auto& tuple = p[root.entries[3].second];
        QCOMPARE(tuple.kind, PickleKind::Tuple);
        QCOMPARE(p[tuple.items[0]].kind, PickleKind::List);
        QVERIFY(p[p[tuple.items[0]].items[0]].boolean);
        QVERIFY(!p[p[tuple.items[0]].items[1]].boolean);
    }

    void symIntEntriesFromCaptureCompanion()
    {
        const auto metas = readInputPickle(kBad + "symint.input");
        QCOMPARE(metas.size(), std::size_t{6});
        QCOMPARE(annotation(metas[0]), std::string("f32[4, 8][8, 1]cuda:0"));
        QCOMPARE(metas[1].kind, graph::ValueMeta::Kind::SymInt);
        QCOMPARE(metas[1].symExpr, std::string("24"));
        QCOMPARE(metas[2].kind, graph::ValueMeta::Kind::Int);
        QVERIFY(metas[2].symExpr.empty());
        QCOMPARE(metas[3].kind, graph::ValueMeta::Kind::Float);
        QCOMPARE(metas[4].kind, graph::ValueMeta::Kind::SymFloat);
        QCOMPARE(metas[4].symExpr, std::string("0.5"));
        QCOMPARE(annotation(metas[5]), std::string("i64[][]cpu"));
        QCOMPARE(metas[5].tensor.device->index, -1);
    }

    void malformedInputEntriesNameTheIndex()
    {
        const std::string bad = kBad + "bad_entry.input";
        EXPECT_ERROR(readInputPickle(bad), bad, "input entry 1", "unsupported entry", "('junk',)");
        const std::string rank = kBad + "bad_rank.input";
        EXPECT_ERROR(readInputPickle(rank), rank, "input entry 0", "2 sizes but 1 strides");
        EXPECT_ERROR(readInputPickle(kBad + "golden_p4.pkl"), ".input must hold a list");
    }

    void manyEntriesParseInLinearTime()
    {
        // [0, 1, ..., n-1] with every element memoized, as a large data.pkl would be.
        std::string data = "\x80\x04]\x94(";
        const int n = 200000;
        for (int i = 0; i < n; ++i) {
            data += 'J';
            for (int b = 0; b < 4; ++b)
                data += static_cast<char>((i >> (8 * b)) & 0xFF);
            data += '\x94';
        }
        data += "e.";
        QElapsedTimer timer;
        timer.start();
        const Pickle p = parsePickle(data, "big.pkl");
        QCOMPARE(p.root().items.size(), std::size_t(n));
        QCOMPARE(p[p.root().items.back()].integer, std::int64_t{n - 1});
        QVERIFY2(timer.elapsed() < 5000, "parsing 200k entries took too long");
    }
};

QTEST_GUILESS_MAIN(TestPickle)
#include "test_pickle.moc"
