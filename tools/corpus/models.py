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
    "resnet50": ("timm", models_vision.resnet50),
    "regnet": ("timm", models_vision.regnet),
    "mobilevit": ("timm", models_vision.mobilevit),
    "levit": ("timm", models_vision.levit),
    "densenet121": ("torchvision", models_vision.densenet121),
    "shufflenet": ("torchvision", models_vision.shufflenet),
    "efficientnet_v2_s": ("torchvision", models_vision.efficientnet_v2_s),
}

# The CI slice: the smallest models, one of each kind of graph (decoder LM, encoder classifier, convnet).
CI_MODELS = ["qwen2", "distilbert", "shufflenet"]
CI_TRACE_MODELS = ["distilbert"]  # the one inductor TORCH_TRACE of the slice (inductor on 2 CPU cores is slow)
