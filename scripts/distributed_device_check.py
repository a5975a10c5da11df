"""The expectations of scripts/distributed-device.sh, checked on the logs it wrote: one line per check, PASS or FAIL
with the figures (graphs passing and collectives executed per rank), exit 1 when one fails. Each check reads one
`fxray replay DIR --json` report (its "distributed" part: per rank collectives_run / collectives_total and the
graphs' verdicts) or a log line; a report that is missing fails its check, naming the file.

  python3 scripts/distributed_device_check.py LOGDIR"""
import json
import os
import re
import sys


def load(folder, name):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return None, f"{name} was not written"
    try:
        return json.load(open(path)), ""
    except ValueError as e:
        return None, f"{name} does not parse: {e}"


def figures(rep):
    """'rank 0: 16/17 graphs pass, 25/25 collectives; rank 1: ...' and whether every collective ran on every rank."""
    parts, all_ran = [], True
    for r in rep["distributed"]["ranks"]:
        verdicts = [x["verdict"] for x in r["reports"]]
        passed = sum(v == "pass" for v in verdicts)
        all_ran = all_ran and r["collectives_total"] > 0 and r["collectives_run"] == r["collectives_total"]
        parts.append(f"rank {r['rank']}: {passed}/{len(verdicts)} graphs pass, "
                     f"{r['collectives_run']}/{r['collectives_total']} collectives")
    return "; ".join(parts), all_ran


def not_passing(rep):
    """{graph address tail: verdict} of the graphs that did not pass, on any rank."""
    out = {}
    for r in rep["distributed"]["ranks"]:
        for x in r["reports"]:
            if x["verdict"] != "pass":
                out[x["address"].split(":", 2)[-1]] = x["verdict"]
    return out


# The section of distributed-device.sh that writes each report (FXRAY_DIST_SECTIONS: the sections that ran).
SECTION_OF = {"gloo_ddp_ca.json": "gloo", "nccl_replay.json": "nccl_tp", "nccl_tp_trace_replay.json": "nccl_tp",
              "ddp_ca_replay.json": "ddp_ca", "fsdp2_ca_replay.json": "fsdp2_ca", "test_distributed": "gloo",
              "test_distributed_fsdp": "gloo"}


def not_run(report):
    """True when FXRAY_DIST_SECTIONS left out the section that writes `report`: its check says SKIP."""
    sections = [s for s in os.environ.get("FXRAY_DIST_SECTIONS", "").split(",") if s]
    return bool(sections) and SECTION_OF.get(report, "") not in sections


def main() -> int:
    folder = sys.argv[1]
    results = []

    def check(name, ok, detail, report=""):
        if not ok and not_run(report):
            print(f"SKIP {name}: its section did not run (FXRAY_DIST_SECTIONS)")
            return
        results.append(ok)
        print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}")

    # Every collective executed on every rank; graphs that do not pass are listed (allowed: `allowed` of them).
    for name, report, allowed in (
            ("gloo ddp_ca fixture (CPU)", "gloo_ddp_ca.json", {"!0/compiled_autograd_graph"}),
            ("nccl tp capture, saved inputs vs eager", "nccl_replay.json", set()),
            ("nccl tp inductor trace", "nccl_tp_trace_replay.json", None),
            ("nccl ddp_ca inductor trace", "ddp_ca_replay.json", {"!0/compiled_autograd_graph"})):
        rep, why = load(folder, report)
        if rep is None:
            check(name, False, why, report)
            continue
        text, all_ran = figures(rep)
        bad = not_passing(rep)
        ok = all_ran and (allowed is None or set(bad) <= allowed)
        check(name, ok, text + (f"; not passing: {bad}" if bad else ""))

    # Traceable FSDP2: its backward graphs call FSDP2's Python hooks (unsupported), so not every graph passes; what is
    # checked is that every graph runs on both ranks (none fatal: the BackwardState input loaded), the job is not
    # stopped, every collective runs on both ranks (7/7 per rank on the CPU over Gloo from the same logs) and the
    # forward's graphs pass.
    name = "nccl fsdp2_ca (traceable FSDP2) aot_eager trace"
    rep, why = load(folder, "fsdp2_ca_replay.json")
    if rep is None:
        cap, _ = load(folder, "fsdp2_ca_trace.json")
        extra = (" (capture: " + "; ".join(f"{k} {v.get('error', 'ok')}" for k, v in cap.get("steps", {}).items()) +
                 (f"; {cap['skipped']}" if cap.get("skipped") else "") + ")") if cap else ""
        check(name, False, why + extra, "fsdp2_ca_replay.json")
    else:
        d = rep["distributed"]
        text, all_ran = figures(rep)
        fatal = {x["address"].split(":", 2)[-1]: x["fatal"][:120] for r in d["ranks"] for x in r["reports"] if x.get("fatal")}
        runs = {(r["collectives_run"], r["collectives_total"]) for r in d["ranks"]}
        # The forward's graphs pass whole on the CPU (tests/cli/test_distributed_fsdp.py): on the GPUs too.
        forward = {"0/0_1/dynamo_output_graph", "0/0_1/aot_forward_graph", "2/0/aot_inference_graph"}
        ok = not d["stopped_early"] and not fatal and len(runs) == 1 and all_ran and not forward & set(not_passing(rep))
        check(name, ok, text + f"; not passing: {not_passing(rep)}" + (f"; fatal: {fatal}" if fatal else "") +
              (f"; skipped on every rank: {[s['graph'] for s in d.get('skipped', [])]}" if d.get("skipped") else "") +
              ("; job stopped: " + d["why"][:200] if d["stopped_early"] else ""))

    # tlparse's multi-rank logs, ranks 0-1 (section 4; SKIP, not counted, when the corpus was not carried).
    for sub in ("multi_rank_runtime", "multi_rank_schedule"):
        rep, why = load(folder, f"tlparse_{sub}.json")
        if rep is None:
            print(f"SKIP tlparse {sub} ranks 0-1 over NCCL: {why} (carry .devscratch/corpora/tlparse_test_inputs.tgz)")
            continue
        text, all_ran = figures(rep)
        bad = not_passing(rep)
        check(f"tlparse {sub} ranks 0-1 over NCCL", all_ran and not rep["distributed"]["stopped_early"],
              text + f", {rep['distributed']['seconds']:.1f} s" + (f"; not passing: {bad}" if bad else ""))

    for test in ("test_distributed", "test_distributed_fsdp"):
        test_log = os.path.join(folder, test + ".log")
        tail = open(test_log).read().strip().splitlines()[-1:] if os.path.exists(test_log) else [f"no {test}.log"]
        m = re.match(r"(\d+) passed, (\d+) failed", tail[0]) if tail else None
        check(f"tests/cli/{test}.py (CPU, Gloo)", bool(m and m.group(2) == "0"), tail[0] if tail else "empty", test)
    print(f"{sum(results)}/{len(results)} checks pass")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
