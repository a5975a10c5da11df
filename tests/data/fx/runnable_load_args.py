import torch
isolate_fails_code_str = None
class Repro(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, primals_1, primals_4):
        relu = torch.ops.aten.relu.default(primals_1);  primals_1 = None
        return (relu, primals_4)

def load_args(reader):
    buf0 = reader.storage(None, 262144, device=device(type='cuda', index=0))
    reader.tensor(buf0, (4, 64, 256), is_leaf=True)  # primals_1
    buf1 = reader.storage(None, 4096, device=device(type='cuda', index=0), dtype_hint=torch.int64)
    reader.tensor(buf1, (8, 8), (1, 8), dtype=torch.int64, storage_offset=4)  # idx
    reader.symint(150)  # primals_4
load_args._version = 0
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
