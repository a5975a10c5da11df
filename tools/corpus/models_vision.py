"""timm and torchvision models of the corpus, random-initialised (pretrained=False: nothing is downloaded).

These architectures have no small config: the size knob scales the image and the batch only. The smallest
published variant is used where the family has several (regnetx_002, mobilevit_xxs, levit_128s,
shufflenet_v2_x0_5)."""
import torch
import torch.nn.functional as F

from built import Built, image_batch
from sizes import Size

CLASSES = 10


def _built(model: torch.nn.Module, s: Size, keep_dropout: bool) -> Built:
    if not keep_dropout:  # --no-dropout: see models_hf.zero_dropout for why
        for m in model.modules():
            if isinstance(m, torch.nn.Dropout):
                m.p = 0.0
            elif hasattr(m, "drop_prob"):  # timm DropPath (stochastic depth)
                m.drop_prob = 0.0
    x, _ = image_batch(s, CLASSES)
    # Labels from the output's batch (image_batch's arange(batch) % CLASSES): the dynamic recipe changes the batch.
    return Built(model, {"x": x}, {"x": x}, loss=lambda out: F.cross_entropy(
        out.float(), torch.arange(out.shape[0], device=out.device) % CLASSES))


def _timm(name: str, s: Size, keep_dropout: bool, **kwargs) -> Built:
    import timm
    return _built(timm.create_model(name, pretrained=False, num_classes=CLASSES, **kwargs), s, keep_dropout)


def resnet50(s: Size, keep_dropout: bool) -> Built:
    return _timm("resnet50", s, keep_dropout)


def regnet(s: Size, keep_dropout: bool) -> Built:
    return _timm("regnetx_002", s, keep_dropout)


def mobilevit(s: Size, keep_dropout: bool) -> Built:
    return _timm("mobilevit_xxs", s, keep_dropout)


def levit(s: Size, keep_dropout: bool) -> Built:
    return _timm("levit_128s", s, keep_dropout, img_size=s.image)


def vit(s: Size, keep_dropout: bool) -> Built:
    """timm VisionTransformer at a small width (patch 8, width = the size's hidden), trained as DeiT/ViT recipes
    train it: drop_path_rate 0.1 (per-sample stochastic depth: bernoulli in the graph)."""
    from timm.models.vision_transformer import VisionTransformer
    model = VisionTransformer(img_size=s.image, patch_size=8, embed_dim=s.hidden, depth=s.layers, num_heads=s.heads,
                              num_classes=CLASSES, drop_path_rate=0.1 if keep_dropout else 0.0)
    return _built(model, s, keep_dropout)


def densenet121(s: Size, keep_dropout: bool) -> Built:
    import torchvision
    return _built(torchvision.models.densenet121(weights=None, num_classes=CLASSES), s, keep_dropout)


def shufflenet(s: Size, keep_dropout: bool) -> Built:
    import torchvision
    return _built(torchvision.models.shufflenet_v2_x0_5(weights=None, num_classes=CLASSES), s, keep_dropout)


def efficientnet_v2_s(s: Size, keep_dropout: bool) -> Built:
    import torchvision
    # Stochastic depth draws from the RNG like dropout does: off unless dropout is kept.
    extra = {} if keep_dropout else {"dropout": 0.0, "stochastic_depth_prob": 0.0}
    return _built(torchvision.models.efficientnet_v2_s(weights=None, num_classes=CLASSES, **extra), s, keep_dropout)


def convnext(s: Size, keep_dropout: bool) -> Built:
    """timm ConvNeXt-atto: depthwise 7x7 convolutions, LayerNorm over channels-last activations, layer scale,
    drop_path_rate 0.1."""
    return _timm("convnext_atto", s, keep_dropout, drop_path_rate=0.1 if keep_dropout else 0.0)


def swin(s: Size, keep_dropout: bool) -> Built:
    """timm Swin Transformer at a small width: shifted windows (torch.roll), relative position bias tables gathered
    by an index buffer, patch merging, drop_path_rate 0.1."""
    return _timm("swin_tiny_patch4_window7_224", s, keep_dropout, img_size=s.image, window_size=4, embed_dim=s.hidden // 2,
                 depths=(1, 1), num_heads=(2, 4), drop_path_rate=0.1 if keep_dropout else 0.0)


def mobilenetv3(s: Size, keep_dropout: bool) -> Built:
    """timm MobileNetV3-small: hard-swish, squeeze-and-excitation, depthwise convolutions, classifier dropout 0.2."""
    return _timm("mobilenetv3_small_050", s, keep_dropout, drop_rate=0.2 if keep_dropout else 0.0)
