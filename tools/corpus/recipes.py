"""Training recipes of the corpus: how a model is compiled and stepped, beside the plain training step.

Each recipe turns (model, batches, backend) into named steps that capture_model.py runs one by one (a failing step
is recorded and the next still runs). The same steps run twice: with fxray_capture's backend (dumps with real
inputs, eager outputs and RNG state) and, with --traces, with inductor under TORCH_TRACE. A recipe that cannot run
somewhere says why (`skip`) instead of failing: the CUDA-only inductor modes on the CPU, flex_attention on a model
whose attention has no flex implementation.

  plain           training step (forward, loss, backward) + bf16 autocast inference (eval, no_grad)
  bf16            training step under torch.autocast(bfloat16) (backward outside it, as users write it)
  dynamic         three training steps at sequence lengths S, S-4, S-8 (token models) or batch 2, 3, 4 (others):
                  the second recompiles with dynamic shapes (automatic dynamic), the third reuses that graph
  checkpoint      activation checkpointing: HF gradient_checkpointing_enable(use_reentrant=False), timm
                  set_grad_checkpointing, else torch.utils.checkpoint around the whole model
  sac             selective activation checkpointing (matmuls and convolutions saved, the rest recomputed): per
                  layer through HF's gradient checkpointing, else around the whole model
  flex            HF attn_implementation="flex_attention" (models that have one), attention dropout off (HF's
                  flex path refuses it in training), the other dropouts as configured; on the CPU an fp32
                  inference (eval, no_grad) only: torch 2.11 has no flex_attention backward on the CPU
  optimizer       training step, then a compiled AdamW step (twice: state initialised in the first)
  accum           gradient accumulation: a compiled micro-step (forward, loss / 2, backward) twice, then SGD
  reduce-overhead training step compiled with mode="reduce-overhead" (CUDA graphs; CUDA only)
  max-autotune    training step compiled with mode="max-autotune-no-cudagraphs" (CUDA only)

The inductor modes act on the trace only: the fxray_capture dumps of those two recipes are the plain step's graphs
(a backend has no mode), the TORCH_TRACE is what the mode compiled."""
import contextlib
import functools
from dataclasses import dataclass
from typing import Callable, Optional

import torch

# every recipe of the full corpus, in the order they run
ALL = ["plain", "bf16", "dynamic", "checkpoint", "sac", "flex", "optimizer", "accum", "reduce-overhead",
       "max-autotune"]
TOKEN_KEYS = ("input_ids", "labels", "attention_mask", "decoder_input_ids")  # dynamic: sliced along dim 1


@dataclass
class Ctx:
    model: torch.nn.Module
    built: object  # built.Built
    library: str
    device: str
    backend: object  # fxray_capture backend or "inductor"
    mode: str  # capture | trace

    def compile(self, fn, inductor_mode: Optional[str] = None):
        kwargs = {"mode": inductor_mode} if inductor_mode and self.mode == "trace" else {}
        return torch.compile(fn, backend=self.backend, **kwargs)


def _to(batch: dict, device: str) -> dict:
    return {k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in batch.items()}


def _loss(ctx: Ctx, out) -> torch.Tensor:
    return ctx.built.loss(out) if ctx.built.loss else out.loss


def _train(ctx: Ctx, compiled, batch: Optional[dict] = None, autocast: bool = False) -> float:
    ctx.model.train()
    batch = _to(batch if batch is not None else ctx.built.train_batch, ctx.device)
    cast = torch.autocast(device_type=ctx.device.split(":")[0], dtype=torch.bfloat16) if autocast \
        else contextlib.nullcontext()
    with cast:
        loss = _loss(ctx, compiled(**batch))
    loss.backward()
    return float(loss.detach())


def _infer(ctx: Ctx, compiled) -> None:
    ctx.model.eval()
    with torch.no_grad(), torch.autocast(device_type=ctx.device.split(":")[0], dtype=torch.bfloat16):
        compiled(**_to(ctx.built.infer_batch, ctx.device))


# ---- recipes: (ctx) -> [(step name, thunk)] -----------------------------------------------------------------------
def plain(ctx: Ctx) -> list:
    compiled = ctx.compile(ctx.model)
    return [("train", lambda: _train(ctx, compiled)), ("inference", lambda: _infer(ctx, compiled))]


def bf16(ctx: Ctx) -> list:
    compiled = ctx.compile(ctx.model)
    return [("train_bf16", lambda: _train(ctx, compiled, autocast=True))]


def _resized(batch: dict, step: int, tokens: bool) -> dict:
    """The batch at sequence length S - 4*step (token models) or batch size B + step (others)."""
    out = {}
    for k, v in batch.items():
        if not isinstance(v, torch.Tensor):
            out[k] = v
        elif tokens:
            # A batch of its own, as a data loader yields it: contiguous. A slice's view would make models that
            # .view() their labels (BART's and T5's loss: labels.view(-1)) fail in eager too.
            out[k] = v[:, : v.shape[1] - 4 * step].contiguous() if k in TOKEN_KEYS and v.dim() >= 2 else v
        else:
            out[k] = torch.cat([v] + [v[:1]] * step) if v.dim() >= 1 else v
    return out


def dynamic(ctx: Ctx) -> list:
    compiled = ctx.compile(ctx.model)
    ids = ctx.built.train_batch.get("input_ids")
    tokens = ids is not None and ids.dim() == 2 and ids.shape[1] > 8
    what = "len" if tokens else "batch"
    return [(f"train_{what}{step}", functools.partial(lambda s: _train(ctx, compiled, _resized(
        ctx.built.train_batch, s, tokens)), step)) for step in range(3)]


def _whole_model_checkpoint(model: torch.nn.Module, context_fn=None) -> torch.nn.Module:
    class Checkpointed(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = model

        def forward(self, **kw):
            extra = {"context_fn": context_fn} if context_fn else {}
            return torch.utils.checkpoint.checkpoint(self.inner, use_reentrant=False, **extra, **kw)

    return Checkpointed()


def checkpoint(ctx: Ctx) -> list:
    m = ctx.model
    if hasattr(m, "gradient_checkpointing_enable") and getattr(m, "supports_gradient_checkpointing", False):
        m.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        target = m
    elif hasattr(m, "set_grad_checkpointing"):
        try:
            m.set_grad_checkpointing(True)
            target = m
        except (AssertionError, NotImplementedError):
            target = _whole_model_checkpoint(m)
    else:
        target = _whole_model_checkpoint(m)
    compiled = ctx.compile(target)
    return [("train_checkpointed", lambda: _train(ctx, compiled))]


def _save_matmuls(ctx_, op, *args, **kwargs):
    from torch.utils.checkpoint import CheckpointPolicy
    keep = op in (torch.ops.aten.mm.default, torch.ops.aten.addmm.default, torch.ops.aten.bmm.default,
                  torch.ops.aten.convolution.default)
    return CheckpointPolicy.MUST_SAVE if keep else CheckpointPolicy.PREFER_RECOMPUTE


def sac(ctx: Ctx) -> list:
    """Per layer where the library checkpoints layers (HF), as torchtitan-style SAC does; around the whole model
    otherwise. (Around a whole HF model Dynamo gives up on the checkpoint: "HOP: Unsafe side effect", all eager.)"""
    from torch.utils.checkpoint import create_selective_checkpoint_contexts
    context_fn = functools.partial(create_selective_checkpoint_contexts, _save_matmuls)
    m = ctx.model
    if hasattr(m, "gradient_checkpointing_enable") and getattr(m, "supports_gradient_checkpointing", False):
        m.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False, "context_fn": context_fn})
        target = m
    else:
        target = _whole_model_checkpoint(m, context_fn)
    compiled = ctx.compile(target)
    return [("train_selective_ac", lambda: _train(ctx, compiled))]


def _attention_dropout_off(model: torch.nn.Module) -> None:
    """What transformers asks of flex_attention training ("turn off the attention dropout"): attention-probability
    dropout 0, every other dropout left as configured."""
    if hasattr(model, "config") and isinstance(getattr(model.config, "attention_dropout", None), float):
        model.config.attention_dropout = 0.0
    for mod in model.modules():
        if "Attention" not in type(mod).__name__:
            continue
        for name in ("attention_dropout", "attn_dropout", "dropout"):
            value = getattr(mod, name, None)
            if isinstance(value, float):
                setattr(mod, name, 0.0)
            elif isinstance(value, torch.nn.Dropout):
                value.p = 0.0


def flex(ctx: Ctx) -> list:
    ctx.model.set_attn_implementation("flex_attention")  # raises for models without one: see skip()
    _attention_dropout_off(ctx.model)
    compiled = ctx.compile(ctx.model)
    if ctx.device.startswith("cuda"):
        return [("train_flex", lambda: _train(ctx, compiled))]

    def infer():  # torch 2.11: "FlexAttention does not support backward on CPU"
        ctx.model.eval()
        with torch.no_grad():
            compiled(**_to(ctx.built.infer_batch, ctx.device))

    return [("inference_flex", infer)]


def optimizer(ctx: Ctx) -> list:
    compiled = ctx.compile(ctx.model)
    opt = torch.optim.AdamW(ctx.model.parameters(), lr=1e-3)
    step = ctx.compile(opt.step)
    return [("train", lambda: _train(ctx, compiled)), ("adamw_step", step), ("adamw_step2", step)]


def accum(ctx: Ctx) -> list:
    model = ctx.model

    def micro(batch):
        loss = _loss(ctx, model(**batch)) / 2
        loss.backward()
        return loss.detach()

    compiled = ctx.compile(micro)
    opt = torch.optim.SGD(model.parameters(), lr=1e-2)

    def one():
        model.train()
        return float(compiled(_to(ctx.built.train_batch, ctx.device)))

    return [("micro1", one), ("micro2", one), ("sgd_step", opt.step)]


def reduce_overhead(ctx: Ctx) -> list:
    compiled = ctx.compile(ctx.model, "reduce-overhead")

    def step():
        # As torch's CUDA-graph docs tell a training loop to: a new iteration begins here. Without it, a model split
        # into several graphs by graph breaks read, in its second step, outputs of its first that CUDA-graph trees had
        # already overwritten ("accessing tensor output of CUDAGraphs that has been overwritten by a subsequent run":
        # 8 of 8 models' second step on the H100, session 15).
        torch.compiler.cudagraph_mark_step_begin()
        # And the gradients start from None, as optimizer.zero_grad() leaves them: the first step's .grad tensors are
        # the backward graph's CUDA-graph outputs, which the next replay overwrites; accumulating into them failed
        # every model's second step in the trace process ("... overwritten by a subsequent run", at the forward
        # line of the parameter whose gradient it was; 4 of 4 on the H200, session 18).
        ctx.model.zero_grad(set_to_none=True)
        return _train(ctx, compiled)

    return [("train", step), ("train2", step)]


def max_autotune(ctx: Ctx) -> list:
    compiled = ctx.compile(ctx.model, "max-autotune-no-cudagraphs")
    return [("train", lambda: _train(ctx, compiled))]


RECIPES: dict[str, Callable[[Ctx], list]] = {
    "plain": plain, "bf16": bf16, "dynamic": dynamic, "checkpoint": checkpoint, "sac": sac, "flex": flex,
    "optimizer": optimizer, "accum": accum, "reduce-overhead": reduce_overhead, "max-autotune": max_autotune,
}
assert list(RECIPES) == ALL


def skip(recipe: str, model: torch.nn.Module, device: str) -> Optional[str]:
    """Why `recipe` cannot run for this model on this device, or None."""
    if recipe in ("reduce-overhead", "max-autotune") and not device.startswith("cuda"):
        return f"{recipe}: an inductor CUDA mode (CUDA graphs / Triton autotuning); nothing to compile on {device}"
    if recipe == "flex":
        supports = getattr(model, "_supports_flex_attn", None)
        if supports is None:
            return "flex: not a transformers model (no attn_implementation to switch)"
        if not supports:
            return f"flex: {type(model).__name__} has no flex_attention implementation in transformers"
    return None


def entry(model: str, recipe: str) -> str:
    """The corpus entry (folder, dump name, table row) of a model under a recipe; plain keeps the model's name."""
    return model if recipe == "plain" else f"{model}.{recipe}"
