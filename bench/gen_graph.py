#!/usr/bin/env python3
"""Writes a synthetic but realistic AOT forward graph of N nodes as a seed dump folder (module.py + annotated
readable file + .input-free), for load/parse benchmarks: residual MLP blocks with stack-trace comments,
frees after last use, annotations with strides. Stdlib only.

usage: gen_graph.py OUT_DIR [--nodes 20000] [--modules] [--source-lines]
  --modules       also write node_meta.json (as tools/capture does): block b is module layers.b, its linear layers.b.fc
  --source-lines  one stack-trace comment per statement, the same lines in every block (as a real model's layers run
                  the same source): what fxray's module hierarchy without a sidecar folds (default: one comment per
                  block, a different line each)"""
import argparse
import json
import os


# The model statement each op of a block comes from (--source-lines).
SOURCE = ["w = self.fc.weight.t()", "h = self.fc(x)", "h = h.relu()", "h = h * 0.5", "v, m = torch.var_mean(h, 1)",
          "v, m = torch.var_mean(h, 1)", "h = h - v", "x = h + x"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--modules", action="store_true")
    ap.add_argument("--source-lines", action="store_true")
    args = ap.parse_args()
    name = os.path.basename(os.path.normpath(args.out))
    os.makedirs(args.out, exist_ok=True)
    per_block = 8  # ops per residual block
    blocks = max(1, (args.nodes - 4) // (per_block + 2))
    params, code, readable = [], [], []
    ann = '"f32[64, 256][256, 1]cuda:0"'
    params.append("x")
    prev = "x"
    for b in range(blocks):
        w, bias = f"w_{b}", f"b_{b}"
        params += [w, bias]
        stmts = [
            (f"t_{b}", f"torch.ops.aten.t.default({w})", '"f32[256, 256][1, 256]cuda:0"'),
            (f"addmm_{b}", f"torch.ops.aten.addmm.default({bias}, {prev}, t_{b})", ann),
            (f"relu_{b}", f"torch.ops.aten.relu.default(addmm_{b})", ann),
            (f"mul_{b}", f"torch.ops.aten.mul.Tensor(relu_{b}, 0.5)", ann),
            (f"var_mean_{b}", f"torch.ops.aten.var_mean.correction(mul_{b}, [1], correction = 0, keepdim = True)", None),
            (f"getitem_{b}", f"var_mean_{b}[0]", '"f32[64, 1][1, 1]cuda:0"'),
            (f"sub_{b}", f"torch.ops.aten.sub.Tensor(mul_{b}, getitem_{b})", ann),
            (f"add_{b}", f"torch.ops.aten.add.Tensor(sub_{b}, {prev})", ann),
        ]
        if not args.source_lines:
            readable.append(f"        # File: /src/model.py:{10 + b} in forward, code: x = self.block{b}(x)")
        for k, (lhs, rhs, a) in enumerate(stmts):
            if args.source_lines:
                readable.append(f"        # File: /src/model.py:{20 + k} in forward, code: {SOURCE[k]}")
            code.append(f"        {lhs} = {rhs}")
            readable.append(f"        {lhs}: {a} = {rhs}" if a else f"        {lhs} = {rhs}")
        prev = f"add_{b}"
    code.append(f"        return ({prev},)")
    readable.append(f"        return ({prev},)")
    sig_code = "self, " + ", ".join(params)
    w_ann, b_ann = '"f32[256, 256][256, 1]cuda:0"', '"f32[256][1]cuda:0"'
    sig_readable = "self, " + ", ".join(
        f"{p}: {ann if p == 'x' else (w_ann if p.startswith('w') else b_ann)}" for p in params)
    with open(os.path.join(args.out, "module.py"), "w") as f:
        f.write("import torch\nfrom torch import device\nclass FxModule(torch.nn.Module):\n"
                f"    def forward({sig_code}):\n" + "\n".join(code) + "\n")
    with open(os.path.join(args.out, name + ".readable.py"), "w") as f:
        f.write("class GraphModule(torch.nn.Module):\n"
                f"    def forward({sig_readable}):\n" + "\n".join(readable) + "\n")
    if args.modules:
        stacks, nodes = [], {}
        for b in range(blocks):
            stacks += [[[f"layers.{b}", "Block"], [f"layers.{b}.fc", "Linear"]], [[f"layers.{b}", "Block"]]]
            nodes[f"w_{b}"] = {"phase": "forward", "param": f"layers.{b}.fc.weight"}
            nodes[f"b_{b}"] = {"phase": "forward", "param": f"layers.{b}.fc.bias"}
            for k, lhs in enumerate(["t", "addmm", "relu", "mul", "var_mean", "getitem", "sub", "add"]):
                nodes[f"{lhs}_{b}"] = {"phase": "forward", "module_stack": 2 * b + (0 if k < 2 else 1)}
        with open(os.path.join(args.out, "node_meta.json"), "w") as f:
            json.dump({"format": "fxray-node-meta", "version": 1, "stack_traces": [], "module_stacks": stacks,
                       "nodes": nodes}, f)
    print(f"{args.out}: {len(params) + blocks * per_block + 1} nodes")


if __name__ == "__main__":
    main()
