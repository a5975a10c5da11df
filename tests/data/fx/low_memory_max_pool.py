# inductor_prims._low_memory_max_pool_with_offsets / _offsets_to_indices (resnet50's AOT graphs under inductor):
# the offsets turned back into indices must equal aten.max_pool2d_with_indices's (s = their count of equal elements).
import torch

class Repro(torch.nn.Module):
    def forward(self, x: "f32[2, 3, 11, 9][297, 99, 9, 1]cpu"):
        o = torch.ops.prims._low_memory_max_pool_with_offsets.default(x, [3, 2], [2, 2], [1, 1], [1, 2], True)
        vals: "f32[2, 3, 6, 5][90, 30, 5, 1]cpu" = o[0]
        offs: "i8[2, 3, 6, 5][90, 30, 5, 1]cpu" = o[1]
        idx: "i64[2, 3, 6, 5][90, 30, 5, 1]cpu" = torch.ops.prims._low_memory_max_pool_offsets_to_indices.default(offs, [3, 2], [11, 9], [2, 2], [1, 1], [1, 2])
        ref = torch.ops.aten.max_pool2d_with_indices.default(x, [3, 2], [2, 2], [1, 1], [1, 2], True)
        ref_idx: "i64[2, 3, 6, 5][90, 30, 5, 1]cpu" = ref[1]
        eq: "b8[2, 3, 6, 5][90, 30, 5, 1]cpu" = torch.ops.aten.eq.Tensor(idx, ref_idx)
        s: "i64[][]cpu" = torch.ops.aten.sum.default(eq)
        mx: "i8[][]cpu" = torch.ops.aten.max.default(offs)
        return (s, mx)
