// Stage compare's precision check (replay/api/rounding_noise.h): which random draws a run made under aligned RNG,
// so that a float64 re-run drawing otherwise is never taken for rounding (session 16: BART's bf16 compile had a
// 4.56 divergence excused as rounding because its float64 re-run inferred no autocast and drew aligned).
#include "replay/api/rounding_noise.h"

#include <QtTest/QtTest>

using namespace fxray::replay;

namespace {

NodeResult node(const std::string& name, const std::string& schema)
{
    NodeResult n;
    n.name = name;
    n.schema = schema;
    return n;
}

}  // namespace

class TestRoundingNoise : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void alignedDrawsListTheDrawingNodesInOrder()
    {
        ReplayReport r;
        r.nodes = {node("mm", "aten::mm(Tensor self, Tensor mat2) -> Tensor"),
                   node("native_dropout", "aten::native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)  "
                                          "[aligned RNG draw 0 (stage compare)]"),
                   node("inductor_random", "prims.inductor_random(size, seed, 'rand'): aligned draw number seed (stage compare)")};
        const auto draws = alignedDraws(r);
        QCOMPARE(draws.size(), std::size_t(2));
        QVERIFY(draws[0].rfind("native_dropout: ", 0) == 0);
        QVERIFY(draws[1].rfind("inductor_random: ", 0) == 0);
    }

    void aRunThatDrawsNaturallyDiffersFromOneThatDrawsAligned()
    {
        ReplayReport bf16, f64;
        bf16.nodes = {node("dropout", "aten::native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)")};
        f64.nodes = {node("dropout", "aten::native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)  "
                                     "[aligned RNG draw 0 (stage compare)]")};
        QVERIFY(alignedDraws(bf16) != alignedDraws(f64));
        QVERIFY(alignedDraws(f64) == alignedDraws(f64));
    }
};

QTEST_MAIN(TestRoundingNoise)
#include "test_rounding_noise.moc"
