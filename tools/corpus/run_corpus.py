#!/usr/bin/env python3
"""The real-model corpus in one command: capture every model (and OpInfo) in child processes, run fxray over
everything, print a table per model and write <out>/summary.json + <out>/table.txt.

  run_corpus.py --out /tmp/fxray-corpus                       # all models x recipes + OpInfo, CPU, tiny configs
  run_corpus.py --slice ci --out /tmp/fxray-corpus-ci         # the CTest slice (~3 min on 2 cores)
  run_corpus.py --device cuda --size small --models qwen2,bart --opinfo none --jobs 8
  run_corpus.py --models t5,vit --recipes plain,dynamic,checkpoint --distributed none --opinfo none

Entries: every selected model under every selected recipe (recipes.py; folder and row `<model>.<recipe>`, the
plain recipe keeps the model's name) and the 2-rank distributed recipes (capture_distributed.py: dtensor_tp,
fsdp2).

Phases (each can be skipped): capture (models, traces, OpInfo) -> fxray info (dumps and trace logs: graphs
loaded, load errors) -> fxray replay --inputs saved --expected auto, and fxray replay with random inputs.
Exit code 0 when every check of thresholds.json's section (--thresholds-set) holds."""
import argparse
import concurrent.futures as futures
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import corpus_capture  # noqa: E402
import corpus_report as cr  # noqa: E402
import corpus_summary as cs  # noqa: E402
import fxray_cli  # noqa: E402
import models  # noqa: E402
import recipes  # noqa: E402

CI_OPS = ["add", "mm", "sum", "nn_functional_softmax", "nn_functional_layer_norm", "index_select", "cat"]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=os.path.expanduser("~/.cache/fxray/corpus"), help="output folder (outside the repo)")
    p.add_argument("--slice", choices=("all", "ci"), default="all", help="ci: 3 small models, 1 trace, 7 ops, CPU")
    p.add_argument("--device", default="cpu", help="cpu | cuda (capture and replay)")
    p.add_argument("--size", default="tiny", help="model size (sizes.py): tiny | small")
    p.add_argument("--models", help="comma-separated model names (default: all, or the slice's); 'none' for none")
    p.add_argument("--recipes", help="comma-separated recipes (recipes.py) each model runs under: all | list "
                                     "(default: all; the slice: plain, and dynamic for distilbert)")
    p.add_argument("--distributed", help="2-rank recipes: tp,fsdp2 | none (default: both; the slice: tp)")
    p.add_argument("--traces", help="entries that also get an inductor TORCH_TRACE: all | none | comma list of "
                                    "models or entries (default: all on cuda, none on cpu, the slice's two for ci)")
    p.add_argument("--opinfo", default=None, help="all | none | START:STOP (op_db indices) | comma list of op names")
    p.add_argument("--opinfo-part", type=int, default=60, help="ops per OpInfo capture process")
    p.add_argument("--fxray", default=os.path.normpath(fxray_cli.DEFAULT_FXRAY), help="the fxray binary")
    p.add_argument("--jobs", type=int, default=1, help="child processes at once (captures and fxray batches)")
    p.add_argument("--model-timeout", type=float, default=900, help="seconds per model capture process")
    p.add_argument("--opinfo-op-timeout", type=float, default=60, help="seconds per op in an OpInfo process")
    p.add_argument("--graph-timeout", type=float, default=300, help="fxray --timeout: seconds per graph replay")
    p.add_argument("--no-dropout", action="store_true", help="dropout / drop-path / layerdrop at 0 (default: the "
                   "configs' values, with the RNG state saved beside each dump)")
    p.add_argument("--skip-capture", action="store_true", help="reuse what --out holds")
    p.add_argument("--skip-replay", action="store_true", help="fxray info only")
    p.add_argument("--reuse-reports", action="store_true", help="summarize the replays of <out>/fxray_reports.json again")
    p.add_argument("--replay-traces", action="store_true", help="also replay the trace logs (random inputs)")
    p.add_argument("--thresholds-set", default=None, help="section of thresholds.json (default: ci for the slice, else full)")
    opts = p.parse_args(argv)
    _resolve_selection(opts)
    return opts


def _resolve_selection(opts) -> None:
    ci = opts.slice == "ci"
    names = models.CI_MODELS if ci else list(models.MODELS)
    if opts.models:
        names = [] if opts.models == "none" else opts.models.split(",")
    unknown = [m for m in names if m not in models.MODELS]
    if unknown:
        sys.exit(f"run_corpus: unknown models {unknown}; known: {', '.join(models.MODELS)}")
    recipe_list = recipes.ALL if (opts.recipes or "all") == "all" else opts.recipes.split(",")
    unknown = [r for r in recipe_list if r not in recipes.RECIPES]
    if unknown:
        sys.exit(f"run_corpus: unknown recipes {unknown}; known: {', '.join(recipes.ALL)}")
    if ci and not opts.models and not opts.recipes:
        pairs = [(m, "plain") for m in names] + models.CI_EXTRA_ENTRIES
    else:
        pairs = [(m, r) for m in names for r in recipe_list]
    dist = opts.distributed or (",".join(models.CI_DISTRIBUTED) if ci else ",".join(models.DISTRIBUTED))
    dist_list = [] if dist == "none" else dist.split(",")
    unknown = [d for d in dist_list if d not in models.DISTRIBUTED]
    if unknown:
        sys.exit(f"run_corpus: unknown distributed recipes {unknown}; known: {', '.join(models.DISTRIBUTED)}")
    opts.entries = [{"entry": recipes.entry(m, r), "model": m, "recipe": r, "distributed": False} for m, r in pairs]
    opts.entries += [{"entry": models.DISTRIBUTED[d], "model": models.DISTRIBUTED[d], "recipe": d, "distributed": True}
                     for d in dist_list]
    opts.model_list = [e["entry"] for e in opts.entries]  # folder names under <out>/models
    traces = opts.traces or ("ci" if ci else ("all" if opts.device.startswith("cuda") else "none"))
    wanted = {"all": set(opts.model_list), "none": set(), "ci": set(models.CI_TRACE_ENTRIES)}.get(traces)
    if wanted is None:
        listed = set(traces.split(","))
        wanted = {e["entry"] for e in opts.entries if e["entry"] in listed or e["model"] in listed}
    opts.trace_set = wanted
    opinfo = opts.opinfo or (",".join(CI_OPS) if ci else "all")
    opts.opinfo_ops, opts.opinfo_range = None, None
    if opinfo == "none":
        opts.opinfo_range = (0, 0)
    elif opinfo == "all":
        opts.opinfo_range = (0, None)
    elif ":" in opinfo:
        a, b = opinfo.split(":")
        opts.opinfo_range = (int(a or 0), int(b) if b else None)
    else:
        opts.opinfo_ops, opts.opinfo_range = opinfo.split(","), (0, None)
    opts.thresholds_set = opts.thresholds_set or ("ci" if ci else "full")
    opts.out = os.path.abspath(opts.out)


def _op_db_size() -> int:
    """len(op_db) without importing it here (it pulls in expecttest and takes seconds): from a child."""
    import subprocess
    code = "from torch.testing._internal.common_methods_invocations import op_db; print(len(op_db))"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("run_corpus: cannot import OpInfo's op_db (is `expecttest` installed?):\n" + p.stderr[-800:])
    return int(p.stdout.split()[-1])


def opinfo_parts(opts) -> list:
    """[(part name, start, stop)] covering the selected op_db range."""
    start, stop = opts.opinfo_range
    if stop == 0:
        return []
    stop = _op_db_size() if stop is None else stop
    step = stop - start if opts.opinfo_ops else opts.opinfo_part  # named ops: one process walks op_db once
    return [(f"part_{a:04d}", a, min(a + step, stop)) for a in range(start, stop, step)]


def capture_phase(opts) -> tuple[dict, list]:
    parts = opinfo_parts(opts)
    print(f"== capture: {len(opts.model_list)} entries ({len(opts.trace_set & set(opts.model_list))} with an inductor "
          f"trace), {len(parts)} OpInfo parts, device {opts.device}, jobs {opts.jobs}", flush=True)
    with futures.ThreadPoolExecutor(max(1, opts.jobs)) as pool:
        mf = {e["entry"]: pool.submit(corpus_capture.capture_entry, e, opts.out, opts, e["entry"] in opts.trace_set)
              for e in opts.entries}
        pf = [pool.submit(corpus_capture.capture_opinfo_part, name, a, b, opts.out, opts) for name, a, b in parts]
        captures = {m: f.result() for m, f in mf.items()}
        ops = [op for f in pf for op in f.result()]
    return captures, ops


def _load_previous(opts) -> tuple[dict, list]:
    """--skip-capture: what the capture children left in --out."""
    captures = {}
    for m in opts.model_list:
        mdir = os.path.join(opts.out, "models", m)
        captures[m] = {mode: json.load(open(os.path.join(mdir, f"{mode}.json")))
                       for mode in ("capture", "trace") if os.path.exists(os.path.join(mdir, f"{mode}.json"))}
    ops = []
    root = os.path.join(opts.out, "opinfo")
    for part in sorted(os.listdir(root)) if os.path.isdir(root) else []:
        ops += [e for e in corpus_capture._progress(os.path.join(root, part, "progress.jsonl")) if e["event"] == "done"]
    return captures, ops


def _per_rank(dumps: str) -> bool:
    """A distributed recipe's dumps: one folder per rank (dtensor_tp_rank0, ...), replayed together as one job."""
    return any(re.search(r"_rank\d+$", d) for d in os.listdir(dumps))


def replay_batches(opts) -> list:
    """Folders to replay, one fxray process each: all models at once on one job, else one per model; OpInfo parts.
    A distributed recipe is always a batch of its own: `fxray replay` runs a folder of ranks as one job over real
    process groups only when nothing else is in it (mixed in, its collectives would have no group to run on)."""
    mroot = os.path.join(opts.out, "models")
    dumps = [os.path.join(mroot, m, "dumps") for m in opts.model_list if os.path.isdir(os.path.join(mroot, m, "dumps"))]
    batches = dumps if opts.jobs > 1 else ([mroot] if dumps else [])
    if opts.jobs <= 1 and (set(os.listdir(mroot) if os.path.isdir(mroot) else []) - set(opts.model_list)
                           or any(_per_rank(d) for d in dumps)):
        batches = dumps  # --out holds other models too, or ranks: replay the selected ones one by one
    oroot = os.path.join(opts.out, "opinfo")
    batches += [os.path.join(oroot, p, "dumps") for p in sorted(os.listdir(oroot))
                if os.path.isdir(os.path.join(oroot, p, "dumps"))] if os.path.isdir(oroot) else []
    return batches


def _slim(report: dict) -> dict:
    """A report without its passing nodes (the raw JSON of a corpus run is otherwise tens of MB)."""
    if "nodes" not in report:
        return report
    return {**report, "nodes": [n for n in report["nodes"] if n.get("status") not in ("passed", "skipped")]}


def fxray_phase(opts) -> tuple[dict, dict]:
    t = time.time()
    info = {"graphs": [], "errors": []}
    for sub in ("models", "traces", "opinfo"):
        if os.path.isdir(os.path.join(opts.out, sub)):
            got = fxray_cli.info(opts.fxray, os.path.join(opts.out, sub))
            if "crash" in got:
                got = {"graphs": [], "errors": [f"{os.path.join(opts.out, sub)}: fxray info crashed: {got['crash']}"]}
            info["graphs"] += got.get("graphs", [])
            info["errors"] += got.get("errors", [])
    print(f"== fxray info: {len(info['graphs'])} graphs, {len(info['errors'])} load errors ({time.time() - t:.0f} s)",
          flush=True)
    replays = {"saved": [], "random": [], "trace": []}
    if opts.skip_replay:
        return info, replays
    if opts.reuse_reports:
        previous = json.load(open(os.path.join(opts.out, "fxray_reports.json")))
        return info, {k: previous.get(k, []) for k in replays}
    modes = {"saved": ["--inputs", "saved", "--expected", "auto"], "random": []}
    tasks = [(mode, b) for b in replay_batches(opts) for mode in modes]
    if opts.replay_traces:
        tasks += [("trace", os.path.join(opts.out, "traces", m)) for m in sorted(opts.trace_set)
                  if os.path.isdir(os.path.join(opts.out, "traces", m))]
    t = time.time()
    with futures.ThreadPoolExecutor(max(1, opts.jobs)) as pool:
        fs = [(mode, pool.submit(fxray_cli.replay, opts.fxray, path, modes.get(mode, []), opts.device,
                                 opts.graph_timeout, 3 * 3600)) for mode, path in tasks]
        for mode, f in fs:
            replays[mode] += [_slim(r) for r in f.result()]
    print(f"== fxray replay: {sum(map(len, replays.values()))} reports in {len(tasks)} batches "
          f"({time.time() - t:.0f} s)", flush=True)
    return info, replays


def summarize(opts, captures, ops, info, replays) -> dict:
    rows = [{**cs.model_row(opts.out, e["entry"], captures.get(e["entry"], {}), info, replays),
             "base_model": e["model"], "recipe": e["recipe"]} for e in opts.entries]
    if ops or os.path.isdir(os.path.join(opts.out, "opinfo")):
        rows.append(cs.opinfo_row(opts.out, ops, info, replays))
    totals = cs.totals(rows)
    thresholds = json.load(open(os.path.join(HERE, "thresholds.json")))[opts.thresholds_set]
    return {"config": {k: (sorted(v) if isinstance(v, set) else v) for k, v in vars(opts).items()},
            "rows": rows, "totals": totals, "thresholds_set": opts.thresholds_set,
            "checks": cs.checks(totals, thresholds)}


def render(summary: dict) -> str:
    lines = [cr.table(summary["rows"]), ""]
    t = summary["totals"]
    lines.append(f"totals: {t['captured']} graphs captured, {t['lost']} lost, {t['loaded']} loaded; trace records "
                 f"{t['trace_loaded']}/{t['trace_records']}; saved-input replays clean {t['saved_clean']}/{t['saved']}, "
                 f"equal to eager {t['equal']}/{t['saved']} (of which NaN as in eager {t['nan_as_eager']}; outputs left "
                 f"uncompared for depending on random ops in {t['rng_uncompared']}); random clean {t['random_clean']}/{t['random']}; "
                 f"fxray crashes {t['fxray_crashes']}")
    lines += [f"check {k}: {'ok' if c['ok'] else 'FAILED'} ({c['value']} vs {c['limit']})"
              for k, c in summary["checks"].items()]
    skipped = [f"  {row['model']}: {row['skipped']}" for row in summary["rows"] if row.get("skipped")]
    if skipped:
        lines += ["", f"skipped entries ({len(skipped)}):"] + skipped
    collect = [f"  {row['model']}: {row['collectives']}" for row in summary["rows"] if row.get("collectives")]
    if collect:
        lines += ["", "collective ops in the graphs (dumps / trace logs):"] + collect
    for row in summary["rows"]:
        if row["failures"]:
            lines += ["", f"{row['model']}: {len(row['failures'])} failures"]
            lines += [f"  [{f['phase']}] {f['graph']}: {f['reason']}" for f in row["failures"]]
    every = [f for row in summary["rows"] for f in row["failures"]]
    if every:
        lines += ["", "failure classes (count, signature, example):"]
        lines += [f"  {n:4d}  {sig}\n        e.g. {ex['graph']}: {ex['reason']}" for n, sig, ex in cr.group_reasons(every)]
    return "\n".join(lines)


def main(argv=None) -> int:
    opts = parse_args(argv)
    os.makedirs(opts.out, exist_ok=True)
    t0 = time.time()
    captures, ops = _load_previous(opts) if opts.skip_capture else capture_phase(opts)
    t1 = time.time()
    info, replays = fxray_phase(opts)
    summary = summarize(opts, captures, ops, info, replays)
    summary["seconds"] = {"capture": round(t1 - t0, 1), "fxray": round(time.time() - t1, 1),
                          "total": round(time.time() - t0, 1)}
    text = render(summary) + f"\n\n{summary['seconds']['total']} s (capture {summary['seconds']['capture']} s, " \
                             f"fxray {summary['seconds']['fxray']} s)"
    with open(os.path.join(opts.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(opts.out, "table.txt"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(opts.out, "fxray_reports.json"), "w") as f:
        json.dump({"info_errors": info["errors"], **replays}, f)
    print(text)
    return 0 if all(c["ok"] for c in summary["checks"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
