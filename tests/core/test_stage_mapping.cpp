// Lining up a compile's stages (graph/stage_mapping.h): AOTAutograd's descriptor comments as the parser keeps
// them (placeholders and the return's values), dynamo's inputs through PlainAOTInput, user outputs through
// PlainAOTOutput past mutated inputs, downstream graphs by position, and the reasons a stage cannot be lined up.
#include "graph/fx_parser.h"
#include "graph/stage_mapping.h"

#include <QtTest/QtTest>

using namespace fxray::graph;

namespace {

Graph parse(const std::string& text)
{
    return parseFxModule(text, {"test.py", 1}).graph;
}

const char* kDynamo = R"PY(class GraphModule(torch.nn.Module):
    def forward(self, L_w_: "f32[4, 4][4, 1]cpu", s77: "Sym(s77)", L_x_: "f32[s77, 4][4, 1]cpu", L_rm_: "f32[4][1]cpu"):
        l_w_ = L_w_
        l_x_ = L_x_
        mm: "f32[s77, 4][4, 1]cpu" = torch.mm(l_x_, l_w_)
        return (mm,)
)PY";

// The AOT forward: placeholders reordered against dynamo's, a mutated input returned first, a saved activation last.
const char* kAot = R"PY(class GraphModule(torch.nn.Module):
    def forward(
        self,
        primals_1: "f32[s77, 4][4, 1]cpu",  # PlainAOTInput(idx=2)
        primals_2: "f32[4, 4][4, 1]cpu",  # PlainAOTInput(idx=0)
        primals_3: "Sym(s77)",  # PlainAOTInput(idx=1)
        primals_4: "f32[4][1]cpu",  # PlainAOTInput(idx=3)
    ):
        mm: "f32[s77, 4][4, 1]cpu" = torch.ops.aten.mm.default(primals_1, primals_2)
        add: "f32[4][1]cpu" = torch.ops.aten.add.Tensor(primals_4, 1)
        return (
            add,  # InputMutationAOTOutput(mutated_input=PlainAOTInput(idx=3))
            mm,  # PlainAOTOutput(idx=0)
            primals_1,  # SavedForBackwardsAOTOutput(idx=0)
        )
)PY";

}  // namespace

class TestStageMapping : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void descriptorsParse()
    {
        AotDescriptor d = parseAotDescriptor("PlainAOTInput(idx=12)");
        QCOMPARE(d.kind, std::string("PlainAOTInput"));
        QCOMPARE(d.index, 12);
        d = parseAotDescriptor("TangentAOTInput(output=PlainAOTOutput(idx=0))");
        QCOMPARE(d.kind, std::string("TangentAOTInput"));
        QCOMPARE(d.index, -1);  // the idx belongs to the nested descriptor
        QVERIFY(parseAotDescriptor("None").kind.empty());
        QVERIFY(parseAotDescriptor("just a comment (x)").kind.empty());
    }

    void parserKeepsTheReturnsComments()
    {
        const Graph aot = parse(kAot);
        QCOMPARE(aot.outputComments.size(), std::size_t(3));
        QCOMPARE(aot.outputComments[1], std::string("PlainAOTOutput(idx=0)"));
        QVERIFY(parse(kDynamo).outputComments.empty());
    }

    void dynamoInputsAndUserOutputsLineUpThroughDescriptors()
    {
        const Graph dynamo = parse(kDynamo), aot = parse(kAot);
        const int users = userOutputCount(&dynamo, aot);
        QCOMPARE(users, 1);
        const StageIoMap d = mapStage(dynamo, StageRole::Dynamo, aot, users);
        QVERIFY2(d.unmappable.empty(), d.unmappable.c_str());
        QCOMPARE(d.inputs, (std::vector<int>{1, 2, 0, 3}));  // L_w_ <- primals_2, s77 <- primals_3, L_x_ <- primals_1
        // then the mutated input (L_rm_, dynamo's input 3) as the run leaves it
        QCOMPARE(d.outputs, (std::vector<int>{0, -5}));
        const StageIoMap a = mapStage(aot, StageRole::Aot, aot, users);
        QCOMPARE(a.outputs, (std::vector<int>{1, 0}));  // past the mutated input, which comes back at output 0
        // A post-grad graph: the AOT graph's placeholders and outputs as they are.
        const StageIoMap p = mapStage(aot, StageRole::Downstream, aot, users);
        QVERIFY(p.unmappable.empty());
        QCOMPARE(p.inputs, (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(p.outputs, (std::vector<int>{1, 0}));
    }

    // A compiled optimizer step: dynamo reads the parameter as an attribute (get_attr), AOTAutograd lifts it to an
    // input (ParamAOTInput(target=...)) and writes the update back with copy_; the step returns nothing.
    void liftedAttributesLineUpAndTheirUpdatesAreCompared()
    {
        const Graph dynamo = parse(R"PY(class GraphModule(torch.nn.Module):
    def forward(self, L_g_: "f32[4][1]cpu"):
        l_g_ = L_g_
        p = self.self___param_groups_0__params___0
        add_ = p.add_(l_g_)
        return ()
)PY");
        const Graph aot = parse(R"PY(class <lambda>(torch.nn.Module):
    def forward(
        self,
        arg0_1: "f32[4][1]cpu",  # ParamAOTInput(target='self___param_groups_0__params___0')
        arg1_1: "f32[4][1]cpu",  # PlainAOTInput(idx=0)
    ):
        add: "f32[4][1]cpu" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)
        copy_: "f32[4][1]cpu" = torch.ops.aten.copy_.default(arg0_1, add);  arg0_1 = add = copy_ = None
        return ()
)PY");
        QCOMPARE(parseAotDescriptor("ParamAOTInput(target='w')").target, std::string("w"));
        const auto mutated = mutatedInputs(aot);
        QCOMPARE(mutated.size(), std::size_t(1));
        QCOMPARE(mutated[0].dynamoAttr, std::string("self___param_groups_0__params___0"));
        const StageIoMap d = mapStage(dynamo, StageRole::Dynamo, aot, 0);
        QCOMPARE(d.inputs, (std::vector<int>{1}));
        QCOMPARE(d.constants.size(), std::size_t(1));
        QCOMPARE(d.constants[0].second, 0);
        QCOMPARE(d.outputs, (std::vector<int>{-3}));  // past dynamo's one input: the attribute as the run left it
        QCOMPARE(mapStage(aot, StageRole::Aot, aot, 0).outputs, (std::vector<int>{-2}));  // AOT input 0 after the run
    }

    void whatCannotBeLinedUpSaysWhy()
    {
        const Graph dynamo = parse(kDynamo);
        std::string text = kAot;
        text.replace(text.find("# PlainAOTInput(idx=2)"), 22, "# SyntheticBaseAOTInput(base_of=PlainAOTInput(idx=2))");
        StageIoMap d = mapStage(dynamo, StageRole::Dynamo, parse(text), 1);
        QVERIFY2(d.unmappable.find("'L_x_' has no AOT input") != std::string::npos &&
                     d.unmappable.find("SyntheticBaseAOTInput") != std::string::npos,
                 d.unmappable.c_str());
        // Another dtype for the same input.
        text = kAot;
        text.replace(text.find("primals_2: \"f32"), 15, "primals_2: \"f16");
        d = mapStage(dynamo, StageRole::Dynamo, parse(text), 1);
        QVERIFY2(d.unmappable.find("differ") != std::string::npos, d.unmappable.c_str());
        // A downstream graph that returns another number of values.
        const StageIoMap p = mapStage(dynamo, StageRole::Downstream, parse(kAot), 1);
        QVERIFY(!p.unmappable.empty());
    }
};

QTEST_MAIN(TestStageMapping)
#include "test_stage_mapping.moc"
