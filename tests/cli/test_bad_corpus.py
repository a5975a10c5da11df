"""The bad-input corpus: every broken file under tests/data/bad gets the verdict MANIFEST.tsv gives it, through
the CLI, without a crash, a hang or a sanitizer report, with a message naming the file.

What is one case: each file, except each folder directly under dumps/ (a dump folder is one input), the
generators (make_*.py) and MANIFEST.tsv itself. How it is run:
  - pickle/<name>: as the .input of a dump folder of a good one-input graph, staged in a temporary
    <name stem>/<name stem>.input (fxray reads a pickle only there; the message must name the stem);
  - anything else: `fxray info <path>`, and again with --json.
`error` cases must exit 2, `loads` cases 0; both must print text matching the manifest's regex. Outputs must
be UTF-8 without control characters (a NUL cut messages short once), and --json output must parse.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

from cli_harness import BAD, FXRAY, check, main

MANIFEST = os.path.join(BAD, "MANIFEST.tsv")
TIME_LIMIT_S = 10  # each case is a few KiB: anything near this is a hang (ASan builds included)
SANITIZER_MARKS = ("Sanitizer", "runtime error:", "internal error", "Segmentation fault", "Aborted")

STAGED_MODULE = """import torch
class FxModule(torch.nn.Module):
    def forward(self, primals_1):
        relu = torch.ops.aten.relu.default(primals_1)
        return (relu,)
"""


def read_manifest():
    """{path: (expect, regex, why)} in file order; a malformed line fails the test."""
    entries = {}
    with open(MANIFEST, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            assert len(fields) == 4, f"MANIFEST.tsv:{number}: want 4 tab-separated fields, got {len(fields)}"
            path, expect, regex, why = fields
            assert expect in ("error", "loads"), f"MANIFEST.tsv:{number}: expect must be error or loads"
            assert why.strip(), f"MANIFEST.tsv:{number}: say why"
            re.compile(regex)
            assert path not in entries, f"MANIFEST.tsv:{number}: {path} listed twice"
            entries[path] = (expect, regex, why)
    return entries


def corpus_cases():
    """Every case on disk, as paths relative to tests/data/bad."""
    cases = []
    for root, dirs, files in os.walk(BAD):
        rel = os.path.relpath(root, BAD)
        dirs.sort()
        if rel == "dumps":
            cases += [os.path.join("dumps", d) for d in dirs]
            dirs[:] = []
            continue
        for name in sorted(files):
            if (name.startswith("make_") and name.endswith(".py")) or (rel == "." and name == "MANIFEST.tsv"):
                continue
            if name.endswith(".pyc") or "__pycache__" in root:
                continue
            cases.append(os.path.normpath(os.path.join(rel, name)))
    return cases


def run_fxray(*args):
    start = time.monotonic()
    try:
        p = subprocess.run([FXRAY, *args], capture_output=True, timeout=TIME_LIMIT_S)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"fxray {' '.join(args)}: no answer within {TIME_LIMIT_S} s")
    return p.returncode, p.stdout, p.stderr, time.monotonic() - start


def printable(data, what):
    """The output as text; it must be UTF-8 and free of control characters other than newline and tab."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise AssertionError(f"{what} is not UTF-8: {e}\n{data[:2000]!r}")
    bad = [c for c in text if (ord(c) < 0x20 and c not in "\n\t") or ord(c) == 0x7F]
    assert not bad, f"{what} holds control characters {bad[:5]!r}:\n{text[:2000]}"
    return text


def stage_pickle(case, tmp):
    stem = os.path.splitext(os.path.basename(case))[0]
    folder = os.path.join(tmp, stem)
    os.makedirs(folder)
    with open(os.path.join(folder, "module.py"), "w") as f:
        f.write(STAGED_MODULE)
    shutil.copyfile(os.path.join(BAD, case), os.path.join(folder, stem + ".input"))
    return folder, stem


def check_case(case, expect, regex, tmp):
    """Runs one case; returns a list of problems (empty when it behaves as the manifest says)."""
    if case.startswith("pickle" + os.sep):
        target, name = stage_pickle(case, tmp)
    else:
        target, name = os.path.join(BAD, case), os.path.basename(case)
    problems = []
    for args in (["info", target], ["info", target, "--json"]):
        code, out, err, seconds = run_fxray(*args)
        what = f"{case}: fxray {' '.join(args[:1] + args[2:])}"
        if code < 0:
            problems.append(f"{what}: killed by signal {-code}")
            continue
        if seconds > TIME_LIMIT_S / 2:
            problems.append(f"{what}: took {seconds:.1f} s")
        try:
            stdout = printable(out, what + " stdout")
            stderr = printable(err, what + " stderr")
        except AssertionError as e:
            problems.append(str(e))
            continue
        text = stdout + stderr
        for mark in SANITIZER_MARKS:
            if mark in text:
                problems.append(f"{what}: '{mark}' in its output:\n{text[:3000]}")
        want = 2 if expect == "error" else 0
        if code != want:
            problems.append(f"{what}: exit {code}, want {want} ({expect}):\n{text[:3000]}")
        if args[-1] == "--json" and stdout.strip():
            try:
                doc = json.loads(stdout)
            except ValueError as e:
                problems.append(f"{what}: output is not JSON ({e}):\n{stdout[:2000]}")
                continue
            graphs = doc.get("graphs", [])
            if expect == "loads":
                if not graphs or any("error" in g for g in graphs):
                    problems.append(f"{what}: want every graph loaded:\n{stdout[:3000]}")
                continue
            # The errors JSON lists (per file, per graph) must say what the text output said.
            text = "\n".join([*doc.get("errors", []), *[g.get("error", "") for g in graphs], stderr])
        if not re.search(regex, text):
            problems.append(f"{what}: output does not match /{regex}/:\n{text[:3000]}")
        if name not in text:
            problems.append(f"{what}: output does not name {name}:\n{text[:3000]}")
    return problems


@check
def manifest_and_corpus_list_the_same_cases():
    listed = set(read_manifest())
    on_disk = set(corpus_cases())
    missing = sorted(on_disk - listed)
    stale = sorted(listed - on_disk)
    assert not missing and not stale, (f"on disk but not in MANIFEST.tsv: {missing}\n"
                                       f"in MANIFEST.tsv but not on disk: {stale}")


@check
def corpus_holds_at_least_fifty_broken_cases_across_formats():
    entries = read_manifest()
    errors = [p for p, (expect, _, _) in entries.items() if expect == "error"]
    assert len(errors) >= 50, len(errors)
    formats = {p.split(os.sep)[0] for p in errors}
    for f in ("fx", "dumps", "pickle", "trace", "zip"):
        assert f in formats, f"no broken case under {f}/"


@check
def every_case_gets_its_manifest_verdict_without_crash_or_hang():
    entries = read_manifest()
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        for case in corpus_cases():
            if case not in entries:
                continue  # reported by manifest_and_corpus_list_the_same_cases
            expect, regex, _ = entries[case]
            problems += check_case(case, expect, regex, tmp)
    assert not problems, f"{len(problems)} problem(s):\n\n" + "\n\n".join(problems)


if __name__ == "__main__":
    main()
