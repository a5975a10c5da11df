"""Out-of-memory on the GPU is a reported failure, at the right place, and the worker goes on: an input larger
than the device's memory (fatal, naming the input) and an op whose output does not fit (an error at that node,
the nodes before it passed); then the same worker replays a normal graph. Exits 77 (skipped) without CUDA."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cli"))
from cli_harness import SAMPLES, check, have_worker, main, run, torch_has_cuda  # noqa: E402

WORK = tempfile.mkdtemp(prefix="fxray-oom-")


def device_bytes():
    """The GPU's memory, asked in a child so that this process holds no CUDA context (H100 80 GB, H200 141 GB)."""
    out = subprocess.run([sys.executable, "-c", "import torch; print(torch.cuda.get_device_properties(0).total_memory)"],
                         capture_output=True, text=True, check=True).stdout
    return int(out)


def graph(name, body):
    path = os.path.join(WORK, name + ".py")
    with open(path, "w") as f:
        f.write("import torch\nfrom torch import device\n\nclass Repro(torch.nn.Module):\n" + body)
    return path


@check
def an_input_larger_than_the_device_is_a_fatal_naming_it():
    # 1.25x the device's memory: more than it holds, less than fxray's own 256 GiB sanity limit.
    n = int(device_bytes() * 1.25) // 4
    g = graph("huge_input", f'    def forward(self, x: "f32[{n}][1]cuda:0"):\n'
                            '        relu = torch.ops.aten.relu.default(x);  x = None\n        return (relu,)\n')
    code, out, err = run("replay", g, "--device", "cuda", "--json")
    assert code == 1, (code, err)
    r = json.loads(out)
    assert "input 'x'" in r["fatal"] and "does not fit" in r["fatal"] and "out of memory" in r["fatal"].lower(), r["fatal"][:300]
    print("    " + r["fatal"].splitlines()[0][:160])


@check
def an_op_whose_output_does_not_fit_is_an_error_at_that_node():
    # Made on the device (no host-side input): 0.3x the device's memory, its negation (0.6x in all), then a cat of
    # four (1.2x: does not fit).
    n = int(device_bytes() * 0.3) // 4
    g = graph("huge_cat", '    def forward(self):\n'
                          f'        full: "f32[{n}][1]cuda:0" = torch.ops.aten.full.default([{n}], 1.0, '
                          'dtype = torch.float32, device = device(type=\'cuda\', index=0), pin_memory = False)\n'
                          f'        neg: "f32[{n}][1]cuda:0" = torch.ops.aten.neg.default(full)\n'
                          f'        cat: "f32[{4 * n}][1]cuda:0" = torch.ops.aten.cat.default([full, neg, full, neg]);  '
                          'full = neg = None\n'
                          '        return (cat,)\n')
    code, out, err = run("replay", g, "--device", "cuda", "--json", "--no-values")
    assert code == 1, (code, err)
    r = json.loads(out)
    nodes = {n["name"]: n for n in r["nodes"]}
    assert nodes["cat"]["status"] == "error" and "out of memory" in nodes["cat"]["error"].lower(), nodes["cat"]
    assert nodes["full"]["status"] == "passed" and nodes["neg"]["status"] == "passed", (nodes["full"], nodes["neg"])
    print("    cat: " + nodes["cat"]["error"].splitlines()[0][:160])


@check
def a_worker_keeps_working_after_an_out_of_memory_replay():
    p = subprocess.Popen([os.environ["FXRAY_BIN"], "worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert json.loads(p.stdout.readline())["ready"]

    def replay(address, rid):
        p.stdin.write(json.dumps({"id": rid, "graph": {"address": address}, "options": {"device": "cuda"}}) + "\n")
        p.stdin.flush()
        while True:
            msg = json.loads(p.stdout.readline())
            if "report" in msg:
                return msg["report"]

    first = replay(os.path.join(WORK, "huge_cat.py"), 1)
    assert first["verdict"] != "pass"
    second = replay(os.path.join(SAMPLES, "h100", "dumps", "mlp", "mlp_backward_0"), 2)
    assert second["verdict"] == "pass", second["verdict"]
    p.stdin.close()
    assert p.wait(timeout=60) == 0


if __name__ == "__main__":
    if not have_worker() or not torch_has_cuda():
        print("needs fxray's worker (a LibTorch build) and a CUDA device: skipped")
        sys.exit(77)
    main()
