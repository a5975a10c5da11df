"""fxray.capture: a working replacement for functorch's ``graph_dumper_aot`` (torch 2.11).

Usage (``torch.compile(model, backend="fxray")`` is the same backend with its name and folder from the
environment: fxray/dynamo.py; tools/capture/fxray_capture.py is this module under its old name)::

    from fxray import capture as fxray_capture
    compiled = torch.compile(model, backend=fxray_capture.backend("mlp", "dumps"))
    loss = compiled(x).sum(); loss.backward()        # graphs run eagerly, training works

    # drop-in for torch._functorch.compilers.graph_dumper_aot
    compiled = torch.compile(model, backend=fxray_capture.graph_dumper_aot("mlp", "dumps", True))

Layout (the seed layout fxray reads, see FORMATS.md §1)::

    <folder>/<name>/<name>_<kind>_<i>/          kind = forward | backward | joint
        module.py  __init__.py  state_dict.pt   GraphModule.to_folder (class FxModule, plain signature)
        <name>_<kind>_<i>.input                 pickled metadata, one entry per placeholder
        <name>_<kind>_<i>.readable.py           print_readable(include_stride=True, include_device=True)
        <name>_<kind>_<i>.pt                    torch.save of the REAL inputs of the first call
        <name>_<kind>_<i>.expected.pt           its eager outputs on them
        <name>_<kind>_<i>.rng.pt                the generator states that call started from

Why functorch's dumper fails in torch 2.11 (each is fixed here):

* AOTAutograd calls ``partition_fn(joint, joint_inputs, num_fwd_outputs=..., static_lifetime_input_indices=...)``;
  functorch's ``graph_saver_joint(gm, joint_args)`` takes no keywords -> ``TypeError: ... got an unexpected
  keyword argument 'num_fwd_outputs'``. We forward every keyword to the partitioner.
* ``get_input_meta`` treats anything that is not exactly ``int``/``float`` as a tensor, so a SymInt input
  (dynamic shapes) dies with ``AttributeError: 'SymInt' object has no attribute 'shape'``; tensor sizes that
  are symbolic would pickle SymInt objects. We record size hints as plain Python ints.
* The joint inputs now arrive as a tuple of two *lists* (primals, tangents); functorch only recognises a
  tuple of tuples and dies with ``AttributeError: 'list' object has no attribute 'shape'``.
* ``dump_example_input=True`` would ``torch.save`` the compile-time FakeTensors (and SymInts) ->
  ``AttributeError: Can't pickle local object 'WeakValueDictionary.__init__.<locals>.remove'``; and even when
  that works, fake values are not data. We save real values at run time instead (see below).
* The compilers return unboxed functions (AOTAutograd warns); ours are boxed.

Real inputs (``.pt``): the compilers only ever see fake example inputs, so the real values are taken at
run time. Each compiled forward/backward is a small boxed wrapper around the graph; its first call saves its
arguments (detached, copied to a compact tensor with the *same* strides, ints as ints) and then runs the graph
eagerly. The joint graph is never executed, so its inputs are assembled: primals are the forward graph's
first-call arguments (the forward placeholders are the joint's ``primals_*``, same names, same order) and
tangents are the first backward call's ``tangents_*`` arguments; both are matched to the joint placeholders by
name. The joint ``.pt`` is therefore written at the first backward; a graph whose backward never runs has no
joint ``.pt``. The forward's copies are held only until then.

Eager outputs (``<stem>.expected.pt``): torch.save of a flat list (tensors / None / ints, in the order of the
graph's outputs) of what the graph returned on its first call, the same call whose inputs are in ``.pt``. The
joint graph is never executed by AOTAutograd, so when its inputs are assembled it is run once eagerly (flat
signature, no grad) on exactly those inputs. ``fxray replay --inputs saved --expected auto`` compares with it.

Random number state (``<stem>.rng.pt``, beside every ``.pt`` + ``.expected.pt`` pair): torch.save of a dict
``{"cpu": torch.get_rng_state(), "cuda:N": torch.cuda.get_rng_state(N), ...}`` (one ``cuda:N`` per CUDA device,
only once CUDA is initialized) taken immediately before the eager run that produced ``.expected.pt``: restoring it
and running the graph on the saved inputs draws the random values eager drew (dropout masks, drop-path, rand*).
The joint's own eager run starts from the forward's recorded state (so it draws the forward's masks, and its
outputs agree with the forward's and backward's) and the user's state is put back after it: fxray's extra run
never shifts the training run's random stream.

Lost graphs: the compiler callbacks run under AOTAutograd's FakeTensorMode, where saving a graph that holds a
real tensor constant (``torch.tensor([])`` in HF models' code) died in ``state_dict()``'s detach (``Please
convert all Tensors to FakeTensors first``); writing now runs with fake mode unset. Any graph, input or output
file that still fails to write leaves ``<stem>.capture_error.txt`` (stage, graph, exception, traceback) in the
graph's folder, so a lost graph always has a named reason; a graph whose ``module.py`` could not be written
has none in its folder (fxray does not find half a graph).

Graph index: one index per AOT compilation (one per call of the backend), shared by its forward, backward
and joint graphs, so forward_0/backward_0/joint_0 always belong together even when the backward is compiled
lazily (dynamic shapes) or a recompile happens before the first backward. For ordinary training loops this
is the same numbering as functorch's "graph_index increases after each backward graph". Inference graphs
(no grad) are written as ``forward_<i>`` and take an index too.

``.input`` entries (pickle protocol 4, nothing but these objects):
    tensor:          (cls, torch.Size(ints), stride_tuple_of_ints, torch.<dtype>, torch.device(...))
                     cls as functorch records it: the compile-time FakeTensor class (torch.Tensor /
                     torch.nn.Parameter for real tensors; other subclasses are recorded as torch.Tensor)
    SymInt / int:    (builtins.int, hint)        hint = the concrete value the compile was specialised on
    SymFloat/float:  (builtins.float,)
    SymBool / bool:  (builtins.bool, hint)
    torch.Generator: (torch.Generator, "cuda:0")   AOTAutograd's rng_state inputs of graphsafe_run_with_rng_state;
                     its ``.pt`` value is the generator's state (``get_state()``), from which fxray rebuilds it
Symbolic sizes/strides are recorded by their hints (the readable file keeps the symbols).

``node_meta.json`` (beside module.py): where each node comes from in the model, for fxray's module hierarchy::

    {"format": "fxray-node-meta", "version": 1, "graph": "<stem>",
     "torch": {"version": "2.11.0+cu130", "cuda": "13.0", "git": "70d99e9..."},   # the torch that wrote the dump
     "schemas": {"aten.mm.default": "aten::mm(Tensor self, Tensor mat2) -> Tensor", ...},  # its ops' schemas
     "stack_traces": ["  File ...", ...],            # deduplicated: layers share long traces
     "module_stacks": [[["layers.0", "Blk"], ["layers.0.fc", "Linear"]], ...],   # deduplicated, outer -> inner
     "nodes": {"<node name>": {"phase": "forward"|"backward", "module_stack": k, "stack_trace": k,
                               "seq_nr": n, "param": "layers.0.fc.weight"}, ...}}

torch 2.11 puts ``nn_module_stack`` on forward nodes and ``fwd_nn_module_stack`` (the forward twin's) on
backward nodes; gradient accumulation nodes carry only the loss's ``seq_nr`` and get their inputs' common module.
Placeholders carry ``desc`` (``PlainAOTInput(idx=i)``): input i of the Dynamo graph, whose lifted parameter
name (``L_self_modules_layers_modules_0_modules_fc_parameters_weight_``) gives ``param``. Module paths lose
Dynamo's ``L['self']`` root. Every key but ``phase`` is optional; a failed sidecar never fails the dump.
"""

from __future__ import annotations

import builtins
import copy
import logging
import os
import json
import pickle
import re
import threading
import traceback
import warnings
from typing import Any, Callable, Optional, Sequence

import torch
import torch.fx as fx
from torch._functorch.aot_autograd import aot_module_simplified
from torch._functorch.compilers import default_decompositions
from torch._functorch.partitioners import default_partition
from torch._subclasses.fake_tensor import FakeTensor, unset_fake_temporarily

__all__ = ["backend", "graph_dumper_aot", "CaptureBackend", "input_meta", "rng_state", "set_rng_state",
           "torch_info", "UNBACKED_HINT_FALLBACK"]

log = logging.getLogger("fxray.capture")

# Used when a size has no hint (data-dependent / unbacked SymInt). Same value inductor uses.
UNBACKED_HINT_FALLBACK = 8192

_RECORDED_TENSOR_CLASSES = (FakeTensor, torch.nn.Parameter, torch.Tensor)


# --------------------------------------------------------------------------------------------------
# metadata (.input)
# --------------------------------------------------------------------------------------------------
def _hint(x: Any) -> Any:
    """Concrete Python value of an int/SymInt/float/SymFloat/bool/SymBool."""
    if isinstance(x, torch.SymInt):
        if not x.node.has_hint():  # unbacked (data-dependent): no runtime value known at compile time
            log.warning("fxray_capture: SymInt %s has no hint; unbacked symbols hinted as %d", x, UNBACKED_HINT_FALLBACK)
        return int(x.node.require_hint(UNBACKED_HINT_FALLBACK))
    if isinstance(x, torch.SymBool):
        return bool(x.node.hint) if x.node.hint is not None else False
    if isinstance(x, torch.SymFloat):
        return float(x.node.hint) if x.node.hint is not None else 0.0
    return x


def _tensor_class(t: torch.Tensor) -> type:
    cls = type(t)
    if cls in _RECORDED_TENSOR_CLASSES:
        return cls
    if isinstance(t, FakeTensor):
        return FakeTensor
    return torch.Tensor


def _one_meta(arg: Any) -> tuple:
    if isinstance(arg, torch.Tensor):
        shape = torch.Size([int(_hint(s)) for s in arg.shape])
        stride = tuple(int(_hint(s)) for s in arg.stride())
        return (_tensor_class(arg), shape, stride, arg.dtype, torch.device(arg.device))
    if isinstance(arg, (bool, torch.SymBool)):
        return (builtins.bool, bool(_hint(arg)))
    if isinstance(arg, (int, torch.SymInt)):
        return (builtins.int, int(_hint(arg)))
    if isinstance(arg, (float, torch.SymFloat)):
        return (builtins.float,)
    if isinstance(arg, torch.Generator):
        # AOTAutograd's fwd_rng_state_<k> / bwd_rng_state_<k> (activation checkpointing on CUDA): no tensor
        # metadata; fxray knows a generator by its use (graphsafe_run_with_rng_state's rng_state=).
        return (torch.Generator, str(arg.device))
    # Never pickle arbitrary objects: the format only knows tensors and scalars.
    raise TypeError(f"fxray_capture: unsupported graph input of type {type(arg).__name__}")


def _flatten_joint(args: Any) -> list:
    """Joint inputs arrive as (primals, tangents) (lists in 2.11, tuples in older releases)."""
    if (
        isinstance(args, (tuple, list))
        and len(args) == 2
        and all(isinstance(a, (tuple, list)) for a in args)
    ):
        return [*args[0], *args[1]]
    return list(args)


def input_meta(args: Sequence[Any]) -> list:
    """The .input list for flat graph inputs (joint inputs are flattened: primals then tangents)."""
    return [_one_meta(a) for a in _flatten_joint(args)]


# --------------------------------------------------------------------------------------------------
# module hierarchy (node_meta.json)
# --------------------------------------------------------------------------------------------------
_ROOT_RE = re.compile(r"^L\[['\"][^'\"]*['\"]\]\.?")


def module_path(key: str) -> str:
    """Dynamo's module key ("L['self'].layers[0]._modules['fc']") as a dotted path ("layers.0.fc")."""
    key = _ROOT_RE.sub("", key)
    key = re.sub(r"\._modules\[['\"]([^'\"]+)['\"]\]", r".\1", key)
    key = re.sub(r"\[['\"]?([^'\"\]]+)['\"]?\]", r".\1", key)
    return key.strip(".")


def param_path(dynamo_input: str) -> Optional[str]:
    """A lifted parameter/buffer placeholder name of a Dynamo graph as a dotted path, else None.

    "L_self_modules_layers_modules_0_modules_fc_parameters_weight_" -> "layers.0.fc.weight" (the root is the
    forward's first argument's name, not always ``self``)."""
    m = re.match(r"^[lL]_.+?_(modules|parameters|buffers)_(.+?)_?$", dynamo_input)
    if not m:
        return None
    parts = re.split(r"_(?:modules|parameters|buffers)_", m.group(2))
    return ".".join(p for p in parts if p) or None


def _type_name(t: Any) -> str:
    return getattr(t, "__qualname__", None) or getattr(t, "__name__", None) or str(t)


def torch_info() -> dict:
    """Which torch wrote the dump: fxray's replay warns when its LibTorch is another version."""
    return {"version": str(torch.__version__), "cuda": torch.version.cuda, "git": getattr(torch.version, "git_version", None)}


def node_meta(gm: fx.GraphModule, kind: str, dynamo_inputs: Sequence[str] = ()) -> dict:
    """The node_meta.json object of an AOT graph (see the module docstring)."""
    traces: dict[str, int] = {}
    stacks: dict[tuple, int] = {}
    nodes: dict[str, dict] = {}
    schemas: dict[str, str] = {}  # op overload -> this torch's schema: a replay with another LibTorch compares them
    by_seq: dict[int, Any] = {}
    by_node: dict[str, tuple] = {}  # module stack given to each node so far

    def intern(table: dict, key: Any) -> int:
        return table.setdefault(key, len(table))

    for n in gm.graph.nodes:
        if n.op == "call_function" and n.meta.get("nn_module_stack") and n.meta.get("seq_nr") is not None:
            by_seq.setdefault(n.meta["seq_nr"], n.meta["nn_module_stack"])
    for n in gm.graph.nodes:
        m = n.meta
        entry: dict[str, Any] = {}
        tag = m.get("partitioner_tag")
        backward = tag == "is_backward" or (tag is None and kind == "backward")
        entry["phase"] = "backward" if backward else "forward"
        stack = m.get("nn_module_stack") or m.get("fwd_nn_module_stack")
        if not stack and m.get("seq_nr") is not None and n.op == "call_function" and not m.get("is_gradient_acc"):
            stack = by_seq.get(m["seq_nr"])
        items: tuple = ()
        if stack:
            # {id: (key, type)} (older releases: {key: type})
            items = tuple(
                (module_path(str(v[0])), _type_name(v[1])) if isinstance(v, tuple) and len(v) == 2
                else (module_path(str(k)), _type_name(v))
                for k, v in stack.items()
            )
            items = tuple((p, t) for p, t in items if p)
        elif backward and n.op == "call_function":
            # Gradient accumulation (is_gradient_acc: seq_nr of the loss) sums the gradients its inputs computed: it
            # belongs where they do (their common module), not to the model as a whole.
            inputs = [by_node.get(a.name, ()) for a in n.all_input_nodes]
            if inputs:
                common = inputs[0]
                for other in inputs[1:]:
                    k = 0
                    while k < min(len(common), len(other)) and common[k] == other[k]:
                        k += 1
                    common = common[:k]
                items = common
        by_node[n.name] = items
        if items:
            entry["module_stack"] = intern(stacks, items)
        if m.get("stack_trace"):
            entry["stack_trace"] = intern(traces, m["stack_trace"])
        if m.get("seq_nr") is not None:
            entry["seq_nr"] = int(m["seq_nr"])
        desc = m.get("desc")
        if n.op == "placeholder" and desc is not None:
            idx = getattr(desc, "idx", None)
            if isinstance(idx, int) and 0 <= idx < len(dynamo_inputs):
                p = param_path(dynamo_inputs[idx])
                if p:
                    entry["param"] = p
        nodes[n.name] = entry
        if n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload):
            schemas[str(n.target)] = str(n.target._schema)
    return {
        "format": "fxray-node-meta",
        "version": 1,
        "graph_kind": kind,
        "torch": torch_info(),
        "schemas": dict(sorted(schemas.items())),
        "stack_traces": list(traces),
        "module_stacks": [[list(x) for x in k] for k in stacks],
        "nodes": nodes,
    }


# --------------------------------------------------------------------------------------------------
# real values (.pt)
# --------------------------------------------------------------------------------------------------
def _non_overlapping_and_dense(x: torch.Tensor) -> bool:
    """torch._prims_common's test, by the name this torch gives it (2.11: is_non_overlapping_and_dense_or_false;
    2.9: is_non_overlapping_and_dense; both take the tensor)."""
    import torch._prims_common as prims_common

    for name in ("is_non_overlapping_and_dense_or_false", "is_non_overlapping_and_dense"):
        test = getattr(prims_common, name, None)
        if test is not None:
            return bool(test(x))
    return x.is_contiguous()  # nothing of the kind in this torch: a dense contiguous copy is always right


def _real_copy(x: Any) -> Any:
    """A detached copy of a runtime value with the same sizes/strides/dtype/device and a compact storage."""
    if isinstance(x, torch.Tensor):
        if isinstance(x, FakeTensor) or x.device.type == "meta":
            raise ValueError("not a real tensor")
        x = x.detach()
        if type(x) is not torch.Tensor:  # tensor subclasses: keep the plain data
            x = x.as_subclass(torch.Tensor)
        if _non_overlapping_and_dense(x):
            y = torch.empty_strided(x.shape, x.stride(), dtype=x.dtype, device=x.device)
            y.copy_(x)
            return y
        return x  # overlapping/expanded: saved with its whole storage, strides kept
    if isinstance(x, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        raise ValueError("symbolic value at run time")
    if x is None or isinstance(x, (bool, int, float)):
        return x
    if isinstance(x, torch.Generator):
        return x.get_state()  # the state the graph's draws start from (a CPU uint8 tensor); fxray rebuilds it
    raise ValueError(f"unsupported runtime input {type(x).__name__}")


def _flat_module(gm: fx.GraphModule) -> fx.GraphModule:
    """gm with a plain flat signature and a flat returned list (no pytree codegen): what module.py holds.

    Copies the graph, not the module: the module may hold things deepcopy cannot handle, and the original gm
    must keep its codegen."""
    with warnings.catch_warnings():  # deepcopy of pytree specs warns about LeafSpec in 2.11
        warnings.simplefilter("ignore", FutureWarning)
        graph = copy.deepcopy(gm.graph)
    graph.set_codegen(fx.graph.CodeGen())
    return fx.GraphModule(gm, graph, class_name=type(gm).__name__)


def _output_values(out: Any) -> list:
    """A graph's returned values as the flat list <stem>.expected.pt holds: detached tensors, None, numbers."""
    values = []
    for v in (out if isinstance(out, (tuple, list)) else [out]):
        if isinstance(v, torch.Tensor):
            v = v.detach()
            if v._is_zerotensor():  # autograd's efficient zeros (e.g. sgn's backward) cannot be saved
                v = torch.empty_strided(v.shape, v.stride(), dtype=v.dtype, device=v.device).zero_()
            values.append(v if type(v) is torch.Tensor else v.as_subclass(torch.Tensor))
        elif v is None or isinstance(v, (bool, int, float)):
            values.append(v)
        elif isinstance(v, (torch.SymInt, torch.SymFloat, torch.SymBool)):
            values.append(_hint(v))
        else:
            raise ValueError(f"unsupported graph output of type {type(v).__name__}")
    return values


def _placeholder_names(gm: fx.GraphModule) -> list[str]:
    return [n.name for n in gm.graph.find_nodes(op="placeholder")]


# --------------------------------------------------------------------------------------------------
# random number state (.rng.pt)
# --------------------------------------------------------------------------------------------------
def rng_state() -> dict:
    """{"cpu": ..., "cuda:N": ...}: the default generators' states (what <stem>.rng.pt holds).

    CUDA only once the process initialized it: asking earlier would initialize CUDA for a CPU-only run."""
    state = {"cpu": torch.get_rng_state()}
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        for i in range(torch.cuda.device_count()):
            state[f"cuda:{i}"] = torch.cuda.get_rng_state(i)
    return state


def set_rng_state(state: dict) -> None:
    """Restores what rng_state() returned (or a loaded <stem>.rng.pt)."""
    for key, value in state.items():
        if key == "cpu":
            torch.set_rng_state(value)
        elif key.startswith("cuda:"):
            torch.cuda.set_rng_state(value, int(key[5:]))


# --------------------------------------------------------------------------------------------------
# the backend
# --------------------------------------------------------------------------------------------------
class _Compilation:
    """State of one AOT compilation: its graph index, and what the joint .pt needs."""

    def __init__(self, owner: "CaptureBackend", index: int):
        self.owner = owner
        self.index = index
        self.joint_dir: Optional[str] = None
        self.joint_flat: Optional[fx.GraphModule] = None  # run once eagerly for the joint's expected outputs
        self.joint_names: list[str] = []
        self.fw_names: list[str] = []
        self.fw_first_args: Optional[list] = None
        self.fw_rng: Optional[dict] = None  # the forward's first call started from it; the joint's eager run does too
        self.joint_written = False
        self.dynamo_inputs: list[str] = []  # the Dynamo graph's placeholder names (lifted parameters)


class CaptureBackend:
    """A torch.compile backend (``(gm, example_inputs) -> callable``) that dumps AOT graphs and runs them eagerly."""

    def __init__(
        self,
        name: str,
        folder: str | os.PathLike,
        *,
        dump_example_input: bool = True,
        readable: bool = True,
        decompositions: Optional[dict] = None,
        partition_fn: Callable[..., Any] = default_partition,
        strict: bool = False,
        keep_inference_input_mutations: bool = True,
    ):
        self.name = name
        # Inductor keeps input mutations in the graph (as copy_ into the input; for training graphs, of inputs
        # that need no grad: batch norm's running statistics): True dumps what inductor compiles. False
        # (AOTAutograd's default) returns the new values as extra outputs that a wrapper copies back after the
        # graph: with activation checkpointing around batch norms that copy bumped a buffer the recompute had saved,
        # and the user's backward failed ("modified by an inplace operation", timm ResNet50 with
        # set_grad_checkpointing; inductor and aot_eager keep the mutations and pass).
        self.keep_inference_input_mutations = keep_inference_input_mutations
        self.folder = os.fspath(folder)
        self.dump_example_input = dump_example_input
        self.readable = readable
        self.decompositions = default_decompositions if decompositions is None else decompositions
        self.partition_fn = partition_fn
        self.strict = strict  # raise on a failed dump instead of logging it and carrying on
        self.graph_index = 0
        self._lock = threading.Lock()
        self.written: list[str] = []  # graph directories, in order
        self.graph_info: dict[str, dict] = {}  # directory -> kind, index, node and placeholder counts
        self.errors: list[dict] = []  # what failed to write: graph stem, kind, stage, error

    # torch.compile calls this once per Dynamo graph (and per recompile).
    def __call__(self, gm: fx.GraphModule, example_inputs: list) -> Callable:
        with self._lock:
            comp = _Compilation(self, self.graph_index)
            self.graph_index += 1
        comp.dynamo_inputs = _placeholder_names(gm)

        def fw_compiler(fw_gm: fx.GraphModule, fw_inputs: list) -> Callable:
            d = self._save_graph(fw_gm, fw_inputs, "forward", comp.index, comp.dynamo_inputs)
            comp.fw_names = _placeholder_names(fw_gm)
            return self._runner(fw_gm, d, "forward", comp)

        def bw_compiler(bw_gm: fx.GraphModule, bw_inputs: list) -> Callable:
            d = self._save_graph(bw_gm, bw_inputs, "backward", comp.index, comp.dynamo_inputs)
            return self._runner(bw_gm, d, "backward", comp, bw_names=_placeholder_names(bw_gm))

        def partition(joint_gm: fx.GraphModule, joint_inputs: Any, **kwargs: Any):
            # 2.11 passes num_fwd_outputs=, static_lifetime_input_indices= ...: forward them all.
            comp.joint_dir = self._save_graph(joint_gm, joint_inputs, "joint", comp.index, comp.dynamo_inputs)
            comp.joint_names = _placeholder_names(joint_gm)
            if comp.joint_dir is not None and self.dump_example_input:
                try:
                    with unset_fake_temporarily():
                        comp.joint_flat = _flat_module(joint_gm)
                except Exception as e:  # noqa: BLE001 - the joint's reference is optional, the step is not
                    self._record_error("joint", comp.index, "expected outputs", e)
            return self.partition_fn(joint_gm, joint_inputs, **kwargs)

        return aot_module_simplified(
            gm,
            example_inputs,
            fw_compiler=fw_compiler,
            bw_compiler=bw_compiler,
            partition_fn=partition,
            decompositions=self.decompositions,
            keep_inference_input_mutations=self.keep_inference_input_mutations,
        )

    # ---- writing -------------------------------------------------------------------------------
    def _graph_dir(self, kind: str, index: int) -> tuple[str, str]:
        stem = f"{self.name}_{kind}_{index}"
        return os.path.join(self.folder, self.name, stem), stem

    def _save_graph(self, gm: fx.GraphModule, args: Any, kind: str, index: int,
                    dynamo_inputs: Sequence[str] = ()) -> Optional[str]:
        try:
            # The compiler callbacks run under AOTAutograd's FakeTensorMode; the graph's real tensor constants
            # (state_dict, deepcopy, torch.save) must not be dispatched through it.
            with unset_fake_temporarily():
                d = self._write_graph(gm, args, kind, index)
        except Exception as e:
            if self.strict:
                raise
            log.exception("fxray_capture: dumping %s_%s_%d failed; the graph still runs", self.name, kind, index)
            d, stem = self._graph_dir(kind, index)
            try:  # half a folder would load as a different graph: leave only the reason
                os.remove(os.path.join(d, "module.py"))
            except OSError:
                pass
            self._record_error(kind, index, "graph", e)
            return None
        if d is not None:
            self._write_node_meta(gm, d, kind, index, dynamo_inputs)
        return d

    def _write_node_meta(self, gm: fx.GraphModule, d: str, kind: str, index: int, dynamo_inputs: Sequence[str]) -> None:
        """node_meta.json beside module.py; optional, so a failure is recorded, never raised (unless strict)."""
        try:
            meta = node_meta(gm, kind, dynamo_inputs)
            meta["graph"] = self._graph_dir(kind, index)[1]
            path = os.path.join(d, "node_meta.json")
            with open(path + ".tmp", "w") as f:
                json.dump(meta, f, separators=(",", ":"))
            os.replace(path + ".tmp", path)
        except Exception as e:
            if self.strict:
                raise
            log.exception("fxray_capture: writing node_meta.json of %s failed", d)
            self._record_error(kind, index, "node_meta.json", e)

    def _record_error(self, kind: str, index: int, stage: str, exc: BaseException) -> None:
        """<stem>.capture_error.txt beside the graph: what was lost and why (never raises)."""
        try:
            d, stem = self._graph_dir(kind, index)
            os.makedirs(d, exist_ok=True)
            text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
            with open(os.path.join(d, f"{stem}.capture_error.txt"), "a") as f:
                f.write(f"graph: {stem}\nkind: {kind}\nstage: {stage}\n")
                f.write(f"error: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}\n")
                f.write(text + "\n")
            self.errors.append({"graph": stem, "kind": kind, "stage": stage, "error": f"{type(exc).__name__}: {exc}"})
        except Exception:  # noqa: BLE001 - reporting a failure must not become one
            log.exception("fxray_capture: could not record the failure of %s_%s_%d", self.name, kind, index)

    def _write_graph(self, gm: fx.GraphModule, args: Any, kind: str, index: int) -> Optional[str]:
        if len(gm.graph.nodes) == 0:
            log.warning("fxray_capture: no nodes in graph %s_%s_%d", self.name, kind, index)
            return None
        d, stem = self._graph_dir(kind, index)
        os.makedirs(os.path.dirname(d), exist_ok=True)

        # module.py: plain signature (no pytree codegen), like functorch.
        _flat_module(gm).to_folder(d)

        with open(os.path.join(d, f"{stem}.input"), "wb") as f:
            pickle.dump(input_meta(args), f, protocol=4)

        if self.readable:
            # Printed from the graph as compiled (joint keeps its pytree signature, as in TORCH_TRACE).
            text = gm.print_readable(print_output=False, include_stride=True, include_device=True)
            with open(os.path.join(d, f"{stem}.readable.py"), "w") as f:
                f.write(text)
        self.written.append(d)
        self.graph_info[d] = {
            "kind": kind,
            "index": index,
            "nodes": len(gm.graph.nodes),
            "placeholders": len(gm.graph.find_nodes(op="placeholder")),
        }
        log.info("fxray_capture: wrote %s", d)
        return d

    def _save_real(self, d: Optional[str], kind: str, index: int, values: Optional[list], suffix: str = ".pt") -> None:
        if d is None or values is None:
            return
        _, stem = self._graph_dir(kind, index)
        path = os.path.join(d, f"{stem}{suffix}")
        try:  # through a temporary name: a save that fails half way must not leave a broken file for fxray
            torch.save(values, path + ".tmp")
            os.replace(path + ".tmp", path)
        finally:
            if os.path.exists(path + ".tmp"):
                os.remove(path + ".tmp")

    def _save_expected(self, d: Optional[str], kind: str, index: int, out: Any) -> bool:
        """<stem>.expected.pt: the eager outputs of the call whose inputs are in <stem>.pt. True when written."""
        if d is None:
            return False
        try:
            self._save_real(d, kind, index, _output_values(out), ".expected.pt")
            return True
        except Exception as e:
            if self.strict:
                raise
            log.exception("fxray_capture: saving the eager outputs of %s failed", d)
            self._record_error(kind, index, "expected outputs", e)
            return False

    def _save_rng(self, d: Optional[str], kind: str, index: int, state: dict) -> None:
        """<stem>.rng.pt: the generator states the run behind .expected.pt started from; only beside a .pt."""
        if d is None or not os.path.exists(os.path.join(d, f"{self._graph_dir(kind, index)[1]}.pt")):
            return
        try:
            self._save_real(d, kind, index, state, ".rng.pt")
        except Exception as e:
            if self.strict:
                raise
            log.exception("fxray_capture: saving the random number state of %s failed", d)
            self._record_error(kind, index, "rng state", e)

    @staticmethod
    def _copies(args: Sequence[Any]) -> Optional[list]:
        try:
            return [_real_copy(a) for a in args]
        except ValueError as e:  # e.g. called under a FakeTensorMode: nothing real to save
            log.warning("fxray_capture: not saving example inputs (%s)", e)
            return None

    def _runner(
        self,
        gm: fx.GraphModule,
        d: Optional[str],
        kind: str,
        comp: _Compilation,
        bw_names: Optional[list[str]] = None,
    ) -> Callable:
        state = {"first": True}
        owner = self

        def run(args: list) -> Any:
            if not state["first"] or not owner.dump_example_input:
                return gm(*args)
            state["first"] = False
            try:  # a failed dump must not break the user's training step
                owner._on_first_call(args, d, kind, comp, bw_names)
            except Exception as e:
                if owner.strict:
                    raise
                log.exception("fxray_capture: saving the real inputs of %s failed", d)
                owner._record_error(kind, comp.index, "real inputs", e)
            rng = rng_state()  # immediately before the run whose outputs become .expected.pt
            if kind == "forward" and comp.joint_dir is not None:
                comp.fw_rng = rng
            out = gm(*args)  # the inputs were copied before: the graph may free or mutate them
            if owner._save_expected(d, kind, comp.index, out):
                owner._save_rng(d, kind, comp.index, rng)
            return out

        run._boxed_call = True  # AOTAutograd passes a list; no unboxed-compiler warning
        return run

    def _on_first_call(self, args, d, kind, comp: _Compilation, bw_names) -> None:
        copies = self._copies(args)
        self._save_real(d, kind, comp.index, copies)
        if kind == "forward":
            if comp.joint_dir is not None:
                comp.fw_first_args = copies  # kept until the first backward assembles the joint inputs
            return
        # backward: joint inputs = forward's first primals + this call's tangents, matched by name
        if comp.joint_dir is None or comp.joint_written or copies is None or comp.fw_first_args is None:
            return
        by_name = dict(zip(comp.fw_names, comp.fw_first_args))
        by_name.update(zip(bw_names or [], copies))
        joint_vals, missing = [], []
        meta = None
        for i, n in enumerate(comp.joint_names):
            if n in by_name:
                joint_vals.append(by_name[n])
                continue
            # A tangent the backward graph does not read was pruned from it; the joint does not read it
            # either, so any value of the right layout is faithful. Use zeros from the recorded metadata.
            if meta is None:
                with open(os.path.join(comp.joint_dir, f"{self._graph_dir('joint', comp.index)[1]}.input"), "rb") as f:
                    meta = pickle.load(f)
            m = meta[i]
            if len(m) == 5:
                joint_vals.append(torch.empty_strided(m[1], m[2], dtype=m[3], device=m[4]).zero_())
            elif m[0] is builtins.int:
                joint_vals.append(m[1])
            elif m[0] is torch.Generator:
                joint_vals.append(torch.Generator(device=m[1]).get_state())
            else:
                joint_vals.append(0.0)
            missing.append(n)
        if missing:
            log.warning("fxray_capture: joint inputs %s are unused by the backward; saved as zeros", missing)
        self._save_real(comp.joint_dir, "joint", comp.index, joint_vals)
        comp.joint_written = True
        comp.fw_first_args = None
        self._save_joint_expected(comp, joint_vals)

    def _save_joint_expected(self, comp: _Compilation, joint_vals: list) -> None:
        """AOTAutograd never runs the joint graph: run its flat copy once, eagerly, on the saved joint inputs."""
        flat, comp.joint_flat = comp.joint_flat, None
        if flat is None:
            return
        user_rng = rng_state()  # this run is fxray's, not the user's: their random stream must not move
        start, comp.fw_rng = comp.fw_rng or user_rng, None
        try:
            args = [v.clone() if isinstance(v, torch.Tensor) else v for v in joint_vals]  # .pt stays pristine
            set_rng_state(start)  # the joint's forward part draws what the forward drew
            with torch.no_grad():
                out = flat(*args)
        except Exception as e:
            if self.strict:
                raise
            log.exception("fxray_capture: running the joint graph %s eagerly failed", comp.joint_dir)
            self._record_error("joint", comp.index, "expected outputs", e)
            return
        finally:
            set_rng_state(user_rng)
        if self._save_expected(comp.joint_dir, "joint", comp.index, out):
            self._save_rng(comp.joint_dir, "joint", comp.index, start)


def backend(name: str, folder: str | os.PathLike, **kwargs: Any) -> CaptureBackend:
    """``torch.compile(model, backend=fxray_capture.backend("name", "out_dir"))``. Saves real inputs by default."""
    return CaptureBackend(name, folder, **kwargs)


def graph_dumper_aot(current_name: str, folder_name: str, dump_example_input: bool = False) -> CaptureBackend:
    """Same signature and layout as ``torch._functorch.compilers.graph_dumper_aot``, working in torch 2.11.

    Unlike functorch, the readable annotated graph is always written, and ``dump_example_input=True`` saves
    the real first-call inputs (functorch tried to save FakeTensors).
    """
    return CaptureBackend(current_name, folder_name, dump_example_input=dump_example_input)
