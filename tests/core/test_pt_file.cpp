// torch.save archives: the zip reader (core/io/zip_reader.h) and the .pt reader (core/io/pt_file.h).
// Hand-made archives come from tests/data/bad/make_bad_pickles.py (checked against torch.load when written).
#include "base/error.h"
#include "graph/dtype.h"
#include "io/input_pickle.h"
#include "io/pt_file.h"
#include "io/zip_reader.h"

#include "test_support.h"

#include <QtTest/QtTest>

#include <cstring>
#include <functional>
#include <random>

using namespace fxray;
using namespace fxray::io;

namespace {

const QString kSamples = QStringLiteral(FXRAY_SAMPLES_DIR "/h100/dumps");
const std::string kZip = FXRAY_TEST_DATA_DIR "/bad/zip/";

using fxray::test::expectError;
using fxray::test::readAll;

std::vector<QString> sampleFiles(const QString& pattern) { return fxray::test::findFiles(kSamples, pattern); }

template <typename T>
T element(const TensorRecord& t, std::int64_t index)
{
    T v{};
    std::memcpy(&v, t.data.data() + index * static_cast<std::int64_t>(sizeof(T)), sizeof(T));
    return v;
}

std::vector<std::int64_t> dims(const std::vector<graph::SymDim>& v)
{
    std::vector<std::int64_t> out;
    for (const auto& d : v)
        out.push_back(d.value.value_or(-1));
    return out;
}

std::vector<std::string> keys(const PtValue& dict)
{
    std::vector<std::string> out;
    for (const auto& [k, v] : dict.entries)
        out.push_back(k.text);
    return out;
}

}  // namespace

class TestPtFile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QDir(kSamples).exists(), "samples missing: copy /work/shared/samples/dumps to samples/h100/");
    }

    // ---- the samples ----
    // Every sample's state_dict.pt is an empty OrderedDict (AOT graphs take parameters as inputs): their
    // data.pkl is OrderedDict() with only the _metadata attribute set.
    void sampleStateDictsAreEmptyOrderedDicts()
    {
        const auto files = sampleFiles(QStringLiteral("state_dict.pt"));
        QCOMPARE(files.size(), std::size_t{9});
        for (const QString& f : files) {
            const PtFile pt = readPtFile(f.toStdString());
            QCOMPARE(pt.archiveName, std::string("state_dict"));
            QCOMPARE(pt.root.kind, PtValue::Kind::Dict);
            QVERIFY(pt.root.entries.empty());
        }
    }

    // Each <name>.pt (the real example inputs) against its <name>.input: same count, dtypes, shapes, strides,
    // devices; storage bytes are storageNumel * itemsize and hold the tensor.
    void sampleInputTensorsMatchTheirInputPickles()
    {
        int files = 0;
        int tensors = 0;
        for (const QString& input : sampleFiles(QStringLiteral("*.input"))) {
            QString ptPath = input;
            ptPath.replace(QStringLiteral(".input"), QStringLiteral(".pt"));
            const auto metas = readInputPickle(input.toStdString());
            const PtFile pt = readPtFile(ptPath.toStdString());
            ++files;
            QCOMPARE(pt.archiveName, QFileInfo(ptPath).completeBaseName().toStdString());
            QCOMPARE(pt.root.kind, PtValue::Kind::List);
            QCOMPARE(pt.root.items.size(), metas.size());
            for (std::size_t i = 0; i < metas.size(); ++i) {
                const PtValue& v = pt.root.items[i];
                QVERIFY(metas[i].isTensor());
                QVERIFY2(v.isTensor(), qPrintable(ptPath + QStringLiteral(" entry %1").arg(i)));
                const TensorRecord& t = *v.tensor;
                QCOMPARE(t.dtype, metas[i].tensor.dtype);
                QCOMPARE(t.sizes, dims(metas[i].tensor.sizes));
                QCOMPARE(t.strides, dims(*metas[i].tensor.strides));
                QCOMPARE(t.device(), *metas[i].tensor.device);
                QCOMPARE(t.location, std::string("cuda:0"));
                const auto item = static_cast<std::int64_t>(graph::dtypeItemSize(t.dtype));
                QCOMPARE(static_cast<std::int64_t>(t.data.size()), t.storageNumel * item);
                QVERIFY(t.numel() <= t.storageNumel);
                QVERIFY(t.archive != nullptr);
                ++tensors;
            }
        }
        QCOMPARE(files, 9);
        QVERIFY(tensors > 50);
    }

    void sampleArchivesAreWellFormed()
    {
        for (const QString& f : sampleFiles(QStringLiteral("*.pt"))) {
            const ZipReader zip(f.toStdString());
            const std::string prefix = zip.archivePrefix();
            QVERIFY(zip.find(prefix + "/data.pkl"));
            QCOMPARE(zip.read(prefix + "/byteorder"), std::string_view("little"));
            for (const auto& e : zip.entries()) {
                QCOMPARE(e.method, std::uint16_t{0});
                QVERIFY2(zip.crcMatches(e), qPrintable(f + " " + QString::fromStdString(e.name)));
                if (e.name.starts_with(prefix + "/data/"))
                    QCOMPARE(e.dataOffset % 64, std::uint64_t{0});  // torch aligns storages to 64 bytes
            }
        }
    }

    // ---- hand-made archives (values checked against torch.load when they were written) ----
    void goldenStateDictKeepsOrderParametersAndViews()
    {
        const PtFile pt = readPtFile(kZip + "golden_state_dict.pt");
        QCOMPARE(pt.root.kind, PtValue::Kind::Dict);
        QCOMPARE(keys(pt.root), (std::vector<std::string>{"fc.weight", "fc.bias", "bn.num_batches_tracked",
                                                          "fc.weight_t", "fc.weight_row1", "half", "u16"}));
        const TensorRecord& w = *pt.root.find("fc.weight")->tensor;
        QVERIFY(w.isParameter);
        QVERIFY(w.requiresGrad);
        QCOMPARE(w.dtype, graph::DType::Float32);
        QCOMPARE(w.sizes, (std::vector<std::int64_t>{3, 4}));
        QCOMPARE(w.strides, (std::vector<std::int64_t>{4, 1}));
        QCOMPARE(w.location, std::string("cpu"));
        QCOMPARE(w.device().index, -1);
        for (int i = 0; i < 12; ++i)
            QCOMPARE(element<float>(w, i), static_cast<float>(i));
        const TensorRecord& bias = *pt.root.find("fc.bias")->tensor;
        QCOMPARE(bias.location, std::string("cuda:0"));
        QCOMPARE(element<float>(bias, 2), 2.5f);

        const TensorRecord& steps = *pt.root.find("bn.num_batches_tracked")->tensor;
        QCOMPARE(steps.dtype, graph::DType::Int64);
        QVERIFY(steps.sizes.empty());
        QCOMPARE(steps.numel(), std::int64_t{1});
        QCOMPARE(element<std::int64_t>(steps, 0), std::int64_t{7});
        QVERIFY(!steps.isParameter);

        const TensorRecord& wt = *pt.root.find("fc.weight_t")->tensor;  // transposed view, same storage
        QCOMPARE(wt.strides, (std::vector<std::int64_t>{1, 4}));
        QVERIFY(wt.data.data() == w.data.data());
        QCOMPARE(wt.storageKey, w.storageKey);
        const TensorRecord& row = *pt.root.find("fc.weight_row1")->tensor;
        QCOMPARE(row.storageOffset, std::int64_t{5});
        QCOMPARE(element<float>(row, row.storageOffset), 5.0f);

        const TensorRecord& half = *pt.root.find("half")->tensor;
        QCOMPARE(half.dtype, graph::DType::BFloat16);
        QCOMPARE(half.data.size(), std::size_t{8});
        QCOMPARE(element<std::uint16_t>(half, 1), std::uint16_t{0x4000});  // bf16 2.0

        const TensorRecord& u16 = *pt.root.find("u16")->tensor;  // _rebuild_tensor_v3 on an UntypedStorage
        QCOMPARE(u16.dtype, graph::DType::UInt16);
        QCOMPARE(u16.storageNumel, std::int64_t{3});
        QCOMPARE(element<std::uint16_t>(u16, 2), std::uint16_t{65535});

        const graph::TensorMeta meta = wt.meta();
        QCOMPARE(dims(meta.sizes), (std::vector<std::int64_t>{4, 3}));
        QCOMPARE(dims(*meta.strides), (std::vector<std::int64_t>{1, 4}));
        QCOMPARE(meta.device->type, std::string("cpu"));
    }

    void goldenInputsListHoldsTensorsAndScalars_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("torch layout") << "golden_inputs.pt";
        QTest::newRow("ZIP64 extra fields") << "golden_zip64.pt";
    }
    void goldenInputsListHoldsTensorsAndScalars()
    {
        QFETCH(QString, file);
        const PtFile pt = readPtFile(kZip + file.toStdString());
        const auto& items = pt.root.items;
        QCOMPARE(pt.root.kind, PtValue::Kind::List);
        QCOMPARE(items.size(), std::size_t{6});
        QVERIFY(items[0].isTensor());
        QCOMPARE(items[0].tensor->sizes, (std::vector<std::int64_t>{2, 3}));
        QCOMPARE(element<float>(*items[0].tensor, 5), 6.0f);
        QCOMPARE(items[0].tensor->device(), (graph::Device{"cuda", 0}));
        QCOMPARE(items[1].kind, PtValue::Kind::Int);
        QCOMPARE(items[1].integer, std::int64_t{5});
        QCOMPARE(items[2].kind, PtValue::Kind::Float);
        QCOMPARE(items[2].real, 2.5);
        QCOMPARE(items[3].kind, PtValue::Kind::Bool);
        QVERIFY(items[3].boolean);
        QCOMPARE(items[4].tensor->dtype, graph::DType::Int64);
        QCOMPARE(element<std::int64_t>(*items[4].tensor, 3), std::int64_t{-1});
        QCOMPARE(items[5].tensor->strides, (std::vector<std::int64_t>{8, 1, 4, 2}));  // channels-last

        const ZipReader zip(kZip + file.toStdString());
        for (const auto& e : zip.entries()) {
            QVERIFY(zip.crcMatches(e));
            QCOMPARE(e.dataOffset % 64, std::uint64_t{0});
        }
    }

    // ---- broken archives ----
    void truncatedZipIsRejected()
    {
        const std::string path = kZip + "truncated.pt";
        EXPECT_ERROR(readPtFile(path), path, "end of central directory not found");
        // Every prefix of a good archive fails cleanly.
        const std::string data = readAll(kZip + "golden_inputs.pt");
        QVERIFY(data.size() > 1000);
        QVERIFY(readPtFile(std::make_shared<const ZipReader>(data, "whole.pt")).root.items.size() == 6);
        for (std::size_t len = 0; len < data.size(); ++len)
            EXPECT_ERROR(readPtFile(std::make_shared<const ZipReader>(data.substr(0, len), "cut.pt")), "cut.pt");
    }

    void badCentralDirectoryIsRejected()
    {
        const std::string sig = kZip + "bad_central_dir.pt";
        EXPECT_ERROR(ZipReader(sig), sig, "bad central directory signature for entry 0");
        const std::string oob = kZip + "central_dir_out_of_bounds.pt";
        EXPECT_ERROR(readPtFile(oob), oob, "central directory", "outside the file");
    }

    void compressedEntryIsRejected()
    {
        const std::string path = kZip + "deflate.pt";
        const ZipReader zip(path);  // listing works
        QVERIFY(zip.find("deflate/data.pkl"));
        EXPECT_ERROR(readPtFile(path), path, "deflate/data.pkl", "compressed entries are not supported");
    }

    void storageSmallerThanTensorIsRejected()
    {
        const std::string small = kZip + "small_storage.pt";
        EXPECT_ERROR(readPtFile(small), small, "at [0]", "holds 8 elements", "size [4, 4]", "needs 16");
        const std::string entry = kZip + "short_storage_entry.pt";
        EXPECT_ERROR(readPtFile(entry), entry, "short_storage_entry/data/0' holds 32 bytes", "16 elements");
    }

    void bigEndianArchiveIsRejected()
    {
        const std::string path = kZip + "big_endian.pt";
        EXPECT_ERROR(readPtFile(path), path, "little-endian", "'big'");
    }

    void selfReferencingPickleIsRejected()
    {
        const std::string path = kZip + "self_reference.pt";
        EXPECT_ERROR(readPtFile(path), path, "contains itself");
        const std::string wrapped = kZip + "wrapped_self.pt";
        EXPECT_ERROR(readPtFile(wrapped), wrapped, "tensor wrapped too deeply");
        const std::string rewrapped = kZip + "rewrapped_self.pt";
        EXPECT_ERROR(readPtFile(rewrapped), rewrapped, "tensor wrapped too deeply");
    }

    void hostileGlobalInDataPklIsRefused()
    {
        const std::string path = kZip + "hostile.pt";
        EXPECT_ERROR(readPtFile(path), path + "/hostile/data.pkl", "pickle global 'os.system' is not allowed");
    }

    void nonTorchFilesAreRejected()
    {
        EXPECT_ERROR(readPtFile(kZip + "not_torch.zip"), "not_torch.zip", "<archive>/data.pkl");
        EXPECT_ERROR(readPtFile(kZip + "missing.pt"), "missing.pt", "cannot open");
        EXPECT_ERROR(readPtFile(kZip), "not a regular file");
        EXPECT_ERROR(ZipReader(std::string("\x80\x02\x8a\x0a", 4), "legacy.pt"), "legacy.pt", "legacy torch.save");
        EXPECT_ERROR(ZipReader(std::string(), "empty.pt"), "empty.pt", "too small");
        const std::string input = (kSamples + "/mlp/mlp_forward_0/mlp_forward_0.input").toStdString();
        EXPECT_ERROR(readPtFile(input), input);
    }

    // Random byte flips in a good archive: each read succeeds or fails with fxray::Error, never anything else.
    void randomCorruptionNeverCrashes()
    {
        std::mt19937 rng(4321);
        const std::string seed = readAll(kZip + "golden_state_dict.pt");
        QVERIFY(!seed.empty());
        int ok = 0;
        int failed = 0;
        for (int round = 0; round < 3000; ++round) {
            std::string data = seed;
            const int flips = 1 + static_cast<int>(rng() % 3);
            for (int f = 0; f < flips; ++f) {
                // Aim half of the flips at the central directory and end records, where offsets live.
                const std::size_t span = (rng() & 1) ? 400 : data.size();
                data[data.size() - 1 - rng() % span] = static_cast<char>(rng() & 0xFF);
            }
            try {
                const PtFile pt = readPtFile(std::make_shared<const ZipReader>(std::move(data), "mutant.pt"));
                ++ok;
            } catch (const Error&) {
                ++failed;
            }
        }
        QCOMPARE(ok + failed, 3000);
        QVERIFY(failed > 0);
    }

    void crc32MatchesZlib()
    {
        QCOMPARE(crc32(""), std::uint32_t{0});
        QCOMPARE(crc32("123456789"), std::uint32_t{0xCBF43926});
    }
};

QTEST_GUILESS_MAIN(TestPtFile)
#include "test_pt_file.moc"
