"""Runs inductor's generated code (a compile's `inductor_output_code` / output_code.py) for fxray's stage compare.

fxray runs this in a child process with the user's Python (FXRAY_PYTHON), so that the generated code meets the
torch, the C++ compiler and Triton it was generated for. It imports nothing from fxray.

    run_output_code.py run --code CODE.py --inputs IN.pt --out OUT.pt [--device cpu] [--graph G.py --localize K.json]
        calls the code's `call(args)` on the inputs fxray generated (a list written by LibTorch's pickle_save),
        writes torch.save([outputs, inputs as the call left them]) and prints one JSON line {"kernels": N, ...};
        with --localize, then does what `localize` does in the same process.
    run_output_code.py localize --code CODE.py --graph POST_GRAD.py --inputs IN.pt --out REPORT.json [--device cpu]
        runs `call` again, kernel by kernel (every buffer a kernel writes is copied after it), and the post-grad
        graph (its readable text) node by node on the same inputs, then finds the first kernel whose buffer differs
        from the post-grad node it computes; writes the finding as JSON.

Exit status: 0 done, 2 bad input (message on stderr), 3 no usable torch in this Python.
"""
from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import math
import os
import re
import sys
import traceback
from pathlib import Path

try:
    import torch
except Exception as e:  # noqa: BLE001 - any failure to import is the same answer for the caller
    print(f"fxray output_code runner: {sys.executable} cannot import torch ({e}); set FXRAY_PYTHON to a Python "
          f"with the torch the log was written by", file=sys.stderr)
    sys.exit(3)


class BadInput(Exception):
    pass


# ------------------------------------------------------------------------------------------------------------
# loading


def load_inputs(path: str, device: str) -> list:
    values = torch.load(path, weights_only=False)
    if not isinstance(values, (list, tuple)):
        raise BadInput(f"{path}: expected a list of inputs, got {type(values).__name__}")
    dev = torch.device(device)
    # fxray writes every tensor on the CPU; the generated code asserts the device it was compiled for.
    return [to_device_keeping_layout(v, dev) if isinstance(v, torch.Tensor) and dev.type != "cpu" else
            generator_of(v, dev) if is_generator_record(v) else v
            for v in values]


# A generator input (AOTAutograd's rng_state of graphsafe_run_with_rng_state, activation checkpointing on CUDA):
# LibTorch's pickler writes none, so fxray writes ("fxray.generator", device, state) (replay/stages/stage_io.cpp).
GENERATOR_TAG = "fxray.generator"


def is_generator_record(v) -> bool:
    return isinstance(v, tuple) and len(v) == 3 and v[0] == GENERATOR_TAG


def generator_of(record, dev: torch.device) -> torch.Generator:
    # With an index: graphsafe_run_with_rng_state's CUDA kernel picks the device's default generator by
    # rng_state.device.index, and a generator made for plain "cuda" has none (TypeError in torch/_prims/rng_prims.py).
    if dev.type == "cuda" and dev.index is None:
        dev = torch.device("cuda", torch.cuda.current_device())
    g = torch.Generator(device=dev if dev.type != "cpu" else record[1])
    g.set_state(record[2])
    return g


def to_device_keeping_layout(t: torch.Tensor, dev: torch.device) -> torch.Tensor:
    """t on dev with its exact strides: the generated code asserts them (assert_size_stride), an expand's stride 0
    included, and Tensor.to makes a tensor that is not dense contiguous. The storage span the strides reach is
    moved and viewed again."""
    if t.numel() == 0 or any(st < 0 for st in t.stride()) or t.layout != torch.strided:
        return t.to(dev)
    extent = 1 + sum((n - 1) * st for n, st in zip(t.shape, t.stride()))
    span = t.as_strided((extent,), (1,), t.storage_offset()).to(dev)
    return span.as_strided(t.shape, t.stride(), 0)


def load_module(path: str, name: str, source: str | None = None):
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise BadInput(f"{path}: cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    if source is not None:
        exec(compile(source, path, "exec"), module.__dict__)
    else:
        spec.loader.exec_module(module)
    return module


_OP_USE = re.compile(r"torch\.ops\.(\w+)\.(\w+)")


def op_registered(namespace: str, name: str) -> bool:
    try:
        getattr(getattr(torch.ops, namespace), name)
        return True
    except (AttributeError, RuntimeError):
        return False


def register_custom_ops(text: str, path: str) -> None:
    """Imports what defines the custom ops the code calls. A library's op (torch.ops.transformers.grouped_mm_fallback,
    from torch.library.custom_op("transformers::grouped_mm_fallback") in transformers/integrations/moe.py) exists
    only once its module ran, and the user's process had imported it. The namespace is taken as the package's name;
    its modules whose source names "<ns>::<op>" are imported until the op is there. Inductor's own prims
    (prims.prepare_softmax_online, inductor_lookup_seed, _low_memory_max_pool_with_offsets) exist once
    torch._inductor.inductor_prims ran: the generated module imports it, but only after this check."""
    import torch._inductor.inductor_prims  # noqa: F401
    for namespace, name in sorted(set(_OP_USE.findall(text))):
        if op_registered(namespace, name):
            continue
        try:
            package = importlib.import_module(namespace)
        except Exception:  # noqa: BLE001 - not a package: the code's own call raises below
            package = None
        root = Path(package.__file__).parent if package is not None and getattr(package, "__file__", None) else None
        needle = f"{namespace}::{name}"
        for f in sorted(root.rglob("*.py")) if root else []:
            if op_registered(namespace, name):
                break
            try:
                if needle not in f.read_text(errors="ignore"):
                    continue
                parts = f.relative_to(root).with_suffix("").parts
                importlib.import_module(".".join((namespace,) + parts[:-1 if parts[-1] == "__init__" else None]))
            except Exception:  # noqa: BLE001 - a module that fails to import is one candidate less
                continue
        if not op_registered(namespace, name):
            raise BadInput(f"{path}: the generated code calls torch.ops.{namespace}.{name}, a custom op that no module "
                           f"of this Python registers (tried the package '{namespace}'): run with the Python of the "
                           f"run that logged it (--python / FXRAY_PYTHON)")


def find_call(module, path: str):
    call = getattr(module, "call", None)
    if call is None and hasattr(module, "runner"):
        call = getattr(module.runner, "call", None)
    if call is None:
        raise BadInput(f"{path}: no call(args) function: not inductor's generated (Python wrapper) code")
    return call


def to_cpu(v):
    if isinstance(v, torch.Tensor):
        return v.detach().cpu()
    if isinstance(v, (list, tuple)):
        return [to_cpu(x) for x in v]
    if isinstance(v, torch.SymInt):
        return int(v)
    if isinstance(v, torch.Generator):
        return (GENERATOR_TAG, str(v.device), v.get_state())
    return v


def synchronize(device: str) -> None:
    if device.startswith("cuda"):
        torch.cuda.synchronize()


# ------------------------------------------------------------------------------------------------------------
# run


_FLOAT_LOAD = re.compile(r"Vectorized(?:N<float,\s*(\d+)>|<float>)::loadu\([^;]*?static_cast<int64_t>\((\d+)L?\)\)")
_ISA_OF_LANES = {16: "avx512", 8: "avx2"}


def match_vector_isa(text: str, path: str) -> None:
    """Inductor's C++ kernels are written for the vector width of the machine that compiled the model: a float
    kernel of an AVX2 machine steps by 8 lanes (VectorizedN<float,2> over 16 elements). Compiled here for another ISA
    (AVX-512: 16 lanes), its loads and stores overrun their buffers; the child then dies of heap corruption after
    the run. The width is read off the kernels' float loads and asked of inductor (ATEN_CPU_CAPABILITY) before it
    picks an ISA; a CPU without that ISA is a clear error instead of a crash."""
    if "ATEN_CPU_CAPABILITY" in os.environ:
        return
    lanes = max((int(n) // int(k or 1) for k, n in _FLOAT_LOAD.findall(text)), default=0)
    if lanes not in _ISA_OF_LANES:
        return
    os.environ["ATEN_CPU_CAPABILITY"] = _ISA_OF_LANES[lanes]
    from torch._inductor.cpu_vec_isa import pick_vec_isa

    picked = pick_vec_isa()
    if not picked or picked.nelements(torch.float) != lanes:
        raise BadInput(f"{path}: its C++ kernels were written for {lanes}-lane float vectors "
                       f"({_ISA_OF_LANES[lanes]}), which this CPU cannot run: run on a CPU like the one that logged it")


_BAKED_THREADS = re.compile(r"\bint64_t num_thread = (\d+);")


def match_thread_count(text: str) -> int | None:
    """Inductor's C++ flex_attention and SDPA templates size their per-thread scratch buffers by the compiling
    process's thread count, written into the kernel (`int64_t num_thread = 1;`), and index them by the running
    thread (at::get_thread_num()). With more intra-op threads than that, the threads past it write past the buffer:
    heap corruption ("malloc(): unaligned tcache chunk detected", "cannot create std::vector larger than max_size()")
    in DistilBERT's, BART's, wav2vec2's and Qwen2-MoE's CPU flex compiles, logged with OMP_NUM_THREADS=1. The child
    runs with no more threads than any kernel was written for; returns that count when it lowered it."""
    counts = [int(n) for n in _BAKED_THREADS.findall(text)]
    if not counts or min(counts) >= torch.get_num_threads():
        return None
    torch.set_num_threads(max(1, min(counts)))
    return torch.get_num_threads()


def cmd_run(a) -> int:
    if a.no_cudnn_tf32:
        # Stage compare runs every stage in full f32: the stages then differ by the compiler only, not by which
        # TF32 convolution algorithm cuDNN picked in each process.
        torch.backends.cudnn.allow_tf32 = False
    inputs = load_inputs(a.inputs, a.device)
    text = Path(a.code).read_text()
    register_custom_ops(text, a.code)
    match_vector_isa(text, a.code)
    threads = match_thread_count(text)
    module = load_module(a.code, "fxray_output_code")
    call = find_call(module, a.code)
    outputs = call(list(inputs))  # call() clears the list it gets: ours keeps the inputs as it leaves them
    synchronize(a.device)
    if not isinstance(outputs, (list, tuple)):
        outputs = [outputs]
    torch.save([to_cpu(list(outputs)), to_cpu(inputs)], a.out)
    code = KernelCode(Path(a.code).read_text())
    probe = Probe(code)
    probe.visit(code.tree)
    kernels = len(probe.sites)
    if a.localize:
        # In the same process: the kernels are compiled and inductor's CPU checks done (a second Python start
        # costs inductor's vec-ISA probing again, seconds each). fxray reads it only when the outputs diverge.
        try:
            result = localize(a)
        except Exception as e:  # noqa: BLE001 - the kernel search failing must not lose the run's outputs
            result = {"found": False, "kernels": kernels, "why": f"{type(e).__name__}: {e}".splitlines()[0]}
        Path(a.localize).write_text(json.dumps(result))
    print(json.dumps({"outputs": len(outputs), "kernels": kernels, "threads_lowered_to": threads}))
    return 0


# ------------------------------------------------------------------------------------------------------------
# localize: the generated code, statement by statement

# Calls in `call` that allocate, view, check or synchronise: not kernels.
NOT_KERNELS = {"empty_strided_cpu", "empty_strided_cuda", "empty_strided_xpu", "empty_strided", "empty_strided_p2p",
               "reinterpret_tensor", "assert_size_stride", "assert_alignment", "get_raw_stream", "alloc_from_pool",
               "set_device", "synchronize", "_DeviceGuard", "run_intermediate_hooks", "maybe_profile",
               "empty_strided_cpu_pinned", "empty_strided_mtia", "as_strided", "_reinterpret_tensor", "clear"}
_DEF_CPP = re.compile(r'extern\s+"C"\s+void\s+kernel\s*\(([^)]*)\)')
_DEF_TRITON = re.compile(r"def\s+(\w+)\s*\(([^)]*)\)")
_SOURCE_NODES = re.compile(r"#\s*(?:Topologically Sorted |Unsorted )?Source Nodes: \[([^\]]*)\], Original ATen: \[([^\]]*)\]")
_MAPPING = re.compile(r"^#\s+(\w+) => (.+)$")


class KernelCode:
    """The generated module's kernels (name -> definition lines and which arguments they write) and the kernel
    statements of its `call`."""

    def __init__(self, source: str):
        self.source = source
        self.lines = source.split("\n")
        self.tree = ast.parse(source)
        self.kernels: dict[str, dict] = {}
        for node in self.tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                self._kernel_definition(node.targets[0].id, node)
        self.call_fn = self._find_call_def()
        if self.call_fn is None:
            raise BadInput("no call(args) function in the generated code")

    def _kernel_definition(self, name: str, node: ast.Assign) -> None:
        v = node.value
        if not (isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and isinstance(v.func.value, ast.Name)
                and v.func.value.id == "async_compile"):
            return
        text = "".join(a.value for a in v.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
        written: list[int] = []
        params: list[str] = []
        m = _DEF_CPP.search(text)
        if m:
            params = [p.strip().split()[-1].lstrip("*&") for p in m.group(1).split(",") if p.strip()]
        else:
            for m in _DEF_TRITON.finditer(text):
                params = [p.split(":")[0].strip() for p in m.group(2).split(",") if p.strip()]
                break
        written = [k for k, p in enumerate(params) if p.startswith("out_ptr") or p.startswith("in_out_ptr")]
        # The metadata inductor writes above a kernel's definition: "# Source node to ATen node mapping:" lines
        # name the post-grad nodes it computes (Triton kernels carry them; C++ kernels do not).
        post_grad: list[str] = []
        k = node.lineno - 2
        while k >= 0 and self.lines[k].startswith("#"):
            m = _MAPPING.match(self.lines[k])
            if m:
                post_grad += [n.strip() for n in m.group(2).split(",")]
            k -= 1
        for m in re.finditer(r"#\s+(\w+) => ([\w, ]+)", text):
            post_grad += [n.strip() for n in m.group(2).split(",")]
        self.kernels[name] = {"written": written, "params": params, "post_grad": post_grad,
                              "lines": [k + 2, node.end_lineno or node.lineno]}

    def _find_call_def(self):
        for node in ast.walk(self.tree):
            if isinstance(node, ast.FunctionDef) and node.name == "call":
                return node
        return None

    def callee(self, call: ast.Call) -> tuple[str, str]:
        """(kernel name, kind) of a call statement's function, ("", "") for calls that are not kernels."""
        f = call.func
        if isinstance(f, ast.Attribute) and f.attr == "run" and isinstance(f.value, ast.Name) and f.value.id in self.kernels:
            return f.value.id, "triton"
        if isinstance(f, ast.Name):
            if f.id in self.kernels:
                return f.id, "cpp"
            return ("", "") if f.id in NOT_KERNELS else (f.id, "call")
        if isinstance(f, ast.Attribute):
            if f.attr in NOT_KERNELS:
                return "", ""
            return ast.unparse(f), "extern"
        return "", ""

    def statement_kernel(self, stmt: ast.stmt):
        """For a kernel statement: (kernel name, kind, written buffer names); None for others."""
        value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
        if not isinstance(value, ast.Call):
            return None
        name, kind = self.callee(value)
        if not name:
            return None
        if isinstance(stmt, ast.Assign):
            written = [n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        elif kind in ("cpp", "triton"):
            idx = self.kernels[name]["written"]
            written = [value.args[k].id for k in idx if k < len(value.args) and isinstance(value.args[k], ast.Name)]
        else:
            written = [kw.value.id for kw in value.keywords if kw.arg == "out" and isinstance(kw.value, ast.Name)]
            if not written:  # an extern kernel that writes an argument in place: every buffer it is given
                written = [a.id for a in value.args if isinstance(a, ast.Name) and a.id.startswith("buf")]
        return name, kind, written

    def comment_above(self, lineno: int) -> tuple[list[str], list[str]]:
        """The "# Topologically Sorted Source Nodes: [...], Original ATen: [...]" comment just above a call."""
        k = lineno - 2
        while k >= 0 and self.lines[k].strip().startswith("#"):
            m = _SOURCE_NODES.search(self.lines[k])
            if m:
                split = lambda s: [x.strip() for x in s.split(",") if x.strip()]  # noqa: E731
                return split(m.group(1)), split(m.group(2))
            k -= 1
        return [], []

    def returned(self) -> list[str | None]:
        for node in ast.walk(self.call_fn):
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
                return [e.id if isinstance(e, ast.Name) else None for e in node.value.elts]
        return []


class Probe(ast.NodeTransformer):
    """Puts `fxray_probe_(index, locals())` after every kernel statement of `call` (nested blocks included)."""

    def __init__(self, code: KernelCode):
        self.code = code
        self.sites: list[dict] = []

    def instrument(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            for field in ("body", "orelse", "finalbody"):
                if hasattr(stmt, field) and isinstance(getattr(stmt, field), list) and not isinstance(stmt, ast.FunctionDef):
                    setattr(stmt, field, self.instrument(getattr(stmt, field)))
            out.append(stmt)
            found = self.code.statement_kernel(stmt)
            if found is None:
                continue
            name, kind, written = found
            sources, aten = self.code.comment_above(stmt.lineno)
            self.sites.append({"kernel": name, "kind": kind, "written": written, "line": stmt.lineno,
                               "code": ast.get_source_segment(self.code.source, stmt) or "",
                               "source_nodes": sources, "original_aten": aten})
            probe = ast.parse(f"fxray_probe_({len(self.sites) - 1}, locals())").body[0]
            ast.copy_location(probe, stmt)
            ast.fix_missing_locations(probe)
            out.append(probe)
        return out

    def visit_FunctionDef(self, node: ast.FunctionDef):
        if node is self.code.call_fn:
            node.body = self.instrument(node.body)
        else:
            self.generic_visit(node)
        return node


def run_kernels(code_path: str, inputs: list, device: str):
    """Runs `call` with a copy of what each kernel statement writes taken right after it; returns (sites, outputs)."""
    code = KernelCode(Path(code_path).read_text())
    probe = Probe(code)
    tree = probe.visit(code.tree)
    ast.fix_missing_locations(tree)
    taken: list[tuple[int, dict]] = []

    def take(index: int, scope: dict) -> None:
        synchronize(device)
        values = {n: scope[n].detach().clone() for n in probe.sites[index]["written"]
                  if isinstance(scope.get(n), torch.Tensor)}
        taken.append((index, values))

    spec_name = "fxray_output_code_probed"
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(spec_name, loader=None))
    module.__dict__["fxray_probe_"] = take
    module.__dict__["__file__"] = code_path
    exec(compile(tree, code_path, "exec"), module.__dict__)
    call = find_call(module, code_path)
    outputs = call(list(inputs))
    synchronize(device)
    return code, probe.sites, taken, outputs


# ------------------------------------------------------------------------------------------------------------
# localize: the post-grad graph, node by node


def run_graph(graph_path: str, inputs: list):
    """Runs the post-grad graph's readable text (class ...(torch.nn.Module): def forward(...)) eagerly, keeping a
    copy of every node's value. Returns ({node: value}, [returned names], {node: target text})."""
    text = Path(graph_path).read_text()
    text = re.sub(r"^class\s+[^(\s]+\(", "class FxrayGraph(", text, count=1, flags=re.M)
    tree = ast.parse(text)
    fwd = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "forward"), None)
    if fwd is None:
        raise BadInput(f"{graph_path}: no forward() in the post-grad graph")
    targets: dict[str, str] = {}
    returned: list[str | None] = []
    body: list[ast.stmt] = []
    for stmt in fwd.body:
        body.append(stmt)
        # Annotated (the readable text) or not (a graph printed without metadata): both are nodes.
        target = stmt.target if isinstance(stmt, ast.AnnAssign) else \
            stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None
        if isinstance(target, ast.Name):
            name = target.id
            if isinstance(stmt.value, ast.Call):
                targets[name] = ast.unparse(stmt.value.func)
            rec = ast.parse(f"fxray_node_({name!r}, {name})").body[0]
            body.append(ast.copy_location(rec, stmt))
        elif isinstance(stmt, ast.Return) and isinstance(stmt.value, (ast.Tuple, ast.List)):
            returned = [e.id if isinstance(e, ast.Name) else None for e in stmt.value.elts]
    fwd.body = body
    ast.fix_missing_locations(tree)
    values: dict[str, object] = {}

    def record(name: str, value) -> None:
        values[name] = value.detach().clone() if isinstance(value, torch.Tensor) else value

    import operator
    scope = {"torch": torch, "operator": operator, "math": math, "inf": math.inf, "nan": math.nan,
             "device": torch.device, "fxray_node_": record}
    importlib.import_module("torch._inductor.inductor_prims")  # registers inductor's prims the graph may call
    exec(compile(tree, graph_path, "exec"), scope)
    params = [a.arg for a in fwd.args.args[1:]]
    if len(params) != len(inputs):
        raise BadInput(f"{graph_path}: forward takes {len(params)} inputs, fxray handed over {len(inputs)}")
    for p, v in zip(params, inputs):
        record(p, v)
    with torch.no_grad():
        scope["FxrayGraph"]().forward(*[v.clone() if isinstance(v, torch.Tensor) else v for v in inputs])
    return values, returned, targets


# ------------------------------------------------------------------------------------------------------------
# localize: matching


def tolerance(dtype: torch.dtype) -> tuple[float, float]:
    """fxray's replay tolerances (core/replay): f32 1e-4, f16 1e-3 / 1e-2, bf16 1e-2 / 2e-2; others exact."""
    if dtype in (torch.float32, torch.complex64):
        return 1e-4, 1e-4
    if dtype == torch.float16:
        return 1e-3, 1e-2
    if dtype == torch.bfloat16:
        return 1e-2, 2e-2
    if dtype in (torch.float64, torch.complex128):
        return 1e-7, 1e-7
    return 0.0, 0.0


def difference(buf: torch.Tensor, ref: torch.Tensor):
    """(agrees, max abs, elements beyond tolerance) of a buffer against a node's value of the same shape."""
    b, r = buf.cpu(), ref.cpu()
    if not (b.is_floating_point() or b.is_complex()):
        bad = int((b != r).sum())
        return bad == 0, float((b.double() - r.double()).abs().max()) if b.numel() else 0.0, bad
    b, r = b.double(), r.double()
    atol, rtol = tolerance(buf.dtype)
    finite = torch.isfinite(r)
    scale = max(1.0, float(r[finite].abs().max())) if bool(finite.any()) else 1.0
    nan_same = torch.equal(torch.isnan(b), torch.isnan(r))
    diff = (b - r).abs().nan_to_num(0.0)
    bad = int((diff > atol * scale + rtol * r.abs().nan_to_num(0.0)).sum()) + (0 if nan_same else 1)
    return bad == 0, float(diff.max()) if diff.numel() else 0.0, bad


def op_words(text: str) -> set[str]:
    """Op names a kernel's name or an "Original ATen" entry mentions: cpp_fused_addmm_relu_0 -> {addmm, relu}."""
    words = set()
    for part in re.split(r"[._]", text):
        if part and not part.isdigit() and part not in {"cpp", "triton", "poi", "red", "per", "tem", "fused", "aten",
                                                         "extern", "kernels", "torch", "ops", "default", "run"}:
            words.add(part)
    return words


def localize(a) -> dict:
    inputs = load_inputs(a.inputs, a.device)
    text = Path(a.code).read_text()
    register_custom_ops(text + Path(a.graph).read_text(), a.code)
    match_vector_isa(text, a.code)
    values, graph_returned, targets = run_graph(a.graph, inputs)
    code, sites, taken, _ = run_kernels(a.code, inputs, a.device)
    code_returned = code.returned()
    # A buffer the code returns at position k is the post-grad graph's output k: a provenance-free mapping.
    by_return = {b: n for b, n in zip(code_returned, graph_returned) if b and n}
    checked, agreed = 0, 0
    for index, buffers in taken:
        site = sites[index]
        kernel = code.kernels.get(site["kernel"], {})
        hinted = set(kernel.get("post_grad", []))
        words = op_words(site["kernel"]) | {w for x in site["original_aten"] for w in op_words(x)}
        for bname, buf in buffers.items():
            same = [n for n, v in values.items() if isinstance(v, torch.Tensor) and v.shape == buf.shape and v.dtype == buf.dtype]
            # The nodes this buffer should hold, best evidence first: inductor's own node mapping, the returned
            # position, the ops the kernel is named after; without any, every node of its shape and dtype.
            preferred = [n for n in same if n in hinted] or ([by_return[bname]] if by_return.get(bname) in same else []) \
                or [n for n in same if op_words(targets.get(n, "")) & words]
            pool = preferred or same
            if not pool:
                continue  # a scratch buffer (split reduction, workspace): no node to hold it against
            results = [(n,) + difference(buf, values[n]) for n in pool]
            checked += 1
            if any(ok for _, ok, _, _ in results):
                agreed += 1
                continue
            if not preferred:
                continue  # nothing says which node it is: its value matching none is not evidence enough
            best = min(results, key=lambda r: r[2])
            defined = kernel.get("lines")
            ref = values[best[0]].detach().cpu()
            finite = ref[torch.isfinite(ref)] if ref.is_floating_point() else ref.double()
            # How large the node's values are: the error's size relative to them is part of a minimizer's signature.
            ref_max = float(finite.abs().max()) if finite.numel() else 0.0
            return {"found": True, "kernel": site["kernel"], "kind": site["kind"], "buffer": bname, "node": best[0],
                    "nodes": [r[0] for r in results], "source_nodes": site["source_nodes"] or sorted(hinted),
                    "original_aten": site["original_aten"], "max_abs": best[2], "ref_max": ref_max, "mismatched": best[3],
                    "elements": buf.numel(), "line": site["line"], "code": site["code"],
                    "definition_lines": defined or [], "index": index, "buffers_checked": checked,
                    "buffers_agreeing": agreed, "kernels": len(sites)}
    return {"found": False, "kernels": len(sites), "buffers_checked": checked, "buffers_agreeing": agreed,
            "why": "every kernel's buffers agree with the post-grad nodes they compute" if checked == agreed
            else "no kernel buffer could be tied to a post-grad node"}


def cmd_localize(a) -> int:
    result = localize(a)
    Path(a.out).write_text(json.dumps(result))
    print(json.dumps(result))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("run", "localize"):
        p = sub.add_parser(name)
        p.add_argument("--code", required=True)
        p.add_argument("--inputs", required=True)
        p.add_argument("--out", required=True)
        p.add_argument("--device", default="cpu")
        p.add_argument("--graph", required=name == "localize", help="the post-grad graph's readable text")
        if name == "run":
            p.add_argument("--no-cudnn-tf32", action="store_true", help="f32 convolutions in full precision")
            p.add_argument("--localize", help="also look for the first divergent kernel (needs --graph); JSON here")
    a = ap.parse_args()
    try:
        return cmd_run(a) if a.cmd == "run" else cmd_localize(a)
    except BadInput as e:
        print(f"fxray output_code runner: {e}", file=sys.stderr)
        return 2
    except Exception:  # noqa: BLE001 - the generated code's own failure: its traceback is the report
        traceback.print_exc()
        return 1


if __name__ == "__main__":
    sys.exit(main())
