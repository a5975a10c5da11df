"""fxray installed into a user's environment (issue 25), from the build already made (seconds, no pip):
- `cmake --install` lays out bin/ (fxray, fxray-layout, fxray-gui), lib/fxray/ (the LibTorch module, not on PATH),
  share/fxray/runtime (the output_code stage's runner), the desktop file and the icon;
- the installed `fxray --version` names fxray's version and commit and the LibTorch (= this Python's torch) it was
  built with, also when its LibTorch module is gone (it never loads it);
- `torch.compile(model, backend="fxray")` through the `torch_dynamo_backends` entry point that pyproject.toml
  declares (read from pyproject.toml into a dist-info, as pip writes it) writes forward/backward/joint dumps with
  real inputs, eager outputs and node_meta.json (naming this torch) under $FXRAY_DUMP_DIR; `python -m fxray
  capture` does the same for a script that asks for inductor;
- the installed fxray lists them (`info`) and replays one on its saved inputs (the module found in lib/fxray, torch's
  libraries through its RPATH), and warns when a dump was written by another torch, naming the ops whose recorded
  schemas this LibTorch registers differently or not at all; a TORCH_TRACE log's torch (its pytorch_version) too.
The pip path itself (a full build, minutes) is scripts/test-pip-install.sh."""
import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import FXRAY, SOURCE, check, have_worker, main  # noqa: E402

TMP = tempfile.mkdtemp(prefix="fxray-install-")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)
PREFIX = os.path.join(TMP, "prefix")
REPLAY = have_worker()


def build_dir():
    d = os.path.dirname(os.path.abspath(FXRAY))
    while d != os.path.dirname(d):
        if os.path.exists(os.path.join(d, "CMakeCache.txt")):
            return d
        d = os.path.dirname(d)
    raise AssertionError(f"no CMakeCache.txt above {FXRAY}")


def installed(*parts):
    return os.path.join(PREFIX, *parts)


def sh(*args, env=None, timeout=300, codes=(0,)):
    p = subprocess.run(list(args), capture_output=True, text=True, timeout=timeout, env=env)
    assert p.returncode in codes, f"{args} exit {p.returncode}:\n{p.stdout}\n{p.stderr}"
    return p


def torch_version():
    return sh(sys.executable, "-c", "import torch; print(torch.__version__)").stdout.strip()


def entry_points():
    """pyproject.toml's [project.entry-points.<group>] tables: {group: {name: target}}."""
    text = open(os.path.join(SOURCE, "pyproject.toml"), "rb").read()
    try:
        import tomllib  # Python >= 3.11
        return tomllib.loads(text.decode())["project"]["entry-points"]
    except ImportError:  # an older Python (a device machine's): the tables are plain `name = "target"` lines
        groups, group = {}, None
        for line in text.decode().splitlines():
            m = re.match(r"\[project\.entry-points\.([\w.-]+)\]", line.strip())
            if m or line.startswith("["):
                group = m[1] if m else None
                continue
            kv = re.match(r'\s*([\w.-]+)\s*=\s*"([^"]+)"', line)
            if group and kv:
                groups.setdefault(group, {})[kv[1]] = kv[2]
        return groups


def user_env():
    """This Python with fxray's package importable and its entry points registered as pip would register them: a
    dist-info whose entry_points.txt is pyproject.toml's [project.entry-points] (no copy of them here)."""
    site = os.path.join(TMP, "site")
    if not os.path.isdir(site):
        info = os.path.join(site, "fxray-0.dist-info")
        os.makedirs(info)
        with open(os.path.join(info, "METADATA"), "w") as f:
            f.write("Metadata-Version: 2.1\nName: fxray\nVersion: 0\n")
        with open(os.path.join(info, "entry_points.txt"), "w") as f:
            for group, eps in entry_points().items():
                f.write(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([site, os.path.join(SOURCE, "python"), env.get("PYTHONPATH", "")])
    env["PATH"] = installed("bin") + os.pathsep + env.get("PATH", "")
    return env


TRAINING_STEP = r"""
import torch, torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 4))
compiled = torch.compile(model, backend="fxray")
compiled(torch.randn(8, 16)).pow(2).mean().backward()
"""


def dumps():
    """The training step's dumps, written once through backend="fxray" under $FXRAY_DUMP_DIR."""
    out = os.path.join(TMP, "dumps")
    if not os.path.isdir(out):
        env = user_env()
        env["FXRAY_DUMP_DIR"] = out
        sh(sys.executable, "-c", TRAINING_STEP, env=env)
    return out


def install():
    if not os.path.isdir(PREFIX):
        sh(shutil.which("cmake") or "cmake", "--install", build_dir(), "--prefix", PREFIX)


@check
def cmake_install_lays_out_programs_module_runtime_and_desktop_files():
    install()
    for p in ("bin/fxray", "bin/fxray-layout", "bin/fxray-gui"):
        assert os.access(installed(p), os.X_OK), p
    assert os.path.isfile(installed("share/fxray/runtime/run_output_code.py"))
    assert os.path.isfile(installed("share/applications/fxray.desktop"))
    assert "<svg" in open(installed("share/icons/hicolor/scalable/apps/fxray.svg")).read()
    assert os.path.isdir(installed("share/fxray/samples"))
    assert not [f for f in os.listdir(installed("bin")) if f.endswith(".so")], os.listdir(installed("bin"))
    if REPLAY:
        assert os.path.isfile(installed("lib/fxray/libfxray_cli_torch.so"))


@check
def installed_version_names_fxray_its_commit_and_the_libtorch_it_was_built_with():
    install()
    out = sh(installed("bin/fxray"), "--version").stdout
    version = re.search(r"project\(fxray VERSION ([0-9.]+)", open(os.path.join(SOURCE, "CMakeLists.txt")).read())[1]
    assert out.startswith(f"fxray {version} (commit "), out
    # The commit it was built from: one of this checkout's history (HEAD, unless a commit came after the build).
    built = re.match(r"fxray \S+ \(commit ([0-9a-f]+)(-dirty)?,", out)
    assert built, out
    if subprocess.run(["git", "-C", SOURCE, "rev-parse", "HEAD"], capture_output=True).returncode == 0:
        ancestor = subprocess.run(["git", "-C", SOURCE, "merge-base", "--is-ancestor", built[1], "HEAD"], capture_output=True)
        assert ancestor.returncode == 0, (built[1], "is not a commit of this checkout's history", ancestor.stderr)
    if REPLAY:
        assert f"LibTorch: {torch_version()} " in out, out
        assert f"replay module: {installed('lib/fxray/libfxray_cli_torch.so')}\n" in out, out
    else:
        assert "LibTorch: none" in out, out


@check
def version_needs_no_libtorch_module():
    install()
    alone = os.path.join(TMP, "alone", "bin")
    os.makedirs(alone)
    shutil.copy2(installed("bin/fxray"), alone)
    out = sh(os.path.join(alone, "fxray"), "--version").stdout
    if REPLAY:
        assert f"LibTorch: {torch_version()} " in out and "(missing: replay" in out, out


@check
def backend_fxray_writes_training_dumps_with_real_inputs_outputs_and_the_torch_that_wrote_them():
    d = os.path.join(dumps(), "model")
    assert sorted(os.listdir(d)) == ["model_backward_0", "model_forward_0", "model_joint_0"], os.listdir(d)
    for kind in ("forward", "backward", "joint"):
        g = os.path.join(d, f"model_{kind}_0")
        for f in ("module.py", f"model_{kind}_0.pt", f"model_{kind}_0.expected.pt", "node_meta.json"):
            assert os.path.isfile(os.path.join(g, f)), (g, f, os.listdir(g))
        meta = json.load(open(os.path.join(g, "node_meta.json")))
        assert meta["torch"]["version"] == torch_version(), meta["torch"]


@check
def installed_info_lists_the_dumps_and_which_torch_wrote_them():
    install()
    info = json.loads(sh(installed("bin/fxray"), "info", dumps(), "--json").stdout)
    titles = sorted(os.path.basename(g["address"]) for g in info["graphs"])
    assert titles == ["model_backward_0", "model_forward_0", "model_joint_0"], titles
    assert all(g["written_by_torch"] == torch_version() for g in info["graphs"]), info["graphs"]


@check
def installed_replay_finds_its_module_and_libtorch_and_passes_on_saved_inputs():
    if not REPLAY:
        return
    install()
    fwd = os.path.join(dumps(), "model", "model_forward_0")
    p = sh(installed("bin/fxray"), "replay", fwd, "--inputs", "saved", "--expected", "auto", "--json")
    assert json.loads(p.stdout)["verdict"] == "pass", p.stdout
    assert "written by torch" not in p.stderr, p.stderr  # same torch: no warning


def replay_stderr(graph):
    return sh(installed("bin/fxray"), "replay", graph, "--inputs", "saved", "--expected", "auto", codes=(0, 1)).stderr


@check
def replay_warns_when_another_torch_wrote_the_dump_and_names_ops_whose_schemas_differ():
    if not REPLAY:
        return
    install()
    other = os.path.join(TMP, "other", "model_forward_0")
    shutil.copytree(os.path.join(dumps(), "model", "model_forward_0"), other)
    meta_path = os.path.join(other, "node_meta.json")
    meta = json.load(open(meta_path))
    assert meta["schemas"]["aten.addmm.default"].startswith("aten::addmm("), meta["schemas"]
    meta["torch"]["version"] = "2.9.0+cu128"
    json.dump(meta, open(meta_path, "w"))
    err = replay_stderr(other)
    assert "warning:" in err and "written by torch 2.9.0+cu128" in err and torch_version() in err, err
    assert f"the {len(meta['schemas'])} op schemas the dump records are the same here" in err, err
    # what another release would have recorded: a changed signature, and an op this LibTorch does not have
    meta["schemas"]["aten.addmm.default"] = meta["schemas"]["aten.addmm.default"].replace("Scalar alpha=1", "Scalar alpha=2")
    meta["schemas"]["aten.gone_op.default"] = "aten::gone_op(Tensor self) -> Tensor"
    json.dump(meta, open(meta_path, "w"))
    err = replay_stderr(other)
    assert "schemas differ here: aten.addmm.default;" in err and "not registered here: aten.gone_op.default" in err, err


@check
def a_trace_log_says_which_torch_wrote_it_and_replay_warns_for_another():
    log = os.path.join(SOURCE, "samples", "cpu", "trace", "mlp_inductor.log")
    text = open(log).read()
    written = re.search(r'"pytorch_version": "([^"]+)"', text)[1]
    info = json.loads(sh(FXRAY, "info", log, "--json").stdout)
    assert info["graphs"] and all(g["written_by_torch"] == written for g in info["graphs"]), info["graphs"][0]
    if not REPLAY:
        return
    older = os.path.join(TMP, "older_torch.log")
    with open(older, "w") as f:  # compilation_metrics is a header line: no payload digest to keep
        f.write(text.replace(f'"pytorch_version": "{written}"', '"pytorch_version": "2.9.0+cu128"'))
    graph = older + "#" + info["graphs"][0]["address"].split("#", 1)[1]
    err = sh(FXRAY, "replay", graph, codes=(0, 1)).stderr
    assert "written by torch 2.9.0+cu128" in err and "no op schemas recorded" in err, err


SCRIPT_ASKING_FOR_INDUCTOR = r"""
import sys, torch
model = torch.nn.Linear(4, 3)
out = torch.compile(model, backend="inductor", mode="max-autotune")(torch.randn(2, 4))
print("script args", sys.argv[1:])
"""


@check
def python_m_fxray_capture_runs_a_script_with_every_compile_dumped():
    script = os.path.join(TMP, "user_script.py")
    with open(script, "w") as f:
        f.write(SCRIPT_ASKING_FOR_INDUCTOR)
    out = os.path.join(TMP, "cli_dumps")
    p = sh(sys.executable, "-m", "fxray", "capture", "-o", out, "--name", "lin", script, "--flag", "x", env=user_env())
    assert "script args ['--flag', 'x']" in p.stdout, p.stdout
    assert "backend=\"fxray\"" in p.stderr and re.search(r"[1-9][0-9]* graph\(s\) written", p.stderr), p.stderr
    assert os.path.isfile(os.path.join(out, "lin", "lin_forward_0", "lin_forward_0.expected.pt")), os.listdir(out)


if __name__ == "__main__":
    main()
