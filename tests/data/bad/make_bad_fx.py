#!/usr/bin/env python3
"""Writes the broken FX-code files (fx/) and broken dump folders (dumps/) of the bad-input corpus.

    python3 tests/data/bad/make_bad_fx.py      (python3 stdlib only; rerun after editing, then update MANIFEST.tsv)

Each case starts from a real small graph -- samples/cpu/dumps/mlp/mlp_forward_0 (its print_readable file,
its module.py and its .input pickle, copied below so the corpus does not move when the samples are
re-captured) -- and breaks one thing. tests/cli/test_bad_corpus.py runs `fxray info` on every case and checks
the verdict MANIFEST.tsv gives it. Deterministic: rerunning gives identical files. Every file stays under 4 KiB.
"""
import os
import pickle
import shutil
import sys

sys.dont_write_bytecode = True  # no __pycache__ inside the corpus
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_bad_pickles as mbp  # noqa: E402  (its stand-in torch globals; writes nothing on import)

HERE = os.path.dirname(os.path.abspath(__file__))
FX_DIR = os.path.join(HERE, "fx")
DUMPS_DIR = os.path.join(HERE, "dumps")

# samples/cpu/dumps/mlp/mlp_forward_0/mlp_forward_0.readable.py
READABLE = '''class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[64, 32][32, 1]cpu", primals_2: "f32[64][1]cpu", primals_3: "Sym(s77)", primals_4: "f32[s77, 32][32, 1]cpu", primals_5: "f32[10, 64][64, 1]cpu", primals_6: "f32[10][1]cpu"):
        # File: tools/capture/make_samples.py:58 in forward, code: return self.fc2(F.relu(self.fc1(x)))
        t: "f32[32, 64][1, 32]cpu" = torch.ops.aten.t.default(primals_1);  primals_1 = None
        addmm: "f32[s77, 64][64, 1]cpu" = torch.ops.aten.addmm.default(primals_2, primals_4, t);  primals_2 = t = None
        relu: "f32[s77, 64][64, 1]cpu" = torch.ops.aten.relu.default(addmm);  addmm = None
        alias: "f32[s77, 64][64, 1]cpu" = torch.ops.aten.alias.default(relu)
        t_1: "f32[64, 10][1, 64]cpu" = torch.ops.aten.t.default(primals_5);  primals_5 = None
        addmm_1: "f32[s77, 10][10, 1]cpu" = torch.ops.aten.addmm.default(primals_6, relu, t_1);  primals_6 = None
        return (addmm_1, primals_4, relu, alias, t_1, primals_3)
'''

# samples/cpu/dumps/mlp/mlp_forward_0/module.py (to_folder's form: header, __init__, plain forward)
MODULE = '''
import torch
from math import inf
from math import nan
NoneType = type(None)
import torch
from torch import device
import torch.fx._pytree as fx_pytree
import torch.utils._pytree as pytree

from torch.nn import *
class FxModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.load_state_dict(torch.load(r'/work/main/samples/cpu/dumps/mlp/mlp_forward_0/state_dict.pt'))



    def forward(self, primals_1, primals_2, primals_3, primals_4, primals_5, primals_6):
        t = torch.ops.aten.t.default(primals_1);  primals_1 = None
        addmm = torch.ops.aten.addmm.default(primals_2, primals_4, t);  primals_2 = t = None
        relu = torch.ops.aten.relu.default(addmm);  addmm = None
        alias = torch.ops.aten.alias.default(relu)
        t_1 = torch.ops.aten.t.default(primals_5);  primals_5 = None
        addmm_1 = torch.ops.aten.addmm.default(primals_6, relu, t_1);  primals_6 = None
        return (addmm_1, primals_4, relu, alias, t_1, primals_3)
'''

INIT = "from .module import *"

# The readable graph with its signature one placeholder per line (print_readable's other form): truncations
# and annotation errors then land on short lines of their own.
READABLE_MULTILINE = READABLE.replace(
    'def forward(self, primals_1: "f32[64, 32][32, 1]cpu", primals_2: "f32[64][1]cpu", primals_3: "Sym(s77)", '
    'primals_4: "f32[s77, 32][32, 1]cpu", primals_5: "f32[10, 64][64, 1]cpu", primals_6: "f32[10][1]cpu"):',
    'def forward(\n'
    '        self,\n'
    '        primals_1: "f32[64, 32][32, 1]cpu",  # PlainAOTInput(idx=0)\n'
    '        primals_2: "f32[64][1]cpu",  # PlainAOTInput(idx=1)\n'
    '        primals_3: "Sym(s77)",  # PlainAOTInput(idx=2)\n'
    '        primals_4: "f32[s77, 32][32, 1]cpu",  # PlainAOTInput(idx=3)\n'
    '        primals_5: "f32[10, 64][64, 1]cpu",  # PlainAOTInput(idx=4)\n'
    '        primals_6: "f32[10][1]cpu",  # PlainAOTInput(idx=5)\n'
    '    ):')
assert READABLE_MULTILINE != READABLE


# samples/cpu/dumps/mlp/mlp_forward_0/mlp_forward_0.input: protocol 4, one FRAME, six entries (five tensors
# and the SymInt (int, 8)).
SAMPLE_INPUT = (
    b'\x80\x04\x95&\x01\x00\x00\x00\x00\x00\x00]\x94((\x8c\x1dtorch._subclasses.fake_tensor\x94\x8c'
    b'\nFakeTensor\x94\x93\x94\x8c\x05torch\x94\x8c\x04Size\x94\x93\x94K@K \x86\x94\x85\x94R\x94K K\x01\x86\x94\x8c'
    b'\x05torch\x94\x8c\x07float32\x94\x93\x94h\x04\x8c\x06device\x94\x93\x94\x8c\x03cpu\x94\x85\x94R\x94t\x94(h\x03h'
    b'\x06K@\x85\x94\x85\x94R\x94K\x01\x85\x94h\rh\x0f\x8c\x03cpu\x94\x85\x94R\x94t\x94\x8c\x08builtins\x94\x8c\x03int\x94\x93\x94'
    b'K\x08\x86\x94(h\x03h\x06K\x08K \x86\x94\x85\x94R\x94K K\x01\x86\x94h\rh\x0f\x8c\x03cpu\x94\x85\x94R\x94t\x94(h\x03h\x06K\n'
    b'K@\x86\x94\x85\x94R\x94K@K\x01\x86\x94h\rh\x0f\x8c\x03cpu\x94\x85\x94R\x94t\x94(h\x03h\x06K\n\x85\x94\x85\x94R\x94K\x01\x85\x94h'
    b'\rh\x0f\x8c\x03cpu\x94\x85\x94R\x94t\x94e.'
)


def crafted_input(entries):
    """An .input pickled by Python through make_bad_pickles' stand-in torch (torch itself is not needed)."""
    return pickle.dumps(entries, protocol=4)


def tensor(size, stride, dtype=None):
    """An entry as the seed layout writes it; dtype=None is torch.float32, anything else is written as given."""
    return (mbp.FakeTensor, mbp.Size(size), tuple(stride), mbp.torch.float32 if dtype is None else dtype,
            mbp.Device("cpu"))


def write(path, data):
    data = data.encode("utf-8") if isinstance(data, str) else data
    assert len(data) < 4096, (path, len(data))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def fx(name, text):
    write(os.path.join(FX_DIR, name), text)


def cut_before(text, marker, keep=0):
    """text up to (not including) marker, plus `keep` characters of the marker: a file that stops there."""
    i = text.index(marker)
    return text[: i + keep]


def replace_once(text, old, new):
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)


# ---------------------------------------------------------------------------------------------------------
def truncations():
    # A file cut off at each structural boundary of print_readable's output: as a crashed capture, a full
    # disk or a partial copy leaves it.
    fx("empty.py", "")
    fx("header_only.py", MODULE[: MODULE.index("class FxModule")])
    fx("trunc_class_header.py", cut_before(READABLE, "torch.nn.Module):"))  # class GraphModule(
    fx("trunc_class_body.py", cut_before(READABLE, "    def forward"))  # the class line and nothing else
    fx("trunc_def_signature.py", cut_before(READABLE, 'primals_4: "f32[s77'))  # inside def forward(...
    fx("trunc_def_multiline.py", cut_before(READABLE_MULTILINE, "        primals_5"))
    fx("trunc_def_colon.py", cut_before(READABLE_MULTILINE, "    ):", keep=5))  # "    )" without ':'
    fx("trunc_mid_comment.py", cut_before(READABLE, "code: return"))  # in the stack comment, nothing after
    fx("trunc_mid_statement.py", cut_before(READABLE, "primals_4, t);"))  # inside addmm(...)
    fx("trunc_mid_annotation.py", cut_before(READABLE, '64][64, 1]cpu" = torch.ops.aten.relu'))  # "f32[s77,
    fx("trunc_mid_target.py", cut_before(READABLE, "efault(primals_5)"))  # torch.ops.aten.t.d
    fx("trunc_mid_frees.py", cut_before(READABLE, "None\n        relu:"))  # "primals_2 = t = "
    fx("trunc_before_return.py", cut_before(READABLE, "        return"))
    fx("trunc_mid_return.py", cut_before(READABLE, "alias, t_1, primals_3)"))


def encodings():
    # Line endings and encodings an editor, git (autocrlf) or a Windows bug report leaves behind.
    fx("crlf.py", READABLE.replace("\n", "\r\n"))  # loads: Python reads CRLF, so does fxray
    fx("cr_only.py", READABLE.replace("\n", "\r"))  # loads: old Mac line ends, Python reads them too
    fx("crlf_error.py", replace_once(READABLE, "(addmm);", "(addmn);").replace("\n", "\r\n"))  # line 6
    fx("utf8_bom.py", "\ufeff" + READABLE)  # loads: Notepad's UTF-8 with BOM, Python accepts it
    fx("utf8_bom_crlf.py", ("\ufeff" + READABLE).replace("\n", "\r\n"))  # loads
    # The stack comment re-encoded as Latin-1 (é = 0xE9): not UTF-8 text, which Python refuses as well.
    latin1 = replace_once(READABLE, "tools/capture/make_samples.py", "tools/capture/modèle.py")
    fx("latin1_comment.py", latin1.encode("latin-1"))
    fx("latin1_annotation.py", replace_once(READABLE, '"f32[64][1]cpu"', '"f32[64][1]cpu\xb5"').encode("latin-1"))
    fx("nul_byte.py", replace_once(READABLE, "(addmm);", "(add\0mm);"))
    fx("utf8_identifier.py", READABLE.replace("relu", "relü"))  # valid UTF-8, but FX names are ASCII
    # A UTF-8 sequence cut short (the first two bytes of U+2713) inside the stack comment.
    fx("utf8_cut_sequence.py", READABLE.encode().replace(b"# File:", b"# \xe2\x9c File:", 1))


def indentation():
    # Python's own rules: consistent tabs load (tab stops of 8), ambiguous tab/space mixes and misaligned
    # dedents are errors, as they are for python.
    body = READABLE.split("\n")
    tabs = "\n".join(l.replace("        ", "\t\t", 1) if l.startswith("        ") else l.replace("    ", "\t", 1)
                     for l in body)
    fx("tabs.py", tabs)  # loads
    # One body line indented with a tab, its neighbours with 8 spaces: a tab stop of 8 makes them equal, a tab
    # stop of 4 does not -- python raises TabError.
    fx("mixed_tabs_spaces.py", replace_once(READABLE, "        relu:", "\trelu:"))
    fx("unindent_mismatch.py", replace_once(READABLE, "        alias:", "      alias:"))
    fx("unexpected_indent.py", replace_once(READABLE, "        alias:", "            alias:"))
    fx("body_not_indented.py", replace_once(READABLE, "        t:", "t:"))  # the def's body starts at column 0


def annotations():
    # Recorded metadata that cannot be true.
    fx("annot_stride_rank.py", replace_once(READABLE, '"f32[64, 32][32, 1]cpu"', '"f32[64, 32][1]cpu"'))
    fx("annot_huge_sizes.py", replace_once(READABLE, '"f32[10, 64][64, 1]cpu"',
                                           '"f32[99999999999999, 99999999999999][99999999999999, 1]cpu"'))
    fx("annot_int64_overflow.py", replace_once(READABLE, '"f32[10][1]cpu"', '"f32[99999999999999999999][1]cpu"'))
    fx("annot_huge_stride.py", replace_once(READABLE, '"f32[10, 64][64, 1]cpu"', '"f32[10, 64][9223372036854775807, 1]cpu"'))
    fx("annot_huge_1d.py", replace_once(READABLE, '"f32[10][1]cpu"', '"f32[99999999999999][1]cpu"'))  # loads
    fx("annot_unknown_dtype.py", replace_once(READABLE, '"f32[64][1]cpu"', '"f31[64][1]cpu"'))
    fx("annot_negative_size.py", replace_once(READABLE, '"f32[64][1]cpu"', '"f32[-64][1]cpu"'))
    fx("annot_bad_device.py", replace_once(READABLE, '"f32[64][1]cpu"', '"f32[64][1]cuda:x"'))
    fx("annot_unclosed_bracket.py", replace_once(READABLE, '"f32[64][1]cpu"', '"f32[64][1cpu"'))
    fx("annot_bad_sym.py", replace_once(READABLE, '"Sym(s77)"', '"Sym(s77 $ 1)"'))
    fx("annot_not_a_string.py", replace_once(READABLE, 't: "f32[32, 64][1, 32]cpu"', "t: torch.Tensor"))
    fx("annot_orphan.py", replace_once(READABLE, "        return", '        ghost: "f32[4][1]cpu"\n        return'))
    fx("annot_multiline_sig.py", replace_once(READABLE_MULTILINE, '"f32[64][1]cpu"', '"f32[64, 2][1]cpu"'))


def graph_errors():
    # Code that parses as Python but is no FX graph: names, order, outputs, nesting.
    fx("undefined_name.py", replace_once(READABLE, "(primals_2, primals_4, t)", "(primals_2, primals_9, t)"))
    # A node using a name defined further down (FX code is in topological order, so this is a cycle or a
    # reordered file), and one using itself.
    fx("use_before_def.py", replace_once(READABLE, "aten.t.default(primals_1)", "aten.t.default(relu)"))
    fx("self_reference.py", replace_once(READABLE, "aten.relu.default(addmm)", "aten.relu.default(relu)"))
    fx("duplicate_name.py", replace_once(READABLE, "alias: ", "relu: "))
    fx("duplicate_placeholder.py", replace_once(READABLE, 'primals_2: "f32[64][1]cpu"', 'primals_1: "f32[64][1]cpu"'))
    fx("return_undefined.py", replace_once(READABLE, "return (addmm_1,", "return (addmm_2,"))
    fx("return_bare.py", replace_once(READABLE, "return (addmm_1, primals_4, relu, alias, t_1, primals_3)", "return"))
    fx("return_empty_tuple.py", replace_once(READABLE, "(addmm_1, primals_4, relu, alias, t_1, primals_3)", "()"))  # loads
    # forward() without its return line, followed by more module code (so not a truncation).
    fx("no_return.py", replace_once(READABLE, "        return (addmm_1, primals_4, relu, alias, t_1, primals_3)\n",
                                    "\nNoneType = type(None)\n"))
    fx("pass_statement.py", replace_once(READABLE, "        alias:", "        pass\n        alias:"))
    fx("two_returns.py", READABLE + "        return (relu,)\n")
    fx("statement_after_return.py", READABLE + "        gelu = torch.ops.aten.gelu.default(relu)\n")
    fx("frees_undefined.py", replace_once(READABLE, "primals_5 = None", "primals_7 = None"))
    fx("no_forward.py", MODULE[: MODULE.index("    def forward")])
    fx("default_argument.py", replace_once(MODULE, "primals_6):", "primals_6 = None):"))
    fx("bad_op_name.py", replace_once(READABLE, "torch.ops.aten.alias.default(", "torch.ops.aten.alias.default.extra.more("))
    fx("unknown_dtype_arg.py", replace_once(READABLE, "torch.ops.aten.alias.default(relu)",
                                            "torch.ops.prims.convert_element_type.default(relu, torch.float33)"))
    fx("int_literal_overflow.py", replace_once(READABLE, "torch.ops.aten.alias.default(relu)",
                                               "torch.ops.aten.view.default(relu, [99999999999999999999, 64])"))
    fx("unsupported_statement.py", replace_once(READABLE, "        alias:",
                                                "        if relu:\n            relu = relu\n        alias:"))
    fx("tuple_flatten_after_nodes.py", replace_once(READABLE, "        return",
                                                    "        a, b, = fx_pytree.tree_flatten_spec([relu], self._in_spec)\n"
                                                    "        return"))
    # Nesting beyond what the parser's recursion allows: 300 brackets, and 600 unary minus signs.
    fx("deep_parens.py", replace_once(READABLE, "aten.alias.default(relu)",
                                      "aten.alias.default(" + "(" * 300 + "relu" + ")" * 300 + ")"))
    fx("deep_unary.py", replace_once(READABLE, "torch.ops.aten.alias.default(relu)",
                                     "torch.ops.aten.add.Scalar(relu, " + "- " * 600 + "1)"))
    fx("deep_annotation.py", replace_once(READABLE, '"f32[10][1]cpu"', '"f32[' + "(" * 1000 + "s0" + ")" * 1000 + '][1]cpu"'))


# ---------------------------------------------------------------------------------------------------------
def dump(case, files):
    """dumps/<case>/mlp_forward_0/ holding `files` (name -> bytes or text); a fresh folder each run."""
    folder = os.path.join(DUMPS_DIR, case, "mlp_forward_0")
    shutil.rmtree(os.path.join(DUMPS_DIR, case), ignore_errors=True)
    for name, data in files.items():
        write(os.path.join(folder, name), data)


def dumps():
    good = SAMPLE_INPUT
    base = {"__init__.py": INIT, "module.py": MODULE, "mlp_forward_0.readable.py": READABLE}
    # The .input pickle cut at its structural boundaries: inside the protocol header, inside the FRAME
    # length, right after the list opens, inside a global's module name, after the first tensor entry, and
    # just before STOP.
    cuts = {"input_trunc_proto": 1, "input_trunc_frame": 6, "input_trunc_list": 13,
            "input_trunc_global_name": 25, "input_trunc_entry": good.index(b"t\x94") + 2,
            "input_trunc_stop": len(good) - 1}
    for case, n in cuts.items():
        dump(case, {**base, "mlp_forward_0.input": good[:n]})
    dump("input_empty", {**base, "mlp_forward_0.input": b""})
    # Wrong types in the entries: the dtype written as the string 'float32', a size holding a float, a
    # device given as an int; and a whole file that is a dict, not a list.
    sym = (int, 8)
    rest = [tensor((8, 32), (32, 1)), tensor((10, 64), (64, 1)), tensor((10,), (1,))]
    dump("input_dtype_string", {**base, "mlp_forward_0.input": crafted_input(
        [tensor((64, 32), (32, 1)), tensor((64,), (1,), "float32 "), sym] + rest)})
    dump("input_float_size", {**base, "mlp_forward_0.input": crafted_input(
        [tensor((64, 32.0), (32, 1)), tensor((64,), (1,)), sym] + rest)})
    dump("input_device_int", {**base, "mlp_forward_0.input": crafted_input(
        [tensor((64, 32), (32, 1)), tensor((64,), (1,)), sym, rest[0],
         (mbp.FakeTensor, mbp.Size((10, 64)), (64, 1), mbp.torch.float32, 0), rest[2]])})
    dump("input_not_a_list", {**base, "mlp_forward_0.input": crafted_input({"primals_1": sym})})
    # One entry fewer than the graph has inputs: loads, the .input is not used, with a warning.
    dump("input_count_mismatch", {**base, "mlp_forward_0.input": crafted_input(
        [tensor((64, 32), (32, 1)), tensor((64,), (1,)), sym] + rest[:2])})
    # Empty graph code: the readable file or module.py (the only graph file) holds nothing.
    dump("readable_empty", {**base, "mlp_forward_0.readable.py": "", "mlp_forward_0.input": good})
    dump("module_empty", {"__init__.py": INIT, "module.py": "", "mlp_forward_0.input": good})
    # The readable file and module.py disagree (one op edited): loads, with a warning naming the difference.
    dump("readable_module_differ", {**base, "module.py": replace_once(MODULE, "aten.relu.default", "aten.gelu.default"),
                                    "mlp_forward_0.input": good})
    # module.py cut short while the readable file is whole: module.py is parsed too, and named.
    dump("module_truncated", {**base, "module.py": cut_before(MODULE, "relu, t_1);"), "mlp_forward_0.input": good})


if __name__ == "__main__":
    shutil.rmtree(FX_DIR, ignore_errors=True)
    truncations()
    encodings()
    indentation()
    annotations()
    graph_errors()
    dumps()
