"""What a corpus model builder returns, and the deterministic batches builders share."""
from dataclasses import dataclass
from typing import Any, Callable, Optional

import torch

from sizes import Size


@dataclass
class Built:
    model: torch.nn.Module
    train_batch: dict  # keyword arguments of a training call
    infer_batch: dict  # keyword arguments of an inference call
    # loss from the model's output (labels bound); None: the output carries .loss (HF models given labels)
    loss: Optional[Callable[[Any], torch.Tensor]] = None


def token_batch(s: Size) -> torch.Tensor:
    """Token ids from a fixed generator, avoiding the low ids configs use as pad/bos/eos."""
    g = torch.Generator().manual_seed(0)
    return torch.randint(4, s.vocab, (s.batch, s.seq), generator=g)


def image_batch(s: Size, classes: int) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(4)
    return torch.randn(s.batch, 3, s.image, s.image, generator=g), torch.arange(s.batch) % classes
