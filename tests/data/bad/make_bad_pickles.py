#!/usr/bin/env python3
"""Writes the small hand-made test files of tests/core/test_pickle.cpp and test_pt_file.cpp.

    python3 tests/data/bad/make_bad_pickles.py      (python3 stdlib only; rerun after editing)

pickle/  golden_p<N>.pkl: GOLDEN pickled with protocol N by Python's own pickle (the test mirrors GOLDEN);
         broken or hostile pickles; .input files in the seed layout (FORMATS.md section 1).
zip/     golden_*.pt: torch.save-like archives written the way torch does (pickle protocol 2 data.pkl with
         persistent-id storages, 64-byte aligned stored entries, data descriptors, ZIP64 end records) through
         a stand-in `torch` module, so torch itself is not needed; broken archives derived from them.
Every file stays under 4 KiB. Nothing here is ever unpickled by Python.
"""
import collections
import io
import os
import pickle
import struct
import sys
import types
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
PICKLE_DIR = os.path.join(HERE, "pickle")
ZIP_DIR = os.path.join(HERE, "zip")
PWNED = "/tmp/fxray_pickle_pwned"  # what the hostile pickles would create if anything ran them


def write(folder, name, data):
    assert len(data) < 4096, (name, len(data))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


# ---------------------------------------------------------------------------------------------------------
# A stand-in for the parts of torch that torch.save pickles by name. pickle checks that a global can be
# found under its module and name, so the stand-ins are registered in sys.modules.
def fake_module(name):
    mod = types.ModuleType(name)
    sys.modules[name] = mod
    return mod


torch = fake_module("torch")
torch_utils = fake_module("torch._utils")
torch_subclasses = fake_module("torch._subclasses")
fake_tensor_mod = fake_module("torch._subclasses.fake_tensor")
torch_storage = fake_module("torch.storage")
torch._utils = torch_utils


def fake_function(module, name):
    def f(*args):
        raise RuntimeError("stand-in")

    f.__module__, f.__name__, f.__qualname__ = module.__name__, name, name
    setattr(module, name, f)
    return f


_rebuild_tensor_v2 = fake_function(torch_utils, "_rebuild_tensor_v2")
_rebuild_tensor_v3 = fake_function(torch_utils, "_rebuild_tensor_v3")
_rebuild_parameter = fake_function(torch_utils, "_rebuild_parameter")


def fake_class(module, name):
    cls = type(name, (), {"__module__": module.__name__})
    setattr(module, name, cls)
    return cls


FakeTensor = fake_class(fake_tensor_mod, "FakeTensor")
for _n in ["FloatStorage", "LongStorage", "BFloat16Storage", "Size", "device"]:
    fake_class(torch, _n)
fake_class(torch_storage, "UntypedStorage")  # torch pickles it under its defining module


class DType:
    """Pickled by name as the global torch.<name>, like torch.dtype."""

    def __init__(self, name):
        self.name = name

    def __reduce__(self):
        return self.name


DType.__module__ = "torch"
for _n in ["float32", "int64", "uint16", "bfloat16"]:
    setattr(torch, _n, DType(_n))


class Size(tuple):
    def __reduce__(self):
        return (torch.Size, (tuple(self),))


class Device:
    def __init__(self, *args):
        self.args = args

    def __reduce__(self):
        return (torch.device, self.args)


class Storage:
    def __init__(self, cls, key, location, numel, data):
        self.cls, self.key, self.location, self.numel, self.data = cls, key, location, numel, data


class Tensor:
    def __init__(self, storage, offset, size, stride, requires_grad=False, v3_dtype=None):
        self.args = (storage, offset, tuple(size), tuple(stride), requires_grad)
        self.v3_dtype = v3_dtype

    def __reduce_ex__(self, proto):
        args = self.args + (collections.OrderedDict(),)
        if self.v3_dtype is not None:
            return (_rebuild_tensor_v3, args + (self.v3_dtype,))
        return (_rebuild_tensor_v2, args)


class Parameter:
    def __init__(self, tensor):
        self.tensor = tensor

    def __reduce_ex__(self, proto):
        return (_rebuild_parameter, (self.tensor, True, collections.OrderedDict()))


class TorchPickler(pickle.Pickler):
    def persistent_id(self, obj):
        if isinstance(obj, Storage):
            return ("storage", obj.cls, obj.key, obj.location, obj.numel)
        return None


def storages_of(value, out):
    if isinstance(value, Storage):
        out[value.key] = value
    elif isinstance(value, Tensor):
        storages_of(value.args[0], out)
    elif isinstance(value, Parameter):
        storages_of(value.tensor, out)
    elif isinstance(value, dict):
        for v in value.values():
            storages_of(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            storages_of(v, out)
    return out


def torch_pickle(value):
    buf = io.BytesIO()
    TorchPickler(buf, protocol=2).dump(value)
    return buf.getvalue()


def zip_entries(archive, value, data_pkl=None, byteorder=b"little"):
    """The entries torch.save writes, in its order."""
    entries = [(archive + "/data.pkl", data_pkl if data_pkl is not None else torch_pickle(value)),
               (archive + "/.format_version", b"1"),
               (archive + "/.storage_alignment", b"64"),
               (archive + "/byteorder", byteorder)]
    for key, st in sorted(storages_of(value, {}).items()):
        entries.append((archive + "/data/" + key, st.data))
    entries.append((archive + "/version", b"3\n"))
    entries.append((archive + "/.data/serialization_id", b"0123456789012345678901234567890123456789"))
    return entries


def torch_zip(entries, zip64_extra=False):
    """A stored zip laid out like PyTorch's writer: data 64-byte aligned through an 'FB' padding extra field,
    sizes in data descriptors (flag bit 3), ZIP64 end record + locator. With zip64_extra, the central
    directory holds all-ones sizes/offsets and the real values in ZIP64 extra fields."""
    out = bytearray()
    central = bytearray()
    for name, data in entries:
        nb = name.encode()
        offset = len(out)
        pad = (-(offset + 30 + len(nb) + 4)) % 64
        extra = b"FB" + struct.pack("<H", pad) + b"Z" * pad
        crc = zlib.crc32(data)
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0x0808, 0, 0, 0x21, 0, 0, 0, len(nb), len(extra))
        out += nb + extra
        assert len(out) % 64 == 0
        out += data
        out += struct.pack("<IIII", 0x08074B50, crc, len(data), len(data))
        if zip64_extra:
            cd_extra = struct.pack("<HHQQQ", 1, 24, len(data), len(data), offset)
            sizes = (0xFFFFFFFF, 0xFFFFFFFF)
            cd_offset = 0xFFFFFFFF
        else:
            cd_extra = b""
            sizes = (len(data), len(data))
            cd_offset = offset
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x031E, 45 if zip64_extra else 20, 0x0808, 0,
                               0, 0x21, crc, sizes[0], sizes[1], len(nb), len(cd_extra), 0, 0, 0, 0, cd_offset)
        central += nb + cd_extra
    cd_start = len(out)
    out += central
    z64 = len(out)
    n = len(entries)
    out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x1E, 45, 0, 0, n, n, len(central), cd_start)
    out += struct.pack("<IIQI", 0x07064B50, 0, z64, 1)
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, len(central), cd_start, 0)
    return bytes(out)


def fixed_time(name):
    """A zip entry with a fixed date, so reruns write identical files."""
    return zipfile.ZipInfo(name, date_time=(2025, 1, 1, 0, 0, 0))


def f32(*values):
    return struct.pack("<%df" % len(values), *values)


def i64(*values):
    return struct.pack("<%dq" % len(values), *values)


# ---------------------------------------------------------------------------------------------------------
# Golden pickles: the test (goldenPicklesMatchPythonValues) checks each protocol's file against this value.
def golden_value():
    shared = [7, 8]
    return {
        "none": None,
        "true": True,
        "false": False,
        "ints": [0, 1, -1, 255, 256, 65535, 65536, -2**31, 2**31 - 1, 2**31, 2**63 - 1, -2**63],
        "floats": [0.5, -1.25e300, 3.0, float("inf")],
        "str": "h\u00e9llo \u2713",
        "long_str": "x" * 300,
        "empty_str": "",
        "bytes": b"\x00\x01\xff",
        "long_bytes": bytes(range(256)) * 2,
        "empty_bytes": b"",
        "bytearray": bytearray(b"ab"),
        "tuples": [(), (1,), (1, 2), (1, 2, 3), (1, 2, 3, 4)],
        "set": {1, 2, 3},
        "frozenset": frozenset({4}),
        "shared": [shared, shared],
        "nested": [[[[]]]],
        "od": collections.OrderedDict([("b", 1), ("a", 2)]),
        7: "int key",
    }


def golden_pickles():
    for proto in range(0, 6):
        write(PICKLE_DIR, "golden_p%d.pkl" % proto, pickle.dumps(golden_value(), protocol=proto))


# ---------------------------------------------------------------------------------------------------------
def hostile_pickles():
    # os.system by its documented name (protocol 0 GLOBAL), as posix.system (what Python writes on Linux,
    # protocol 4 STACK_GLOBAL) and builtins.eval (protocol 2, spelled __builtin__.eval).
    write(PICKLE_DIR, "os_system_p0.pkl", b"cos\nsystem\n(S'touch " + PWNED.encode() + b"'\ntR.")

    class Hostile:
        def __init__(self, fn, arg):
            self.fn, self.arg = fn, arg

        def __reduce__(self):
            return (self.fn, (self.arg,))

    p4 = pickle.dumps(Hostile(os.system, "touch " + PWNED), protocol=4)
    assert b"posix" in p4
    write(PICKLE_DIR, "posix_system_p4.pkl", p4)
    p2 = pickle.dumps(Hostile(eval, "__import__('os').system('touch %s')" % PWNED), protocol=2)
    assert b"__builtin__\neval" in p2
    write(PICKLE_DIR, "builtins_eval_p2.pkl", p2)


def broken_pickles():
    write(PICKLE_DIR, "garbage.pkl", bytes([0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x13, 0x37, 0xFF]) * 8)
    loop = []
    loop.append(loop)
    write(PICKLE_DIR, "recursive_list.pkl", pickle.dumps(loop, protocol=2))
    # BINUNICODE declaring 2 GiB - 1 with three bytes behind it; BINBYTES8 declaring 2**62.
    write(PICKLE_DIR, "huge_string.pkl", b"\x80\x04X\xff\xff\xff\x7fabc")
    write(PICKLE_DIR, "huge_bytes8.pkl", b"\x80\x04\x8e" + struct.pack("<Q", 2**62) + b"abc")
    nested = []
    for _ in range(300):
        nested = [nested]
    write(PICKLE_DIR, "deep_lists.pkl", pickle.dumps(nested, protocol=2))
    write(PICKLE_DIR, "deep_tuples.pkl", b"\x80\x02)" + b"\x85" * 1000 + b".")
    write(PICKLE_DIR, "deep_marks.pkl", b"\x80\x02" + b"(" * 1000 + b"N.")
    write(PICKLE_DIR, "next_buffer_p5.pkl", b"\x80\x05\x97.")
    write(PICKLE_DIR, "bad_memo.pkl", b"\x80\x02h\x05.")


def input_pickles():
    def tensor(size, stride, dtype, *device):
        return (FakeTensor, Size(size), tuple(stride), getattr(torch, dtype), Device(*device))

    # What fxray's capture companion writes for SymInt placeholders: (int, hint); plain ints stay (int,).
    write(PICKLE_DIR, "symint.input", pickle.dumps(
        [tensor((4, 8), (8, 1), "float32", "cuda", 0), (int, 24), (int,), (float,), (float, 0.5),
         tensor((), (), "int64", "cpu")], protocol=4))
    write(PICKLE_DIR, "bad_entry.input", pickle.dumps(
        [tensor((2,), (1,), "float32", "cuda", 0), ("junk",)], protocol=4))
    write(PICKLE_DIR, "bad_rank.input", pickle.dumps(
        [tensor((2, 3), (3,), "float32", "cuda", 0)], protocol=4))


# ---------------------------------------------------------------------------------------------------------
def pt_files():
    w = Storage(torch.FloatStorage, "0", "cpu", 12, f32(*range(12)))
    b = Storage(torch.FloatStorage, "1", "cuda:0", 3, f32(0.5, 1.5, 2.5))
    steps = Storage(torch.LongStorage, "2", "cpu", 1, i64(7))
    half = Storage(torch.BFloat16Storage, "3", "cpu", 4, struct.pack("<4H", 0x3F80, 0x4000, 0x4040, 0x4080))
    u16 = Storage(torch_storage.UntypedStorage, "4", "cpu", 6, struct.pack("<3H", 1, 2, 65535))
    sd = collections.OrderedDict()
    sd["fc.weight"] = Parameter(Tensor(w, 0, (3, 4), (4, 1), requires_grad=True))
    sd["fc.bias"] = Parameter(Tensor(b, 0, (3,), (1,), requires_grad=True))
    sd["bn.num_batches_tracked"] = Tensor(steps, 0, (), ())
    sd["fc.weight_t"] = Tensor(w, 0, (4, 3), (1, 4))          # a transposed view of storage 0
    sd["fc.weight_row1"] = Tensor(w, 5, (3,), (1,))           # offset view: elements 5..7
    sd["half"] = Tensor(half, 0, (2, 2), (2, 1))
    sd["u16"] = Tensor(u16, 0, (3,), (1,), v3_dtype=torch.uint16)
    sd._metadata = collections.OrderedDict([("", {"version": 1})])
    write(ZIP_DIR, "golden_state_dict.pt", torch_zip(zip_entries("golden_state_dict", sd)))

    x = Storage(torch.FloatStorage, "0", "cuda:0", 6, f32(1, 2, 3, 4, 5, 6))
    idx = Storage(torch.LongStorage, "1", "cuda:0", 4, i64(3, 1, 4, -1))
    cl = Storage(torch.FloatStorage, "2", "cuda:0", 8, f32(*range(8)))
    inputs = [Tensor(x, 0, (2, 3), (3, 1)), 5, 2.5, True, Tensor(idx, 0, (4,), (1,)),
              Tensor(cl, 0, (1, 2, 2, 2), (8, 1, 4, 2))]
    golden_inputs = torch_zip(zip_entries("golden_inputs", inputs))
    write(ZIP_DIR, "golden_inputs.pt", golden_inputs)
    write(ZIP_DIR, "golden_zip64.pt", torch_zip(zip_entries("golden_zip64", inputs), zip64_extra=True))

    # Broken archives.
    write(ZIP_DIR, "truncated.pt", golden_inputs[:700])
    cd = golden_inputs.rfind(b"PK\x06\x06")
    cd_start = struct.unpack_from("<Q", golden_inputs, cd + 48)[0]
    bad_sig = bytearray(golden_inputs)
    bad_sig[cd_start + 3] = 0x09  # PK\x01\x02 -> PK\x01\x09
    write(ZIP_DIR, "bad_central_dir.pt", bytes(bad_sig))
    bad_offset = bytearray(golden_inputs)
    struct.pack_into("<Q", bad_offset, cd + 48, len(golden_inputs) + 100)
    write(ZIP_DIR, "central_dir_out_of_bounds.pt", bytes(bad_offset))

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(fixed_time("deflate/data.pkl"), torch_pickle([1, 2, 3]),
                   compress_type=zipfile.ZIP_DEFLATED)
        z.writestr(fixed_time("deflate/byteorder"), b"little", compress_type=zipfile.ZIP_STORED)
    write(ZIP_DIR, "deflate.pt", buf.getvalue())

    # Storage of 8 floats, tensor needs 16.
    small = Storage(torch.FloatStorage, "0", "cpu", 8, f32(*range(8)))
    write(ZIP_DIR, "small_storage.pt", torch_zip(zip_entries("small_storage", [Tensor(small, 0, (4, 4), (4, 1))])))
    # Storage declares 16 floats, its entry holds 8.
    short = Storage(torch.FloatStorage, "0", "cpu", 16, f32(*range(8)))
    write(ZIP_DIR, "short_storage_entry.pt",
          torch_zip(zip_entries("short_storage_entry", [Tensor(short, 0, (16,), (1,))])))
    write(ZIP_DIR, "big_endian.pt", torch_zip(zip_entries("big_endian", [5], byteorder=b"big")))
    loop = []
    loop.append(loop)
    write(ZIP_DIR, "self_reference.pt", torch_zip(zip_entries("self_reference", None, data_pkl=torch_pickle(loop))))
    # A parameter whose data is itself: _rebuild_from_type_v2(_rebuild_parameter, Tensor, L, None) with
    # L = [<that very call>, True], closed through the memo.
    wrapped = (b"\x80\x02]q\x00ctorch._tensor\n_rebuild_from_type_v2\n(ctorch._utils\n_rebuild_parameter\n"
               b"ctorch\nTensor\nh\x00NtRq\x01h\x00(h\x01\x88e0.")
    write(ZIP_DIR, "wrapped_self.pt", torch_zip(zip_entries("wrapped_self", None, data_pkl=wrapped)))
    # _rebuild_from_type_v2 whose arguments are its own argument list: L = [from_type_v2, Tensor, L, None].
    rewrapped = (b"\x80\x02]q\x00ctorch._tensor\n_rebuild_from_type_v2\nq\x01h\x00(h\x01ctorch\nTensor\nq\x02"
                 b"h\x00Ne0(h\x01h\x02h\x00NtR.")
    write(ZIP_DIR, "rewrapped_self.pt", torch_zip(zip_entries("rewrapped_self", None, data_pkl=rewrapped)))
    write(ZIP_DIR, "hostile.pt", torch_zip(zip_entries("hostile", None, data_pkl=open(
        os.path.join(PICKLE_DIR, "os_system_p0.pkl"), "rb").read())))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        z.writestr(fixed_time("notes/readme.txt"), b"not a torch.save file")
    write(ZIP_DIR, "not_torch.zip", buf.getvalue())


if __name__ == "__main__":
    golden_pickles()
    hostile_pickles()
    broken_pickles()
    input_pickles()
    pt_files()
