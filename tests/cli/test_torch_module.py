"""LibTorch is loaded only by the commands that replay: `fxray` itself does not link it (info/show/dot/diff/report
start in milliseconds); replay, worker and compare load libfxray_cli_torch.so from beside the executable, and say so
clearly when it is missing."""
import os
import shutil
import subprocess
import tempfile

from cli_harness import FXRAY, SAMPLES, check, have_worker, main, run

MLP = os.path.join(SAMPLES, "cpu", "dumps", "mlp", "mlp_forward_0")


def linked_libraries(binary):
    return subprocess.run(["ldd", binary], capture_output=True, text=True).stdout


@check
def the_executable_does_not_link_libtorch():
    libs = linked_libraries(FXRAY)
    assert "libtorch" not in libs and "libc10" not in libs, libs


@check
def replay_commands_load_the_module_beside_the_executable():
    if not have_worker():
        print("  (built without LibTorch: no module)")
        return
    module = os.path.join(os.path.dirname(os.path.realpath(FXRAY)), "libfxray_cli_torch.so")
    assert os.path.exists(module), module
    assert "libtorch" in linked_libraries(module)
    code, out, err = run("replay", MLP, "--in-process")
    assert code == 0 and "pass" in out, (code, out, err)


@check
def without_the_module_viewing_works_and_replay_names_what_is_missing():
    if not have_worker():
        return
    with tempfile.TemporaryDirectory() as tmp:
        lone = os.path.join(tmp, "fxray")
        shutil.copy(os.path.realpath(FXRAY), lone)
        p = subprocess.run([lone, "info", MLP], capture_output=True, text=True)
        assert p.returncode == 0 and "nodes" in p.stdout, p.stderr
        p = subprocess.run([lone, "replay", MLP], capture_output=True, text=True)
        assert p.returncode == 2 and "libfxray_cli_torch.so" in p.stderr, (p.returncode, p.stderr)


if __name__ == "__main__":
    main()
