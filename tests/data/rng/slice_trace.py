"""Cuts one compile's graph records out of a TORCH_TRACE log, payloads whole (fxray checks their MD5), for fixtures:
    python slice_trace.py LOG FRAME/COMPILE OUT.log [RECORD ...] [--nodes NAME,NAME...]
    python slice_trace.py LOG all OUT.log [RECORD ...]      (every compile's, compiled autograd's too)
Records kept by default: dynamo_output_graph, aot_forward_graph, aot_joint_graph, aot_inference_graph,
inductor_post_grad_graph (the stages of `fxray compare`, output code left out) and the compile's compilation_metrics;
RECORD may also name an artifact (fx_graph_runnable, before_post_grad_graph, ...); a record logged twice in the
compile (a training compile's forward and backward artifacts) is kept twice, in order.
--nodes prunes every kept graph to what computes the named nodes: their ancestors, the placeholders they read (and,
in a runnable, those inputs' load_args lines), returned in that order (a graph without them keeps its first statement); the signature is written on one line (AOT
descriptors dropped), source comments and `x = None` frees left out, the MD5 recomputed. What a graph is then is
plain: the failing node and where its inputs came from, a few KB instead of the model.
The fixtures cut so (tests/data/rng/cuda_*.log) are real CUDA training compiles (scripts/corpus-device.sh's traces)."""
import hashlib
import json
import re
import sys

KEEP = {"dynamo_output_graph", "aot_forward_graph", "aot_joint_graph", "aot_inference_graph", "inductor_post_grad_graph",
        "compilation_metrics"}
STATEMENT = re.compile(r'^(\s+)([A-Za-z_]\w*)(: "[^"]*")? = (.*)$')


def split_top(text):
    """Splits at commas outside quotes and brackets."""
    parts, depth, quote, cur = [], 0, None, ""
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
            continue
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def without_comment(line):
    quote = None
    for i, ch in enumerate(line):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return line[:i]
    return line


def prune(payload, targets):
    lines = payload.split("\n")
    start = next(i for i, l in enumerate(lines) if l.strip().startswith("def forward("))
    end = start
    while not without_comment(lines[end]).rstrip().endswith("):"):
        end += 1
    signature = " ".join(without_comment(l).strip() for l in lines[start:end + 1])
    params = split_top(signature[signature.index("(") + 1:signature.rindex(")")])[1:]  # self first
    indent = re.match(r"\s*", lines[start]).group(0)
    body_indent, statements, i = None, {}, end + 1
    order = []
    while i < len(lines) and not lines[i].strip().startswith("return"):
        m = STATEMENT.match(lines[i])
        if m:
            body_indent = m.group(1)
            expr = re.split(r";  (?=(?:\w+ = )+None$)", m.group(4))[0]
            statements[m.group(2)] = (m.group(3) or "", expr)
            order.append(m.group(2))
        i += 1
    ret, text = i, without_comment(lines[i])
    while text.count("(") > text.count(")"):  # a return spread over lines (AOT graphs' output descriptors)
        ret += 1
        text += without_comment(lines[ret])
    names = {p.split(":")[0].strip(): p for p in params}
    # A record without the named nodes (the forward's, beside the backward that has them) keeps its first statement:
    # it stays a graph, and the records after it keep their ordinals.
    targets = [t for t in targets if t in statements] or order[:1]
    needed, stack = set(), list(targets)
    while stack:
        n = stack.pop()
        if n in needed or (n not in statements and n not in names):
            continue
        needed.add(n)
        if n in statements:
            stack += [t for t in re.findall(r"\b[A-Za-z_]\w*\b", statements[n][1]) if t in statements or t in names]
    kept_params = [p for p in params if p.split(":")[0].strip() in needed]
    out = lines[:start] + [indent + "def forward(self, " + ", ".join(kept_params) + "):"]
    out += [body_indent + n + statements[n][0] + " = " + statements[n][1] for n in order if n in needed]
    out.append(body_indent + "return (" + ", ".join(targets) + ",)")
    rest = lines[ret + 1:]
    if any(l.strip().startswith("def load_args(") for l in rest):  # a runnable: the kept inputs' storages and tensors
        kept = {p.split(":")[0].strip() for p in kept_params}
        tensor_lines = [l for l in rest if re.search(r"reader\.(tensor|symint)\(", l)]
        keep_lines = {l for l in tensor_lines if l.rsplit("#", 1)[-1].strip() in kept}
        bufs = {m for l in keep_lines for m in re.findall(r"reader\.tensor\((buf\d+)", l)}
        rest = [l for l in rest if not (l in tensor_lines and l not in keep_lines) and
                not (re.match(r"\s*(buf\d+) = reader\.storage", l) and re.match(r"\s*(buf\d+)", l).group(1) not in bufs)]
    return "\n".join(out + rest)


def record_name(head, keep):
    name = next((k for k in head if k in keep), None)
    if name is None and isinstance(head.get("artifact"), dict) and head["artifact"].get("name") in keep:
        name = head["artifact"]["name"]
    return name


def main() -> int:
    argv = sys.argv[1:]
    targets = []
    if "--nodes" in argv:
        k = argv.index("--nodes")
        targets = argv[k + 1].split(",")
        del argv[k:k + 2]
    log, selector, out = argv[:3]
    keep = set(argv[3:]) or KEEP
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
        name = record_name(head, keep)
        if not name or not (every or (head.get("frame_id") == frame and head.get("frame_compile_id") == compile_id)):
            continue
        if targets and isinstance(head.get("dynamo_output_graph"), dict) and head["dynamo_output_graph"].get("sizes"):
            head["dynamo_output_graph"]["sizes"] = {}  # every node's sizes: the pruned graph's are in its annotations
            line = line[:line.index("{")] + json.dumps(head)
        if targets and payload and "def forward(" in "\n".join(payload):
            body = prune("\n".join(l[1:] for l in payload), targets)
            line = re.sub(r'"has_payload": "[0-9a-f]+"', '"has_payload": "%s"' % hashlib.md5(body.encode()).hexdigest(), line)
            payload = ["\t" + l for l in body.split("\n")]
        kept += [line] + payload
    open(out, "w", encoding="utf-8").write("\n".join(kept) + "\n")
    print(f"{out}: {len(kept)} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
