"""`fxray show G --outline [--json]`: the module hierarchy as text and JSON, folds written "×N" with their instance
count; found from repeated structure in a dump with no sidecar, from node_meta.json where there is one."""
import json
import os

from cli_harness import SOURCE, check, main, run

QWEN = os.path.join(SOURCE, "tests", "data", "repeats", "qwen2_3layers", "qwen2_joint_0")
STACK12 = os.path.join(SOURCE, "tests", "data", "scopes", "stack12", "stack12_joint_0")


@check
def outline_of_a_dump_without_sidecar_folds_forward_and_backward_layers():
    code, out, err = run("show", QWEN, "--outline")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].endswith(os.path.join("qwen2_3layers", "qwen2_joint_0")), lines[0]
    assert "scopes from repeated structure" in lines[1], lines[1]
    assert lines[2].startswith("  forward  369 nodes"), lines[2]
    assert lines[3].startswith("    modeling_qwen2:47–297 #0–2 ×3  each 103 nodes"), lines[3]
    assert "twin backward.modeling_qwen2:47–297 #0" in lines[3], lines[3]
    assert lines[4].startswith("  backward  510 nodes"), lines[4]
    assert lines[5].startswith("    modeling_qwen2:47–297 #0–2 ×3  each 159 nodes"), lines[5]


@check
def outline_json_gives_folds_with_counts_instances_and_spans():
    code, out, err = run("show", QWEN, "--outline", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["source"] == "repeated structure" and d["nodes"] == 880 and d["folds"] == 2
    forward, backward = d["root"]["children"]
    fold = forward["children"][0]
    assert fold["count"] == 3 and len(fold["instances"]) == 3, fold
    assert fold["each"]["first"] == "pow_1" and fold["each"]["last"] == "add_8", fold["each"]
    assert backward["children"][0]["count"] == 3
    assert fold["each"]["twin"].startswith("backward.")


@check
def sidecar_names_win_in_the_outline():
    code, out, err = run("show", STACK12, "--outline", "--depth", "2")
    assert code == 0, err
    assert "scopes from node_meta.json" in out, out
    assert "×12" in out and "layers." in out, out


@check
def outline_options_are_checked():
    code, _, err = run("show", QWEN, "--json")
    assert code == 2 and "--outline" in err, err
    code, _, err = run("show", QWEN, "--outline", "--depth", "x")
    assert code == 2 and "--depth" in err, err
    code, _, err = run("show", QWEN, "--outline", "--code")
    assert code == 2, err


if __name__ == "__main__":
    main()
