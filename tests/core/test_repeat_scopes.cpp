// Module hierarchy without names (graph/repeat_scopes.h): repeated statements in program order become scopes folded
// ×N, copies cut at layer boundaries, joint graphs split into forward and backward halves with twins linked, the
// outline text/JSON of the result (render/scope_outline.h), and a real 3-layer Qwen2 dump without its sidecar.
#include "graph/fx_parser.h"
#include "graph/repeat_scopes.h"
#include "io/graph_source.h"
#include "render/scope_outline.h"
#include "render/scope_tree.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>

using namespace fxray;

namespace {

// A residual stack of `layers` blocks (pow, mul: a norm at m.py:10-11; t, mm: a linear at m.py:20; relu at m.py:21;
// add: the residual at m.py:30). The prefix ends with the same statements a block ends with (relu, add) and the suffix
// starts with the block's norm, so the periodic run is longer than the copies: only the boundary the residual stream
// alone crosses cuts it right. With `joint`, a backward half runs the blocks in reverse, reading each block's saved
// relu and pow.
std::string stackModel(int layers, bool joint)
{
    const std::string a = "\"f32[4, 8][8, 1]cpu\"", w = "\"f32[8, 8][8, 1]cpu\"";
    std::string params = "x: " + a;
    for (int k = 0; k < layers; ++k)
        params += ", w" + std::to_string(k) + ": " + w;
    if (joint)
        params += ", tangents_1: " + a;
    const auto stmt = [&](int line, const std::string& code) {
        return "        # File: /src/m.py:" + std::to_string(line) + " in forward, code: " + code + "\n";
    };
    const auto node = [&](const std::string& name, const std::string& call) { return "        " + name + ": " + a + " = " + call + "\n"; };
    std::string body = stmt(1, "h = self.embed(x)") + node("emb", "torch.ops.aten.mul.Tensor(x, 2)");
    body += stmt(21, "a = a.relu()") + node("relu_p", "torch.ops.aten.relu.default(emb)");
    body += stmt(30, "h = h + a") + node("add_p", "torch.ops.aten.add.Tensor(emb, relu_p)");
    std::string h = "add_p";
    for (int k = 0; k < layers; ++k) {
        const std::string s = std::to_string(k);
        body += stmt(10, "v = h.pow(2)") + node("pow_" + s, "torch.ops.aten.pow.Tensor_Scalar(" + h + ", 2)");
        body += stmt(11, "n = h * v") + node("mul_" + s, "torch.ops.aten.mul.Tensor(" + h + ", pow_" + s + ")");
        body += stmt(20, "a = self.fc(n)") + "        t_" + s + ": " + w + " = torch.ops.aten.t.default(w" + s + ")\n" +
                node("mm_" + s, "torch.ops.aten.mm.default(mul_" + s + ", t_" + s + ")");
        body += stmt(21, "a = a.relu()") + node("relu_" + s, "torch.ops.aten.relu.default(mm_" + s + ")");
        body += stmt(30, "h = h + a") + node("add_" + s, "torch.ops.aten.add.Tensor(" + h + ", relu_" + s + ")");
        h = "add_" + s;
    }
    body += stmt(10, "v = h.pow(2)") + node("pow_f", "torch.ops.aten.pow.Tensor_Scalar(" + h + ", 2)");
    body += stmt(11, "n = h * v") + node("mul_f", "torch.ops.aten.mul.Tensor(" + h + ", pow_f)");
    body += stmt(40, "return self.head(n)") + node("head", "torch.ops.aten.neg.default(mul_f)");
    std::string outputs = "head";
    if (joint) {
        std::string g = "tangents_1";
        for (int k = layers - 1; k >= 0; --k) {
            const std::string s = std::to_string(k);
            body += stmt(21, "a = a.relu()") + node("tb_" + s, "torch.ops.aten.threshold_backward.default(" + g + ", relu_" + s + ", 0)");
            body += stmt(20, "a = self.fc(n)") + node("mmb_" + s, "torch.ops.aten.mm.default(tb_" + s + ", w" + s + ")") +
                    "        mmw_" + s + ": " + w + " = torch.ops.aten.mm.default(tb_" + s + ", mul_" + s + ")\n" +
                    "        tw_" + s + ": " + w + " = torch.ops.aten.t.default(mmw_" + s + ")\n";
            body += stmt(11, "n = h * v") + node("mulb_" + s, "torch.ops.aten.mul.Tensor(mmb_" + s + ", pow_" + s + ")");
            body += stmt(30, "h = h + a") + node("gb_" + s, "torch.ops.aten.add.Tensor(" + g + ", mulb_" + s + ")");
            g = "gb_" + s;
            outputs += ", tw_" + s;
        }
        outputs += ", " + g;
    }
    return "class M(torch.nn.Module):\n    def forward(self, " + params + "):\n" + body + "        return (" + outputs + ",)\n";
}

graph::Graph parse(const std::string& text)
{
    return graph::parseFxModule(text, {"m.py", 1}).graph;
}

int scopeNamed(const render::ScopeTree& t, const std::string& path)
{
    for (std::size_t i = 0; i < t.scopes.size(); ++i)
        if (t.scopes[i].path == path)
            return static_cast<int>(i);
    return -1;
}

// The scope holding node `name` directly.
const render::Scope& scopeOf(const graph::Graph& g, const render::ScopeTree& t, const std::string& name)
{
    return t.scopes[static_cast<std::size_t>(t.scopeOf[static_cast<std::size_t>(g.findNode(name))])];
}

std::string firstOp(const graph::Graph& g, const render::Scope& s)
{
    for (int n : s.nodes)
        if (g.nodes[static_cast<std::size_t>(n)].kind == graph::NodeKind::CallFunction)
            return g.nodes[static_cast<std::size_t>(n)].name;
    return "";
}

std::string lastOp(const graph::Graph& g, const render::Scope& s)
{
    for (auto it = s.nodes.rbegin(); it != s.nodes.rend(); ++it)
        if (g.nodes[static_cast<std::size_t>(*it)].kind == graph::NodeKind::CallFunction)
            return g.nodes[static_cast<std::size_t>(*it)].name;
    return "";
}

}  // namespace

class TestRepeatScopes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void foldsLayersFoundFromStackTracesAlone()
    {
        const graph::Graph g = parse(stackModel(5, false));
        const graph::ModuleScopes m = graph::inferRepeatScopes(g);
        QCOMPARE(m.source, graph::ModuleScopes::Source::Repeats);
        const render::ScopeTree t = render::buildScopeTree(g, m);
        QCOMPARE(t.folds.size(), std::size_t{1});
        const render::Fold& f = t.folds[0];
        QCOMPARE(f.scopes.size(), std::size_t{5});
        QCOMPARE(f.parent, 0);
        QCOMPARE(f.title, std::string("m:10–30 #0–4 ×5"));  // named from the source: file stem and line span
        // Each copy is one layer, pow_k … add_k, with its weight: not relu, add, pow, ... (the run starts two statements
        // early, at the prefix's relu_p) and not shifted into the suffix's norm.
        for (int k = 0; k < 5; ++k) {
            const render::Scope& s = scopeOf(g, t, "mm_" + std::to_string(k));
            QCOMPARE(firstOp(g, s), "pow_" + std::to_string(k));
            QCOMPARE(lastOp(g, s), "add_" + std::to_string(k));
            QCOMPARE(s.name, "m:10–30 #" + std::to_string(k));
            QCOMPARE(t.scopeOf[static_cast<std::size_t>(g.findNode("w" + std::to_string(k)))], t.scopeOf[static_cast<std::size_t>(g.findNode("mm_" + std::to_string(k)))]);
        }
        for (const char* outside : {"emb", "relu_p", "add_p", "pow_f", "mul_f", "head", "x"})
            QCOMPARE(t.scopeOf[static_cast<std::size_t>(g.findNode(outside))], 0);
        QCOMPARE(t.scopes[static_cast<std::size_t>(f.scopes[0])].type, std::string("forward()"));
    }

    void jointHalvesFoldSeparatelyAndBackwardCopiesKnowTheirTwins()
    {
        const graph::Graph g = parse(stackModel(4, true));
        const graph::ModuleScopes m = graph::inferRepeatScopes(g);
        QCOMPARE(m.source, graph::ModuleScopes::Source::Repeats);
        const render::ScopeTree t = render::buildScopeTree(g, m);
        const int forward = scopeNamed(t, "forward"), backward = scopeNamed(t, "backward");
        QVERIFY(forward > 0 && backward > 0);
        QCOMPARE(t.folds.size(), std::size_t{2});
        QCOMPARE(t.folds[0].parent, forward);
        QCOMPARE(t.folds[1].parent, backward);
        QCOMPARE(t.folds[1].scopes.size(), std::size_t{4});
        QCOMPARE(t.folds[1].title, t.folds[0].title);
        for (int k = 0; k < 4; ++k) {
            const std::string s = std::to_string(k);
            const render::Scope& b = scopeOf(g, t, "mmb_" + s);
            const render::Scope& f = scopeOf(g, t, "mm_" + s);
            QCOMPARE(b.parent, backward);
            QCOMPARE(firstOp(g, b), "tb_" + s);
            QCOMPARE(lastOp(g, b), "gb_" + s);
            // The backward copy that reads relu_k and pow_k is layer k's: same number, linked both ways.
            QCOMPARE(b.name, f.name);
            QCOMPARE(t.scopes[static_cast<std::size_t>(b.twin)].path, f.path);
            QCOMPARE(t.scopes[static_cast<std::size_t>(f.twin)].path, b.path);
        }
        // A tangent goes with the backward copy that reads it; the weights read in both halves with their forward copy.
        QCOMPARE(t.scopeOf[static_cast<std::size_t>(g.findNode("tangents_1"))], t.scopeOf[static_cast<std::size_t>(g.findNode("tb_3"))]);
        QCOMPARE(t.scopeOf[static_cast<std::size_t>(g.findNode("w2"))], t.scopeOf[static_cast<std::size_t>(g.findNode("mm_2"))]);
    }

    void nothingRepeatsNothingInvented()
    {
        const graph::Graph g = parse(stackModel(1, false));
        QCOMPARE(graph::inferRepeatScopes(g).source, graph::ModuleScopes::Source::None);
        QVERIFY(!render::buildScopeTree(g, graph::inferRepeatScopes(g)).useful());
    }

    void sidecarWinsOverRepeats()
    {
        QTemporaryDir tmp;
        const std::filesystem::path dir = std::filesystem::path(tmp.path().toStdString()) / "m" / "m_forward_0";
        std::filesystem::create_directories(dir);
        const std::string text = stackModel(3, false);
        std::ofstream(dir / "module.py") << text;
        std::ofstream(dir / "m_forward_0.readable.py") << text;
        QCOMPARE(io::loadAddress(dir.string()).modules.source, graph::ModuleScopes::Source::Repeats);
        std::ofstream(dir / "node_meta.json")
            << R"({"format":"fxray-node-meta","version":1,"module_stacks":[[["layers.0","Block"]]],"nodes":{"mm_0":{"phase":"forward","module_stack":0}}})";
        const io::LoadedGraph lg = io::loadAddress(dir.string());
        QCOMPARE(lg.modules.source, graph::ModuleScopes::Source::Sidecar);
        QCOMPARE(lg.modules.nodes[static_cast<std::size_t>(lg.graph.findNode("mm_0"))].module, std::string("layers.0"));
    }

    void realQwen2JointDumpWithoutSidecarFoldsItsLayers()
    {
        // tools/corpus/capture_model.py --model qwen2 --layers 3, node_meta.json deleted: functorch's layout has none.
        const io::LoadedGraph lg = io::loadAddress(FXRAY_TEST_DATA_DIR "/repeats/qwen2_3layers/qwen2_joint_0");
        QCOMPARE(lg.modules.source, graph::ModuleScopes::Source::Repeats);
        const render::ScopeTree t = render::buildScopeTree(lg.graph, lg.modules);
        QCOMPARE(t.folds.size(), std::size_t{2});
        const render::Fold& fwd = t.folds[0];
        const render::Fold& bwd = t.folds[1];
        QCOMPARE(fwd.title, std::string("modeling_qwen2:47–297 #0–2 ×3"));
        QCOMPARE(bwd.title, fwd.title);
        QCOMPARE(t.scopes[static_cast<std::size_t>(fwd.parent)].path, std::string("forward"));
        QCOMPARE(t.scopes[static_cast<std::size_t>(bwd.parent)].path, std::string("backward"));
        // Layer 0 runs from its input RMSNorm (pow_1, modeling_qwen2.py:250) to its second residual add (add_8, :297);
        // its backward from the MLP's gradient (view_96, :47) to the input norm's (add_68, :250), the last in the graph.
        const render::Scope& layer0 = t.scopes[static_cast<std::size_t>(fwd.scopes[0])];
        QCOMPARE(firstOp(lg.graph, layer0), std::string("pow_1"));
        QCOMPARE(lastOp(lg.graph, layer0), std::string("add_8"));
        const render::Scope& back0 = t.scopes[static_cast<std::size_t>(layer0.twin)];
        QCOMPARE(back0.path, std::string("backward.modeling_qwen2:47–297 #0"));
        QCOMPARE(firstOp(lg.graph, back0), std::string("view_96"));
        QCOMPARE(lastOp(lg.graph, back0), std::string("add_68"));
        QVERIFY(std::find(bwd.scopes.begin(), bwd.scopes.end(), layer0.twin) != bwd.scopes.end());

        const std::string text = render::outlineText(lg.graph, t);
        QVERIFY2(text.find("\n    modeling_qwen2:47–297 #0–2 ×3  each 103 nodes") != std::string::npos, text.c_str());
        const json::Value j = render::outlineJson(lg.graph, t);
        QCOMPARE(j["source"].asString(), std::string("repeated structure"));
        const json::Value& forwardJson = j["root"]["children"][std::size_t{0}];
        QCOMPARE(forwardJson["path"].asString(), std::string("forward"));
        QCOMPARE(forwardJson["children"][std::size_t{0}]["count"].asInt(), std::int64_t{3});
        QCOMPARE(forwardJson["children"][std::size_t{0}]["each"]["first"].asString(), std::string("pow_1"));
    }
};

QTEST_APPLESS_MAIN(TestRepeatScopes)
#include "test_repeat_scopes.moc"
