"""`fxray replay --seeds A-B --until ...` and `--repeat N --until diverge` end to end on the CPU: the sweep of the
committed sharp_softmax dump (exp overflows to Inf for a few percent of input seeds, tests/data/sweep/make_sweep.py)
names the first failing seed, `--seed S` reproduces it, the seeds before it replay cleanly, the worker and
--in-process agree, a crash mid-sweep names its seed, and bad option combinations are errors naming the option.
Skipped (0 checks) in a build without LibTorch (no worker)."""
import json
import os
import subprocess
import sys

from cli_harness import SOURCE, check, have_worker, main, run

GRAPH = os.path.join(SOURCE, "tests", "data", "sweep", "sharp_softmax", "sharp_softmax_forward_0")
_first = {}


def first_failing():
    """The sweep's answer for seeds 0-999, run once (through the worker) and shared by the checks."""
    if not _first:
        code, out, err = run("replay", GRAPH, "--seeds", "0-999", "--until", "nan", "--json")
        assert code == 1, f"exit {code}: {err}\n{out}"
        _first.update(json.loads(out))
    return _first


@check
def sweep_names_the_first_seed_whose_replay_makes_inf():
    r = first_failing()
    assert r["found"] and r["seeds_run"] == r["seed"] + 1, r
    assert "at node 'exp' (aten.exp.default)" in r["failure"] and "Inf from finite inputs" in r["failure"], r["failure"]
    assert r["report"]["seed"] == r["seed"] and r["report"]["first_nan_node"] == "exp", r["report"].get("first_nan_node")
    assert r["until"] == "nan" and r["seeds"] == "0-999"


@check
def named_seed_reproduces_with_seed_and_the_seeds_before_it_pass():
    seed = first_failing()["seed"]
    code, out, _ = run("replay", GRAPH, "--seed", str(seed))
    assert code == 1 and "nan" in out.splitlines()[0] and "exp" in out, out
    if seed > 0:
        code, out, _ = run("replay", GRAPH, "--seed", str(seed - 1))
        assert code == 0 and out.splitlines()[0].endswith(": pass"), out
        code, out, _ = run("replay", GRAPH, "--seeds", f"0-{seed - 1}", "--until", "nan")
        assert code == 0 and out.startswith(GRAPH) and f"no seed of 0-{seed - 1} fails" in out, out


@check
def text_report_names_seed_and_how_to_reproduce_it_and_progress_goes_to_stderr():
    seed = first_failing()["seed"]
    code, out, err = run("replay", GRAPH, "--seeds", "0-999", "--until", "nan,error")
    assert code == 1, out
    assert f"seed {seed} fails (--until nan,error): inf at node 'exp'" in out, out
    assert f"reproduce: fxray replay {GRAPH} --seed {seed}" in out, out
    assert f"replay of seed {seed}:" in out and ": nan" in out.split("replay of seed")[1], out
    assert "seed " in err and "/1000)" in err, err


@check
def in_process_sweep_finds_the_same_seed_as_the_worker():
    code, out, _ = run("replay", GRAPH, "--seeds", "0-999", "--until", "nan", "--json", "--in-process")
    assert code == 1 and json.loads(out)["seed"] == first_failing()["seed"], out


@check
def sweep_starting_after_the_first_failure_finds_a_later_seed():
    seed = first_failing()["seed"]
    code, out, _ = run("replay", GRAPH, "--seeds", f"{seed + 1}-{seed + 2000}", "--until", "nan", "--json")
    r = json.loads(out)
    assert code == 1 and r["seed"] > seed and r["seeds_run"] == r["seed"] - seed, r


@check
def repeat_runs_of_a_deterministic_graph_do_not_diverge():
    code, out, err = run("replay", GRAPH, "--seed", "3", "--repeat", "3", "--until", "diverge")
    assert code == 0, f"{out}\n{err}"
    assert "no seed of 3-3 fails (--until diverge): 1 seed(s) (4 runs each)" in out, out


@check
def diverge_device_compares_outputs_with_another_device_per_seed():
    # The CPU against itself agrees: a sweep of a few seeds that must find nothing (a NaN seed would stop it).
    code, out, _ = run("replay", GRAPH, "--seeds", "0-4", "--until", "diverge:cpu", "--json")
    r = json.loads(out)
    assert r["until"] == "diverge:cpu" and r["report"]["reference"] == "cpu replay", r
    assert code == (1 if r["found"] else 0)
    assert not r["found"] or "diverge" in r["failure"], r["failure"]


@check
def a_worker_crash_mid_sweep_fails_the_seed_it_was_at():
    env = dict(os.environ, FXRAY_WORKER_FAULT="abort:sum_1")
    p = subprocess.run([os.environ.get("FXRAY_BIN", "fxray"), "replay", GRAPH, "--seeds", "5-50", "--until", "nan", "--json"],
                       capture_output=True, text=True, timeout=300, env=env)
    r = json.loads(p.stdout)
    assert p.returncode == 1 and r["found"] and r["seed"] == 5, r
    assert "the replay worker died" in r["failure"] and "signal 6" in r["failure"], r["failure"]


@check
def bad_sweep_options_are_errors_naming_the_option():
    for args, needle in [
        (["--seeds", "9-2"], "--seeds 9-2: the last seed comes before the first"),
        (["--seeds", "x"], "--seeds wants A-B"),
        (["--seeds", "0-9", "--until", "nope"], "--until: 'nope' is not one of"),
        (["--until", "diverge"], "give --repeat N"),
        (["--seeds", "0-9", "--until", "nan", "--repeat", "2"], "--until diverge only"),
        (["--seeds", "0-9", "--seed", "3"], "--seeds and --seed"),
        (["--seeds", "0-9", "--inputs", "saved"], "saved inputs are the same for every seed"),
    ]:
        code, out, err = run("replay", GRAPH, *args)
        assert code == 2 and needle in err, (args, code, out, err)
    code, _, err = run("replay", os.path.join(SOURCE, "samples"), "--seeds", "0-3")
    assert code == 2 and "a sweep replays one graph" in err, err


if __name__ == "__main__":
    if not have_worker():
        print("fxray was built without LibTorch: no worker, nothing to sweep with; 0 checks")
        sys.exit(0)
    main()
