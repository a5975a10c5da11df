"""Hugging Face transformers models of the corpus, random-initialised from small configs (nothing is downloaded).

Each builder returns a Built: the model, a training batch (with labels, so the model computes its own loss),
and an inference batch. Dropout: see zero_dropout (models.py decides when it applies)."""
import torch

from built import Built, token_batch
from sizes import Size


def zero_dropout(config) -> None:
    """Every dropout / layerdrop probability of a config (and its sub-configs) set to 0.

    Why: dropout draws from the RNG inside the graph, so a replay cannot equal the eager run it is compared with;
    with p = 0 the training graphs are deterministic and the eager reference means something."""
    for name, value in list(vars(config).items()):
        if hasattr(value, "to_dict") and hasattr(value, "model_type"):  # sub-config (CLIP text / vision)
            zero_dropout(value)
        elif isinstance(value, float) and ("dropout" in name or name.endswith("layerdrop") or name.endswith("pdrop")):
            setattr(config, name, 0.0)


def _decoder_lm(cls_config, cls_model, s: Size, keep_dropout: bool, **extra) -> Built:
    cfg = cls_config(vocab_size=s.vocab, hidden_size=s.hidden, intermediate_size=2 * s.hidden, num_hidden_layers=s.layers,
                     num_attention_heads=s.heads, num_key_value_heads=max(1, s.heads // 2),
                     max_position_embeddings=4 * s.seq, **extra)
    return _lm(cfg, cls_model, s, keep_dropout)


def _lm(cfg, cls_model, s: Size, keep_dropout: bool, **batch_extra) -> Built:
    if not keep_dropout:
        zero_dropout(cfg)
    ids = token_batch(s)
    return Built(cls_model(cfg), {"input_ids": ids, "labels": ids, **batch_extra}, {"input_ids": ids, **batch_extra})


def qwen2(s: Size, keep_dropout: bool) -> Built:
    from transformers import Qwen2Config, Qwen2ForCausalLM
    return _decoder_lm(Qwen2Config, Qwen2ForCausalLM, s, keep_dropout)


def mistral(s: Size, keep_dropout: bool) -> Built:
    from transformers import MistralConfig, MistralForCausalLM
    return _decoder_lm(MistralConfig, MistralForCausalLM, s, keep_dropout, sliding_window=None)


def opt(s: Size, keep_dropout: bool) -> Built:
    from transformers import OPTConfig, OPTForCausalLM
    cfg = OPTConfig(vocab_size=s.vocab, hidden_size=s.hidden, ffn_dim=2 * s.hidden, num_hidden_layers=s.layers,
                    num_attention_heads=s.heads, max_position_embeddings=4 * s.seq, word_embed_proj_dim=s.hidden)
    return _lm(cfg, OPTForCausalLM, s, keep_dropout)


def _encoder_kwargs(s: Size) -> dict:
    return dict(vocab_size=s.vocab, hidden_size=s.hidden, intermediate_size=2 * s.hidden, num_hidden_layers=s.layers,
                num_attention_heads=s.heads, max_position_embeddings=4 * s.seq + 2)


def roberta(s: Size, keep_dropout: bool) -> Built:
    from transformers import RobertaConfig, RobertaForMaskedLM
    return _lm(RobertaConfig(**_encoder_kwargs(s)), RobertaForMaskedLM, s, keep_dropout)


def distilbert(s: Size, keep_dropout: bool) -> Built:
    from transformers import DistilBertConfig, DistilBertForSequenceClassification
    cfg = DistilBertConfig(vocab_size=s.vocab, dim=s.hidden, hidden_dim=2 * s.hidden, n_layers=s.layers, n_heads=s.heads,
                           max_position_embeddings=4 * s.seq, num_labels=3)
    if not keep_dropout:
        zero_dropout(cfg)
    ids = token_batch(s)
    labels = torch.arange(s.batch) % 3
    return Built(DistilBertForSequenceClassification(cfg), {"input_ids": ids, "labels": labels}, {"input_ids": ids})


def bart(s: Size, keep_dropout: bool) -> Built:
    from transformers import BartConfig, BartForConditionalGeneration
    cfg = BartConfig(vocab_size=s.vocab, d_model=s.hidden, encoder_layers=s.layers, decoder_layers=s.layers,
                     encoder_attention_heads=s.heads, decoder_attention_heads=s.heads, encoder_ffn_dim=2 * s.hidden,
                     decoder_ffn_dim=2 * s.hidden, max_position_embeddings=4 * s.seq)
    return _lm(cfg, BartForConditionalGeneration, s, keep_dropout)


def whisper(s: Size, keep_dropout: bool) -> Built:
    from transformers import WhisperConfig, WhisperForConditionalGeneration
    frames = 2 * s.seq  # the encoder's two convolutions halve the mel frames to max_source_positions
    cfg = WhisperConfig(vocab_size=s.vocab, num_mel_bins=16, d_model=s.hidden, encoder_layers=s.layers,
                        decoder_layers=s.layers, encoder_attention_heads=s.heads, decoder_attention_heads=s.heads,
                        encoder_ffn_dim=2 * s.hidden, decoder_ffn_dim=2 * s.hidden, max_source_positions=s.seq,
                        max_target_positions=4 * s.seq, pad_token_id=0, bos_token_id=1, eos_token_id=2,
                        decoder_start_token_id=1, suppress_tokens=None, begin_suppress_tokens=None)
    if not keep_dropout:
        zero_dropout(cfg)
    g = torch.Generator().manual_seed(1)
    feats = torch.randn(s.batch, 16, frames, generator=g)
    ids = token_batch(s)
    return Built(WhisperForConditionalGeneration(cfg), {"input_features": feats, "labels": ids},
                 {"input_features": feats, "decoder_input_ids": ids})


def clip(s: Size, keep_dropout: bool) -> Built:
    from transformers import CLIPConfig, CLIPModel
    common = dict(hidden_size=s.hidden, intermediate_size=2 * s.hidden, num_hidden_layers=s.layers,
                  num_attention_heads=s.heads)
    text = dict(vocab_size=s.vocab, max_position_embeddings=s.seq, bos_token_id=1, eos_token_id=2, pad_token_id=0)
    cfg = CLIPConfig(text_config=dict(**text, **common),
                     vision_config=dict(image_size=s.image // 2, patch_size=8, **common), projection_dim=s.hidden // 2)
    if not keep_dropout:
        zero_dropout(cfg)
    g = torch.Generator().manual_seed(2)
    pixels = torch.randn(s.batch, 3, s.image // 2, s.image // 2, generator=g)
    batch = {"input_ids": token_batch(s), "pixel_values": pixels}
    return Built(CLIPModel(cfg), {**batch, "return_loss": True}, batch)


def deit(s: Size, keep_dropout: bool) -> Built:
    from transformers import DeiTConfig, DeiTForImageClassification
    cfg = DeiTConfig(image_size=s.image // 2, patch_size=8, hidden_size=s.hidden, num_hidden_layers=s.layers,
                     num_attention_heads=s.heads, intermediate_size=2 * s.hidden, num_labels=10)
    if not keep_dropout:
        zero_dropout(cfg)
    g = torch.Generator().manual_seed(3)
    pixels = torch.randn(s.batch, 3, s.image // 2, s.image // 2, generator=g)
    labels = torch.arange(s.batch) % 10
    return Built(DeiTForImageClassification(cfg), {"pixel_values": pixels, "labels": labels}, {"pixel_values": pixels})


def t5(s: Size, keep_dropout: bool) -> Built:
    """T5: relative-position buckets (log of 0 cast to an integer: transient -inf), dropout_rate 0.1 by default."""
    from transformers import T5Config, T5ForConditionalGeneration
    cfg = T5Config(vocab_size=s.vocab, d_model=s.hidden, d_kv=s.hidden // s.heads, d_ff=2 * s.hidden,
                   num_layers=s.layers, num_decoder_layers=s.layers, num_heads=s.heads, decoder_start_token_id=0,
                   pad_token_id=0, eos_token_id=1)
    built = _lm(cfg, T5ForConditionalGeneration, s, keep_dropout)
    built.infer_batch["decoder_input_ids"] = built.infer_batch["input_ids"]  # T5 does not shift inputs itself
    return built


def wav2vec2(s: Size, keep_dropout: bool) -> Built:
    """wav2vec2 CTC: conv feature encoder, layerdrop 0.1 (a torch.rand per layer decides in Python: graph breaks),
    SpecAugment time masks (numpy-drawn, outside the graphs), hidden/attention/activation dropout 0.1."""
    from transformers import Wav2Vec2Config, Wav2Vec2ForCTC
    cfg = Wav2Vec2Config(vocab_size=32, hidden_size=s.hidden, num_hidden_layers=s.layers, num_attention_heads=s.heads,
                         intermediate_size=2 * s.hidden, conv_dim=(32, 32), conv_stride=(5, 2), conv_kernel=(10, 3),
                         num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4, pad_token_id=0,
                         ctc_loss_reduction="mean")
    if not keep_dropout:
        zero_dropout(cfg)
        cfg.mask_time_prob = 0.0  # SpecAugment masks are numpy-random: off with the rest
    g = torch.Generator().manual_seed(5)
    audio = torch.randn(s.batch, 100 * s.seq, generator=g)  # 16 tokens -> 1600 samples -> 159 frames
    labels = torch.randint(1, 32, (s.batch, max(2, s.seq // 4)), generator=g)
    return Built(Wav2Vec2ForCTC(cfg), {"input_values": audio, "labels": labels}, {"input_values": audio})


def qwen2_moe(s: Size, keep_dropout: bool) -> Built:
    """Qwen2-MoE: 4 experts, 2 per token, a shared expert; router logits give the auxiliary loss."""
    from transformers import Qwen2MoeConfig, Qwen2MoeForCausalLM
    return _decoder_lm(Qwen2MoeConfig, Qwen2MoeForCausalLM, s, keep_dropout, moe_intermediate_size=s.hidden,
                       shared_expert_intermediate_size=s.hidden, num_experts=4, num_experts_per_tok=2,
                       output_router_logits=True, decoder_sparse_step=1)


def mixtral(s: Size, keep_dropout: bool) -> Built:
    """Mixtral: 4 experts, top-2 routing, no shared expert."""
    from transformers import MixtralConfig, MixtralForCausalLM
    return _decoder_lm(MixtralConfig, MixtralForCausalLM, s, keep_dropout, num_local_experts=4,
                       num_experts_per_tok=2, output_router_logits=True, sliding_window=None)


def gpt2(s: Size, keep_dropout: bool) -> Built:
    """GPT-2: Conv1D projections (addmm on transposed weights), learned positions, resid/embd/attn pdrop 0.1."""
    from transformers import GPT2Config, GPT2LMHeadModel
    cfg = GPT2Config(vocab_size=s.vocab, n_embd=s.hidden, n_layer=s.layers, n_head=s.heads, n_positions=4 * s.seq)
    return _lm(cfg, GPT2LMHeadModel, s, keep_dropout)


def bert(s: Size, keep_dropout: bool) -> Built:
    """BERT masked LM: token types, absolute positions, the MLM head tied to the embeddings, dropout 0.1."""
    from transformers import BertConfig, BertForMaskedLM
    return _lm(BertConfig(**_encoder_kwargs(s)), BertForMaskedLM, s, keep_dropout)


def llama(s: Size, keep_dropout: bool) -> Built:
    """Llama: RMSNorm, rotary positions, grouped-query attention, SwiGLU; attention_dropout 0.1 (its default 0 makes
    the training graph deterministic: set as fine-tuning recipes set it)."""
    from transformers import LlamaConfig, LlamaForCausalLM
    return _decoder_lm(LlamaConfig, LlamaForCausalLM, s, keep_dropout, attention_dropout=0.1)


def gemma(s: Size, keep_dropout: bool) -> Built:
    """Gemma: multi-query attention, a head_dim of its own, GeGLU, scaled embeddings; attention_dropout 0.1 (its
    decoder's code names a value `output`: FX then names the graph's output node `output_1`)."""
    from transformers import GemmaConfig, GemmaForCausalLM
    cfg = GemmaConfig(vocab_size=s.vocab, hidden_size=s.hidden, intermediate_size=2 * s.hidden, num_hidden_layers=s.layers,
                      num_attention_heads=s.heads, num_key_value_heads=1, head_dim=s.hidden // s.heads,
                      max_position_embeddings=4 * s.seq, attention_dropout=0.1)
    return _lm(cfg, GemmaForCausalLM, s, keep_dropout)


def deberta(s: Size, keep_dropout: bool) -> Built:
    """DeBERTa-v2 masked LM: disentangled relative-position attention (log-bucketed positions, gathers), its score
    scale sqrt(torch.tensor(head_dim) * 3) a tensor constant in the graphs; dropout 0.1."""
    from transformers import DebertaV2Config, DebertaV2ForMaskedLM
    cfg = DebertaV2Config(**_encoder_kwargs(s), relative_attention=True, position_buckets=8, pos_att_type=["p2c", "c2p"])
    return _lm(cfg, DebertaV2ForMaskedLM, s, keep_dropout)


def bloom(s: Size, keep_dropout: bool) -> Built:
    """BLOOM: ALiBi position biases, its GeLU a custom autograd.Function in training (dynamo's
    autograd_function_apply), hidden and attention dropout 0.1 as fine-tuning sets them (0 by default)."""
    from transformers import BloomConfig, BloomForCausalLM
    cfg = BloomConfig(vocab_size=s.vocab, hidden_size=s.hidden, n_layer=s.layers, n_head=s.heads, hidden_dropout=0.1,
                      attention_dropout=0.1)
    return _lm(cfg, BloomForCausalLM, s, keep_dropout)
