"""Per-model rows, failures and totals of a corpus run, from what capture left on disk and fxray's JSON."""
import os

import corpus_report as cr
import corpus_scan as scan


def owner(out: str, path: str) -> tuple:
    """('model', name) / ('opinfo', op) / ('?', path) for a graph address or a file path under out."""
    rel = os.path.relpath(path.split("#")[0], out)
    parts = rel.split(os.sep)
    if parts[0] in ("models", "traces") and len(parts) > 1:
        return ("model", parts[1])
    if parts[0] == "opinfo" and len(parts) > 3:
        return ("opinfo", parts[3])
    return ("?", rel)


def _error_path(error: str) -> str:
    """The file of an fxray error line 'path:line[:col]: message'."""
    return error.split(":", 1)[0]


def _replay_counts(reports: list) -> dict:
    return {"saved_clean": sum(cr.is_clean(r) for r in reports), "equal": sum(cr.is_equal(r) for r in reports),
            "nan_as_eager": sum(cr.nan_as_eager(r) for r in reports),
            "rng_uncompared": sum(cr.is_clean(r) and cr.random_uncompared(r) for r in reports)}


def _failures(reports: list, phase: str) -> list:
    return [{"graph": os.path.basename(r.get("address") or r.get("path", "?")), "phase": phase, "reason": cr.reason(r)}
            for r in reports if not (cr.is_equal(r) if phase == "saved" else r.get("verdict") == "pass")
            and cr.reason(r)]


def model_row(out: str, model: str, capture: dict, info: dict, replays: dict) -> dict:
    mdir = os.path.join(out, "models", model)
    dumps, trace_dir = os.path.join(mdir, "dumps"), os.path.join(out, "traces", model)
    mine = lambda addr: owner(out, addr) == ("model", model)  # noqa: E731
    folders = scan.graph_folders(dumps)
    errors = scan.capture_errors(dumps)
    lost = [e for e in errors if e.get("stage") == "graph"]
    failures = [{"graph": e.get("graph"), "phase": "capture", "reason": f"{e.get('stage')} not written: {e.get('error')}"}
                for e in errors]
    for mode, rep in capture.items():
        if rep.get("process_error"):
            failures.append({"graph": "-", "phase": mode, "reason": rep["process_error"]})
        for step, s in rep.get("steps", {}).items():
            if not s.get("ok"):
                failures.append({"graph": "-", "phase": f"{mode} {step} step", "reason": s.get("error", "?")})
    graphs = [g for g in info.get("graphs", []) if mine(g["address"])]
    load_errors = [e for e in info.get("errors", []) if mine(_error_path(e))]
    failures += [{"graph": os.path.basename(_error_path(e)), "phase": "load", "reason": e} for e in load_errors]
    # fxray info lists a graph it found even when it then fails to load it (and reports that error too).
    loaded = sum("/dumps/" in g["address"] for g in graphs) - sum("/dumps/" in e for e in load_errors)
    records = scan.trace_graph_records(trace_dir)
    trace_loaded = sum("/traces/" in g["address"] for g in graphs) - sum("/traces/" in e for e in load_errors)
    if trace_loaded < len(records):
        failures.append({"graph": "trace", "phase": "load",
                         "reason": f"{len(records) - trace_loaded} of {len(records)} trace graph records did not load"})
    saved = [r for r in replays.get("saved", []) if mine(r.get("address") or r.get("path", ""))]
    rand = [r for r in replays.get("random", []) if mine(r.get("address") or r.get("path", ""))]
    traced = [r for r in replays.get("trace", []) if mine(r.get("address") or r.get("path", ""))]
    failures += _failures(saved, "saved") + _failures(rand, "random") + _failures(traced, "trace random")
    s_clean, s_equal, s_nan, s_rng = _replay_counts(saved).values()
    steps_failed = sum(not s.get("ok") for rep in capture.values() for s in rep.get("steps", {}).values())
    return {
        "model": model, "captured": len(folders), "lost": len(lost), "loaded": loaded,
        "trace": f"{trace_loaded}/{len(records)}" if records or os.path.isdir(trace_dir) else None,
        "trace_records": len(records), "trace_loaded": trace_loaded,
        "saved ok": f"{s_clean}/{len(saved)}" if saved else None, "= eager": s_equal if saved else None,
        "rng skip": s_rng if saved else None,
        "random ok": f"{sum(r.get('verdict') == 'pass' for r in rand)}/{len(rand)}" if rand else None,
        "trace ok": f"{sum(r.get('verdict') == 'pass' for r in traced)}/{len(traced)}" if traced else None,
        "capture s": capture.get("capture", {}).get("wall_s"),
        "counts": {"saved": len(saved), "saved_clean": s_clean, "equal": s_equal, "nan_as_eager": s_nan,
                   "rng_uncompared": s_rng, "random": len(rand),
                   "random_clean": sum(r.get("verdict") == "pass" for r in rand),
                   "fxray_crashes": sum("crash" in r for r in saved + rand), "steps_failed": steps_failed},
        "graph_breaks": capture.get("capture", {}).get("graph_breaks", {}),
        "skipped": capture.get("capture", {}).get("skipped"),
        "collectives": (capture.get("trace") or capture.get("capture") or {}).get("collectives"),
        "failures": failures,
    }


def opinfo_row(out: str, ops: list, info: dict, replays: dict) -> dict:
    """One row for all of OpInfo; failures name the op (graph folders are named after it)."""
    root = os.path.join(out, "opinfo")
    mine = lambda addr: owner(out, addr)[0] == "opinfo"  # noqa: E731
    folders, errors = [], []
    for part in sorted(os.listdir(root)) if os.path.isdir(root) else []:
        folders += scan.graph_folders(os.path.join(root, part, "dumps"))
        errors += scan.capture_errors(os.path.join(root, part, "dumps"))
    failures = [{"graph": e.get("graph"), "phase": "capture", "reason": f"{e.get('stage')} not written: {e.get('error')}"}
                for e in errors]
    for op in ops:
        if op.get("status") in ("crashed", "error"):
            failures.append({"graph": op["op"], "phase": "opinfo capture", "reason": f"{op['status']}: {op.get('reason')}"})
        for step, s in op.get("steps", {}).items():
            if s != "ok":
                failures.append({"graph": op["op"], "phase": f"opinfo {step} step", "reason": s})
    graphs = [g for g in info.get("graphs", []) if mine(g["address"])]
    load_errors = [e for e in info.get("errors", []) if mine(_error_path(e))]
    failures += [{"graph": os.path.basename(_error_path(e)), "phase": "load", "reason": e} for e in load_errors]
    saved = [r for r in replays.get("saved", []) if mine(r.get("address") or r.get("path", ""))]
    rand = [r for r in replays.get("random", []) if mine(r.get("address") or r.get("path", ""))]
    failures += _failures(saved, "saved") + _failures(rand, "random")
    c = _replay_counts(saved)
    status = lambda s: sum(op.get("status") == s for op in ops)  # noqa: E731
    return {
        "model": "opinfo", "captured": len(folders), "lost": sum(e.get("stage") == "graph" for e in errors),
        "loaded": len(graphs) - len(load_errors), "trace": None, "trace_records": 0, "trace_loaded": 0,
        "saved ok": f"{c['saved_clean']}/{len(saved)}" if saved else None, "= eager": c["equal"] if saved else None,
        "rng skip": c["rng_uncompared"] if saved else None,
        "random ok": f"{sum(r.get('verdict') == 'pass' for r in rand)}/{len(rand)}" if rand else None,
        "capture s": round(sum(op.get("seconds", 0) for op in ops), 1),
        "counts": {"saved": len(saved), **c, "random": len(rand),
                   "random_clean": sum(r.get("verdict") == "pass" for r in rand),
                   "fxray_crashes": sum("crash" in r for r in saved + rand), "steps_failed": 0},
        "ops": {"total": len(ops), "ok": status("ok"), "step_failed": status("step failed"),
                "skipped": status("skipped"), "crashed": status("crashed"), "error": status("error"),
                "no_graph": sum(op.get("status") == "ok" and not op.get("written") for op in ops)},
        "failures": failures,
    }


def totals(rows: list) -> dict:
    t = {k: sum(r[k] for r in rows) for k in ("captured", "lost", "loaded", "trace_records", "trace_loaded")}
    for k in ("saved", "saved_clean", "equal", "nan_as_eager", "rng_uncompared", "random", "random_clean",
              "fxray_crashes", "steps_failed"):
        t[k] = sum(r["counts"][k] for r in rows)
    return t


def checks(t: dict, thresholds: dict) -> dict:
    """Each threshold -> {value, limit, ok}. Fractions of graphs with nothing to count are 1.0 (vacuous)."""
    frac = lambda a, b: round(a / b, 4) if b else 1.0  # noqa: E731
    values = {
        "max_lost": t["lost"], "max_capture_step_failures": t["steps_failed"],
        "min_loaded_fraction": frac(t["loaded"], t["captured"]),
        "min_trace_loaded_fraction": frac(t["trace_loaded"], t["trace_records"]),
        "max_fxray_crashes": t["fxray_crashes"],
        "min_saved_clean_fraction": frac(t["saved_clean"], t["saved"]),
        "min_equal_fraction": frac(t["equal"], t["saved"]),
        "min_random_clean_fraction": frac(t["random_clean"], t["random"]),
    }
    out = {}
    for k, limit in thresholds.items():
        if k.startswith("_") or k not in values:
            continue
        ok = values[k] <= limit if k.startswith("max_") else values[k] >= limit
        out[k] = {"value": values[k], "limit": limit, "ok": ok}
    return out
