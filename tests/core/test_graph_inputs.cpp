// How a replay makes each graph input (io/graph_inputs): from metadata, as an opaque Python object the graph only
// passes along (dynamo's BackwardState), as a generator (CUDA checkpointing's rng_state inputs), or not at all — the rule the engine's inputs and a distributed job's static
// skip share. The graphs are the shapes traceable FSDP2's logs have (tests/data/distributed/fsdp2_ca).
#include "graph/fx_parser.h"
#include "io/graph_inputs.h"

#include <QtTest/QtTest>

using namespace fxray;

namespace {

io::LoadedGraph load(const std::string& signature, const std::string& body)
{
    io::LoadedGraph lg;
    lg.graph = graph::parseFxModule("class G(torch.nn.Module):\n    def forward(self, " + signature + "):\n" + body,
                                    graph::ParseOptions{"t.py", 1})
                   .graph;
    for (int p : lg.graph.placeholders()) {
        const graph::Node& n = lg.graph.nodes[static_cast<std::size_t>(p)];
        lg.inputs.push_back({n.name, n.meta, n.meta ? io::MetaSource::Annotation : io::MetaSource::None});
    }
    return lg;
}

const std::string kX = "x: \"f32[4][1]cpu\"";

}  // namespace

class TestGraphInputs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void backwardStateTakenByDynamosHelperIsOpaque()
    {
        // The dynamo graph: FSDP2's hook registration takes the BackwardState, nothing reads its contents.
        const auto lg = load(kX + ", dynamo_backward_state : torch.fx.experimental._backward_state.BackwardState",
                             "        h = torch__dynamo_variables_tensor__register_hook_trampoline(x, dynamo_backward_state)\n"
                             "        return (x,)\n");
        const auto forms = io::inputForms(lg);
        QCOMPARE(forms.size(), std::size_t{2});
        QVERIFY(forms[0].kind == io::InputForm::Kind::Meta);
        QVERIFY(forms[1].kind == io::InputForm::Kind::Opaque);
        QVERIFY(forms[1].why.find("_register_hook_trampoline") != std::string::npos);
        QVERIFY(!io::unbuildableInput(lg));
    }

    void backwardStateAsBwStateOrUnreadIsOpaque()
    {
        // The AOT backward passes it as trace_wrapped's bw_state; the AOT forward takes it and reads it nowhere.
        const auto bwd = load(kX + ", primals_10",
                              "        t = torch__dynamo__trace_wrapped_higher_order_op_self_invoke(x, bw_state = primals_10)\n"
                              "        return (t,)\n");
        QVERIFY(io::inputForms(bwd)[1].kind == io::InputForm::Kind::Opaque);
        const auto fwd = load(kX + ", primals_10", "        return (x,)\n");
        QVERIFY(io::inputForms(fwd)[1].kind == io::InputForm::Kind::Opaque);
    }

    void anUnannotatedInputAnOpReadsCannotBeBuilt()
    {
        // The same input read by an aten op (or also as bw_state) needs a real value: named, with its node.
        const auto lg = load(kX + ", y", "        z = torch.ops.aten.add.Tensor(x, y)\n        return (z,)\n");
        const auto forms = io::inputForms(lg);
        QVERIFY(forms[1].kind == io::InputForm::Kind::Missing);
        QCOMPARE(lg.graph.nodes[static_cast<std::size_t>(forms[1].missingNode)].name, std::string("y"));
        QCOMPARE(io::unbuildableInput(lg).value_or(""), std::string("input 'y' has no recorded metadata to build it from"));
        const auto both = load(kX + ", s",
                               "        t = torch__dynamo__trace_wrapped_higher_order_op_self_invoke(x, bw_state = s)\n"
                               "        z = torch.ops.aten.add.Tensor(x, s)\n"
                               "        return (t, z)\n");
        QVERIFY(io::inputForms(both)[1].kind == io::InputForm::Kind::Missing);
    }

    void aGeneratorIsKnownByItsUseAsGraphsafeRngState()
    {
        // Activation checkpointing on CUDA: AOTAutograd's fwd_rng_state_0, read only as rng_state=, is a generator;
        // the same name also read as an op's operand is not.
        const std::string run = "        r = torch.ops.higher_order.graphsafe_run_with_rng_state(torch.ops.aten.native_dropout.default, "
                                "x, 0.5, True, rng_state = fwd_rng_state_0)\n"
                                "        getitem: \"f32[4][1]cpu\" = r[0]\n";
        const auto lg = load(kX + ", fwd_rng_state_0", run + "        return (getitem,)\n");
        QVERIFY(io::inputForms(lg)[1].kind == io::InputForm::Kind::Generator);
        QVERIFY(!io::unbuildableInput(lg));
        const auto misused = load(kX + ", fwd_rng_state_0",
                                  run + "        z = torch.ops.aten.add.Tensor(x, fwd_rng_state_0)\n        return (getitem, z)\n");
        QVERIFY(io::inputForms(misused)[1].kind == io::InputForm::Kind::Missing);
    }
};

QTEST_GUILESS_MAIN(TestGraphInputs)
#include "test_graph_inputs.moc"
