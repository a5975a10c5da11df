# AOT ID: ['0_forward']
from ctypes import c_void_p, c_long, c_int
import torch
import math
import random
import os
import tempfile
from math import inf, nan
from cmath import nanj
from torch._inductor.hooks import run_intermediate_hooks
from torch._inductor.utils import maybe_profile
from torch._inductor.codegen.memory_planning import _align as align
from torch import device, empty_strided
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels

aten = torch.ops.aten
inductor_ops = torch.ops.inductor
_quantized = torch.ops._quantized
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
empty_strided_cpu_pinned = torch._C._dynamo.guards._empty_strided_cpu_pinned
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
empty_strided_mtia = torch._C._dynamo.guards._empty_strided_mtia
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
alloc_from_pool = torch.ops.inductor._alloc_from_pool
async_compile = AsyncCompile()
empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p


cpp_fused_relu_0 = async_compile.cpp_pybinding(['float*', 'const int64_t'], r'''
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  kernel(float* in_out_ptr0,
                       const int64_t ks0)
{
    {
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(64L*ks0); x0+=static_cast<int64_t>(16L))
        {
            {
                if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(64L*ks0)))
                {
                    auto tmp0 = at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
                    auto tmp1 = at::vec::clamp_min(tmp0, decltype(tmp0)(0));
                    tmp1.store(in_out_ptr0 + static_cast<int64_t>(x0));
                }
            }
        }
    }
}
''')


async_compile.wait(globals())
del async_compile

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def recursively_apply_fns(self, fns):
        new_callables = []
        for fn, c in zip(fns, self.partitions):
            new_callables.append(fn(c))
        self.partitions = new_callables

    def call(self, args):
        primals_1, primals_2, primals_3, primals_4, primals_5, primals_6 = args
        args.clear()
        s77 = primals_3
        assert_size_stride(primals_1, (64, 32), (32, 1))
        assert_size_stride(primals_2, (64, ), (1, ))
        assert_size_stride(primals_4, (s77, 32), (32, 1))
        assert_size_stride(primals_5, (10, 64), (64, 1))
        assert_size_stride(primals_6, (10, ), (1, ))
        buf0 = empty_strided_cpu((s77, 64), (64, 1), torch.float32)
        # Topologically Sorted Source Nodes: [linear], Original ATen: [aten.t, aten.addmm]
        # [Provenance debug handles] extern_kernels.addmm:1
        extern_kernels.addmm(primals_2, primals_4, reinterpret_tensor(primals_1, (32, 64), (1, 32), 0), alpha=1, beta=1, out=buf0)
        del primals_1
        del primals_2
        buf1 = buf0; del buf0  # reuse
        # [Provenance debug handles] cpp_fused_relu_0:2
        cpp_fused_relu_0(buf1, s77)
        buf2 = empty_strided_cpu((s77, 10), (10, 1), torch.float32)
        # Topologically Sorted Source Nodes: [linear_1], Original ATen: [aten.t, aten.addmm]
        # [Provenance debug handles] extern_kernels.addmm:3
        extern_kernels.addmm(primals_6, buf1, reinterpret_tensor(primals_5, (64, 10), (1, 64), 0), alpha=1, beta=1, out=buf2)
        del primals_6
        return (buf2, primals_4, primals_5, buf1, s77, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    primals_1 = rand_strided((64, 32), (32, 1), device='cpu', dtype=torch.float32)
    primals_2 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.float32)
    primals_3 = 8
    primals_4 = rand_strided((8, 32), (32, 1), device='cpu', dtype=torch.float32)
    primals_5 = rand_strided((10, 64), (64, 1), device='cpu', dtype=torch.float32)
    primals_6 = rand_strided((10, ), (1, ), device='cpu', dtype=torch.float32)
    return [primals_1, primals_2, primals_3, primals_4, primals_5, primals_6]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
