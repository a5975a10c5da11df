"""Model sizes of the corpus: the same families at a CPU-feasible size (tiny) and a larger one for a GPU (small).

Each size is a handful of numbers every builder reads, so one knob scales the whole corpus."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Size:
    layers: int  # transformer layers (per stack for encoder-decoders)
    hidden: int  # transformer width; attention heads = hidden // 16
    seq: int  # token sequence length
    image: int  # square image side for vision models (divisible by 32: five 2x downsamplings)
    batch: int
    vocab: int = 256

    @property
    def heads(self) -> int:
        return max(2, self.hidden // 16)


SIZES = {
    "tiny": Size(layers=2, hidden=64, seq=16, image=64, batch=2),
    "small": Size(layers=4, hidden=256, seq=128, image=128, batch=4, vocab=1024),
}
