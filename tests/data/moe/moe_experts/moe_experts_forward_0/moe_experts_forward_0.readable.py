class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[12, 8][8, 1]cpu", arg1_1: "f32[4, 8, 16][128, 16, 1]cpu", arg2_1: "i32[4][1]cpu", arg3_1: "f32[4, 16, 8][128, 8, 1]cpu"):
        # File: /work/wt-gaps21/tests/data/moe/make_moe.py:28 in experts, code: h = torch.ops.transformers.grouped_mm_fallback(x, w_up, offs)
        grouped_mm_fallback: "f32[12, 16][16, 1]cpu" = torch.ops.transformers.grouped_mm_fallback.default(arg0_1, arg1_1, arg2_1);  arg0_1 = arg1_1 = None

        # File: /work/wt-gaps21/tests/data/moe/make_moe.py:29 in experts, code: return torch.ops.transformers.grouped_mm_fallback(torch.nn.functional.silu(h), w_down, offs)
        silu: "f32[12, 16][16, 1]cpu" = torch.ops.aten.silu.default(grouped_mm_fallback);  grouped_mm_fallback = None
        grouped_mm_fallback_1: "f32[12, 8][8, 1]cpu" = torch.ops.transformers.grouped_mm_fallback.default(silu, arg3_1, arg2_1);  silu = arg3_1 = arg2_1 = None
        return (grouped_mm_fallback_1,)
