"""The CUDA twin of tests/cli/test_real_model_traits.py: saved inputs that are views (expand's stride 0, a
transpose, a select into a larger storage) arrive on the GPU with their exact layout, so the placeholder checks
pass and the outputs equal eager; attention-mask -inf is not a NaN failure. Exits 77 (skipped) without CUDA."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cli"))
from cli_harness import check, main, run, torch_has_cuda  # noqa: E402

if not torch_has_cuda():
    print("no CUDA device: skipped")
    sys.exit(77)

import real_model_fixtures as fx  # noqa: E402

TMP = tempfile.mkdtemp(prefix="fxray-real-traits-cuda-")


def replay_json(path, *extra):
    code, out, err = run("replay", path, "--json", "--device", "cuda", *extra, timeout=600)
    assert code in (0, 1), f"exit {code}: {err}"
    return code, json.loads(out)


@check
def saved_view_inputs_arrive_on_the_gpu_with_their_layout():
    d = fx.write_views_dump(TMP, device="cuda")
    code, r = replay_json(d, "--inputs", "saved", "--expected", "auto")
    bad = [(n["name"], n.get("mismatches")) for n in r["nodes"] if n.get("mismatches")]
    assert code == 0 and r["verdict"] == "pass" and not bad, (r["verdict"], r.get("fatal"), bad)
    assert r["comparisons"][0]["compared"] and r["comparisons"][0]["ok"], r["comparisons"][0]


@check
def attention_mask_inf_is_not_a_nan_failure_on_the_gpu():
    code, r = replay_json(fx.write_py(TMP, "masks", fx.MASKS, device="cuda"))
    assert code == 0 and r["verdict"] == "pass", (r["verdict"], r["first_nan_node"])


@check
def logsumexp_padding_is_by_design_and_a_nan_after_attention_is_still_found():
    code, r = replay_json(fx.write_py(TMP, "attention", fx.ATTENTION, device="cuda"))
    attn = next(n for n in r["nodes"] if n["name"] == "attn")
    assert attn.get("nonfinite_constant") and not attn.get("nan_origin"), attn
    assert r["first_nan_node"] == "log" and r["verdict"] == "nan", (
        r["verdict"], r["first_nan_node"], [(n["name"], n.get("mismatches")) for n in r["nodes"] if n.get("mismatches")])


@check
def structured_inputs_make_no_device_side_assert():
    # Random embedding_bag offsets trip a device-side assert on CUDA (OpInfo on the H100); inferred offsets don't.
    for seed in ("0", "1"):
        code, r = replay_json(fx.write_py(TMP, "structured", fx.STRUCTURED_DOMAINS, device="cuda"), "--seed", seed)
        assert code == 0 and r["verdict"] == "pass", (seed, r["verdict"], r.get("fatal"),
                                                      [n.get("message") for n in r["nodes"] if n.get("message")])


@check
def inductor_prims_replay_on_the_gpu():
    d = fx.write_inductor_prims_dump(TMP, device="cuda")
    code, r = replay_json(d, "--inputs", "saved", "--expected", "auto")
    assert code == 0 and r["verdict"] == "pass", (r["verdict"], r.get("unsupported"), r.get("fatal"))
    assert all(c["compared"] and c["ok"] for c in r["comparisons"]), r["comparisons"]


if __name__ == "__main__":
    main()
