s77 = 8


import os
os.environ['TORCHINDUCTOR_CACHE_DIR'] = '/tmp/fxray_make_samples/cache_debug/tmpltumfv7i'
os.environ['TORCHINDUCTOR_FORCE_DISABLE_CACHES'] = '1'
os.environ['TORCHINDUCTOR_COMPILE_THREADS'] = '1'
os.environ['TORCH_COMPILE_DEBUG'] = '1'
os.environ['TRITON_CACHE_DIR'] = '/tmp/fxray_make_samples/cache_debug/tmpltumfv7i/triton'

import torch
from torch import tensor, device
import torch.fx as fx
from torch._dynamo.testing import rand_strided
from math import inf
import torch._inductor.inductor_prims



import torch._dynamo.config
import torch._inductor.config
import torch._functorch.config
import torch.fx.experimental._config
torch._dynamo.config.assume_static_by_default = False
torch._dynamo.config.debug_dir_root = '/tmp/fxray_make_samples/debug'
torch._inductor.config.trace.enabled = False
torch._inductor.config.trace.save_real_tensors = False
torch._functorch.config.functionalize_rng_ops = False
torch._functorch.config.debug_partitioner = True
torch._functorch.config.fake_tensor_allow_unsafe_data_ptr_access = True
torch._functorch.config.unlift_effect_tokens = True
torch._functorch.config.selective_decompose = False



isolate_fails_code_str = None





if "__compile_source__" in globals():
    import inspect as __after_aot_inspect
    import linecache as __after_aot_linecache
    __after_aot_filename = __after_aot_inspect.currentframe().f_code.co_filename
    __after_aot_linecache.cache[__after_aot_filename] = (
        len(__compile_source__),
        None,
        __compile_source__.splitlines(True),
        __after_aot_filename,
    )
# torch version: 2.11.0+cu130
# torch cuda version: 13.0
# torch git version: 70d99e998b4955e0049d13a98d77ae1b14db1f45


# torch.cuda.is_available()==False, no GPU info collected
torch._higher_order_ops.triton_kernel_wrap.kernel_side_table.reset_table()

from torch.nn import *
class Repro(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()



    def forward(self, primals_1, primals_2, primals_3, primals_4, primals_5, primals_6):
        permute = torch.ops.aten.permute.default(primals_1, [1, 0]);  primals_1 = None
        addmm = torch.ops.aten.addmm.default(primals_2, primals_4, permute);  primals_2 = permute = None
        relu = torch.ops.aten.relu.default(addmm);  addmm = None
        permute_1 = torch.ops.aten.permute.default(primals_5, [1, 0])
        addmm_1 = torch.ops.aten.addmm.default(primals_6, relu, permute_1);  primals_6 = permute_1 = None
        return (addmm_1, primals_4, primals_5, relu, primals_3)

def load_args(reader):
    buf0 = reader.storage(None, 8192)
    reader.tensor(buf0, (64, 32), is_leaf=True)  # primals_1
    buf1 = reader.storage(None, 256)
    reader.tensor(buf1, (64,), is_leaf=True)  # primals_2
    reader.symint(8)  # primals_3
    buf2 = reader.storage(None, 128*s77)
    reader.tensor(buf2, (s77, 32), is_leaf=True)  # primals_4
    buf3 = reader.storage(None, 2560)
    reader.tensor(buf3, (10, 64), is_leaf=True)  # primals_5
    buf4 = reader.storage(None, 40)
    reader.tensor(buf4, (10,), is_leaf=True)  # primals_6
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='symbolic', check_str=None)
        # To run it separately, do 
        # mod, args = run_repro(mod, load_args, accuracy=False, command='get_args', save_dir=None, tracing_mode='symbolic', check_str=None)
        # mod(*args)