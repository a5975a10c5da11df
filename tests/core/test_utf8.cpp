// core/base/utf8: the one UTF-8 encoder and validator (JSON, the unpickler, the FX tokenizer, the text parsers
// share it). Code points at each length boundary, and what a surrogate becomes.
#include "base/error.h"
#include "base/json.h"
#include "base/utf8.h"
#include "io/pickle.h"

#include <QtTest/QtTest>

#include <cstdint>
#include <string>

using namespace fxray;
using namespace std::string_view_literals;

namespace {

std::string encoded(std::uint32_t cp)
{
    std::string out = "<";
    appendUtf8(out, cp);
    return out.substr(1);  // appends, after what is there
}

}  // namespace

class TestUtf8 : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void encodesEachLengthAtItsBoundaries_data()
    {
        QTest::addColumn<uint>("codePoint");
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("U+0000 (1 byte)") << 0x0u << QByteArray("\x00", 1);
        QTest::newRow("U+007F (last of 1)") << 0x7Fu << QByteArray("\x7F");
        QTest::newRow("U+0080 (first of 2)") << 0x80u << QByteArray("\xC2\x80");
        QTest::newRow("U+07FF (last of 2)") << 0x7FFu << QByteArray("\xDF\xBF");
        QTest::newRow("U+0800 (first of 3)") << 0x800u << QByteArray("\xE0\xA0\x80");
        QTest::newRow("U+FFFF (last of 3)") << 0xFFFFu << QByteArray("\xEF\xBF\xBF");
        QTest::newRow("U+10000 (first of 4)") << 0x10000u << QByteArray("\xF0\x90\x80\x80");
        QTest::newRow("U+10FFFF (last of 4)") << 0x10FFFFu << QByteArray("\xF4\x8F\xBF\xBF");
    }
    void encodesEachLengthAtItsBoundaries()
    {
        QFETCH(uint, codePoint);
        QFETCH(QByteArray, bytes);
        const std::string out = encoded(codePoint);
        QCOMPARE(QByteArray::fromStdString(out), bytes);
        // ...and what it wrote reads back as one valid sequence of that length.
        QCOMPARE(utf8SequenceLength(out, 0), out.size());
    }

    void writesASurrogateAsItsThreeBytesWhichReadBackAsInvalid()
    {
        // Encoding refuses nothing (callers check first); the result is not UTF-8, and the validator says so.
        QCOMPARE(encoded(0xD800), std::string("\xED\xA0\x80"));
        QCOMPARE(encoded(0xDFFF), std::string("\xED\xBF\xBF"));
        QCOMPARE(utf8SequenceLength("\xED\xA0\x80"sv, 0), std::size_t{0});
        QCOMPARE(utf8SequenceLength("\xED\x9F\xBF"sv, 0), std::size_t{3});  // U+D7FF, just below them
        // The unpickler's UNICODE opcode keeps a lone surrogate as those bytes (Python keeps it in the str).
        const io::Pickle p = io::parsePickle("V\\ud800\n."sv, "s.pkl");
        QCOMPARE(p.root().text, std::string("\xED\xA0\x80"));
        // JSON refuses it as an escape, and as bytes.
        QVERIFY_THROWS_EXCEPTION(Error, json::parse(R"("\ud800")"));
        QVERIFY_THROWS_EXCEPTION(Error, json::parse("\"\xED\xA0\x80\""));
    }

    void refusesWhatIsNotUtf8_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("stray continuation byte") << QByteArray("\x80");
        QTest::newRow("overlong 2-byte lead C0") << QByteArray("\xC0\x80");
        QTest::newRow("overlong 2-byte lead C1") << QByteArray("\xC1\xBF");
        QTest::newRow("overlong 3-byte form") << QByteArray("\xE0\x9F\xBF");
        QTest::newRow("overlong 4-byte form") << QByteArray("\xF0\x8F\xBF\xBF");
        QTest::newRow("above U+10FFFF") << QByteArray("\xF4\x90\x80\x80");
        QTest::newRow("lead byte F5") << QByteArray("\xF5\x80\x80\x80");
        QTest::newRow("cut short by the end") << QByteArray("\xE2\x82");
        QTest::newRow("ASCII where a continuation belongs") << QByteArray("\xE2\x28\xA1");
        QTest::newRow("bad third byte") << QByteArray("\xF0\x90\x28\x80");
    }
    void refusesWhatIsNotUtf8()
    {
        QFETCH(QByteArray, bytes);
        QCOMPARE(utf8SequenceLength(bytes.toStdString(), 0), std::size_t{0});
    }

    void measuresFromTheGivenPosition()
    {
        const std::string text = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";  // a, é, €, U+1F600
        QCOMPARE(utf8SequenceLength(text, 0), std::size_t{1});
        QCOMPARE(utf8SequenceLength(text, 1), std::size_t{2});
        QCOMPARE(utf8SequenceLength(text, 3), std::size_t{3});
        QCOMPARE(utf8SequenceLength(text, 6), std::size_t{4});
        QCOMPARE(utf8SequenceLength(text, 2), std::size_t{0});  // inside é
    }
};

QTEST_GUILESS_MAIN(TestUtf8)
#include "test_utf8.moc"
