# AOT ID: ['0_backward']
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


cpp_fused_sum_threshold_backward_0 = async_compile.cpp_pybinding(['float*', 'const float*', 'const float*', 'float*', 'const int64_t'], r'''
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  kernel(float* in_out_ptr0,
                       const float* in_ptr0,
                       const float* in_ptr1,
                       float* out_ptr0,
                       const int64_t ks0)
{
    {
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(10L); x0+=static_cast<int64_t>(16L))
        {
            {
                float tmp_acc0 = 0;
                at::vec::Vectorized<float> tmp_acc0_vec = at::vec::Vectorized<float>(0);
                for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(ks0); x1+=static_cast<int64_t>(1L))
                {
                    {
                        if(C10_LIKELY(x0 >= static_cast<int64_t>(0L) && x0 < static_cast<int64_t>(10L)))
                        {
                            auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x0 + 10L*x1), static_cast<int64_t>(10L));
                            tmp_acc0_vec = sum_masked_reduce(tmp_acc0_vec, tmp0, static_cast<int64_t>(10L));
                        }
                    }
                }
                if(C10_UNLIKELY(x0 >= static_cast<int64_t>(0L) && x0 < static_cast<int64_t>(10L)))
                {
                    tmp_acc0_vec.store(out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(10L));
                }
            }
        }
    }
    {
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(64L*ks0); x0+=static_cast<int64_t>(16L))
        {
            {
                if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(64L*ks0)))
                {
                    auto tmp0 = at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
                    auto tmp4 = at::vec::Vectorized<float>::loadu(in_ptr1 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
                    auto tmp1 = static_cast<float>(0.0);
                    auto tmp2 = at::vec::Vectorized<float>(tmp1);
                    auto tmp3 = at::vec::VecMask<float,1>(tmp0 <= tmp2);
                    auto tmp5 = decltype(tmp2)::blendv(tmp4, tmp2, tmp3.template cast<float,1>());
                    tmp5.store(in_out_ptr0 + static_cast<int64_t>(x0));
                }
            }
        }
    }
}
''')


cpp_fused_sum_1 = async_compile.cpp_pybinding(['const float*', 'float*', 'const int64_t'], r'''
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  kernel(const float* in_ptr0,
                       float* out_ptr0,
                       const int64_t ks0)
{
    {
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(64L); x0+=static_cast<int64_t>(16L))
        {
            {
                float tmp_acc0 = 0;
                at::vec::Vectorized<float> tmp_acc0_vec = at::vec::Vectorized<float>(0);
                for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(ks0); x1+=static_cast<int64_t>(1L))
                {
                    {
                        if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(64L)))
                        {
                            auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x0 + 64L*x1), static_cast<int64_t>(16));
                            tmp_acc0_vec = tmp_acc0_vec + tmp0;
                        }
                    }
                }
                if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(64L)))
                {
                    tmp_acc0_vec.store(out_ptr0 + static_cast<int64_t>(x0));
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
        primals_3, primals_4, primals_5, relu, tangents_1 = args
        args.clear()
        s77 = primals_3
        assert_size_stride(primals_4, (s77, 32), (32, 1))
        assert_size_stride(primals_5, (10, 64), (64, 1))
        assert_size_stride(relu, (s77, 64), (64, 1))
        assert_size_stride(tangents_1, (s77, 10), (10, 1))
        buf0 = empty_strided_cpu((s77, 64), (64, 1), torch.float32)
        # Topologically Sorted Source Nodes: [linear_1, permute_2, mm], Original ATen: [aten.t, aten.mm]
        # [Provenance debug handles] extern_kernels.mm:4
        extern_kernels.mm(tangents_1, primals_5, out=buf0)
        del primals_5
        buf1 = empty_strided_cpu((10, 64), (64, 1), torch.float32)
        # Topologically Sorted Source Nodes: [permute_3, permute_5], Original ATen: [aten.t, aten.mm]
        # [Provenance debug handles] extern_kernels.mm:5
        extern_kernels.mm(reinterpret_tensor(tangents_1, (10, s77), (1, 10), 0), relu, out=buf1)
        buf2 = empty_strided_cpu((1, 10), (10, 1), torch.float32)
        buf3 = relu; del relu  # reuse
        # [Provenance debug handles] cpp_fused_sum_threshold_backward_0:6
        cpp_fused_sum_threshold_backward_0(buf3, tangents_1, buf0, buf2, s77)
        del buf0
        del tangents_1
        buf4 = empty_strided_cpu((64, 32), (32, 1), torch.float32)
        # Topologically Sorted Source Nodes: [le, scalar_tensor, where, permute_6, permute_8], Original ATen: [aten.threshold_backward, aten.t, aten.mm]
        # [Provenance debug handles] extern_kernels.mm:7
        extern_kernels.mm(reinterpret_tensor(buf3, (64, s77), (1, 64), 0), primals_4, out=buf4)
        del primals_4
        buf5 = empty_strided_cpu((1, 64), (64, 1), torch.float32)
        # [Provenance debug handles] cpp_fused_sum_1:8
        cpp_fused_sum_1(buf3, buf5, s77)
        return (buf4, reinterpret_tensor(buf5, (64, ), (1, ), 0), None, None, buf1, reinterpret_tensor(buf2, (10, ), (1, ), 0), )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    primals_3 = 8
    primals_4 = rand_strided((8, 32), (32, 1), device='cpu', dtype=torch.float32)
    primals_5 = rand_strided((10, 64), (64, 1), device='cpu', dtype=torch.float32)
    relu = rand_strided((8, 64), (64, 1), device='cpu', dtype=torch.float32)
    tangents_1 = rand_strided((8, 10), (10, 1), device='cpu', dtype=torch.float32)
    return [primals_3, primals_4, primals_5, relu, tangents_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
