// Size expressions as sympy prints them: evaluation, binding, and safety on hostile text.
#include "base/error.h"
#include "graph/fx_parser.h"
#include "graph/sym_expr.h"

#include <QtTest/QtTest>

using fxray::Error;
using fxray::graph::SymExpr;

class TestSymExpr : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void evaluatesSympyForms()
    {
        SymExpr::Bindings b{{"s0", 10}, {"s1", 3}};
        QCOMPARE(*SymExpr::parse("2*s0 + 1").evaluate(b), std::int64_t(21));
        QCOMPARE(*SymExpr::parse("(s0//3)").evaluate(b), std::int64_t(3));
        QCOMPARE(*SymExpr::parse("-s0 // 3").evaluate(b), std::int64_t(-4));  // Python floors
        QCOMPARE(*SymExpr::parse("s0 % 3").evaluate(b), std::int64_t(1));
        QCOMPARE(*SymExpr::parse("s1**2").evaluate(b), std::int64_t(9));
        QCOMPARE(*SymExpr::parse("Max(1, s0 - 20)").evaluate(b), std::int64_t(1));
        QCOMPARE(*SymExpr::parse("Min(s0, s1)").evaluate(b), std::int64_t(3));
        QCOMPARE(*SymExpr::parse("CeilDiv(s0, 3)").evaluate(b), std::int64_t(4));
        QCOMPARE(*SymExpr::parse("ModularIndexing(s0, 1, 4)").evaluate(b), std::int64_t(2));
        QVERIFY(!SymExpr::parse("s2 + 1").evaluate(b).has_value());  // unbound
        QCOMPARE(SymExpr::parse("s77").singleSymbol(), std::string("s77"));
        QCOMPARE(SymExpr::parse("2*s0 + s1").symbols(), (std::vector<std::string>{"s0", "s1"}));
    }

    // CUDA's memory-efficient attention pads its logsumexp to 32 columns; torch records that size as
    // 32*CeilToInt(IntTrueDiv(s, 32)). A floor division made it 0 for s < 32 and every such graph a mismatch.
    void roundsTrueQuotientsAsTorchDoes()
    {
        SymExpr::Bindings b{{"s27", 16}, {"s1", 33}, {"n", -7}};
        QCOMPARE(*SymExpr::parse("32*CeilToInt(IntTrueDiv(s27, 32))").evaluate(b), std::int64_t(32));
        QCOMPARE(*SymExpr::parse("32*CeilToInt(IntTrueDiv(s1, 32))").evaluate(b), std::int64_t(64));
        QCOMPARE(*SymExpr::parse("ceiling(s27/32)").evaluate(b), std::int64_t(1));
        QCOMPARE(*SymExpr::parse("FloorToInt(IntTrueDiv(s1, 32))").evaluate(b), std::int64_t(1));
        QCOMPARE(*SymExpr::parse("TruncToInt(IntTrueDiv(n, 2))").evaluate(b), std::int64_t(-3));
        QCOMPARE(*SymExpr::parse("FloorToInt(IntTrueDiv(n, 2))").evaluate(b), std::int64_t(-4));
        QVERIFY(!SymExpr::parse("CeilToInt(IntTrueDiv(s27, 0))").evaluate(b).has_value());
    }

    void overflowAndDivisionByZeroAreUnknownNotCrashes()
    {
        // INT64_MIN // -1 traps (SIGFPE) when computed naively.
        QVERIFY(!SymExpr::parse("(-9223372036854775807 - 1)//(-1)").evaluate({}).has_value());
        QVERIFY(!SymExpr::parse("(-9223372036854775807 - 1) % (-1)").evaluate({}) .has_value() ||
                *SymExpr::parse("(-9223372036854775807 - 1) % (-1)").evaluate({}) == 0);
        QVERIFY(!SymExpr::parse("9223372036854775807 + 1").evaluate({}).has_value());
        QVERIFY(!SymExpr::parse("4611686018427387904 * 4").evaluate({}).has_value());
        QVERIFY(!SymExpr::parse("2**64").evaluate({}).has_value());
        QCOMPARE(*SymExpr::parse("1**999999999999").evaluate({}), std::int64_t(1));
        QVERIFY(!SymExpr::parse("s0 // 0").evaluate({{"s0", 1}}).has_value());
        QVERIFY(!SymExpr::parse("-(-9223372036854775807 - 1)").evaluate({}).has_value());
    }

    void hostileTextIsAnErrorNotAStackOverflow()
    {
        QVERIFY_THROWS_EXCEPTION(Error, SymExpr::parse(std::string(100000, '(') + "1" + std::string(100000, ')')));
        std::string terms = "1";
        for (int i = 0; i < 100000; ++i)
            terms += "+1";
        QVERIFY_THROWS_EXCEPTION(Error, SymExpr::parse(terms));
        QVERIFY_THROWS_EXCEPTION(Error, SymExpr::parse(std::string(5000, '-') + "1"));
        QVERIFY_THROWS_EXCEPTION(Error, SymExpr::parse("Exec(1)"));
        QVERIFY_THROWS_EXCEPTION(Error, SymExpr::parse("1 +"));
    }

    void deeplyNestedCodeIsAParseError()
    {
        const std::string deep = "class G:\n    def forward(self, x):\n        y = torch.ops.aten.foo.default(" +
                                 std::string(20000, '[') + std::string(20000, ']') + ")\n        return (y,)\n";
        try {
            fxray::graph::parseFxModule(deep, {"deep.py", 1});
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("nested deeper") != std::string::npos, e.what());
        }
        const std::string signs = "class G:\n    def forward(self, x):\n        y = torch.ops.aten.foo.default(x, " +
                                  std::string(5000, '-') + "1)\n        return (y,)\n";
        QVERIFY_THROWS_EXCEPTION(Error, fxray::graph::parseFxModule(signs, {"signs.py", 1}));
    }

    void loadArgsStridesMustMatchSizes()
    {
        const std::string text = "class Repro(torch.nn.Module):\n    def forward(self, a):\n        return (a,)\n\n"
                                 "def load_args(reader):\n    buf0 = reader.storage(None, 64)\n"
                                 "    reader.tensor(buf0, (4, 4), (1,))  # a\n";
        QVERIFY_THROWS_EXCEPTION(Error, fxray::graph::parseFxModule(text, {"runnable.py", 1}));
    }

    void negativeSizesInAnnotationsAreRejected()
    {
        QVERIFY_THROWS_EXCEPTION(Error, fxray::graph::parseAnnotation("f32[-3][1]", {}));
        QVERIFY_THROWS_EXCEPTION(Error, fxray::graph::parseAnnotation("f32[3][-1]", {}));
    }
};

QTEST_APPLESS_MAIN(TestSymExpr)
#include "test_sym_expr.moc"
