#!/usr/bin/env python3
"""End-to-end test of `fxray dot`: every sample graph to .dot (and, with Graphviz, .svg), plus error exits.

Environment: FXRAY_BIN (the fxray binary), FXRAY_SOURCE_DIR (repository root), FXRAY_HAVE_GRAPHVIZ (ON/OFF).
Python 3 standard library only.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

BIN = os.environ.get("FXRAY_BIN", "fxray")
SOURCE = os.environ.get("FXRAY_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
HAVE_GRAPHVIZ = os.environ.get("FXRAY_HAVE_GRAPHVIZ", "ON").upper() in ("ON", "1", "TRUE", "YES")
SAMPLES = os.path.join(SOURCE, "samples")
SVG_NS = "{http://www.w3.org/2000/svg}"

passed = 0
failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)
    return cond


def run(*args, timeout=300):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=timeout)


def addresses_from_info():
    """Every graph address `fxray info --json` lists, or None when info is not usable."""
    try:
        r = run("info", SAMPLES, "--json")
    except (OSError, subprocess.TimeoutExpired):
        return None
    if r.returncode != 0:
        return None
    try:
        data = json.loads(r.stdout)
    except ValueError:
        return None
    found = []

    def walk(x):
        if isinstance(x, dict):
            if isinstance(x.get("address"), str) and ("nodes" in x or "kind" in x):
                found.append(x["address"])
                return
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(data)
    return list(dict.fromkeys(found)) or None


def dump_folders():
    root = os.path.join(SAMPLES, "h100", "dumps")
    out = []
    for model in sorted(os.listdir(root)):
        for graph in sorted(os.listdir(os.path.join(root, model))):
            path = os.path.join(root, model, graph)
            if os.path.isfile(os.path.join(path, "module.py")):
                out.append(path)
    return out


def node_count(stdout):
    m = re.search(r"\((\d+) nodes", stdout)
    return int(m.group(1)) if m else -1


def stub_count(stdout):
    m = re.search(r"(\d+) stubs", stdout)
    return int(m.group(1)) if m else 0


def svg_nodes(path):
    """(real nodes, stubs) of a Graphviz SVG; raises when it does not parse."""
    root = ET.parse(path).getroot()
    real = stubs = 0
    for g in root.iter(SVG_NS + "g"):
        cls = g.get("class", "")
        if cls == "node":
            real += 1
        elif cls.split() == ["node", "stub"]:
            stubs += 1
    return real, stubs


def test_graph(address, out_dir, index):
    base = os.path.join(out_dir, "g%d" % index)
    r = run("dot", address, "-o", base + ".dot")
    if not check(r.returncode == 0, "dot %s -> .dot exit %d: %s" % (address, r.returncode, r.stderr.strip())):
        return
    nodes = node_count(r.stdout)
    check(nodes > 0 and (base + ".dot") in r.stdout, "dot %s: stdout names the file and node count: %r" % (address, r.stdout))
    check(os.path.isfile(base + ".dot"), "dot %s: .dot written" % address)
    with open(base + ".dot", encoding="utf-8") as f:
        text = f.read()
    check(text.startswith("digraph "), "dot %s: starts with digraph" % address)
    drawn = len(re.findall(r'^  "[A-Za-z_][A-Za-z0-9_]*" \[label=', text, re.M))
    stubs = stub_count(r.stdout)
    if stubs == 0:
        check(drawn == nodes, "dot %s: %d node statements for %d nodes" % (address, drawn, nodes))
    else:
        check(0 < drawn <= nodes, "dot %s: %d node statements for %d nodes with stubs" % (address, drawn, nodes))
    if not HAVE_GRAPHVIZ:
        return
    r = run("dot", address, "-o", base + ".svg")
    if not check(r.returncode == 0, "dot %s -> .svg exit %d: %s" % (address, r.returncode, r.stderr.strip())):
        return
    check(os.path.isfile(base + ".svg"), "dot %s: .svg written" % address)
    try:
        real, svg_stubs = svg_nodes(base + ".svg")
    except ET.ParseError as e:
        check(False, "dot %s: SVG does not parse: %s" % (address, e))
        return
    check(real == drawn, "dot %s: %d <g class=node> for %d drawn nodes" % (address, real, drawn))
    check(svg_stubs == stubs, "dot %s: %d stubs in SVG, %d reported" % (address, svg_stubs, stubs))


def test_formats_and_options(address, out_dir):
    base = os.path.join(out_dir, "first")
    r = run("dot", address, "-o", base + ".dot", "--no-meta")
    check(r.returncode == 0, "--no-meta exit %d: %s" % (r.returncode, r.stderr.strip()))
    with open(base + ".dot", encoding="utf-8") as f:
        check('POINT-SIZE="8" COLOR' not in f.read(), "--no-meta leaves metadata out of labels")
    if HAVE_GRAPHVIZ:
        for ext, magic in (("png", b"\x89PNG"), ("pdf", b"%PDF")):
            r = run("dot", address, "-o", base + "." + ext)
            check(r.returncode == 0, ".%s exit %d: %s" % (ext, r.returncode, r.stderr.strip()))
            with open(base + "." + ext, "rb") as f:
                check(f.read(4) == magic, ".%s has its magic bytes" % ext)
    else:
        r = run("dot", address, "-o", base + ".svg")
        check(r.returncode == 2 and "needs Graphviz" in r.stderr,
              "without Graphviz .svg exits 2 saying so: %d %r" % (r.returncode, r.stderr))
        check(not os.path.exists(base + ".svg"), "without Graphviz no .svg is written")


def test_errors(address, out_dir):
    r = run("dot", address, "-o", os.path.join(out_dir, "x.jpeg"))
    check(r.returncode == 2 and ".jpeg" in r.stderr and "error" in r.stderr,
          "bad extension exits 2 with a message: %d %r" % (r.returncode, r.stderr))
    r = run("dot", os.path.join(out_dir, "no", "such", "graph"), "-o", os.path.join(out_dir, "x.dot"))
    check(r.returncode == 2 and r.stderr.strip() != "", "missing path exits 2 with a message: %d %r" % (r.returncode, r.stderr))
    check(not os.path.exists(os.path.join(out_dir, "x.dot")), "missing path writes nothing")
    r = run("dot", address)
    check(r.returncode == 2 and "-o" in r.stderr, "missing -o exits 2: %d %r" % (r.returncode, r.stderr))
    r = run("dot", address, "-o", os.path.join(out_dir, "x.dot"), "--stubs", "sometimes")
    check(r.returncode == 2 and "--stubs" in r.stderr, "bad --stubs exits 2: %d %r" % (r.returncode, r.stderr))
    r = run("dot", address, "-o", os.path.join(out_dir, "x.dot"), "--stubs", "all")
    check(r.returncode == 0, "--stubs all works: %d %r" % (r.returncode, r.stderr))


def main():
    addresses = addresses_from_info()
    source = "fxray info --json"
    if not addresses:
        addresses = dump_folders()
        source = "dump folders"
    print("%d graphs from %s, Graphviz %s" % (len(addresses), source, "on" if HAVE_GRAPHVIZ else "off"))
    check(len(addresses) > 0, "found sample graphs")
    with tempfile.TemporaryDirectory(prefix="fxray-dot-") as out_dir:
        for i, address in enumerate(addresses):
            test_graph(address, out_dir, i)
        if addresses:
            test_formats_and_options(addresses[0], out_dir)
            test_errors(addresses[0], out_dir)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
