// Value domains of graph inputs (graph/value_domains.h): the ranges and signs that real models' graphs need
// their generated inputs to respect, inferred from the consumers, through views, cat and constant shifts.
#include "graph/fx_parser.h"
#include "graph/int_ranges.h"
#include "graph/value_domains.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace fxray;
using graph::ValueDomain;

namespace {

graph::Graph parse(const std::string& body, const std::string& params)
{
    const std::string text = "class G(torch.nn.Module):\n    def forward(self, " + params + "):\n" + body;
    return graph::parseFxModule(text, {"test.py", 1}).graph;
}

ValueDomain domainOf(const graph::Graph& g, const std::string& input)
{
    return graph::inferValueDomains(g)[static_cast<std::size_t>(g.findNode(input))];
}

}  // namespace

class TestValueDomains : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void embeddingIndicesStayBelowTheRowsThroughViewsAndCat()
    {
        const auto g = parse("        view: \"i64[8]\" = torch.ops.aten.view.default(ids, [8])\n"
                             "        cat: \"i64[12]\" = torch.ops.aten.cat.default([view, extra])\n"
                             "        embedding: \"f32[12, 16]\" = torch.ops.aten.embedding.default(weight, cat)\n"
                             "        return (embedding,)\n",
                             "weight: \"f32[100, 16]\", ids: \"i64[2, 4]\", extra: \"i64[4]\"");
        for (const char* input : {"ids", "extra"}) {
            const ValueDomain d = domainOf(g, input);
            QVERIFY(d.kind == ValueDomain::Kind::IntRange);
            QCOMPARE(d.low, std::int64_t(0));
            QCOMPARE(d.high, std::int64_t(100));
            QVERIFY(d.reason.find("rows of the weight") != std::string::npos);
        }
        QVERIFY(!domainOf(g, "weight").constrained());
    }

    void aConstantShiftMovesTheRange()
    {
        // position ids = input + 2 (OPT's learned positions are offset by 2): the input itself is in [-2, 62).
        const auto g = parse("        add: \"i64[4]\" = torch.ops.aten.add.Tensor(pos, 2)\n"
                             "        embedding: \"f32[4, 8]\" = torch.ops.aten.embedding.default(weight, add)\n"
                             "        return (embedding,)\n",
                             "weight: \"f32[64, 8]\", pos: \"i64[4]\"");
        const ValueDomain d = domainOf(g, "pos");
        QVERIFY(d.kind == ValueDomain::Kind::IntRange);
        QCOMPARE(d.low, std::int64_t(-2));
        QCOMPARE(d.high, std::int64_t(62));
    }

    void batchNormVarianceAndFractionalPowerInputsArePositive()
    {
        const auto g = parse("        bn = torch.ops.aten._native_batch_norm_legit_no_training.default(x, w, b, mean, var, 0.1, 1e-05)\n"
                             "        getitem: \"f32[2, 3, 4, 4]\" = bn[0]\n"
                             "        pow_1: \"f32[3]\" = torch.ops.aten.pow.Tensor_Scalar(scale, 0.5)\n"
                             "        pow_2: \"f32[3]\" = torch.ops.aten.pow.Tensor_Scalar(shift, 2)\n"
                             "        return (getitem, pow_1, pow_2)\n",
                             "x: \"f32[2, 3, 4, 4]\", w: \"f32[3]\", b: \"f32[3]\", mean: \"f32[3]\", var: \"f32[3]\", "
                             "scale: \"f32[3]\", shift: \"f32[3]\"");
        QVERIFY(domainOf(g, "var").kind == ValueDomain::Kind::Positive);
        QVERIFY(domainOf(g, "scale").kind == ValueDomain::Kind::Positive);
        QVERIFY(!domainOf(g, "shift").constrained());  // an integer power is defined everywhere
        QVERIFY(!domainOf(g, "mean").constrained());
    }

    void inductorsDecomposedBatchNormKeepsItsVariancePositive()
    {
        // Inductor's inference graphs compute sqrt(running_var + eps): on random running_var, resnet50's and
        // shufflenet's trace graphs turned NaN at that sqrt on the CPU.
        const auto g = parse("        cast: \"f32[8]\" = torch.ops.prims.convert_element_type.default(var, torch.float32)\n"
                             "        add: \"f32[8]\" = torch.ops.aten.add.Tensor(cast, 1e-05)\n"
                             "        sqrt: \"f32[8]\" = torch.ops.aten.sqrt.default(add)\n"
                             "        sub: \"f32[8]\" = torch.ops.aten.sub.Tensor(x, 0.5)\n"
                             "        log: \"f32[8]\" = torch.ops.aten.log.default(sub)\n"
                             "        return (sqrt, log)\n",
                             "var: \"bf16[8]\", x: \"f32[8]\"");
        QVERIFY(domainOf(g, "var").kind == ValueDomain::Kind::Positive);
        QVERIFY(!domainOf(g, "x").constrained());  // x - 0.5 > 0 needs more than a positive x
    }

    void adamWsSecondMomentAndStepStayInSqrtsDomain()
    {
        // A compiled AdamW step (inductor's AOT graph, torch/optim/adam.py): sqrt(exp_avg_sq * beta2 + grad * grad *
        // (1 - beta2)) and sqrt(1 - beta2 ** (step + 1)). On random inputs a negative exp_avg_sq or step made the
        // corpus's only false NaN verdicts; both hold for positive inputs.
        const auto g = parse("        add: \"f32[]\" = torch.ops.aten.add.Tensor(step, 1)\n"
                             "        mul_1: \"f32[4]\" = torch.ops.aten.mul.Tensor(exp_avg_sq, 0.999)\n"
                             "        mul_2: \"f32[4]\" = torch.ops.aten.mul.Tensor(grad, grad)\n"
                             "        mul_3: \"f32[4]\" = torch.ops.aten.mul.Tensor(mul_2, 0.0010000000000000009)\n"
                             "        add_1: \"f32[4]\" = torch.ops.aten.add.Tensor(mul_1, mul_3)\n"
                             "        pow_2: \"f32[]\" = torch.ops.aten.pow.Scalar(0.999, add)\n"
                             "        rsub_1: \"f32[]\" = torch.ops.aten.rsub.Scalar(pow_2, 1)\n"
                             "        sqrt: \"f32[]\" = torch.ops.aten.sqrt.default(rsub_1)\n"
                             "        sqrt_1: \"f32[4]\" = torch.ops.aten.sqrt.default(add_1)\n"
                             "        mul_4: \"f32[4]\" = torch.ops.aten.mul.Tensor(other, grad)\n"
                             "        add_2: \"f32[4]\" = torch.ops.aten.add.Tensor(mul_4, mul_1)\n"
                             "        sqrt_2: \"f32[4]\" = torch.ops.aten.sqrt.default(add_2)\n"
                             "        return (sqrt, sqrt_1, sqrt_2)\n",
                             "step: \"f32[]\", exp_avg_sq: \"f32[4]\", grad: \"f32[4]\", other: \"f32[4]\"");
        QVERIFY(domainOf(g, "exp_avg_sq").kind == ValueDomain::Kind::Positive);
        QVERIFY(domainOf(g, "exp_avg_sq").reason.find("sqrt_1") != std::string::npos);
        QVERIFY(domainOf(g, "step").kind == ValueDomain::Kind::Positive);
        QVERIFY(!domainOf(g, "grad").constrained());   // squared: any sign
        QVERIFY(!domainOf(g, "other").constrained());  // other * grad can be negative whatever other is
        // The dynamo graph's form: Python arithmetic on tensors (`1 - beta2 ** step`).
        const auto d = parse("        pow_2: \"f32[]\" = 0.999 ** step\n"
                             "        sub: \"f32[]\" = 1 - pow_2\n"
                             "        sqrt: \"f32[]\" = sub.sqrt()\n"
                             "        return (sqrt,)\n",
                             "step: \"f32[]\"");
        QVERIFY(domainOf(d, "step").kind == ValueDomain::Kind::Positive);
    }

    void checkpointingsRecomputeTakesAGeneratorState()
    {
        const auto g = parse("        run_with_rng_state = torch.ops.higher_order.run_with_rng_state(state, torch.ops.aten.native_dropout.default, x, 0.1, True)\n"
                             "        getitem: \"f32[4]\" = run_with_rng_state[0]\n"
                             "        return (getitem,)\n",
                             "state: \"u8[5056]\", x: \"f32[4]\"");
        QVERIFY(domainOf(g, "state").kind == ValueDomain::Kind::GeneratorState);
        QVERIFY(!domainOf(g, "x").constrained());
    }

    void attentionBackwardPhiloxStateIsACpuScalar()
    {
        const auto g = parse("        bw = torch.ops.aten._scaled_dot_product_efficient_attention_backward.default(go, q, k, v, None, out, lse, "
                             "seed, offset, 0.0, [True, True, True, False])\n"
                             "        getitem: \"f32[1, 2, 8, 4]\" = bw[0]\n"
                             "        return (getitem,)\n",
                             "go: \"f32[1, 2, 8, 4]\", q: \"f32[1, 2, 8, 4]\", k: \"f32[1, 2, 8, 4]\", v: \"f32[1, 2, 8, 4]\", "
                             "out: \"f32[1, 2, 8, 4]\", lse: \"f32[1, 2, 32]\", seed: \"i64[]\", offset: \"i64[]\"");
        QVERIFY(domainOf(g, "seed").cpuScalar && domainOf(g, "offset").cpuScalar);
        QVERIFY(!domainOf(g, "lse").cpuScalar);
        // cuDNN attention's backward wants them on the device (on an H100 it refused CPU ones).
        const auto cudnn = parse("        bw = torch.ops.aten._scaled_dot_product_cudnn_attention_backward.default(go, q, k, v, out, lse, "
                                 "seed, offset, None, None, None, 8, 8, 0.0, False)\n"
                                 "        getitem: \"f32[1, 2, 8, 4]\" = bw[0]\n"
                                 "        return (getitem,)\n",
                                 "go: \"f32[1, 2, 8, 4]\", q: \"f32[1, 2, 8, 4]\", k: \"f32[1, 2, 8, 4]\", v: \"f32[1, 2, 8, 4]\", "
                                 "out: \"f32[1, 2, 8, 4]\", lse: \"f32[1, 2, 8, 1]\", seed: \"i64[]\", offset: \"i64[]\"");
        QVERIFY(!domainOf(cudnn, "seed").cpuScalar && !domainOf(cudnn, "offset").cpuScalar);
    }

    // flex_attention's block mask made whole (every block partial, visited in order): random counts and indices sent
    // inductor's C++ kernel past its blocks ("cannot create std::vector larger than max_size()", Qwen2's flex recipe).
    void flexBlockMaskIsMadeWhole()
    {
        const auto g = parse("        flex_attention = torch.ops.higher_order.flex_attention(q, q, q, sdpa_score0, (16, 16, kvn, kvi, fkvn, "
                             "fkvi, qn, qi, fqn, fqi, 128, 128, sdpa_mask0), 0.25, {}, (), ())\n"
                             "        getitem: \"f32[2, 4, 16, 16]\" = flex_attention[0]\n"
                             "        return (getitem,)\n",
                             "q: \"f32[2, 4, 16, 16]\", kvn: \"i32[2, 1, 1]\", kvi: \"i32[2, 1, 1, 3]\", fkvn: \"i32[2, 1, 1]\", "
                             "fkvi: \"i32[2, 1, 1, 3]\", qn: \"i32[2, 1, 3]\", qi: \"i32[2, 1, 3, 1]\", fqn: \"i32[2, 1, 3]\", "
                             "fqi: \"i32[2, 1, 3, 1]\", sdpa_score0, sdpa_mask0");
        const ValueDomain counts = domainOf(g, "kvn");
        QVERIFY(counts.kind == ValueDomain::Kind::IntRange && counts.low == 3 && counts.high == 4);
        QVERIFY(domainOf(g, "qn").kind == ValueDomain::Kind::IntRange && domainOf(g, "qn").low == 1);
        QVERIFY(domainOf(g, "fkvn").kind == ValueDomain::Kind::IntRange && domainOf(g, "fkvn").high == 1);
        const ValueDomain indices = domainOf(g, "kvi");
        QVERIFY(indices.kind == ValueDomain::Kind::BlockIndices && indices.high == 3);
        QVERIFY(domainOf(g, "fqi").kind == ValueDomain::Kind::BlockIndices);
        QVERIFY(!domainOf(g, "q").constrained());
    }

    void poolingIndicesPivotsAndProbabilities()
    {
        const auto g = parse("        mp: \"f32[1, 2, 6, 6]\" = torch.ops.aten.max_pool2d_with_indices_backward.default(go, x, [2, 2], [2, 2], "
                             "[0, 0], [1, 1], False, idx)\n"
                             "        sol: \"f32[5, 2]\" = torch.ops.aten.linalg_ldl_solve.default(ld, piv, rhs)\n"
                             "        bce: \"f32[]\" = torch.ops.aten.binary_cross_entropy.default(p, t)\n"
                             "        return (mp, sol, bce)\n",
                             "go: \"f32[1, 2, 3, 3]\", x: \"f32[1, 2, 6, 6]\", idx: \"i64[1, 2, 3, 3]\", ld: \"f32[5, 5]\", "
                             "piv: \"i32[5]\", rhs: \"f32[5, 2]\", p: \"f32[4]\", t: \"f32[4]\"");
        const ValueDomain idx = domainOf(g, "idx");
        QVERIFY(idx.kind == ValueDomain::Kind::IntRange && idx.low == 0 && idx.high == 36);
        const ValueDomain piv = domainOf(g, "piv");
        QVERIFY(piv.kind == ValueDomain::Kind::IntRange && piv.low == 1 && piv.high == 6);  // rows of LD (5 x 5)
        QVERIFY(domainOf(g, "p").kind == ValueDomain::Kind::UnitInterval);
        QVERIFY(domainOf(g, "t").kind == ValueDomain::Kind::UnitInterval);
        // The integer view for the repro writer agrees.
        const auto ranges = graph::inferIntRanges(g);
        QVERIFY(ranges[static_cast<std::size_t>(g.findNode("piv"))]->low == 1);
    }

    void weightsAreScaledByTheirFanIn()
    {
        const auto g = parse("        t: \"f32[64, 16]\" = torch.ops.aten.t.default(w)\n"
                             "        addmm: \"f32[4, 16]\" = torch.ops.aten.addmm.default(b, x, t)\n"
                             "        conv: \"f32[1, 8, 6, 6]\" = torch.ops.aten.convolution.default(img, k, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)\n"
                             "        return (addmm, conv)\n",
                             "w: \"f32[16, 64]\", b: \"f32[16]\", x: \"f32[4, 64]\", img: \"f32[1, 3, 8, 8]\", k: \"f32[8, 3, 3, 3]\"");
        const ValueDomain w = domainOf(g, "w");
        QVERIFY(w.kind == ValueDomain::Kind::Scaled);
        QCOMPARE(w.scale, 1.0 / 8.0);  // fan-in 64
        QVERIFY(std::abs(domainOf(g, "k").scale - 1.0 / std::sqrt(27.0)) < 1e-12);
        QVERIFY(!domainOf(g, "x").constrained() && !domainOf(g, "b").constrained());
    }

    void valuesGatheredOrChosenFromAnInputCarryItsBound()
    {
        // RoBERTa: the token-type buffer is gathered by position, then indexes its embedding.
        const auto g = parse("        expand: \"i64[2, 64]\" = torch.ops.aten.expand.default(buf, [2, -1])\n"
                             "        gather: \"i64[2, 16]\" = torch.ops.aten.gather.default(expand, 1, pos)\n"
                             "        embedding: \"f32[2, 16, 8]\" = torch.ops.aten.embedding.default(types, gather)\n"
                             "        return (embedding,)\n",
                             "buf: \"i64[1, 64]\", pos: \"i64[2, 16]\", types: \"f32[1, 8]\"");
        const ValueDomain buf = domainOf(g, "buf");
        QVERIFY(buf.kind == ValueDomain::Kind::IntRange && buf.low == 0 && buf.high == 1);
        QCOMPARE(domainOf(g, "pos").high, std::int64_t(64));  // gather's index: size of dim 1 of the buffer
    }

    void indexingA0DimTensorAllowsOnlyIndexZero()
    {
        const auto g = parse("        index_select: \"f32[]\" = torch.ops.aten.index_select.default(x, 0, idx)\n"
                             "        return (index_select,)\n",
                             "x: \"f32[]\", idx: \"i64[1]\"");
        const ValueDomain d = domainOf(g, "idx");
        QVERIFY(d.kind == ValueDomain::Kind::IntRange && d.low == 0 && d.high == 1);
    }

    void dynamoGraphsTorchLevelCallsConstrainTheirInputsToo()
    {
        const auto g = parse("        embedding: \"f32[4, 8]\" = torch.nn.functional.embedding(ids, weight, None, None, 2.0, False, False)\n"
                             "        bn: \"f32[2, 3]\" = torch.nn.functional.batch_norm(x, mean, var, None, None, False, 0.1, 1e-05)\n"
                             "        ce: \"f32[]\" = torch.nn.functional.cross_entropy(logits, target)\n"
                             "        g: \"f32[2, 3]\" = x.gather(1, idx)\n"
                             "        return (embedding, bn, ce, g)\n",
                             "ids: \"i64[4]\", weight: \"f32[50, 8]\", x: \"f32[2, 3]\", mean: \"f32[3]\", var: \"f32[3]\", "
                             "logits: \"f32[2, 7]\", target: \"i64[2]\", idx: \"i64[2, 3]\"");
        QCOMPARE(domainOf(g, "ids").high, std::int64_t(50));
        QVERIFY(domainOf(g, "var").kind == ValueDomain::Kind::Positive);
        QCOMPARE(domainOf(g, "target").high, std::int64_t(7));
        QCOMPARE(domainOf(g, "idx").high, std::int64_t(3));
        QVERIFY(!domainOf(g, "mean").constrained());
    }

    void dynamoGraphsPythonIndexingBoundsEachIndexByTheDimItIndexes()
    {
        // LeViT's attention biases: biases[:, idxs] in dynamo's graph (a [6, 4] table, a [4, 4] buffer of indices):
        // idxs index dim 1, so they stay below 4 (random ones ran past it). After an Ellipsis dims count from the
        // end; a None adds a dim and indexes none; a buffer sliced first (`pos[:n]`) carries the bound through.
        const auto g = parse("        getitem: \"f32[6, 4, 4]\" = biases[(slice(None, None, None), idxs)]\n"
                             "        getitem_1: \"f32[2, 3, 5]\" = x[(Ellipsis, last)]\n"
                             "        getitem_2: \"f32[1, 2, 4, 7]\" = x[(None, first)]\n"
                             "        getitem_3: \"i64[2]\" = pos[slice(None, 2, None)]\n"
                             "        getitem_4: \"f32[2, 8]\" = table[getitem_3]\n"
                             "        getitem_5: \"f32[2, 3, 7]\" = x[(mask,)]\n"
                             "        return (getitem, getitem_1, getitem_2, getitem_4, getitem_5)\n",
                             "biases: \"f32[6, 4]\", idxs: \"i64[4, 4]\", x: \"f32[9, 3, 7]\", last: \"i64[5]\", "
                             "first: \"i64[2]\", pos: \"i64[4]\", table: \"f32[30, 8]\", mask: \"b8[9]\"");
        const ValueDomain idxs = domainOf(g, "idxs");
        QVERIFY(idxs.kind == ValueDomain::Kind::IntRange);
        QCOMPARE(idxs.high, std::int64_t(4));
        QVERIFY2(idxs.describe() == "in [0, 4): getitem (getitem): size of the indexed dim 1", idxs.describe().c_str());
        QCOMPARE(domainOf(g, "last").high, std::int64_t(7));
        QCOMPARE(domainOf(g, "first").high, std::int64_t(9));
        QCOMPARE(domainOf(g, "pos").high, std::int64_t(30));
        QVERIFY(!domainOf(g, "mask").constrained());
        QVERIFY(!domainOf(g, "biases").constrained());
    }

    void keywordSegmentLengthsAndBagOffsetsPartitionTheirData()
    {
        // segment_reduce takes lengths/offsets as keyword-only arguments; axis 1 of the data is what they cut.
        const auto g = parse("        seg: \"f32[4, 3]\" = torch.ops.aten.segment_reduce.default(data, 'sum', lengths = lens, axis = 1)\n"
                             "        bag = torch.ops.aten._embedding_bag.default(w, idx, offs, False, 0, False, None)\n"
                             "        return (seg, bag)\n",
                             "data: \"f32[4, 7]\", lens: \"i64[4, 3]\", w: \"f32[10, 4]\", idx: \"i64[12]\", offs: \"i64[4]\"");
        QVERIFY(domainOf(g, "lens").kind == ValueDomain::Kind::Lengths);
        QCOMPARE(domainOf(g, "lens").high, std::int64_t(7));
        QVERIFY(domainOf(g, "offs").kind == ValueDomain::Kind::Offsets);
        QCOMPARE(domainOf(g, "offs").high, std::int64_t(12));
        QCOMPARE(domainOf(g, "idx").high, std::int64_t(10));
    }

    void specialFunctionDomainsAreOnTheRightArgument()
    {
        // polygamma(n, x): x is argument 1; zeta(x, q): x > 1 and q > 0; acosh above 1 beats "positive".
        const auto g = parse("        pg: \"f32[3]\" = torch.ops.aten.polygamma.default(1, a)\n"
                             "        z: \"f32[3]\" = torch.ops.aten.special_zeta.default(b, c)\n"
                             "        ac: \"f32[3]\" = torch.ops.aten.acosh.default(d)\n"
                             "        lg: \"f32[3]\" = torch.ops.aten.log.default(d)\n"
                             "        ch: \"f32[3, 3]\" = torch.ops.aten.linalg_cholesky_ex.default(m)\n"
                             "        return (pg, z, ac, lg, ch)\n",
                             "a: \"f32[3]\", b: \"f32[3]\", c: \"f32[3]\", d: \"f32[3]\", m: \"f32[3, 3]\"");
        QVERIFY(domainOf(g, "a").kind == ValueDomain::Kind::Positive);
        QCOMPARE(domainOf(g, "b").above, 1.0);
        QVERIFY(domainOf(g, "c").kind == ValueDomain::Kind::Positive);
        QCOMPARE(domainOf(g, "d").above, 1.0);
        QVERIFY(domainOf(g, "d").describe().starts_with("greater than 1: ac (acosh)"));
        QVERIFY(domainOf(g, "m").kind == ValueDomain::Kind::PositiveDefinite);
    }

    void theTightestRangeWins()
    {
        const auto g = parse("        e1: \"f32[4, 8]\" = torch.ops.aten.embedding.default(big, ids)\n"
                             "        e2: \"f32[4, 8]\" = torch.ops.aten.embedding.default(small, ids)\n"
                             "        return (e1, e2)\n",
                             "big: \"f32[1000, 8]\", small: \"f32[10, 8]\", ids: \"i64[4]\"");
        QCOMPARE(domainOf(g, "ids").high, std::int64_t(10));
        QVERIFY(domainOf(g, "ids").describe().starts_with("in [0, 10): e2 (embedding)"));
    }
};

QTEST_GUILESS_MAIN(TestValueDomains)
#include "test_value_domains.moc"
