"""The corpus: every model family the project checks fxray against, by name, and the CI slice."""
import models_hf
import models_vision

# name -> (library, builder). Order: roughly cheapest first within each library.
MODELS = {
    "qwen2": ("transformers", models_hf.qwen2),
    "mistral": ("transformers", models_hf.mistral),
    "opt": ("transformers", models_hf.opt),
    "distilbert": ("transformers", models_hf.distilbert),
    "roberta": ("transformers", models_hf.roberta),
    "bart": ("transformers", models_hf.bart),
    "whisper": ("transformers", models_hf.whisper),
    "clip": ("transformers", models_hf.clip),
    "deit": ("transformers", models_hf.deit),
    "t5": ("transformers", models_hf.t5),
    "wav2vec2": ("transformers", models_hf.wav2vec2),
    "qwen2_moe": ("transformers", models_hf.qwen2_moe),
    "mixtral": ("transformers", models_hf.mixtral),
    "gpt2": ("transformers", models_hf.gpt2),
    "bert": ("transformers", models_hf.bert),
    "llama": ("transformers", models_hf.llama),
    "gemma": ("transformers", models_hf.gemma),
    "deberta": ("transformers", models_hf.deberta),
    "bloom": ("transformers", models_hf.bloom),
    "resnet50": ("timm", models_vision.resnet50),
    "regnet": ("timm", models_vision.regnet),
    "mobilevit": ("timm", models_vision.mobilevit),
    "levit": ("timm", models_vision.levit),
    "vit": ("timm", models_vision.vit),
    "densenet121": ("torchvision", models_vision.densenet121),
    "shufflenet": ("torchvision", models_vision.shufflenet),
    "efficientnet_v2_s": ("torchvision", models_vision.efficientnet_v2_s),
    "convnext": ("timm", models_vision.convnext),
    "swin": ("timm", models_vision.swin),
    "mobilenetv3": ("timm", models_vision.mobilenetv3),
}

# 2-rank recipes (capture_distributed.py) -> their corpus entry
DISTRIBUTED = {"tp": "dtensor_tp", "fsdp2": "fsdp2"}

# The CI slice: the smallest models, one of each kind of graph (decoder LM, encoder classifier, convnet), under the
# plain recipe (DistilBERT's training compile has its config's dropout, 0.1), DistilBERT's dynamic-shape recompile,
# and the 2-rank tensor-parallel step.
CI_MODELS = ["qwen2", "distilbert", "shufflenet"]
CI_EXTRA_ENTRIES = [("distilbert", "dynamic")]
CI_DISTRIBUTED = ["tp"]
# the inductor TORCH_TRACE of the slice (inductor on 2 CPU cores is slow): DistilBERT's plain step (dropout)
CI_TRACE_ENTRIES = ["distilbert"]
