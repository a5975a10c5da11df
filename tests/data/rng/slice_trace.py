"""Cuts one compile's graph records out of a TORCH_TRACE log, payloads whole (fxray checks their MD5), for fixtures:
    python slice_trace.py LOG FRAME/COMPILE OUT.log [RECORD ...]
    python slice_trace.py LOG all OUT.log [RECORD ...]      (every compile's, compiled autograd's too)
Records kept by default: dynamo_output_graph, aot_forward_graph, aot_joint_graph, aot_inference_graph,
inductor_post_grad_graph (the stages of `fxray compare`, output code left out) and the compile's compilation_metrics.
The fixtures cut so (tests/data/rng/cuda_*.log) are real CUDA training compiles (scripts/corpus-device.sh's traces)."""
import json
import sys

KEEP = {"dynamo_output_graph", "aot_forward_graph", "aot_joint_graph", "aot_inference_graph", "inductor_post_grad_graph",
        "compilation_metrics"}


def main() -> int:
    log, selector, out = sys.argv[1:4]
    keep = set(sys.argv[4:]) or KEEP
    every = selector == "all"
    frame, compile_id = (-1, -1) if every else (int(x) for x in selector.split("/"))
    lines = open(log, encoding="utf-8").read().split("\n")
    kept, i = [], 0
    while i < len(lines):
        line, i = lines[i], i + 1
        payload = []
        while i < len(lines) and lines[i].startswith("\t"):
            payload.append(lines[i])
            i += 1
        if "{" not in line:
            continue
        try:
            head = json.loads(line[line.index("{"):])
        except ValueError:
            continue
        name = next((k for k in head if k in keep), None)
        if name and (every or (head.get("frame_id") == frame and head.get("frame_compile_id") == compile_id)):
            kept += [line] + payload
    open(out, "w", encoding="utf-8").write("\n".join(kept) + "\n")
    print(f"{out}: {len(kept)} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
