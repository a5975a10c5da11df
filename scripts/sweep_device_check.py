"""Issue 24's checks on a CUDA machine (run by scripts/sweep-device.sh; a summary on stdout and under $OUT):
1. index_add with duplicate indices captured on CUDA (tests/data/sweep/make_sweep.py --index-add): `fxray replay G
   --device cuda --repeat 5 --until diverge` names index_add as the first node whose outputs differ between runs of
   the same inputs (float atomics), and the same graph on the CPU does not diverge;
2. sharp_softmax captured on CUDA: the 1,000-seed sweep on CUDA finds its Inf seed, and bench/sweep_bench.py on
   CUDA (sweep vs one process per seed).
Usage: python scripts/sweep_device_check.py FXRAY OUT"""
import json
import os
import subprocess
import sys
import time

FXRAY, OUT = sys.argv[1], sys.argv[2]
SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = sys.executable
MAKE = os.path.join(SRC, "tests", "data", "sweep", "make_sweep.py")


def fx(*args):
    t0 = time.perf_counter()
    p = subprocess.run([FXRAY, *args], capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr, time.perf_counter() - t0


def main():
    work = os.path.join(OUT, "sweep_fixtures")
    subprocess.run([PY, MAKE, "--out", work, "--device", "cuda", "--index-add"], check=True)
    subprocess.run([PY, MAKE, "--out", work, "--device", "cuda"], check=True)
    index_add = os.path.join(work, "index_add", "index_add_forward_0")
    softmax = os.path.join(work, "sharp_softmax", "sharp_softmax_forward_0")
    ok = True

    code, out, err, dt = fx("replay", index_add, "--device", "cuda", "--repeat", "5", "--until", "diverge", "--json")
    r = json.loads(out) if out.strip().startswith("{") else {"found": False, "failure": err[-400:]}
    named = r.get("found") and r.get("divergent_node", "").startswith("index_add")
    ok &= bool(named)
    print(f"[{'ok' if named else 'FAIL'}] index_add on cuda, 6 runs of seed 0: exit {code}, {dt:.2f} s: "
          f"{r.get('failure')} (divergent node {r.get('divergent_node')}, run {r.get('divergent_run')})")
    code, out, err, dt = fx("replay", index_add, "--device", "cpu", "--repeat", "5", "--until", "diverge")
    print(f"[{'ok' if code == 0 else 'note'}] index_add on the cpu, 6 runs: exit {code}: {out.strip().splitlines()[0] if out.strip() else err[-300:]}")

    code, out, err, dt = fx("replay", softmax, "--device", "cuda", "--seeds", "0-999", "--until", "nan", "--json")
    r = json.loads(out) if out.strip().startswith("{") else {"found": False, "failure": err[-400:]}
    ok &= bool(r.get("found")) and dt <= 10
    print(f"[{'ok' if r.get('found') and dt <= 10 else 'FAIL'}] sharp_softmax on cuda, seeds 0-999 until nan: seed {r.get('seed')} "
          f"after {r.get('seeds_run')} seeds, {dt:.2f} s wall: {r.get('failure')}")
    bench = subprocess.run([PY, os.path.join(SRC, "bench", "sweep_bench.py"), "--fxray", FXRAY, "--graph", softmax, "--device", "cuda"],
                           capture_output=True, text=True, timeout=1800)
    print("bench/sweep_bench.py --device cuda:\n" + bench.stdout + bench.stderr[-1000:])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
