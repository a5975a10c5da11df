// fxray::json: strict parsing with located errors, exact integers, shortest doubles, escaping, building.
#include "base/error.h"
#include "base/json.h"

#include <QtTest/QtTest>

#include <cmath>
#include <limits>
#include <string>

using namespace fxray;
using json::Style;
using json::Value;

namespace {

// The message of the fxray::Error that parsing text throws, or "" when it parses.
std::string parseError(std::string_view text, const json::ParseOptions& options = {})
{
    try {
        json::parse(text, options);
    } catch (const Error& e) {
        return e.message();
    }
    return {};
}

}  // namespace

class TestJson : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parsesScalarsToTheirTypes()
    {
        QVERIFY(json::parse("null").isNull());
        QCOMPARE(json::parse("true").asBool(), true);
        QCOMPARE(json::parse(" false ").asBool(), false);
        QVERIFY(json::parse("42").isInt());
        QCOMPARE(json::parse("-7").asInt(), std::int64_t(-7));
        QVERIFY(json::parse("1.5").isDouble());
        QCOMPARE(json::parse("1.5").asDouble(), 1.5);
        QVERIFY(json::parse("1e2").isDouble());  // an exponent makes it a double even when integral
        QCOMPARE(json::parse("1e2").asInt(), std::int64_t(100));  // ...which asInt still accepts
        QCOMPARE(json::parse("\"x\"").asString(), std::string("x"));
        QCOMPARE(json::parse("-0.0").asDouble(), 0.0);
        QVERIFY(std::signbit(json::parse("-0.0").asDouble()));
    }

    void roundTripsCompactText()
    {
        const std::string text =
            R"({"aot_forward_graph":{},"frame_id":0,"list":[1,-2.5,"s",true,false,null,[],{}],"nested":{"a":{"b":[{"c":1}]}}})";
        const Value v = json::parse(text);
        QCOMPARE(v.dump(), text);
        QVERIFY(json::parse(v.dump(Style::Pretty)) == v);
    }

    void writesPrettyWithTwoSpaceIndent()
    {
        Value v = json::Object{};
        v["name"] = "mm";
        v["shape"] = json::Array{2, 3};
        v["empty"] = json::Array{};
        v["meta"] = json::Object{};
        v["meta"]["ok"] = true;
        const std::string expected = "{\n"
                                     "  \"name\": \"mm\",\n"
                                     "  \"shape\": [\n"
                                     "    2,\n"
                                     "    3\n"
                                     "  ],\n"
                                     "  \"empty\": [],\n"
                                     "  \"meta\": {\n"
                                     "    \"ok\": true\n"
                                     "  }\n"
                                     "}";
        QCOMPARE(v.dump(Style::Pretty), expected);
    }

    void objectsKeepInsertionOrder()
    {
        const Value v = json::parse(R"({"z":1,"a":2,"m":3})");
        std::string keys;
        for (const auto& [key, value] : v.asObject())
            keys += key;
        QCOMPARE(keys, std::string("zam"));
        QCOMPARE(v.dump(), std::string(R"({"z":1,"a":2,"m":3})"));
    }

    void duplicateKeysKeepFirstPositionAndLastValue()
    {
        // Python's json.loads does the same.
        QCOMPARE(json::parse(R"({"a":1,"b":2,"a":3})").dump(), std::string(R"({"a":3,"b":2})"));
    }

    void largeObjectsStayCorrectPastTheIndexThreshold()
    {
        Value v = json::Object{};
        for (int i = 0; i < 1000; ++i)
            v["k" + std::to_string(i)] = i;
        v["k500"] = "replaced";
        QCOMPARE(v.size(), std::size_t(1000));
        QCOMPARE(v["k999"].asInt(), std::int64_t(999));
        QCOMPARE(v["k500"].asString(), std::string("replaced"));
        QVERIFY(v.asObject().erase("k0"));
        QVERIFY(!v.asObject().contains("k0"));
        QCOMPARE(v["k1"].asInt(), std::int64_t(1));
        const Value copy = v;
        QCOMPARE(copy["k998"].asInt(), std::int64_t(998));
        QCOMPARE(copy.asObject().members().front().first, std::string("k1"));
    }

    void buildsValuesPleasantly()
    {
        Value out = json::Object{};
        out["graph"] = "mlp_forward_0";
        out["nodes"] = 42;
        out["ratio"] = 0.25;
        out["errors"].push_back(json::Object{{"node", "mm"}, {"line", 3}});
        out["errors"].push_back(json::Object{{"node", "add"}, {"line", 7u}});
        std::size_t bytes = 1234567;
        out["bytes"] = bytes;
        out["missing"] = nullptr;
        QCOMPARE(out.dump(),
                 std::string(R"({"graph":"mlp_forward_0","nodes":42,"ratio":0.25,"errors":[{"node":"mm","line":3},)"
                             R"({"node":"add","line":7}],"bytes":1234567,"missing":null})"));
        QCOMPARE(out["errors"][1]["node"].asString(), std::string("add"));
    }

    void readingLookupsGiveNullInsteadOfThrowing()
    {
        const Value v = json::parse(R"({"artifact":{"name":"fx_graph_runnable"},"n":[1]})");
        QCOMPARE(v["artifact"]["name"].asString(), std::string("fx_graph_runnable"));
        QVERIFY(v["nope"]["deeper"].isNull());
        QVERIFY(v["n"][5].isNull());
        QVERIFY(v["n"]["key"].isNull());
        QCOMPARE(v.stringOr("nope", "fallback"), std::string("fallback"));
        QCOMPARE(v["artifact"].stringOr("name", ""), std::string("fx_graph_runnable"));
        QCOMPARE(v.intOr("artifact", -1), std::int64_t(-1));
    }

    void wrongTypeAccessThrowsError()
    {
        const Value v = json::parse(R"({"a":"text"})");
        QVERIFY_THROWS_EXCEPTION(Error, v["a"].asInt());
        QVERIFY_THROWS_EXCEPTION(Error, v.asArray());
        QVERIFY_THROWS_EXCEPTION(Error, json::parse("1.5").asInt());
        Value s = "text";
        QVERIFY_THROWS_EXCEPTION(Error, s["key"] = 1);  // a string cannot become an object
        Value a = json::Array{1};
        QVERIFY_THROWS_EXCEPTION(Error, a[std::size_t(3)] = 1);
        try {
            (void)v["a"].asBool();
            QFAIL("no exception");
        } catch (const Error& e) {
            QCOMPARE(e.message(), std::string("JSON: expected bool, got string"));
        }
    }

    void keepsBigIntegersExact()
    {
        // 2^53 + 1 is not representable as a double: it must survive as an integer.
        const Value v = json::parse(R"([9007199254740993,9223372036854775807,-9223372036854775808])");
        QCOMPARE(v[0].asInt(), std::int64_t(9007199254740993LL));
        QCOMPARE(v[1].asInt(), std::numeric_limits<std::int64_t>::max());
        QCOMPARE(v[2].asInt(), std::numeric_limits<std::int64_t>::min());
        QCOMPARE(v.dump(), std::string("[9007199254740993,9223372036854775807,-9223372036854775808]"));
        Value built = std::numeric_limits<std::int64_t>::max();
        QCOMPARE(built.dump(), std::string("9223372036854775807"));
    }

    void integersBeyondInt64BecomeDoubles()
    {
        const Value v = json::parse("18446744073709551616");
        QVERIFY(v.isDouble());
        QCOMPARE(v.asDouble(), 18446744073709551616.0);
        QVERIFY_THROWS_EXCEPTION(Error, v.asInt());
        const Value u = std::numeric_limits<std::uint64_t>::max();
        QVERIFY(u.isDouble());
    }

    void writesShortestRoundTripDoubles()
    {
        QCOMPARE(Value(0.1).dump(), std::string("0.1"));
        QCOMPARE(Value(1.0).dump(), std::string("1.0"));
        QCOMPARE(Value(-2.0).dump(), std::string("-2.0"));
        QCOMPARE(Value(1e300).dump(), std::string("1e+300"));
        QCOMPARE(Value(5e-324).dump(), std::string("5e-324"));
        QCOMPARE(Value(1795261190185095.8).dump(), std::string("1795261190185095.8"));
        for (double d : {0.1 + 0.2, 1.0 / 3.0, 123456.789e-20, std::numeric_limits<double>::max(),
                         std::numeric_limits<double>::denorm_min(), -0.0}) {
            const Value back = json::parse(Value(d).dump());
            QVERIFY(back.isDouble());
            QCOMPARE(back.asDouble(), d);
        }
    }

    void writesNanAndInfinityAsNull()
    {
        Value v = json::Array{std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity()};
        QCOMPARE(v.dump(), std::string("[null,null,null]"));
    }

    void numbersOutsideDoubleRange()
    {
        QVERIFY(!parseError("1e400").empty());
        QCOMPARE(json::parse("1e-400").asDouble(), 0.0);  // underflow is zero, as Python reads it
        QVERIFY(std::signbit(json::parse("-1e-400").asDouble()));
        QCOMPARE(json::parse("0.000000000000000000000000000000000000000000000000000000000000000000000000000000"
                             "0000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                             "0000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                             "0000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                             "00000000000000000000000000000000000000000000000000000000000000000000001")
                     .asDouble(),
                 0.0);
    }

    void escapesStringsWhenWriting()
    {
        Value v = std::string("q\" b\\ / \b\f\n\r\t \x01 \x1f \x7f");
        // (Plain literals here: moc's tokenizer misreads raw strings holding \".)
        QCOMPARE(v.dump(), std::string("\"q\\\" b\\\\ / \\b\\f\\n\\r\\t \\u0001 \\u001f \x7f\""));
        Value nul = std::string("a\0b", 3);
        QCOMPARE(nul.dump(), std::string(R"("a\u0000b")"));
        QCOMPARE(json::parse(nul.dump()).asString(), std::string("a\0b", 3));
    }

    void decodesEscapesWhenParsing()
    {
        QCOMPARE(json::parse("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"").asString(), std::string("\"\\/\b\f\n\r\t"));
        QCOMPARE(json::parse(R"("\u0041\u00e9\u20AC")").asString(), std::string("A\xC3\xA9\xE2\x82\xAC"));
        // U+1F600 as a surrogate pair -> 4-byte UTF-8.
        QCOMPARE(json::parse(R"("\uD83D\uDE00")").asString(), std::string("\xF0\x9F\x98\x80"));
    }

    void passesUtf8Through()
    {
        const std::string text = "\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"";
        const Value v = json::parse(text);
        QCOMPARE(v.asString(), std::string("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));
        QCOMPARE(v.dump(), text);  // written as is, not as \u escapes
    }

    void writerReplacesInvalidUtf8()
    {
        const Value v = std::string("a\xFF" "b\xC3");
        QCOMPARE(v.dump(), std::string("\"a\xEF\xBF\xBD" "b\xEF\xBF\xBD\""));
        QVERIFY(json::parse(v.dump()).isString());
    }

    void rejectsInvalidStrings_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("lone low surrogate") << QByteArray(R"("\uDE00")") << "lone low surrogate in \\u escape at byte 1";
        QTest::newRow("high surrogate alone") << QByteArray(R"("\uD83Dx")")
                                              << "high surrogate not followed by a low surrogate at byte 1";
        QTest::newRow("high + non-low") << QByteArray(R"("\uD83D\u0041")")
                                        << "high surrogate not followed by a low surrogate at byte 7";
        QTest::newRow("bad hex") << QByteArray(R"("\u12G4")") << "invalid hex digit in \\u escape at byte 5";
        QTest::newRow("bad escape") << QByteArray(R"("\x")") << "invalid escape 'x' in string at byte 1";
        QTest::newRow("raw newline") << QByteArray("\"a\nb\"") << "control character byte 0x0A in string (must be escaped) at byte 2";
        QTest::newRow("invalid utf8") << QByteArray("\"a\xFF\"") << "invalid UTF-8 in string at byte 2";
        QTest::newRow("overlong utf8") << QByteArray("\"\xC0\xAF\"") << "invalid UTF-8 in string at byte 1";
        QTest::newRow("utf8 surrogate") << QByteArray("\"\xED\xA0\x80\"") << "invalid UTF-8 in string at byte 1";
        QTest::newRow("unterminated") << QByteArray("\"abc") << "unterminated string at byte 0";
    }

    void rejectsInvalidStrings()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(parseError(std::string_view(text.constData(), std::size_t(text.size())))),
                 "invalid JSON: " + expected);
    }

    void malformedInputsReportByteOffsets_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QByteArray("") << "unexpected end of input, expected a value at byte 0";
        QTest::newRow("only spaces") << QByteArray("   ") << "unexpected end of input, expected a value at byte 3";
        QTest::newRow("trailing comma array") << QByteArray("[1,2,]") << "unexpected ']', expected a value at byte 5";
        QTest::newRow("trailing comma object") << QByteArray(R"({"a":1,})") << "unexpected '}', expected a string key at byte 7";
        QTest::newRow("missing colon") << QByteArray(R"({"a" 1})") << "unexpected '1', expected ':' at byte 5";
        QTest::newRow("missing comma") << QByteArray(R"({"a":1 "b":2})") << "unexpected '\"', expected ',' or '}' at byte 7";
        QTest::newRow("unclosed array") << QByteArray("[1, 2") << "unexpected end of input, expected ',' or ']' at byte 5";
        QTest::newRow("single quotes") << QByteArray("{'a':1}") << "unexpected ''', expected a string key at byte 1";
        QTest::newRow("bare word") << QByteArray("nul") << "unexpected 'n', expected a value at byte 0";
        QTest::newRow("NaN literal") << QByteArray("NaN") << "unexpected 'N', expected a value at byte 0";
        QTest::newRow("Infinity") << QByteArray("[-Infinity]") << "expected a digit at byte 2";
        QTest::newRow("leading zero") << QByteArray("[01]") << "leading zero in number at byte 1";
        QTest::newRow("dot without digits") << QByteArray("1.") << "expected a digit after '.' at byte 2";
        QTest::newRow("exponent without digits") << QByteArray("1e+") << "expected a digit in exponent at byte 3";
        QTest::newRow("plus sign") << QByteArray("+1") << "unexpected '+', expected a value at byte 0";
        QTest::newRow("two values") << QByteArray("1 2") << "unexpected content after the JSON value at byte 2";
        QTest::newRow("comment") << QByteArray("[1] // no") << "unexpected content after the JSON value at byte 4";
        QTest::newRow("binary") << QByteArray("\x01\x02", 2) << "unexpected byte 0x01, expected a value at byte 0";
        QTest::newRow("nul byte") << QByteArray("[1,\0]", 5) << "unexpected byte 0x00, expected a value at byte 3";
    }

    void malformedInputsReportByteOffsets()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(parseError(std::string_view(text.constData(), std::size_t(text.size())))),
                 "invalid JSON: " + expected);
    }

    void errorsCarryLineColumnAndSource()
    {
        json::ParseOptions options;
        options.sourceName = "meta.json";
        try {
            json::parse("{\n  \"a\": 1,\n  \"b\": ]\n}", options);
            QFAIL("no exception");
        } catch (const Error& e) {
            QCOMPARE(e.where().file, std::string("meta.json"));
            QCOMPARE(e.where().line, 3);
            QCOMPARE(e.where().column, 8);
            QVERIFY(std::string(e.what()).starts_with("meta.json:3:8: invalid JSON: unexpected ']'"));
        }
    }

    void depthLimitStopsDeepNesting()
    {
        json::ParseOptions options;
        options.maxDepth = 3;
        QVERIFY(json::parse("[[[1]]]", options).isArray());
        QCOMPARE(parseError("[[[[1]]]]", options), std::string("invalid JSON: nesting deeper than 3 at byte 3"));
        QCOMPARE(parseError(R"({"a":{"b":{"c":{}}}})", options), std::string("invalid JSON: nesting deeper than 3 at byte 15"));
        // The default limit turns a hostile input into an error, not a stack overflow.
        const std::string deep(1000000, '[');
        QVERIFY(parseError(deep).find("nesting deeper than") != std::string::npos);
    }

    void equalityComparesByValue()
    {
        QVERIFY(json::parse(R"({"a":1,"b":[true,null]})") == json::parse(R"({"b":[true,null],"a":1.0})"));
        QVERIFY(!(json::parse(R"({"a":1})") == json::parse(R"({"a":"1"})")));
        QVERIFY(!(json::parse("[1,2]") == json::parse("[2,1]")));
    }
};

QTEST_APPLESS_MAIN(TestJson)
#include "test_json.moc"
