// Module hierarchy of large graphs: node_meta.json parsing, derivation from parameter names, the scope tree, folding
// of repeated layers by structure hash, what is drawn for a view (render/scope_tree.h, graph/module_scopes.h).
#include "base/error.h"
#include "graph/fx_parser.h"
#include "graph/module_scopes.h"
#include "io/graph_source.h"
#include "render/graphviz_renderer.h"
#include "render/scope_tree.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <map>
#include <set>
#include <sstream>

using namespace fxray;

namespace {

// A joint graph of `layers` identical blocks (t, addmm, relu, add) and a backward that reads the weights, with
// placeholders named as Dynamo lifts parameters when `dynamoNames`, else primals_*.
struct Model {
    std::string text;
    std::string sidecar;  // node_meta.json for it
};

Model makeModel(int layers, bool dynamoNames, int width = 8)
{
    std::string params, body, meta = R"({"format":"fxray-node-meta","version":1,"stack_traces":["File m.py, line 3"],"module_stacks":[)";
    std::string nodes;
    const std::string shape = "\"f32[4, " + std::to_string(width) + "][" + std::to_string(width) + ", 1]cpu\"";
    const std::string wshape = "\"f32[" + std::to_string(width) + ", " + std::to_string(width) + "][" + std::to_string(width) + ", 1]cpu\"";
    std::vector<std::string> weights;
    for (int k = 0; k < layers; ++k) {
        const std::string w = dynamoNames ? "l_self_modules_layers_modules_" + std::to_string(k) + "_modules_fc_parameters_weight_"
                                          : "primals_" + std::to_string(k + 1);
        weights.push_back(w);
        params += w + ": " + wshape + ", ";
        nodes += "\"" + w + "\":{\"phase\":\"forward\",\"param\":\"layers." + std::to_string(k) + ".fc.weight\"},";
    }
    params += "x: " + shape + ", tangents_1: " + shape;
    std::string prev = "x";
    int stacks = 0;
    std::string stackList;
    for (int k = 0; k < layers; ++k) {
        const std::string s = std::to_string(k);
        body += "        t_" + s + ": " + wshape + " = torch.ops.aten.t.default(" + weights[k] + ")\n";
        body += "        mm_" + s + ": " + shape + " = torch.ops.aten.mm.default(" + prev + ", t_" + s + ")\n";
        body += "        relu_" + s + ": " + shape + " = torch.ops.aten.relu.default(mm_" + s + ")\n";
        body += "        add_" + s + ": " + shape + " = torch.ops.aten.add.Tensor(" + prev + ", relu_" + s + ")\n";
        stackList += std::string(stacks ? "," : "") + "[[\"layers." + s + "\",\"Block\"],[\"layers." + s + ".fc\",\"Linear\"]]";
        stackList += ",[[\"layers." + s + "\",\"Block\"]]";
        const int fc = stacks++, block = stacks++;
        nodes += "\"t_" + s + "\":{\"phase\":\"forward\",\"module_stack\":" + std::to_string(fc) + ",\"stack_trace\":0},";
        nodes += "\"mm_" + s + "\":{\"phase\":\"forward\",\"module_stack\":" + std::to_string(fc) + "},";
        nodes += "\"relu_" + s + "\":{\"phase\":\"forward\",\"module_stack\":" + std::to_string(block) + "},";
        nodes += "\"add_" + s + "\":{\"phase\":\"forward\",\"module_stack\":" + std::to_string(block) + "},";
        prev = "add_" + s;
    }
    // backward: grad through each layer's weight, last layer first
    std::string grad = "tangents_1";
    for (int k = layers - 1; k >= 0; --k) {
        const std::string s = std::to_string(k);
        body += "        g_" + s + ": " + shape + " = torch.ops.aten.mm.default(" + grad + ", " + weights[k] + ")\n";
        nodes += "\"g_" + s + "\":{\"phase\":\"backward\",\"module_stack\":" + std::to_string(2 * k) + "},";
        grad = "g_" + s;
    }
    nodes += "\"output\":{\"phase\":\"backward\"}";
    meta += stackList + "],\"nodes\":{" + nodes + "}}";
    Model m;
    m.text = "class M(torch.nn.Module):\n    def forward(self, " + params + "):\n" + body + "        return (" + prev + ", " + grad + ")\n";
    m.sidecar = meta;
    return m;
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

// The clusters of DOT text as written by buildDot: per "subgraph cluster_<k> {", its parent cluster (-1 at the top)
// and the vertex ids listed directly in it.
struct DotClusters {
    std::map<int, int> parent;
    std::map<int, std::set<std::string>> members;
};

DotClusters clustersOfDot(const std::string& dot)
{
    DotClusters out;
    std::vector<int> open;
    std::istringstream in(dot);
    for (std::string line; std::getline(in, line);) {
        const std::size_t first = line.find_first_not_of(' ');
        if (first == std::string::npos)
            continue;
        const std::string_view t = std::string_view(line).substr(first);
        if (t.starts_with("subgraph cluster_")) {
            const int k = render::clusterFromId(t.substr(9, t.find(' ', 9) - 9));
            out.parent[k] = open.empty() ? -1 : open.back();
            out.members[k];
            open.push_back(k);
        } else if (t == "}" && !open.empty()) {
            open.pop_back();
        } else if (!open.empty() && t.starts_with("\"") && t.ends_with("\";")) {
            out.members[open.back()].insert(std::string(t.substr(1, t.size() - 3)));
        }
    }
    return out;
}

}  // namespace

class TestScopeTree : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parameterAndModulePaths()
    {
        QCOMPARE(graph::parameterPath("L_self_modules_layers_modules_0_modules_self_attn_modules_q_proj_parameters_weight_").value_or(""),
                 std::string("layers.0.self_attn.q_proj.weight"));
        QCOMPARE(graph::parameterPath("l_s_modules_head_buffers_running_mean_").value_or(""), std::string("head.running_mean"));
        QVERIFY(!graph::parameterPath("l_x_"));
        QVERIFY(!graph::parameterPath("primals_1"));
        QCOMPARE(graph::modulePath("L['self'].layers[0]._modules['fc']"), std::string("layers.0.fc"));
        QCOMPARE(graph::modulePath("L['self'].model.layers.3.self_attn"), std::string("model.layers.3.self_attn"));
        QCOMPARE(graph::moduleComponents("model.layers.12.mlp"), (std::vector<std::string>{"model", "layers.12", "mlp"}));
        QVERIFY(graph::moduleComponents("").empty());
    }

    void sidecarGivesModulesAndTwins()
    {
        const Model m = makeModel(4, false);
        const graph::Graph g = parse(m.text);
        const graph::ModuleScopes s = graph::parseNodeMeta(g, m.sidecar, "node_meta.json");
        QCOMPARE(s.source, graph::ModuleScopes::Source::Sidecar);
        QVERIFY(s.backwardTwins);
        QCOMPARE(s.nodes[static_cast<std::size_t>(g.findNode("mm_2"))].module, std::string("layers.2.fc"));
        QCOMPARE(s.nodes[static_cast<std::size_t>(g.findNode("mm_2"))].moduleType, std::string("Linear"));
        QCOMPARE(s.nodes[static_cast<std::size_t>(g.findNode("primals_3"))].module, std::string("layers.2.fc"));
        QCOMPARE(s.nodes[static_cast<std::size_t>(g.findNode("g_1"))].phase, graph::Phase::Backward);
        QCOMPARE(s.nodes[static_cast<std::size_t>(g.findNode("g_1"))].module, std::string("layers.1.fc"));
        QCOMPARE(s.stackTraces.size(), std::size_t{1});
        QCOMPARE(s.nodes[static_cast<std::size_t>(g.findNode("t_0"))].stackTrace, 0);
    }

    void brokenSidecarIsAnErrorNamingTheFile()
    {
        const graph::Graph g = parse(makeModel(2, false).text);
        for (const std::string& bad : {std::string("{"), std::string("[]"), std::string(R"({"format":"other"})"),
                                      std::string(R"({"format":"fxray-node-meta","version":7,"nodes":{}})"),
                                      std::string(R"({"format":"fxray-node-meta","version":1,"nodes":{"t_0":{"module_stack":5}},"module_stacks":[]})")}) {
            std::string msg;
            try {
                graph::parseNodeMeta(g, bad, "/d/node_meta.json");
            } catch (const Error& e) {
                msg = formatError(e.message(), e.where(), e.excerpt());
            }
            QVERIFY2(msg.find("/d/node_meta.json") != std::string::npos, (bad + " -> " + msg).c_str());
        }
    }

    void loaderWarnsOnBrokenSidecarAndStillLoads()
    {
        QTemporaryDir tmp;
        const std::filesystem::path dir = std::filesystem::path(tmp.path().toStdString()) / "m" / "m_joint_0";
        std::filesystem::create_directories(dir);
        const Model m = makeModel(3, false);
        std::ofstream(dir / "module.py") << m.text;
        std::ofstream(dir / "m_joint_0.readable.py") << m.text;
        std::ofstream(dir / "node_meta.json") << "{not json";
        const io::LoadedGraph lg = io::loadAddress(dir.string());
        QVERIFY(!lg.graph.nodes.empty());
        bool warned = false;
        for (const std::string& w : lg.warnings)
            warned = warned || w.find("node_meta.json") != std::string::npos;
        QVERIFY(warned);
        QVERIFY(lg.modules.source != graph::ModuleScopes::Source::Sidecar);
        // and a good one is read
        std::ofstream(dir / "node_meta.json", std::ios::trunc) << m.sidecar;
        const io::LoadedGraph good = io::loadAddress(dir.string());
        QCOMPARE(good.modules.source, graph::ModuleScopes::Source::Sidecar);
        // a missing one is silent
        std::filesystem::remove(dir / "node_meta.json");
        const io::LoadedGraph none = io::loadAddress(dir.string());
        for (const std::string& w : none.warnings)
            QVERIFY(w.find("node_meta") == std::string::npos);
    }

    void derivedFromDynamoParameterNames()
    {
        const graph::Graph g = parse(makeModel(3, true).text);
        const graph::ModuleScopes s = graph::deriveModuleScopes(g);
        QCOMPARE(s.source, graph::ModuleScopes::Source::Derived);
        QVERIFY(!s.backwardTwins);
        QCOMPARE(s.nodes[static_cast<std::size_t>(g.findNode("t_1"))].module, std::string("layers.1.fc"));
        QCOMPARE(s.nodes[static_cast<std::size_t>(g.findNode("mm_1"))].module, std::string("layers.1.fc"));  // reads t of the weight
        QCOMPARE(s.nodes[static_cast<std::size_t>(g.findNode("g_2"))].phase, graph::Phase::Backward);
        // AOT placeholders through the Dynamo graph's input names
        const graph::Graph aot = parse(makeModel(2, false).text);
        graph::Graph commented = aot;
        for (int p : commented.placeholders())
            if (commented.nodes[static_cast<std::size_t>(p)].name.rfind("primals_", 0) == 0)
                commented.nodes[static_cast<std::size_t>(p)].comment =
                    "PlainAOTInput(idx=" + std::to_string(std::stoi(commented.nodes[static_cast<std::size_t>(p)].name.substr(8)) - 1) + ")";
        const graph::ModuleScopes viaDynamo = graph::deriveModuleScopes(
            commented, {"l_self_modules_layers_modules_0_modules_fc_parameters_weight_", "l_self_modules_layers_modules_1_modules_fc_parameters_weight_"});
        QCOMPARE(viaDynamo.nodes[static_cast<std::size_t>(commented.findNode("mm_1"))].module, std::string("layers.1.fc"));
        QCOMPARE(graph::deriveModuleScopes(aot).source, graph::ModuleScopes::Source::None);
    }

    void treeFoldsIdenticalLayers()
    {
        const Model m = makeModel(6, false);
        const graph::Graph g = parse(m.text);
        const render::ScopeTree t = render::buildScopeTree(g, graph::parseNodeMeta(g, m.sidecar, "node_meta.json"));
        QVERIFY(t.useful());
        const int l3 = scopeNamed(t, "layers.3");
        QVERIFY(l3 > 0);
        QCOMPARE(t.scopes[static_cast<std::size_t>(l3)].type, std::string("Block"));
        // forward and backward nodes of layer 3 are in its scope (the sidecar names backward twins)
        const auto& nodes = t.scopes[static_cast<std::size_t>(l3)].nodes;
        QVERIFY(std::find(nodes.begin(), nodes.end(), g.findNode("g_3")) != nodes.end());
        QVERIFY(std::find(nodes.begin(), nodes.end(), g.findNode("primals_4")) != nodes.end());
        QCOMPARE(t.folds.size(), std::size_t{1});
        QCOMPARE(t.folds[0].scopes.size(), std::size_t{6});
        QCOMPARE(t.folds[0].title, std::string("layers.0–5 ×6"));
        std::vector<int> expectSorted = t.folds[0].nodes;
        std::sort(expectSorted.begin(), expectSorted.end());
        QCOMPARE(t.folds[0].nodes, expectSorted);
        // every node in exactly one deepest scope
        QCOMPARE(t.scopeOf.size(), g.nodes.size());
        QCOMPARE(t.scopes[0].nodes.size(), g.nodes.size());
    }

    void hashIgnoresNamesButNotShapes()
    {
        const graph::Graph a = parse(makeModel(2, false).text);
        const graph::Graph b = parse(makeModel(2, true).text);  // other placeholder names, same structure
        std::vector<int> all(a.nodes.size());
        std::iota(all.begin(), all.end(), 0);
        QCOMPARE(render::structureHash(a, all), render::structureHash(b, all));
        const graph::Graph wide = parse(makeModel(2, false, 16).text);
        QVERIFY(render::structureHash(a, all) != render::structureHash(wide, all));
        // a layer that differs is not folded with its neighbours
        Model m = makeModel(4, false);
        const std::string from = "relu_2: \"f32[4, 8][8, 1]cpu\" = torch.ops.aten.relu.default";
        m.text.replace(m.text.find(from), from.size(), "relu_2: \"f32[4, 8][8, 1]cpu\" = torch.ops.aten.sigmoid.default");
        const graph::Graph g = parse(m.text);
        const render::ScopeTree t = render::buildScopeTree(g, graph::parseNodeMeta(g, m.sidecar, "node_meta.json"));
        QCOMPARE(t.folds.size(), std::size_t{1});
        QCOMPARE(t.folds[0].title, std::string("layers.0–1 ×2"));
    }

    void viewsAndGrouping()
    {
        const Model m = makeModel(24, false);
        const graph::Graph g = parse(m.text);
        const render::ScopeTree t = render::buildScopeTree(g, graph::parseNodeMeta(g, m.sidecar, "node_meta.json"));
        render::ScopeView v = render::initialView(t, 30);
        QVERIFY(render::visibleCount(t, v) <= 30);
        render::Grouping gr = render::groupingForView(g, t, v);
        // the 24 layers are one box
        int foldBoxes = 0;
        for (const render::Block& b : gr.blocks)
            foldBoxes += b.fold >= 0;
        QCOMPARE(foldBoxes, 1);
        for (const render::Block& b : gr.blocks)
            if (b.fold >= 0) {
                QCOMPARE(b.nodes.size(), t.folds[0].nodes.size());
                QVERIFY(QString::fromStdString(b.title).startsWith(QStringLiteral("layers.0–23 ×24")));
            }
        // selecting a node deep inside opens its path: it is drawn as itself
        const int node = g.findNode("mm_17");
        QVERIFY(gr.blockOf[static_cast<std::size_t>(node)] >= 0);
        render::openPathTo(t, v, node);
        gr = render::groupingForView(g, t, v);
        QCOMPARE(gr.blockOf[static_cast<std::size_t>(node)], -1);
        // its siblings stay boxes; every node is drawn once (a box or itself)
        std::vector<int> seen(g.nodes.size(), 0);
        for (const render::Block& b : gr.blocks)
            for (int n : b.nodes)
                ++seen[static_cast<std::size_t>(n)];
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
            QVERIFY(seen[i] == (gr.blockOf[i] >= 0 ? 1 : 0));
        QVERIFY(gr.blockOf[static_cast<std::size_t>(g.findNode("mm_3"))] >= 0);
        // the collapsed graph keeps every edge: its blocks read what their nodes read from outside
        const render::CollapsedGraph c = render::collapseBlocks(g, gr, std::vector<bool>(gr.blocks.size(), false));
        QCOMPARE(c.graph.nodes.size(), gr.blocks.size() + static_cast<std::size_t>(std::count(gr.blockOf.begin(), gr.blockOf.end(), -1)));
        // closing the layer's fold again shuts everything under it
        render::closeScope(t, v, 0);
        QCOMPARE(render::groupingForView(g, t, v).blocks.size(), render::groupingForView(g, t, render::initialView(t, 0)).blocks.size());
    }

    // Opening a fold of many instances draws one instance open and the others as one box per run (a ×9,999 fold
    // laid out as 9,999 boxes took 30 s); asking for more, or selecting a node inside, draws those instances.
    void largeFoldOpensOneInstanceAndABoxForTheRest()
    {
        const int layers = static_cast<int>(render::kFoldInstancesDrawn) + 8;
        const Model m = makeModel(layers, false);
        const graph::Graph g = parse(m.text);
        const render::ScopeTree t = render::buildScopeTree(g, graph::parseNodeMeta(g, m.sidecar, "node_meta.json"));
        QCOMPARE(t.folds.size(), std::size_t{1});
        QVERIFY(render::isLargeFold(t, 0));
        render::ScopeView v = render::initialView(t, 30);
        render::openFold(t, v, 0);
        const auto titles = [&](const render::Grouping& gr) {
            QStringList out;
            for (const render::Block& b : gr.blocks)
                out << QString::fromStdString(b.title);
            return out;
        };
        const auto restBlocks = [&](const render::Grouping& gr) {
            std::vector<const render::Block*> out;
            for (const render::Block& b : gr.blocks)
                if (b.restCount > 0)
                    out.push_back(&b);
            return out;
        };
        const auto drawnOnce = [&](const render::Grouping& gr) {
            std::vector<int> seen(g.nodes.size(), 0);
            for (const render::Block& b : gr.blocks)
                for (int n : b.nodes)
                    ++seen[static_cast<std::size_t>(n)];
            for (std::size_t i = 0; i < g.nodes.size(); ++i)
                if (seen[i] != (gr.blockOf[i] >= 0 ? 1 : 0))
                    return false;
            return true;
        };
        render::Grouping gr = render::groupingForView(g, t, v);
        // layers.0 open (its fc a box, its own nodes drawn), layers.1–39 one box; no fold box any more.
        std::vector<const render::Block*> rest = restBlocks(gr);
        QCOMPARE(rest.size(), std::size_t{1});
        QCOMPARE(rest[0]->restCount, layers - 1);
        QCOMPARE(rest[0]->restFold, 0);
        QCOMPARE(QString::fromStdString(rest[0]->title), QStringLiteral("layers.1–%1 ×%2").arg(layers - 1).arg(layers - 1));
        QVERIFY2(titles(gr).contains(QStringLiteral("fc")), qPrintable(titles(gr).join(QLatin1Char('|'))));
        QCOMPARE(gr.blockOf[static_cast<std::size_t>(g.findNode("relu_0"))], -1);
        QVERIFY(gr.blockOf[static_cast<std::size_t>(g.findNode("relu_1"))] >= 0);
        QVERIFY(drawnOnce(gr));
        QVERIFY2(render::visibleCount(t, v) < 16, QByteArray::number(static_cast<qulonglong>(render::visibleCount(t, v))));
        // More: the next kFoldInstancesStep instances as boxes, the rest one box.
        render::showMoreOf(t, v, *rest[0]);
        gr = render::groupingForView(g, t, v);
        rest = restBlocks(gr);
        QCOMPARE(rest.size(), std::size_t{1});
        QCOMPARE(rest[0]->restCount, layers - 1 - static_cast<int>(render::kFoldInstancesStep));
        QVERIFY(titles(gr).contains(QStringLiteral("layers.1")));
        QVERIFY(titles(gr).contains(QStringLiteral("layers.8")));
        QVERIFY(!titles(gr).contains(QStringLiteral("layers.9")));
        // A node deep in the rest: its instance is drawn, splitting the rest in two.
        const int node = g.findNode("mm_30");
        render::openPathTo(t, v, node);
        gr = render::groupingForView(g, t, v);
        QCOMPARE(gr.blockOf[static_cast<std::size_t>(node)], -1);
        rest = restBlocks(gr);
        QCOMPARE(rest.size(), std::size_t{2});
        QCOMPARE(QString::fromStdString(rest[0]->title), QStringLiteral("layers.9–29 ×21"));
        QCOMPARE(rest[1]->restCount, layers - 31);
        QVERIFY(drawnOnce(gr));
        // Shutting the root shuts the fold and forgets the instances shown.
        render::closeScope(t, v, 0);
        QVERIFY(std::none_of(v.shown.begin(), v.shown.end(), [](char c) { return c != 0; }));
        // A fold of at most kFoldInstancesDrawn opens into one box per instance, as before.
        const Model small = makeModel(12, false);
        const graph::Graph sg = parse(small.text);
        const render::ScopeTree st = render::buildScopeTree(sg, graph::parseNodeMeta(sg, small.sidecar, "node_meta.json"));
        QVERIFY(!render::isLargeFold(st, 0));
        render::ScopeView sv = render::initialView(st, 30);
        render::openFold(st, sv, 0);
        const render::Grouping sgr = render::groupingForView(sg, st, sv);
        QVERIFY(restBlocks(sgr).empty());
        int layerBoxes = 0;
        for (const render::Block& b : sgr.blocks)
            layerBoxes += QString::fromStdString(b.title).startsWith(QStringLiteral("layers."));
        QCOMPARE(layerBoxes, 12);
    }

    // An open scope is drawn as a Graphviz cluster labelled with its name, nested in the cluster of the open scope
    // (or fold) around it, holding what it draws: its own nodes, and the boxes of its shut children. With nothing
    // open there is no cluster. Laid out, each cluster's box holds its nodes' boxes.
    void openScopesAreNestedClusters()
    {
        const Model m = makeModel(6, false);
        const graph::Graph g = parse(m.text);
        const render::ScopeTree t = render::buildScopeTree(g, graph::parseNodeMeta(g, m.sidecar, "node_meta.json"));
        const auto dotOf = [&](const render::ScopeView& v, render::Grouping& gr, render::CollapsedGraph& c) {
            gr = render::groupingForView(g, t, v);
            c = render::collapseBlocks(g, gr, std::vector<bool>(gr.blocks.size(), false));
            render::DotOptions options;
            options.unconstrainedBackEdges = true;
            render::addClusters(options, gr, c);
            return render::buildDot(c.graph, options);
        };
        render::ScopeView v = render::initialView(t, 0);
        render::Grouping gr;
        render::CollapsedGraph c;
        QVERIFY(dotOf(v, gr, c).text.find("subgraph cluster") == std::string::npos);
        QVERIFY(gr.clusters.empty());

        // Select mm_3: the layers' fold, layers.3 and layers.3.fc open.
        render::openPathTo(t, v, g.findNode("mm_3"));
        const render::DotDocument doc = dotOf(v, gr, c);
        const DotClusters dc = clustersOfDot(doc.text);
        QCOMPARE(dc.parent.size(), std::size_t{3});
        int fold = -1, layer = -1, fc = -1;
        for (const auto& [k, parent] : dc.parent) {
            const std::string& label = gr.clusters[static_cast<std::size_t>(k)].label;
            if (label == "layers.0–5 ×6")
                fold = k;
            else if (label == "layers.3 · #3 of ×6 · Block")
                layer = k;
            else if (label == "fc · Linear")
                fc = k;
            else
                QFAIL(qPrintable(QString::fromStdString("unexpected cluster label " + label)));
        }
        QVERIFY(fold >= 0 && layer >= 0 && fc >= 0);
        QCOMPARE(dc.parent.at(fold), -1);
        QCOMPARE(dc.parent.at(layer), fold);
        QCOMPARE(dc.parent.at(fc), layer);
        // fc holds its nodes (forward and the backward twin), layers.3 its own, the fold the other layers as two
        // boxes (layers 0-2 before the open one, 4-5 after it).
        const std::set<std::string>& inFc = dc.members.at(fc);
        for (const char* n : {"t_3", "mm_3", "g_3"})
            QVERIFY2(inFc.count(n), n);
        const std::set<std::string>& inLayer = dc.members.at(layer);
        QVERIFY(inLayer.count("relu_3") && inLayer.count("add_3") && !inLayer.count("mm_3"));
        std::set<std::string> layerBoxes;
        int instances = 0;
        for (std::size_t b = 0; b < gr.blocks.size(); ++b)
            if (gr.blocks[b].scope >= 0 && t.scopes[static_cast<std::size_t>(gr.blocks[b].scope)].fold == 0) {
                layerBoxes.insert(render::blockNodeName(static_cast<int>(b)));
                instances += gr.blocks[b].restCount;
                QCOMPARE(gr.blocks[b].restFold, 0);
            }
        QCOMPARE(layerBoxes.size(), std::size_t{2});
        QCOMPARE(instances, 5);
        for (const std::string& box : layerBoxes)
            QVERIFY2(dc.members.at(fold).count(box), box.c_str());
        // Nodes outside every open scope (the input x, the output) are in no cluster.
        for (const auto& [k, members] : dc.members)
            QVERIFY(!members.count("x") && !members.count("output"));

        if (!render::graphvizAvailable())
            return;
        const render::Layout layout = render::computeLayout(doc);
        QCOMPARE(layout.clusters.size(), std::size_t{3});
        std::map<int, QRectF> boxOf;
        for (const render::Layout::ClusterBox& b : layout.clusters)
            boxOf[b.cluster] = QRectF(b.x, b.y, b.w, b.h);
        QVERIFY(boxOf[fold].contains(boxOf[layer]) && boxOf[layer].contains(boxOf[fc]));
        for (const render::Layout::NodeBox& n : layout.nodes)
            if (n.id == "mm_3" || n.id == "g_3")
                QVERIFY(boxOf[fc].contains(QPointF(n.x, n.y)));
    }

    void derivedJointGetsBackwardScope()
    {
        const graph::Graph g = parse(makeModel(3, true).text);
        const render::ScopeTree t = render::buildScopeTree(g, graph::deriveModuleScopes(g));
        const int bw = scopeNamed(t, "backward");
        QVERIFY(bw > 0);
        QVERIFY(scopeNamed(t, "backward.layers.1.fc") > 0);
        QCOMPARE(t.scopeOf[static_cast<std::size_t>(g.findNode("g_1"))], scopeNamed(t, "backward.layers.1.fc"));
    }

    void traceGraphsDeriveModulesThroughTheirDynamoGraph()
    {
        // The AOT joint graph's placeholders are PlainAOTInput(idx=i) of the compile's dynamo_output_graph, whose input
        // names say which parameter each one is (l_fn_modules_linear1_parameters_weight_ -> linear1.weight).
        const io::LoadedGraph lg = io::loadAddress(FXRAY_SAMPLES_DIR "/h100/trace/mlp_encoder_inductor.log#1/0/aot_joint_graph");
        QCOMPARE(lg.modules.source, graph::ModuleScopes::Source::Derived);
        std::set<std::string> modules;
        for (const graph::NodeOrigin& o : lg.modules.nodes)
            modules.insert(o.module);
        QVERIFY(modules.count("linear1") && modules.count("linear2") && modules.count("self_attn") && modules.count("norm1"));
        const render::ScopeTree t = render::buildScopeTree(lg.graph, lg.modules);
        QVERIFY(scopeNamed(t, "backward") > 0);  // no sidecar: the backward half is its own scope
        QVERIFY(scopeNamed(t, "backward.linear2") > 0);
        // The Dynamo graph itself names its parameters.
        const io::LoadedGraph dyn = io::loadAddress(FXRAY_SAMPLES_DIR "/h100/trace/mlp_encoder_inductor.log#1/0/dynamo_output_graph");
        QCOMPARE(dyn.modules.source, graph::ModuleScopes::Source::Derived);
    }

    void noModulesNoTree()
    {
        const graph::Graph g = parse(makeModel(2, false).text);
        QVERIFY(!render::buildScopeTree(g, graph::deriveModuleScopes(g)).useful());
    }
};

QTEST_APPLESS_MAIN(TestScopeTree)
#include "test_scope_tree.moc"
