"""`fxray report`: the compile report of TORCH_TRACE logs, as text and JSON, on the samples' trace logs and on
tests/data/report/graph_breaks.log (graph breaks, recompiles and a failed compile from torch 2.11)."""
import json
import os

from cli_harness import SAMPLES, SOURCE, check, main, run

GRAPH_BREAKS = os.path.join(SOURCE, "tests", "data", "report", "graph_breaks.log")
CPU_TRACE = os.path.join(SAMPLES, "cpu", "trace")


def report_json(path, *extra):
    code, out, err = run("report", path, "--json", *extra)
    assert code in (0, 1), err
    return code, json.loads(out)


@check
def every_sample_trace_log_reports_its_compiles_and_links_every_graph():
    code, data = report_json(CPU_TRACE)
    assert code == 0, "no sample compile failed"
    paths = sorted(os.path.basename(r["path"]) for r in data["ranks"])
    assert paths == sorted(f for f in os.listdir(CPU_TRACE) if f.endswith(".log")), paths
    _, info_out, _ = run("info", CPU_TRACE, "--json")
    listed = {g["address"] for g in json.loads(info_out)["graphs"]}
    linked = {a["address"] for r in data["ranks"] for c in r["compiles"] for a in c["artifacts"] if a["kind"] == "graph"}
    assert linked == listed, (listed - linked, linked - listed)


@check
def inductor_sample_has_metrics_guards_and_output_code():
    _, data = report_json(os.path.join(CPU_TRACE, "mlp_inductor.log"), "--code")
    c = data["ranks"][0]["compiles"][0]
    assert c["compile_id"] == "[0/0]" and c["status"] == "ok" and c["function"] == "forward"
    m = [m for m in c["metrics"] if m["record"] == "compilation_metrics"][0]
    assert m["guard_count"] == 45 and m["graph_op_count"] == 3 and m["inductor_compile_time_s"] > 0
    assert "Eq(s27, 32)" in c["shape_guards"]
    code = [a for a in c["artifacts"] if a["kind"] == "output_code"]
    assert len(code) == 2 and all("def call(" in a["text"] for a in code), [a["name"] for a in code]


@check
def graph_breaks_recompiles_and_failure_in_text():
    code, out, _ = run("report", GRAPH_BREAKS)
    assert code == 1, "a compile failed: exit 1"
    assert "8 compile(s): 4 ok, 2 restarted, 1 empty, 1 failed" in out, out[:400]
    assert "3 graph break(s), 3 recompile(s)" in out
    assert "graph break at " in out and "make_graph_breaks_log.py:23: Dynamo does not know how to trace builtin operator `print`" in out
    assert "recompiled because: 0/0: tensor 'x' size mismatch at index 0. expected 4, actual 6" in out
    assert "FAILED: BackendCompilerFailed" in out and 'raise RuntimeError("broken backend")' in out
    assert "resumes after a graph break in scale at line 23" in out


@check
def graph_links_in_json_load_with_show():
    _, data = report_json(GRAPH_BREAKS)
    c = [c for c in data["ranks"][0]["compiles"] if c["compile_id"] == "[0/1]"][0]
    assert c["attempts"] == 2 and c["recompile_reasons"] and c["graph_breaks"][0]["user_stack"]
    graphs = [a["address"] for a in c["artifacts"] if a["kind"] == "graph"]
    assert graphs and graphs[0].endswith("#0/1_1/dynamo_output_graph"), graphs
    code, out, err = run("show", graphs[0])
    assert code == 0 and "sin" in out, err


@check
def not_a_trace_log_is_an_error_naming_it():
    readme = os.path.join(SOURCE, "README.md")
    code, _, err = run("report", readme)
    assert code == 2 and "README.md" in err and "TORCH_TRACE" in err, err


main()
