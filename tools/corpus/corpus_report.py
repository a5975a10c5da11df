"""Turns fxray's JSON over the corpus into per-model rows, one-line failure reasons and the printed table."""
import collections
import re

CLEAN_VERDICTS = ("pass", "diverged")  # every node checked out; "diverged": only the outputs differ from eager


def first_line(text: str, limit: int = 240) -> str:
    return (text or "").strip().splitlines()[0][:limit] if (text or "").strip() else ""


def _mismatch_text(m: dict) -> str:
    return f"{m.get('kind')} of output {m.get('output')}: recorded {m.get('expected')}, actual {m.get('actual')}"


def reason(r: dict) -> str:
    """Why a replay report is not a clean pass, in one line ('' when it is one)."""
    if "crash" in r:
        return "fxray crashed: " + first_line(r["crash"])
    if r.get("fatal"):
        return "fatal: " + first_line(r["fatal"])
    bad = [n for n in r.get("nodes", []) if n.get("status") in ("error", "mismatch")]
    if bad:
        n = bad[0]
        why = n.get("error") or "; ".join(_mismatch_text(m) for m in n.get("mismatches", [])[:2])
        more = f" (+{len(bad) - 1} more nodes)" if len(bad) > 1 else ""
        return f"{n['status']} at {n['name']} ({n.get('target', '?')}): {first_line(why)}{more}"
    unsupported = r.get("unsupported") or [n["target"] for n in r.get("nodes", []) if n.get("status") == "unsupported"]
    if unsupported:
        return "unsupported: " + ", ".join(sorted(set(map(str, unsupported)))[:4])
    if r.get("first_nan_node"):
        return f"nan: NaN/Inf from finite inputs first at {r['first_nan_node']}"
    off = [c for c in r.get("comparisons", []) if c.get("compared", True) and not c.get("ok")]
    if off:
        c = off[0]
        return (f"diverged from eager: {len(off)} of {len(r['comparisons'])} outputs, e.g. output {c['output']} "
                f"{c.get('what', '')} max_abs {c.get('max_abs')} max_rel {c.get('max_rel')}")
    if r.get("verdict") not in (None, "pass"):
        return f"verdict {r.get('verdict')}"
    return ""


def nan_as_eager(r: dict) -> bool:
    """NaN/Inf from finite inputs that eager produced too, in the same places (OpInfo samples outside an op's
    domain: log1p(-2), bessel_y0(-1)): the replay reproduces the model, it does not find a fault."""
    return (r.get("verdict") == "nan" and bool(r.get("reference")) and bool(r.get("comparisons"))
            and all(c.get("ok") or not c.get("compared", True) for c in r["comparisons"]))


def is_clean(r: dict) -> bool:
    return "crash" not in r and (r.get("verdict") in CLEAN_VERDICTS or nan_as_eager(r))


def random_uncompared(r: dict) -> bool:
    """Some output was not compared with eager because it depends on a random op (dropout drawn without the saved
    RNG state): such a replay is clean but not shown equal."""
    return any(not c.get("compared", True) and "random" in c.get("note", "") for c in r.get("comparisons", []))


def is_equal(r: dict) -> bool:
    """Clean and every output equal to the saved eager outputs (a reference must exist; a graph that returns
    nothing, e.g. a view AOTAutograd regenerates outside the graph (OpInfo's T, mH), is vacuously equal). Outputs
    left uncompared because they depend on random ops do not count as equal: with the RNG state of <stem>.rng.pt
    restored a replay can draw what eager drew, and only then is it shown equal."""
    return ("crash" not in r and (r.get("verdict") == "pass" or nan_as_eager(r)) and bool(r.get("reference"))
            and not random_uncompared(r))


def signature(text: str) -> str:
    """A failure reason with names and numbers masked, to group the same bug across graphs."""
    text = re.sub(r"\bat \w+ \(", "at # (", text)
    text = re.sub(r"[-+]?\d+(\.\d+)?(e[-+]?\d+)?", "#", text)
    return re.sub(r"'[^']*'", "'…'", text)[:160]


def group_reasons(failures: list) -> list:
    """[(count, signature, example)] over failure dicts {graph, reason}, most frequent first."""
    groups = collections.OrderedDict()
    for f in failures:
        groups.setdefault(signature(f["reason"]), []).append(f)
    rows = [(len(v), k, v[0]) for k, v in groups.items()]
    return sorted(rows, key=lambda x: -x[0])


COLUMNS = [("model", 26), ("captured", 8), ("lost", 4), ("trace", 9), ("loaded", 6), ("saved ok", 8),
           ("= eager", 7), ("rng skip", 8), ("random ok", 9), ("trace ok", 8), ("capture s", 9)]


def _cell(v) -> str:
    return "-" if v is None else str(v)


def table(rows: list) -> str:
    """The per-model table; rows are dicts with the keys of COLUMNS (trace: records loaded / in the logs; rng skip:
    saved-input replays with outputs left uncompared for depending on random ops; trace ok: random-input replays
    of the trace's graphs that pass, with --replay-traces)."""
    head = "  ".join(f"{n:>{w}}" if i else f"{n:<{w}}" for i, (n, w) in enumerate(COLUMNS))
    lines = [head, "-" * len(head)]
    for row in rows:
        lines.append("  ".join(f"{_cell(row.get(n)):>{w}}" if i else f"{_cell(row.get(n)):<{w}}"
                               for i, (n, w) in enumerate(COLUMNS)))
    return "\n".join(lines)
