"""Bad input never crashes fxray: each case exits non-zero with a message naming the file (and line/node)."""
import os
import tempfile

from cli_harness import BAD, check, main, run


def expect_error(args, *needles):
    code, out, err = run(*args)
    assert code == 2, f"exit {code} (want 2)\nstdout: {out}\nstderr: {err}"
    text = out + err  # `info` lists per-graph load errors in its report, other errors go to stderr
    assert "internal error" not in text and "Segmentation" not in text, text
    for n in needles:
        assert n in text, f"{n!r} not in:\n{text}"
    return text


@check
def missing_path_is_an_error_naming_it():
    expect_error(["info", "/no/such/place"], "/no/such/place", "no such file or directory")


@check
def empty_directory_has_no_graphs():
    with tempfile.TemporaryDirectory() as d:
        expect_error(["info", d], d, "no graphs found")


@check
def unknown_construct_in_module_py_names_file_line_and_text():
    folder = os.path.join(BAD, "dumps", "unknown_construct", "m_forward_0")
    expect_error(["info", folder], "module.py:5:", "relu if relu else primals_1")


@check
def unknown_dtype_in_annotation_names_the_dtype():
    folder = os.path.join(BAD, "dumps", "unknown_dtype", "m_forward_0")
    expect_error(["info", folder], "m_forward_0.readable.py:2:", "unknown dtype 'q7'")


@check
def garbage_input_pickle_is_refused():
    folder = os.path.join(BAD, "dumps", "garbage_input", "m_forward_0")
    expect_error(["info", folder], "m_forward_0.input")


@check
def pickle_naming_os_system_is_refused_and_nothing_runs():
    marker = "/tmp/fxray_pwned"
    if os.path.exists(marker):
        os.remove(marker)
    folder = os.path.join(BAD, "dumps", "os_system_input", "m_forward_0")
    expect_error(["info", folder], "os.system")
    assert not os.path.exists(marker)


@check
def trace_payload_with_wrong_md5_is_reported_with_its_line():
    log = os.path.join(BAD, "trace_md5", "dedicated_log_torch_trace_edited.log")
    expect_error(["info", log], log, "md5")


@check
def huge_numbers_in_folder_names_and_selectors_are_not_internal_errors():
    with tempfile.TemporaryDirectory() as d:
        folder = os.path.join(d, "m_forward_99999999999")
        os.makedirs(folder)
        with open(os.path.join(folder, "module.py"), "w") as f:
            f.write("class FxModule:\n    def forward(self, x):\n        return (x,)\n")
        code, out, err = run("info", d)  # not a graph index fxray can hold: not a dump folder, no crash
        assert code == 2 and "no graphs found" in err and "internal error" not in err, (code, err)
        log = os.path.join(BAD, "trace_md5", "dedicated_log_torch_trace_edited.log")
        expect_error(["info", log + "#99999999999/0/aot_forward_graph"], "out of range")


@check
def symlink_loops_do_not_make_discovery_hang():
    with tempfile.TemporaryDirectory() as d:
        for name in ("a", "b", "c"):
            os.symlink(".", os.path.join(d, name))
        expect_error(["info", d], "no graphs found")


@check
def unknown_command_and_bad_usage_exit_2():
    code, _, err = run("frobnicate")
    assert code == 2 and "unknown command" in err
    code, _, err = run("info")
    assert code == 2 and "usage" in err


if __name__ == "__main__":
    main()
