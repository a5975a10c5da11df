#!/usr/bin/env python3
"""Writes the small broken TORCH_TRACE logs next to this script (used by tests/core/test_trace_log.cpp).

Records are written the way torch/_logging/_internal.py does: header, then "\n\t" + each payload line,
has_payload = md5 of the payload's UTF-8 bytes. Deterministic: rerunning gives identical files.
"""
import hashlib
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))

FORWARD = """class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[4, 8][8, 1]cuda:0", primals_2: "f32[4][1]cuda:0"):
        permute: "f32[8, 4][1, 8]cuda:0" = torch.ops.aten.permute.default(primals_1, [1, 0]);  primals_1 = None
        relu: "f32[8, 4][1, 8]cuda:0" = torch.ops.aten.relu.default(permute);  permute = None
        return (relu,)
        """
EVENT = '{\n"name": "dynamo",\n"ts": 1795261190185095.8,\n"ph": "B",\n"pid": 0\n}'
PRE_GRAD = """class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 8][8, 1]cuda:0"):
        l_x_ = L_x_
        relu = torch.nn.functional.relu(l_x_);  l_x_ = None
        return (relu,)"""


def record(meta, payload=None, src="torch/_functorch/_aot_autograd/graph_compile.py:1708", t="11:39:52.969000"):
    meta = dict(meta)
    if payload is not None:
        meta["has_payload"] = hashlib.md5(payload.encode("utf-8")).hexdigest()
    r = f"V1121 {t} 453 {src}] {json.dumps(meta)}"
    if payload is not None:
        r += "".join(f"\n\t{l}" for l in payload.split("\n"))
    return r + "\n"


def ids(extra):
    return {**extra, "frame_id": 0, "frame_compile_id": 0, "attempt": 0}


def good_records():
    return [
        record(ids({"chromium_event": {}}), EVENT, src="torch/_dynamo/utils.py:2126", t="11:39:50.185000"),
        record(ids({"aot_forward_graph": {}}), FORWARD),
        record(ids({"artifact": {"name": "before_pre_grad_graph", "encoding": "string"}}), PRE_GRAD,
               src="torch/_inductor/compile_fx.py:2411", t="11:39:53.000001"),
    ]


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8"))


def main():
    a, b, c = good_records()
    write("good.log", a + b + c)

    # The forward graph's payload edited after hashing: one character changed on its third payload line.
    write("md5_mismatch.log", a + b.replace("aten.relu.default", "aten.gelu.default") + c)

    # The forward header's JSON is broken (a trailing comma); its payload lines follow it.
    broken = b.replace('"attempt": 0, ', '"attempt": 0,, ', 1)
    write("malformed_header.log", a + broken + c)

    # The file stops in the middle of the forward graph's payload, mid-line, without a final newline.
    text = a + b
    write("truncated_payload.log", text[: text.index("relu.default(permute)")])

    # The file stops in the middle of a header line.
    write("truncated_header.log", a + b[: b.index('"frame_compile_id"')])

    # Random bytes (with NULs and stray newlines and tabs): no record at all.
    rng = random.Random(1234)
    write("garbage.log", bytes(rng.randrange(256) for _ in range(4096)))

    # The good log with CRLF line endings (as a Windows editor or git autocrlf would leave it).
    write("crlf.log", (a + b + c).replace("\n", "\r\n"))

    # A payload whose lines really end in "\r" (hashed with them), in an LF file.
    write("cr_in_payload.log", a + record(ids({"artifact": {"name": "note", "encoding": "string"}}), "x\r\ny\r\nz"))

    # Stray text between records, and payload lines with no header before them.
    write("stray_lines.log",
          "\tan orphan payload line\n\tand another\n" + a
          + "not a record line\nneither is this\n" + "\torphaned after stray text\n" + b
          + "I1121 11:39:53.000000 453 torch/x.py:1] not json at all\n" + c)

    # Truncations at the other boundaries of a record: inside the header's prefix (before "]"), right after a
    # complete header line whose payload never came, and at a payload line boundary (whole lines missing).
    write("truncated_prefix.log", a + b[: b.index("graph_compile.py")])
    write("truncated_before_payload.log", a + b[: b.index("\n") + 1])
    lines = b.split("\n")
    write("truncated_payload_lines.log", a + "\n".join(lines[:4]) + "\n")

    # Payloads that verify (the MD5 matches) but hold broken FX code: the error names the log's own line.
    broken = FORWARD.replace("torch.ops.aten.relu.default(permute)", "torch.ops.aten.relu.default(permutee)")
    write("payload_undefined_name.log", a + record(ids({"aot_forward_graph": {}}), broken) + c)
    latin1 = FORWARD.replace("permute: ", "permut\u00e9: ", 1).replace("(permute)", "(permut\u00e9)")
    payload = latin1.encode("latin-1")
    meta = dict(ids({"aot_forward_graph": {}}), has_payload=hashlib.md5(payload).hexdigest())
    header = f"V1121 11:39:52.969000 453 torch/_functorch/_aot_autograd/graph_compile.py:1708] {json.dumps(meta)}"
    write("payload_not_utf8.log", a.encode() + header.encode() + b"".join(b"\n\t" + l for l in payload.split(b"\n"))
          + b"\n" + c.encode())
    write("payload_empty_graph.log", a + record(ids({"aot_forward_graph": {}}), "") + c)

    write("empty.log", "")

    # Only blank lines (LF and CRLF).
    write("blank_lines.log", "\n\r\n\n")


if __name__ == "__main__":
    main()
