// core/render: DOT text structure and escaping, stubs for big graphs, Graphviz rendering and layout.
#include "test_support.h"

#include "base/error.h"
#include "graph/graph.h"
#include "io/graph_source.h"
#include "base/subprocess.h"
#include "graph/fx_parser.h"
#include "render/dot_writer.h"
#include "render/graph_grouping.h"
#include "render/graphviz_renderer.h"
#include "render/layout_io.h"
#include "render/node_category.h"

#include <QtTest/QtTest>
#include <QXmlStreamReader>

#include <algorithm>
#include <future>
#include <sstream>
#include <set>
#include <thread>

using namespace fxray;
using render::NodeCategory;

namespace {

graph::ValueMeta tensorMeta(std::vector<std::int64_t> sizes)
{
    graph::TensorMeta t;
    t.dtype = graph::DType::Float32;
    for (auto s : sizes)
        t.sizes.push_back(graph::SymDim::constant(s));
    t.strides = graph::contiguousStrides(t.sizes);
    t.device = graph::Device{"cuda", 0};
    return graph::ValueMeta::ofTensor(t);
}

graph::Node placeholder(const std::string& name, std::optional<graph::ValueMeta> meta = {})
{
    graph::Node n;
    n.name = name;
    n.kind = graph::NodeKind::Placeholder;
    n.attr = name;
    n.meta = std::move(meta);
    return n;
}

graph::Node op(const std::string& name, const std::string& opName, const std::string& overload,
               std::vector<graph::Arg> args, std::optional<graph::ValueMeta> meta = {})
{
    graph::Node n;
    n.name = name;
    n.kind = graph::NodeKind::CallFunction;
    n.target.kind = graph::Target::Kind::Op;
    n.target.ns = "aten";
    n.target.op = opName;
    n.target.overload = overload;
    n.args = std::move(args);
    n.meta = std::move(meta);
    return n;
}

graph::Node output(std::vector<graph::Arg> values)
{
    graph::Node n;
    n.name = "output";
    n.kind = graph::NodeKind::Output;
    n.args = {graph::Arg::ofList(std::move(values), graph::Arg::Kind::Tuple)};
    return n;
}

using graph::Arg;

// x, w, _tensor_constant0 -> mm -> add -> relu -> sum; a python target whose name needs escaping; output.
graph::Graph smallGraph()
{
    graph::Graph g;
    g.nodes.push_back(placeholder("x", tensorMeta({4, 8})));                 // 0
    g.nodes.push_back(placeholder("w", tensorMeta({8, 8})));                 // 1
    graph::Node c;
    c.name = "_tensor_constant0";
    c.kind = graph::NodeKind::GetAttr;
    c.attr = "_tensor_constant0";
    g.nodes.push_back(c);                                                    // 2
    g.nodes.push_back(op("mm", "mm", "default", {Arg::ofNode(0), Arg::ofNode(1)}, tensorMeta({4, 8})));  // 3
    g.nodes.push_back(op("add", "add", "Tensor", {Arg::ofNode(3), Arg::ofNode(2)}, tensorMeta({4, 8})));  // 4
    g.nodes.push_back(op("relu", "relu", "default", {Arg::ofNode(4)}, tensorMeta({4, 8})));               // 5
    g.nodes.push_back(op("sum_1", "sum", "dim_IntList",
                         {Arg::ofNode(5), Arg::ofList({Arg::ofInt(1)})}, tensorMeta({4})));               // 6
    graph::Node weird;
    weird.name = "weird";
    weird.kind = graph::NodeKind::CallFunction;
    weird.target.kind = graph::Target::Kind::Python;
    weird.target.op = "torch.<locals>.f|{x}&y";
    weird.args = {Arg::ofNode(6), Arg::ofNode(6), Arg::ofString("say \"hi\" <b> {a|b} \\n")};
    g.nodes.push_back(weird);                                                // 7
    g.nodes.push_back(output({Arg::ofNode(7), Arg::ofNode(5), Arg::none()}));  // 8
    return g;
}

// A long chain that reads one of `params` parameters at every step: the shape of a training graph.
graph::Graph chainGraph(int params, int ops)
{
    graph::Graph g;
    for (int p = 0; p < params; ++p)
        g.nodes.push_back(placeholder("primals_" + std::to_string(p + 1), tensorMeta({64})));
    g.nodes.push_back(placeholder("x", tensorMeta({64})));
    int prev = params;
    for (int i = 0; i < ops; ++i) {
        g.nodes.push_back(op("add_" + std::to_string(i), "add", "Tensor",
                             {Arg::ofNode(prev), Arg::ofNode(i % params)}, tensorMeta({64})));
        prev = static_cast<int>(g.nodes.size()) - 1;
    }
    g.nodes.push_back(output({Arg::ofNode(prev), Arg::ofNode(0)}));
    return g;
}

int countOccurrences(const std::string& text, const std::string& what)
{
    int n = 0;
    for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + what.size()))
        ++n;
    return n;
}

// Parses the SVG; returns the <title> of every <g class="node"> (stubs excluded) or fails the test.
std::vector<std::string> svgNodeTitles(const std::string& svg, int* stubs = nullptr)
{
    QXmlStreamReader xml(QByteArray::fromStdString(svg));
    std::vector<std::string> titles;
    int stubCount = 0;
    bool inNode = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("g")) {
            const QString cls = xml.attributes().value(QLatin1String("class")).toString();
            if (cls == QLatin1String("node"))
                inNode = true;
            else if (cls == QLatin1String("node stub"))
                ++stubCount;
        } else if (inNode && xml.isStartElement() && xml.name() == QLatin1String("title")) {
            titles.push_back(xml.readElementText().toStdString());
            inNode = false;
        }
    }
    if (xml.hasError())
        qWarning("SVG does not parse: %s", qPrintable(xml.errorString()));
    if (stubs)
        *stubs = stubCount;
    return xml.hasError() ? std::vector<std::string>{} : titles;
}

}  // namespace

class TestRender : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void classifiesOps()
    {
        QCOMPARE(render::classifyOp("mm"), NodeCategory::MatMul);
        QCOMPARE(render::classifyOp("convolution_backward"), NodeCategory::MatMul);
        QCOMPARE(render::classifyOp("torch._C._nn.linear"), NodeCategory::MatMul);
        QCOMPARE(render::classifyOp("add_"), NodeCategory::Elementwise);
        QCOMPARE(render::classifyOp("threshold_backward"), NodeCategory::Elementwise);
        QCOMPARE(render::classifyOp("var_mean"), NodeCategory::Reduction);
        QCOMPARE(render::classifyOp("_log_softmax"), NodeCategory::Reduction);
        QCOMPARE(render::classifyOp("_unsafe_view"), NodeCategory::View);
        QCOMPARE(render::classifyOp("index"), NodeCategory::Other);
        QCOMPARE(render::classifyOp("__and__"), NodeCategory::Other);
        const graph::Graph g = smallGraph();
        QCOMPARE(render::classifyNode(g.nodes[0]), NodeCategory::Input);
        QCOMPARE(render::classifyNode(g.nodes[2]), NodeCategory::Constant);
        QCOMPARE(render::classifyNode(g.nodes[6]), NodeCategory::Reduction);
        QCOMPARE(render::classifyNode(g.nodes[8]), NodeCategory::Output);
        QCOMPARE(render::nodeCategoryName(NodeCategory::MatMul), std::string_view("matmul"));
    }

    void classifiesCollectivesAndTheirWaits()
    {
        // A 2-rank all_reduce step's AOT graph (tests/data/distributed/make_fixtures.py): the collective and its wait
        // are drawn as collectives, the matmul as before.
        const io::LoadedGraph g = io::loadAddress(FXRAY_TEST_DATA_DIR
                                                  "/distributed/allreduce/dedicated_log_torch_trace_rank_0_po8pphpz.log#r0:0/0/aot_inference_graph");
        int collectives = 0;
        for (const graph::Node& n : g.graph.nodes) {
            const bool c10d = n.target.ns == "_c10d_functional";
            QCOMPARE(render::classifyNode(n) == NodeCategory::Collective, c10d);
            collectives += c10d ? 1 : 0;
        }
        QCOMPARE(collectives, 2);  // all_reduce and wait_tensor
        QCOMPARE(render::classifyNode(g.graph.nodes[static_cast<std::size_t>(g.graph.findNode("mm"))]), NodeCategory::MatMul);
        QCOMPARE(render::nodeCategoryName(NodeCategory::Collective), std::string_view("collective"));
        QVERIFY(render::nodeStyle(NodeCategory::Collective).fill != render::nodeStyle(NodeCategory::Other).fill);
    }

    void escapes()
    {
        QCOMPARE(render::escapeHtmlLabel("a<b>&\"c\"\n{|}"), std::string("a&lt;b&gt;&amp;&quot;c&quot;<BR/>{|}"));
        QCOMPARE(render::escapeQuoted("say \"hi\" \\n\nx"), std::string("say \\\"hi\\\" \\\\n\\nx"));
    }

    void dotHasEveryNodeAndEdge()
    {
        const graph::Graph g = smallGraph();
        const render::DotDocument doc = render::buildDot(g);
        const std::string& dot = doc.text;
        QVERIFY(dot.rfind("digraph ", 0) == 0);
        QVERIFY(dot.find("nslimit") == std::string::npos);  // small graph: untuned
        QVERIFY(!doc.usedStubs);
        for (const graph::Node& n : g.nodes)
            QVERIFY2(countOccurrences(dot, "\"" + n.name + "\" [label=") == 1, n.name.c_str());
        QCOMPARE(doc.vertices.size(), g.nodes.size());
        // Distinct dependencies: weird reads sum_1 twice but gets one edge; output's None is no edge.
        const std::vector<std::pair<std::string, std::string>> edges = {
            {"x", "mm"}, {"w", "mm"}, {"mm", "add"}, {"_tensor_constant0", "add"}, {"add", "relu"},
            {"relu", "sum_1"}, {"sum_1", "weird"}, {"weird", "output"}, {"relu", "output"}};
        for (const auto& [from, to] : edges)
            QVERIFY2(countOccurrences(dot, "\"" + from + "\" -> \"" + to + "\";") == 1, (from + "->" + to).c_str());
        QCOMPARE(countOccurrences(dot, " -> "), static_cast<int>(edges.size()));
        QCOMPARE(doc.edges.size(), edges.size());
        // Labels: name, target, metadata; shapes and colours by category.
        QVERIFY(dot.find("<B>mm</B><BR/><FONT POINT-SIZE=\"9\">aten.mm.default</FONT>") != std::string::npos);
        QVERIFY(dot.find("f32[4, 8][8, 1]cuda:0") != std::string::npos);
        QVERIFY(dot.find("shape=rect") != std::string::npos);
        QVERIFY(dot.find(std::string(render::nodeStyle(NodeCategory::MatMul).fill)) != std::string::npos);
    }

    void dotEscapesLabelsAndTooltips()
    {
        const std::string dot = render::writeDot(smallGraph());
        QVERIFY(dot.find("torch.&lt;locals&gt;.f|{x}&amp;y") != std::string::npos);
        // Raw text only in the tooltip (a quoted string), never inside the HTML label.
        const auto labelStart = dot.find("\"weird\" [label=<");
        const auto labelEnd = dot.find(", tooltip=", labelStart);
        QVERIFY(labelStart != std::string::npos && labelEnd != std::string::npos);
        QVERIFY(dot.substr(labelStart, labelEnd - labelStart).find("<locals>") == std::string::npos);
        // The string argument shows up in weird's tooltip, quoted for DOT.
        QVERIFY2(dot.find("say \\\"hi\\\"") != std::string::npos, dot.c_str());
        // Every line outside labels has balanced quotes: a cheap check that no quote escaped its string.
        std::istringstream lines(dot);
        for (std::string line; std::getline(lines, line);) {
            int quotes = 0;
            for (std::size_t i = 0; i < line.size(); ++i)
                if (line[i] == '"' && (i == 0 || line[i - 1] != '\\' || (i >= 2 && line[i - 2] == '\\')))
                    ++quotes;
            QVERIFY2(quotes % 2 == 0, line.c_str());
        }
    }

    void dotWithoutMetadata()
    {
        render::DotOptions options;
        options.metadata = false;
        const std::string dot = render::writeDot(smallGraph(), options);
        QVERIFY(dot.find("POINT-SIZE=\"8\" COLOR") == std::string::npos);
        QVERIFY(dot.find("f32[") != std::string::npos);  // still in the tooltips
        options.tooltips = false;
        QVERIFY(render::writeDot(smallGraph(), options).find("f32[") == std::string::npos);
    }

    void bigGraphsGetStubsAndTunedLimits()
    {
        const graph::Graph g = chainGraph(20, 400);
        const render::DotDocument doc = render::buildDot(g);
        QVERIFY(doc.usedStubs);
        QVERIFY(doc.usedTunedLimits);
        QVERIFY(doc.text.find("nslimit=1, nslimit1=1, mclimit=0.01, searchsize=10") != std::string::npos);
        // primals_1 is read by add_0 (near) and add_20, add_40, ... (far) and by the output (far).
        QVERIFY(doc.text.find("\"primals_1\" -> \"add_0\";") != std::string::npos);
        QVERIFY(doc.text.find("\"primals_1@add_20\" -> \"add_20\"") != std::string::npos);
        QVERIFY(doc.text.find("\"primals_1@output\" -> \"output\"") != std::string::npos);
        QVERIFY(doc.text.find("\"primals_1\" -> \"add_20\"") == std::string::npos);
        // primals_15 is first read by add_14, past the stub distance: drawn only as stubs.
        QVERIFY(doc.text.find("\"primals_15\" [label=") == std::string::npos);
        QVERIFY(doc.text.find("\"primals_15@add_14\" [label=") != std::string::npos);
        // Every FX node is drawn: as itself or through its stubs.
        std::set<int> drawn;
        for (const render::DotVertex& v : doc.vertices) {
            if (v.node >= 0)
                drawn.insert(v.node);
            drawn.insert(v.merged.begin(), v.merged.end());
        }
        QCOMPARE(drawn.size(), g.nodes.size());
        std::size_t stubs = 0;
        for (const render::DotVertex& v : doc.vertices)
            stubs += v.stub ? 1 : 0;
        QCOMPARE(stubs, doc.stubCount);
        QCOMPARE(countOccurrences(doc.text, "class=\"stub\""), static_cast<int>(doc.stubCount));

        render::DotOptions never;
        never.stubs = render::StubPolicy::Never;
        never.tunedLimits = render::Toggle::Off;
        const render::DotDocument plain = render::buildDot(g, never);
        QVERIFY(!plain.usedStubs);
        QVERIFY(plain.text.find("nslimit") == std::string::npos);
        QCOMPARE(plain.vertices.size(), g.nodes.size());

        // Small graphs can ask for stubs too; AllFarValues also stubs far activations.
        render::DotOptions all;
        all.stubs = render::StubPolicy::AllFarValues;
        all.stubDistance = 2;
        all.valueStubDistance = 2;
        const render::DotDocument allDoc = render::buildDot(chainGraph(3, 10), all);
        QVERIFY(allDoc.usedStubs);
        QVERIFY(allDoc.text.find("\"add_9@output\"") == std::string::npos);  // near
        QVERIFY(allDoc.text.find("\"primals_1@output\"") != std::string::npos);
    }

    void manyFarInputsShareOneStub()
    {
        // A forward graph returns its saved activations: the output reads values from all over the graph.
        graph::Graph g = chainGraph(4, 400);
        std::vector<Arg> returned;
        for (std::size_t i = 10; i + 1 < g.nodes.size(); i += 10)
            returned.push_back(Arg::ofNode(static_cast<int>(i)));
        g.nodes.back() = output(returned);
        const render::DotDocument doc = render::buildDot(g);
        const auto merged = std::find_if(doc.vertices.begin(), doc.vertices.end(),
                                         [](const render::DotVertex& v) { return !v.merged.empty(); });
        QVERIFY(merged != doc.vertices.end());
        QCOMPARE(merged->id, std::string("output@@inputs"));
        QCOMPARE(merged->user, static_cast<int>(g.nodes.size()) - 1);
        QVERIFY(merged->merged.size() > 30);
        QVERIFY(doc.text.find("\"output@@inputs\" -> \"output\"") != std::string::npos);
        QVERIFY(doc.text.find("more</FONT>") != std::string::npos);
        // No single stubs for the output, and only near values keep an edge into it.
        QVERIFY(doc.text.find("@output\"") == std::string::npos);
        QVERIFY(countOccurrences(doc.text, " -> \"output\"") <= 1 + static_cast<int>(returned.size() - merged->merged.size()));
        if (!render::graphvizAvailable())
            return;
        const render::Layout layout = render::computeLayout(doc);
        const auto box = std::find_if(layout.nodes.begin(), layout.nodes.end(),
                                      [](const render::Layout::NodeBox& b) { return b.id == "output@@inputs"; });
        QVERIFY(box != layout.nodes.end());
        QVERIFY(box->stub);
        QCOMPARE(box->merged, merged->merged);
        QVERIFY2(layout.width < 2000, qPrintable(QString::number(layout.width)));  // one stub, not 40 in a row
    }

    void formatsForPaths()
    {
        QCOMPARE(render::formatForPath("a/b.svg"), std::string("svg"));
        QCOMPARE(render::formatForPath("a/b.PNG"), std::string("png"));
        QCOMPARE(render::formatForPath("b.gv"), std::string("dot"));
        QCOMPARE(render::formatForPath("b.dot"), std::string("dot"));
        QCOMPARE(render::formatForPath("b.pdf"), std::string("pdf"));
        QCOMPARE(render::formatForPath("b.jpeg"), std::string());
        QCOMPARE(render::formatForPath("dir.svg/b"), std::string());
        QVERIFY(!render::formatNeedsGraphviz("dot"));
        QVERIFY(render::formatNeedsGraphviz("svg"));
    }

    void rendersSvgPngPdf()
    {
        if (!render::graphvizAvailable()) {
            QVERIFY_THROWS_EXCEPTION(fxray::Error, render::renderDot("digraph { a }", "svg"));
            try {
                render::renderDot("digraph { a }", "svg");
            } catch (const fxray::Error& e) {
                QVERIFY(std::string(e.what()).find("needs Graphviz") != std::string::npos);
            }
            QSKIP("built without Graphviz");
        }
        const graph::Graph g = smallGraph();
        const std::string svg = render::renderDot(render::writeDot(g), "svg");
        QVERIFY(svg.rfind("<?xml", 0) == 0);
        QVERIFY(svg.find("<svg") != std::string::npos);
        std::vector<std::string> titles = svgNodeTitles(svg);
        QCOMPARE(titles.size(), g.nodes.size());
        std::set<std::string> names;
        for (const graph::Node& n : g.nodes)
            names.insert(n.name);
        QCOMPARE(std::set<std::string>(titles.begin(), titles.end()), names);

        const std::string png = render::renderDot(render::writeDot(g), "png");
        QVERIFY(png.size() > 8 && png.compare(0, 4, "\x89PNG") == 0);
        const std::string pdf = render::renderDot(render::writeDot(g), "pdf");
        QVERIFY(pdf.rfind("%PDF", 0) == 0);

        // Stubs are nodes of class "node stub": real nodes still count one per drawn FX node.
        const graph::Graph big = chainGraph(10, 320);
        const render::DotDocument doc = render::buildDot(big);
        int stubs = 0;
        titles = svgNodeTitles(render::renderDot(doc.text, "svg"), &stubs);
        QCOMPARE(static_cast<std::size_t>(stubs), doc.stubCount);
        QCOMPARE(titles.size(), doc.vertices.size() - doc.stubCount);
    }

    void renderErrorsCarryGraphvizMessages()
    {
        if (!render::graphvizAvailable())
            QSKIP("built without Graphviz");
        try {
            render::renderDot("digraph { a -> ; }", "svg");
            QFAIL("expected an fxray::Error");
        } catch (const fxray::Error& e) {
            QVERIFY2(std::string(e.what()).find("syntax error") != std::string::npos, e.what());
        }
        try {
            render::renderDot("digraph { a }", "nosuchformat");
            QFAIL("expected an fxray::Error");
        } catch (const fxray::Error& e) {
            QVERIFY2(std::string(e.what()).find("nosuchformat") != std::string::npos, e.what());
        }
        try {
            render::computeLayout("digraph { a }", "nosuchengine");
            QFAIL("expected an fxray::Error");
        } catch (const fxray::Error& e) {
            QVERIFY2(std::string(e.what()).find("nosuchengine") != std::string::npos, e.what());
        }
        // Graphviz still works after errors.
        QVERIFY(render::renderDot("digraph { a -> b }", "svg").find("<svg") != std::string::npos);

        const QString missing = QDir::tempPath() + "/fxray-no-such-dir/x.svg";
        QVERIFY_THROWS_EXCEPTION(fxray::Error, render::renderDotToFile("digraph { a }", "svg", missing.toStdString()));
    }

    void layoutHasEveryNode()
    {
        if (!render::graphvizAvailable()) {
            QVERIFY_THROWS_EXCEPTION(fxray::Error, render::layoutGraph(smallGraph()));
            QSKIP("built without Graphviz");
        }
        const graph::Graph g = smallGraph();
        const render::DotDocument doc = render::buildDot(g);
        const render::Layout layout = render::computeLayout(doc);
        QCOMPARE(layout.nodes.size(), g.nodes.size());
        QCOMPARE(layout.edges.size(), doc.edges.size());
        QVERIFY(layout.width > 0 && layout.height > 0);
        std::vector<const render::Layout::NodeBox*> byNode(g.nodes.size(), nullptr);
        for (const render::Layout::NodeBox& box : layout.nodes) {
            QVERIFY(box.node >= 0 && static_cast<std::size_t>(box.node) < g.nodes.size());
            QCOMPARE(box.id, g.nodes[static_cast<std::size_t>(box.node)].name);
            QVERIFY(box.w > 0 && box.h > 0);
            QVERIFY(box.x - box.w / 2 >= -0.5 && box.x + box.w / 2 <= layout.width + 0.5);
            QVERIFY(box.y - box.h / 2 >= -0.5 && box.y + box.h / 2 <= layout.height + 0.5);
            byNode[static_cast<std::size_t>(box.node)] = &box;
        }
        // Top to bottom in screen coordinates: inputs above their users, output at the bottom.
        QVERIFY(byNode[0]->y < byNode[3]->y);
        QVERIFY(byNode[3]->y < byNode[5]->y);
        QVERIFY(byNode[5]->y < byNode[8]->y);
        for (const render::Layout::EdgePath& e : layout.edges) {
            QVERIFY(e.fromNode >= 0 && e.toNode >= 0);
            QVERIFY(e.points.size() >= 4);
            QCOMPARE((e.points.size() - 1) % 3, std::size_t(0));
            QVERIFY(e.arrowTip.has_value());
        }
    }

    void layoutMarksStubs()
    {
        if (!render::graphvizAvailable())
            QSKIP("built without Graphviz");
        const render::DotDocument doc = render::buildDot(chainGraph(10, 320));
        const render::Layout layout = render::computeLayout(doc);
        QCOMPARE(layout.nodes.size(), doc.vertices.size());
        std::size_t stubs = 0;
        for (const auto& box : layout.nodes) {
            QVERIFY(box.node >= 0);
            if (box.stub) {
                ++stubs;
                QVERIFY(box.user >= 0);
            }
        }
        QCOMPARE(stubs, doc.stubCount);
        qInfo("320-op chain with %zu stubs laid out in %.2f s", stubs, layout.seconds);
    }

    void graphvizCallsAreSerialized()
    {
        if (!render::graphvizAvailable())
            QSKIP("built without Graphviz");
        const std::string dot = render::writeDot(smallGraph());
        const std::string expected = render::renderDot(dot, "svg");
        std::vector<std::future<std::string>> results;
        for (int i = 0; i < 6; ++i)
            results.push_back(std::async(std::launch::async, [&dot, i] {
                return i % 2 ? render::renderDot(dot, "svg") : std::to_string(render::computeLayout(dot).nodes.size());
            }));
        for (int i = 0; i < 6; ++i) {
            const std::string r = results[static_cast<std::size_t>(i)].get();
            if (i % 2)
                QCOMPARE(r, expected);
            else
                QCOMPARE(r, std::to_string(smallGraph().nodes.size()));
        }
    }

    void rendersSampleGraphs()
    {
        const std::string dir = FXRAY_SAMPLES_DIR "/h100/dumps/mlp/mlp_joint_0";
        io::LoadedGraph loaded;
        try {
            loaded = io::loadAddress(dir);
        } catch (const fxray::Error& e) {
            QFAIL(e.what());
        }
        const render::DotDocument doc = render::buildDot(loaded.graph);
        QCOMPARE(doc.vertices.size(), loaded.graph.nodes.size());
        if (!render::graphvizAvailable())
            QSKIP("built without Graphviz");
        const render::Layout layout = render::computeLayout(doc);
        QCOMPARE(layout.nodes.size(), loaded.graph.nodes.size());
        const std::vector<std::string> titles = svgNodeTitles(render::renderDot(doc.text, "svg"));
        QCOMPARE(titles.size(), loaded.graph.nodes.size());
    }
    // Large graphs are drawn as blocks: every node in exactly one block, blocks are contiguous program-order
    // ranges that never mix inputs with computation, their count stays within the limit, and the collapsed graph
    // is topologically ordered (dot ranks it like the original).
    void blocksCoverTheGraphAndCollapseInOrder()
    {
        std::string params = "x", body, prev = "x";
        for (int k = 0; k < 300; ++k) {
            const std::string K = std::to_string(k);
            params += ", w" + K;
            body += "        # File: /m.py:" + std::to_string(10 + k % 7) + " in forward, code: x = f(x)\n";
            body += "        mm_" + K + " = torch.ops.aten.mm.default(" + prev + ", w" + K + ")\n";
            body += "        add_" + K + " = torch.ops.aten.add.Tensor(mm_" + K + ", " + prev + ")\n";
            prev = "add_" + K;
        }
        const graph::Graph g = graph::parseFxModule("class M(torch.nn.Module):\n    def forward(self, " + params + "):\n" +
                                                        body + "        return (" + prev + ",)\n",
                                                    {"m.py", 1})
                                   .graph;
        const render::Grouping grouping = render::groupIntoBlocks(g, 40);
        QVERIFY(grouping.blocks.size() <= 40);
        QVERIFY(grouping.blocks.size() >= 10);
        int next = 0;
        for (std::size_t b = 0; b < grouping.blocks.size(); ++b) {
            const render::Block& block = grouping.blocks[b];
            QCOMPARE(block.first, next);  // contiguous, in order, no gaps
            next = block.last + 1;
            const bool input = g.nodes[static_cast<std::size_t>(block.first)].kind == graph::NodeKind::Placeholder;
            for (int i = block.first; i <= block.last; ++i) {
                QCOMPARE(grouping.blockOf[static_cast<std::size_t>(i)], static_cast<int>(b));
                QCOMPARE(g.nodes[static_cast<std::size_t>(i)].kind == graph::NodeKind::Placeholder, input);
            }
            QVERIFY(!block.summary.empty());
        }
        QCOMPARE(next, static_cast<int>(g.nodes.size()));

        std::vector<bool> expanded(grouping.blocks.size(), false);
        expanded[grouping.blockOf[static_cast<std::size_t>(g.findNode("mm_150"))]] = true;
        const render::CollapsedGraph c = render::collapseBlocks(g, grouping, expanded);
        QCOMPARE(c.graph.nodes.size(), c.origin.size());
        QVERIFY(c.graph.findNode("mm_150") >= 0);  // the expanded block's nodes are there as themselves
        QVERIFY(c.graph.findNode("mm_10") < 0);
        QVERIFY(c.graph.findNode(render::blockNodeName(0)) >= 0);
        for (std::size_t q = 0; q < c.graph.nodes.size(); ++q)
            graph::forEachNodeRef(c.graph.nodes[q], [&](int p) { QVERIFY(p >= 0 && static_cast<std::size_t>(p) < q); });
        // The DOT of the collapsed graph lays out (through the child process the GUI uses, below).
        QVERIFY(render::buildDot(c.graph).vertices.size() > 0);
    }

    // The layout travels from fxray-layout to the GUI as text: a round trip keeps every box and spline, and text
    // that is not a layout is an error naming its line.
    void layoutTextRoundTripsAndRejectsGarbage()
    {
        render::Layout l;
        l.width = 100.5;
        l.height = 20;
        l.seconds = 0.25;
        l.nodes.push_back({"a b%c", -1, -1, false, {}, 10, 5, 30, 12});
        l.nodes.push_back({"", -1, -1, false, {}, 1, 2, 3, 4});
        render::Layout::EdgePath e;
        e.from = "a b%c";
        e.to = "x@y";
        e.points = {{1, 2}, {3, 4}, {5, 6}, {7, 8}};
        e.arrowTip = render::Point{9, 10};
        l.edges.push_back(e);
        const render::Layout back = render::readLayoutText(render::writeLayoutText(l));
        QCOMPARE(back.nodes.size(), std::size_t(2));
        QCOMPARE(back.nodes[0].id, std::string("a b%c"));
        QCOMPARE(back.nodes[1].id, std::string());
        QCOMPARE(back.nodes[0].w, 30.0);
        QCOMPARE(back.edges.size(), std::size_t(1));
        QVERIFY(back.edges[0].points == e.points);
        QVERIFY(back.edges[0].arrowTip && *back.edges[0].arrowTip == *e.arrowTip);
        QCOMPARE(back.width, 100.5);
        EXPECT_ERROR(render::readLayoutText("layout 1 2 3\nn 1 2\n"), "line 2", "bad node");
        EXPECT_ERROR(render::readLayoutText("Segmentation fault\n"), "line 1");
        EXPECT_ERROR(render::readLayoutText(""), "no 'layout' header");
        EXPECT_ERROR(render::readLayoutText("layout 1 1 0\ne a b 0 0 0 99999999999\n"), "point count");
    }

    // fxray-layout, the child process the GUI lays graphs out in: DOT in, layout text out; bad DOT is exit 2 with
    // Graphviz's message.
    void layoutProcessLaysOutAndReportsBadDot()
    {
        if (!render::graphvizAvailable())
            QSKIP("built without Graphviz");
        const std::string program = FXRAY_BINARY_DIR "/app/layout/fxray-layout";
        const io::LoadedGraph loaded = io::loadAddress(FXRAY_SAMPLES_DIR "/h100/dumps/mlp/mlp_forward_0");
        const render::DotDocument doc = render::buildDot(loaded.graph);
        {
            Subprocess child({program});
            QVERIFY(child.write(doc.text));
            child.closeStdin();
            std::string text, line;
            while (child.readLine(line, std::chrono::milliseconds(20000)) == Subprocess::Read::Line)
                text += line + "\n";
            QVERIFY(child.wait(std::chrono::milliseconds(20000)));
            QCOMPARE(child.exitCode().value_or(-1), 0);
            render::Layout layout = render::readLayoutText(text);
            render::attachVertices(layout, doc);
            QCOMPARE(layout.nodes.size(), doc.vertices.size());
            for (const auto& box : layout.nodes)
                QVERIFY(box.node >= 0 && box.w > 0);
        }
        Subprocess bad({program});
        bad.write("digraph { a -> }");
        bad.closeStdin();
        std::string line;
        while (bad.readLine(line, std::chrono::milliseconds(20000)) == Subprocess::Read::Line) {
        }
        QVERIFY(bad.wait(std::chrono::milliseconds(20000)));
        QCOMPARE(bad.exitCode().value_or(-1), 2);
        QVERIFY2(bad.stderrTail().find("syntax error") != std::string::npos, bad.stderrTail().c_str());
    }
};

QTEST_APPLESS_MAIN(TestRender)
#include "test_render.moc"
