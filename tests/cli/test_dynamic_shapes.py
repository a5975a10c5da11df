"""Dynamic-shape inductor graphs (issue 21), on a TORCH_TRACE log (tests/data/dynamic/iota_dynamic.log, written by
make_iota_log.py there): inductor's decomposition of torch.arange(seq_len) is prims.iota(s0, start=0, step=1, ...),
a Python-registered prim whose length is a SymInt. It runs natively (arange with the bound length, dtype and
device), with the node checked against its recorded [s0] annotation, in every graph of the log that holds it."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import SOURCE, check, fxray_json, have_worker, main  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

LOG = os.path.join(SOURCE, "tests", "data", "dynamic", "iota_dynamic.log")


@check
def symbolic_length_iota_runs_natively_in_every_graph_that_holds_it():
    info = fxray_json("info", LOG, codes=(0,))
    iota_graphs = 0
    for g in info["graphs"]:
        out = fxray_json("replay", g["address"])
        r = out["reports"][0] if "reports" in out else out
        iotas = [n for n in r["nodes"] if n["target"].startswith("prims.iota")]
        if not iotas:
            continue
        iota_graphs += 1
        assert r["verdict"] == "pass", (g["address"], r["verdict"], r["unsupported"])
        for n in iotas:
            assert n["status"] == "passed", (g["address"], n)
    assert iota_graphs >= 3, iota_graphs  # AOT inference, fx_graph_runnable, post-grad graphs


if __name__ == "__main__":
    main()
