#include "replay/plan/rnn_cell_fallback.h"

#include <ATen/ATen.h>

#include <string>

namespace fxray::replay::detail {
namespace {

using Values = std::vector<c10::IValue>;

// The compute dtype of the CUDA kernels (their accscalar_t): float for half, bfloat16 and float, double for double.
at::ScalarType accumulation(const at::Tensor& t) { return t.scalar_type() == at::kDouble ? at::kDouble : at::kFloat; }

std::optional<at::Tensor> optionalTensor(const c10::IValue& v)
{
    if (v.isNone() || !v.toTensor().defined())
        return std::nullopt;
    return v.toTensor();
}

// gates [B, k*H] (+ bias [k*H]) in the accumulation dtype, split into its k chunks of H.
std::vector<at::Tensor> gateChunks(const at::Tensor& gates, const std::optional<at::Tensor>& bias, int k)
{
    at::Tensor g = gates.to(accumulation(gates));
    if (bias)
        g = g + bias->to(g.scalar_type());
    return g.chunk(k, 1);
}

at::Tensor sigmoidGrad(const at::Tensor& s) { return (1 - s) * s; }  // of sigmoid's output s
at::Tensor tanhGrad(const at::Tensor& t) { return 1 - t * t; }      // of tanh's output t

// _thnn_fused_gru_cell(input_gates, hidden_gates, hx, input_bias, hidden_bias) -> (hy, workspace [B, 5H]):
// r = σ(i_r + h_r), z = σ(i_z + h_z), n = tanh(i_n + r * h_n), hy = n + z * (hx - n); workspace = [r, z, n, hx, h_n].
c10::IValue gruForward(const Values& v)
{
    const at::Tensor& hx = v[2].toTensor();
    const std::vector<at::Tensor> in = gateChunks(v[0].toTensor(), optionalTensor(v[3]), 3);
    const std::vector<at::Tensor> hid = gateChunks(v[1].toTensor(), optionalTensor(v[4]), 3);
    const at::Tensor h = hx.to(in[0].scalar_type());
    const at::Tensor r = at::sigmoid(in[0] + hid[0]);
    const at::Tensor z = at::sigmoid(in[1] + hid[1]);
    const at::Tensor n = at::tanh(in[2] + r * hid[2]);
    const at::Tensor hy = n + z * (h - n);
    const at::Tensor workspace = at::cat({r, z, n, h, hid[2]}, 1).to(v[0].toTensor().scalar_type());
    return c10::ivalue::Tuple::create(hy.to(hx.scalar_type()), workspace);
}

// _thnn_fused_gru_cell_backward(grad_hy, workspace, has_bias) -> (grad_input_gates, grad_hidden_gates, grad_hx,
// grad_input_bias, grad_hidden_bias)
c10::IValue gruBackward(const Values& v)
{
    const at::Tensor& gradHy = v[0].toTensor();
    const at::Tensor& workspace = v[1].toTensor();
    const std::vector<at::Tensor> w = workspace.to(accumulation(workspace)).chunk(5, 1);
    const at::Tensor& r = w[0], &z = w[1], &n = w[2], &hx = w[3], &hn = w[4];
    const at::Tensor go = gradHy.to(r.scalar_type());
    const at::Tensor gradZ = go * (hx - n) * sigmoidGrad(z);
    const at::Tensor gradHx = go * z;
    const at::Tensor gradIn = go * (1 - z) * tanhGrad(n);
    const at::Tensor gradHn = gradIn * r;
    const at::Tensor gradR = gradIn * hn * sigmoidGrad(r);
    const at::ScalarType dtype = workspace.scalar_type();
    const at::Tensor gradInput = at::cat({gradR, gradZ, gradIn}, 1).to(dtype);
    const at::Tensor gradHidden = at::cat({gradR, gradZ, gradHn}, 1).to(dtype);
    const bool bias = v[2].toBool();
    return c10::ivalue::Tuple::create(gradInput, gradHidden, gradHx.to(gradHy.scalar_type()),
                                      bias ? gradInput.sum(0) : at::Tensor(), bias ? gradHidden.sum(0) : at::Tensor());
}

// _thnn_fused_lstm_cell(input_gates, hidden_gates, cx, input_bias, hidden_bias) -> (hy, cy, workspace [B, 4H]):
// i, f, o = σ(...), g = tanh(...), cy = f * cx + i * g, hy = o * tanh(cy); workspace = [i, f, g, o].
c10::IValue lstmForward(const Values& v)
{
    const at::Tensor& cx = v[2].toTensor();
    const std::vector<at::Tensor> in = gateChunks(v[0].toTensor(), optionalTensor(v[3]), 4);
    const std::vector<at::Tensor> hid = gateChunks(v[1].toTensor(), optionalTensor(v[4]), 4);
    const at::Tensor i = at::sigmoid(in[0] + hid[0]);
    const at::Tensor f = at::sigmoid(in[1] + hid[1]);
    const at::Tensor g = at::tanh(in[2] + hid[2]);
    const at::Tensor o = at::sigmoid(in[3] + hid[3]);
    const at::Tensor cy = f * cx.to(i.scalar_type()) + i * g;
    const at::Tensor hy = o * at::tanh(cy);
    return c10::ivalue::Tuple::create(hy.to(cx.scalar_type()), cy.to(cx.scalar_type()),
                                      at::cat({i, f, g, o}, 1).to(v[0].toTensor().scalar_type()));
}

// _thnn_fused_lstm_cell_backward_impl(grad_hy?, grad_cy?, cx, cy, workspace, has_bias) -> (grad_gates, grad_cx,
// grad_bias); all undefined when neither gradient is given.
c10::IValue lstmBackward(const Values& v)
{
    const std::optional<at::Tensor> gradHy = optionalTensor(v[0]), gradCy = optionalTensor(v[1]);
    if (!gradHy && !gradCy)
        return c10::ivalue::Tuple::create(at::Tensor(), at::Tensor(), at::Tensor());
    const at::Tensor& cxIn = v[2].toTensor();
    const at::Tensor& workspace = v[4].toTensor();
    const std::vector<at::Tensor> w = workspace.to(accumulation(workspace)).chunk(4, 1);
    const at::Tensor& i = w[0], &f = w[1], &g = w[2], &o = w[3];
    const at::Tensor cx = cxIn.to(i.scalar_type()), cy = v[3].toTensor().to(i.scalar_type());
    const at::Tensor ghy = gradHy ? gradHy->to(i.scalar_type()) : at::zeros_like(cx);
    const at::Tensor gcy = gradCy ? gradCy->to(i.scalar_type()) : at::zeros_like(cx);
    const at::Tensor tanhCy = at::tanh(cy);
    const at::Tensor gradO = ghy * tanhCy * sigmoidGrad(o);
    const at::Tensor gradCell = ghy * o * tanhGrad(tanhCy) + gcy;
    const at::Tensor gradI = gradCell * g * sigmoidGrad(i);
    const at::Tensor gradF = gradCell * cx * sigmoidGrad(f);
    const at::Tensor gradG = gradCell * i * tanhGrad(g);
    const at::Tensor gradGates = at::cat({gradI, gradF, gradG, gradO}, 1).to(workspace.scalar_type());
    return c10::ivalue::Tuple::create(gradGates, (gradCell * f).to(cxIn.scalar_type()),
                                      v[5].toBool() ? gradGates.sum(0) : at::Tensor());
}

}  // namespace

std::optional<NodePlan> planCpuRnnCellFallback(const c10::OperatorHandle& op, std::vector<ArgPlan> args)
{
    const c10::FunctionSchema& schema = op.schema();
    if (!schema.overload_name().empty())
        return std::nullopt;  // the .out overloads write into given tensors: not what a graph records
    const std::string& name = schema.operator_name().name;
    c10::IValue (*run)(const Values&) = nullptr;
    std::size_t arity = 0;
    if (name == "aten::_thnn_fused_gru_cell")
        run = gruForward, arity = 5;
    else if (name == "aten::_thnn_fused_gru_cell_backward")
        run = gruBackward, arity = 3;
    else if (name == "aten::_thnn_fused_lstm_cell")
        run = lstmForward, arity = 5;
    else if (name == "aten::_thnn_fused_lstm_cell_backward_impl")
        run = lstmBackward, arity = 6;
    if (!run || args.size() != arity)
        return std::nullopt;
    NodePlan p;
    p.kind = NodePlan::Kind::Native;
    p.name = name;
    p.args = std::move(args);
    p.schema = c10::toString(schema) + "  [CUDA-only: run on the CPU as ATen's CUDA kernel computes it, in ATen ops]";
    p.native = run;
    return p;
}

}  // namespace fxray::replay::detail
