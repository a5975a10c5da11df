"""`fxray diff`: exit codes (0 equal, 1 different, 2 error), the summary, --json, and -o for every format."""
import json
import os
import tempfile

from cli_harness import HAVE_GRAPHVIZ, SAMPLES, SOURCE, check, main, run

DATA = os.path.join(SOURCE, "tests", "data", "diff")
BASE = os.path.join(DATA, "base.py")
EDITED = os.path.join(DATA, "edited.py")
RENAMED = os.path.join(DATA, "renamed.py")
FORWARD_0 = os.path.join(DATA, "recompile", "mlp_forward_0.py")
FORWARD_1 = os.path.join(DATA, "recompile", "mlp_forward_1.py")


def diff_json(*args):
    code, out, err = run("diff", *args, "--json")
    assert code in (0, 1), f"exit {code}: {err}"
    return code, json.loads(out)


@check
def a_graph_against_itself_exits_0():
    code, out, err = run("diff", BASE, BASE)
    assert code == 0, (code, out, err)
    assert "equal" in out and "@@" not in out, out


@check
def a_renamed_and_reordered_copy_exits_0_with_an_empty_code_diff():
    code, data = diff_json(BASE, RENAMED)
    assert code == 0 and data["equal"] and data["differences"] == 0, data
    assert data["unified_diff"] == "", data["unified_diff"]
    assert data["counts"]["ops"] == {"same": 12, "changed": 0, "added": 0, "removed": 0}


@check
def three_edits_exit_1_and_are_exactly_the_three_differences():
    code, data = diff_json(BASE, EDITED)
    assert code == 1 and not data["equal"], data
    assert data["differences"] == 3
    by_status = sorted((n["status"], n["b"]) for n in data["nodes"])
    assert by_status == [("added", "mul_2"), ("changed", "add"), ("changed", "t")], by_status
    fields = sorted(c["field"] for n in data["nodes"] for c in n["changes"])
    assert fields == ["overload", "stride"], fields
    assert data["inputs"] == [] and data["outputs"] == []
    assert "+        mul_2:" in data["unified_diff"]


@check
def the_summary_says_what_changed():
    code, out, _ = run("diff", BASE, EDITED)
    assert code == 1
    assert "~ add: overload: aten.add.Tensor → aten.add.Scalar" in out, out
    assert "~ t: stride: [1, 16] → [32, 1]" in out, out
    assert "+ mul_2:" in out and "3 difference(s)" in out, out
    assert "--- a: " in out and "+++ b: " in out  # the code diff follows the summary


@check
def a_recompiled_forward_differs_only_in_size_metadata():
    code, data = diff_json(FORWARD_0, FORWARD_1)
    assert code == 1
    changes = [c for n in data["nodes"] + data["inputs"] for c in n["changes"]]
    assert changes and {c["field"] for c in changes} <= {"shape", "sym_value"}, changes
    assert all(n["status"] == "changed" for n in data["nodes"] + data["inputs"])
    assert data["outputs"] == []
    code, data = diff_json(FORWARD_0, FORWARD_1, "--no-meta")
    assert code == 0 and data["equal"]


@check
def sample_dumps_of_two_machines_differ_by_the_dynamic_batch_input():
    cpu = os.path.join(SAMPLES, "cpu", "dumps", "mlp", "mlp_forward_0")
    h100 = os.path.join(SAMPLES, "h100", "dumps", "mlp", "mlp_forward_0")
    code, data = diff_json(cpu, h100)
    assert code == 1
    removed = [i for i in data["inputs"] if i["status"] == "removed"]
    assert [i["a"] for i in removed] == ["primals_3"], data["inputs"]  # the SymInt batch size of the CPU capture
    assert data["counts"]["ops"]["added"] == 0 and data["counts"]["ops"]["removed"] == 0
    assert any(c["field"] == "device" for n in data["nodes"] for c in n["changes"])


@check
def writes_the_report_as_txt_and_json():
    with tempfile.TemporaryDirectory() as tmp:
        txt = os.path.join(tmp, "diff.txt")
        code, out, err = run("diff", BASE, EDITED, "-o", txt)
        assert code == 1, err
        assert f"wrote {txt}" in out and "@@" not in out  # the code diff went to the file
        text = open(txt).read()
        assert "3 difference(s)" in text and "@@ " in text and "+        mul_2:" in text
        js = os.path.join(tmp, "diff.json")
        code, out, err = run("diff", BASE, EDITED, "-o", js, "--json")
        assert code == 1, err
        assert json.loads(out)["output"] == js
        assert json.load(open(js))["differences"] == 3


@check
def writes_the_merged_graph_as_dot_with_coloured_nodes():
    with tempfile.TemporaryDirectory() as tmp:
        dot = os.path.join(tmp, "diff.dot")
        code, _, err = run("diff", BASE, EDITED, "-o", dot)
        assert code == 1, err
        text = open(dot).read()
        assert text.startswith("digraph") and text.rstrip().endswith("}")
        assert '"mul_2" [label=<' in text and 'class="added"' in text and "#c8f7c5" in text
        assert 'class="changed"' in text and "overload: aten.add.Tensor → aten.add.Scalar" in text
        assert "stride: [1, 16] → [32, 1]" in text
        # The other way round mul_2 is removed and its edge into addmm is drawn dashed red.
        code, _, err = run("diff", EDITED, BASE, "-o", dot)
        assert code == 1, err
        text = open(dot).read()
        assert 'class="removed"' in text and '"mul_2" -> "addmm" [color="#c0392b", style=dashed' in text, text


@check
def renders_svg_png_and_pdf_through_graphviz():
    if not HAVE_GRAPHVIZ:
        print("  (no Graphviz in this build: skipped)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        for ext, magic in (("svg", b"<?xml"), ("png", b"\x89PNG"), ("pdf", b"%PDF")):
            path = os.path.join(tmp, "diff." + ext)
            code, _, err = run("diff", BASE, EDITED, "-o", path)
            assert code == 1, (ext, err)
            data = open(path, "rb").read()
            assert data.startswith(magic), (ext, data[:16])
            if ext == "svg":
                assert b"mul_2" in data and b"#c8f7c5" in data


@check
def bad_paths_and_usage_exit_2():
    code, _, err = run("diff", BASE, os.path.join(DATA, "no_such_graph.py"))
    assert code == 2 and "no_such_graph" in err, (code, err)
    code, _, err = run("diff", os.path.join(SOURCE, "tests", "data", "bad"), BASE)
    assert code == 2 and err, (code, err)
    code, _, err = run("diff", BASE)
    assert code == 2 and "usage" in err.lower(), err
    with tempfile.TemporaryDirectory() as tmp:
        code, _, err = run("diff", BASE, EDITED, "-o", os.path.join(tmp, "diff.xyz"))
        assert code == 2 and ".txt" in err, err
        code, _, err = run("diff", BASE, EDITED, "-o", os.path.join(tmp, "missing_dir", "diff.dot"))
        assert code == 2 and "cannot open" in err, err


if __name__ == "__main__":
    main()
