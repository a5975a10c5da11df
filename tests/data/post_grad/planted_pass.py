"""A buggy custom inductor post-grad pass for tests/cli/test_minimize_post_grad.py: relu(x) rewritten as
(x - |x|) / 2, where relu(x) = (x + |x|) / 2: the post-grad graph computes min(x, 0) where the AOT graph computes
relu(x). Given to fxray as `--inductor-config post_grad_custom_post_pass=planted_pass:ReluRewrite` with this folder
on PYTHONPATH (the compile child and the repro import it)."""
import torch


class ReluRewrite:
    def __call__(self, graph):
        aten = torch.ops.aten
        for node in list(graph.nodes):
            if node.op != "call_function" or node.target is not aten.relu.default:
                continue
            with graph.inserting_after(node):
                magnitude = graph.call_function(aten.abs.default, node.args)
            with graph.inserting_after(magnitude):
                wrong = graph.call_function(aten.sub.Tensor, (node.args[0], magnitude))  # BUG: should be add
            with graph.inserting_after(wrong):
                half = graph.call_function(aten.mul.Tensor, (wrong, 0.5))
            for n in (magnitude, wrong, half):
                n.meta.update(node.meta)
            node.replace_all_uses_with(half)
            graph.erase_node(node)

    def uuid(self):
        return "fxray-test-relu-rewrite-1"
