"""Issue 27: every writer through one path, every reader bounded, every signal handled.

Each case of the hostile trial is here with its family: Coq exports that must never destroy an
input or a device, outputs decided by the file's type and never by its name, the trace reader's
memory on a huge line, signals during start-up and during a large trace, workers that cannot
start, the trace's size budget, the estimators' float view, the claims' limits and the
messages.  The signal and memory cases run real processes under real limits (a few seconds).
"""

from __future__ import annotations

import ast
import json
import os
import resource
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

import pla
import verify
from pla.files import OutputRefused, SafeOutput, claim_directory
from pla.trace import MAX_TRACE_BYTES, TraceWriter, header_record, step_record
from tests.cli_runner import pla_cli

TEXTBOOK = "3 3 +1\n4 3 +1\n1 1 -1\n"
XOR = "0 0 -1\n1 1 -1\n0 1 1\n1 0 1\n"
PLA = [sys.executable, "-c", "import sys; from verify.cli import main; sys.exit(main())"]
ROOT = Path(__file__).resolve().parents[1]


def write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


def leftovers(directory: Path) -> list[str]:
    """Temporary files of any writer: SafeOutput's and the old ``*.tmpPID`` names."""
    return [p.name for p in directory.iterdir()
            if p.name.startswith((".pla-", ".trace-")) or ".tmp" in p.name]


def one_line_error(done, *needles: str) -> str:
    assert "Traceback" not in done.err, done.err
    lines = done.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pla: error: "), done.err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def run_limited(args: list[str], *, address_space: int | None = None,
                file_size: int | None = None, timeout: float = 180) -> subprocess.CompletedProcess:
    def limit() -> None:
        if address_space is not None:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        if file_size is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
    return subprocess.run(PLA + args, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=limit)


# ------------------------------------------------------------------ one write path
#: Methods that write or move files whatever they are called on (Path.rename, Path.write_text,
#: a file's truncate), and functions of os, shutil and tempfile that do; only pla/files.py may
#: call them (pla/trace.py may cut its own temporary file back to its last complete line).
#: ``write_text(...)`` called by its bare name is pla.files.write_text, the one path itself.
_WRITING_METHODS = {"rename", "write_text", "write_bytes", "truncate"}
_WRITING_FUNCTIONS = {"os": {"rename", "renames", "replace", "fdopen", "link", "symlink",
                             "ftruncate", "truncate", "mkfifo", "mknod"},
                      "shutil": {"copy", "copy2", "copyfile", "copytree", "move"},
                      "tempfile": {"mkstemp", "mkdtemp", "NamedTemporaryFile",
                                   "TemporaryFile", "SpooledTemporaryFile"}}
_ALLOWED = {("pla/files.py", "*"), ("pla/trace.py", "ftruncate")}


def _mode(call: ast.Call, position: int) -> str | None:
    for keyword in call.keywords:
        if keyword.arg == "mode":
            return keyword.value.value if isinstance(keyword.value, ast.Constant) else "?"
    if len(call.args) > position:
        arg = call.args[position]
        return arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else "?"
    return None


def writing_calls(source: str) -> list[tuple[int, str]]:
    """(line, what) of every call in ``source`` that can write or move a file."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else (
            func.attr if isinstance(func, ast.Attribute) else "")
        owner = func.value.id if isinstance(func, ast.Attribute) and \
            isinstance(func.value, ast.Name) else ""
        if name == "open":
            mode = _mode(node, 0 if isinstance(func, ast.Attribute) and owner != "os" else 1)
            if owner == "os":   # os.open(path, flags): writing flags
                flags = ast.unparse(node.args[1]) if len(node.args) > 1 else ""
                if any(f in flags for f in ("O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND")):
                    found.append((node.lineno, f"os.open({flags})"))
            elif mode is not None and set(mode) & set("wax+?"):
                found.append((node.lineno, f"open(..., {mode!r})"))
        elif name in _WRITING_FUNCTIONS.get(owner, ()):
            found.append((node.lineno, f"{owner}.{name}" if owner != "os" or name != "ftruncate"
                          else name))
        elif isinstance(func, ast.Attribute) and name in _WRITING_METHODS:
            found.append((node.lineno, name))
    return found


def test_the_scanner_finds_every_kind_of_writer():
    source = ("open(p, 'w')\nopen(p, mode='a')\nPath(p).open('w')\nos.replace(a, b)\n"
              "p.rename(q)\np.write_text('x')\ntempfile.mkstemp()\nos.fdopen(fd, 'w')\n"
              "shutil.move(a, b)\nos.open(p, os.O_WRONLY | os.O_CREAT)\nopen(p, m)\n"
              "open(p)\nopen(p, 'rb')\n'x'.replace('a', 'b')\nos.open(p, os.O_RDONLY)\n")
    assert [line for line, _ in writing_calls(source)] == list(range(1, 12))


def test_every_file_any_command_writes_goes_through_pla_files():
    """The installed packages (pla, verify) hold no other writer than pla/files.py; the Coq
    writers (verify/coq/library.py, `pla proof --coq`, `--coq FILE.v`) included."""
    offenders = []
    for package in (pla, verify):
        base = Path(package.__file__).resolve().parent
        for path in sorted(base.rglob("*.py")):
            relative = f"{package.__name__}/{path.relative_to(base).as_posix()}"
            for line, what in writing_calls(path.read_text(encoding="utf-8")):
                if (relative, "*") in _ALLOWED or (relative, what) in _ALLOWED:
                    continue
                if relative == "verify/cli/command.py" and what.startswith("os.open"):
                    continue   # standard output redirected to /dev/null once its reader left
                offenders.append(f"{relative}:{line}: {what}")
    assert offenders == []


# ------------------------------------------------------------------ Coq exports
@pytest.mark.parametrize("command", ["certify", "run"])
@pytest.mark.parametrize("spelling", ["same", "symlink", "hardlink"])
def test_a_coq_export_never_destroys_its_input(tmp_path, command, spelling):
    data = write(tmp_path / "d.v", TEXTBOOK)   # a data file whose name ends in .v
    target = {"same": data, "symlink": str(tmp_path / "s.v"), "hardlink": str(tmp_path / "h.v")}
    if spelling == "symlink":
        os.symlink(data, target["symlink"])
    if spelling == "hardlink":
        os.link(data, target["hardlink"])
    args = (["certify", data, "--format", "dat"] if command == "certify" else
            ["run", data, "--format", "dat", "--check"])
    done = pla_cli(*args, "--coq", target[spelling])
    assert done.code == 2
    one_line_error(done, "refusing to overwrite an input")
    assert Path(data).read_text() == TEXTBOOK
    assert not leftovers(tmp_path)


def test_a_coq_export_never_replaces_its_weights_file(tmp_path):
    data = write(tmp_path / "d.dat", TEXTBOOK)
    weights = write(tmp_path / "w.v", "-3\n1\n1\n")
    done = pla_cli("certify", data, "--weights", weights, "--coq", weights)
    assert done.code == 2 and Path(weights).read_text() == "-3\n1\n1\n"


def _device_replica(path: Path, device: str) -> str:
    """A character device node at ``path`` like ``device`` (mknod, when permitted), else a
    symbolic link to it: either way its *type* is a device whatever its name."""
    info = os.stat(device)
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, info.st_rdev)
    except PermissionError:
        os.symlink(device, path)
    return str(path)


def test_a_coq_file_onto_a_device_is_written_in_place(tmp_path):
    data = write(tmp_path / "d.dat", TEXTBOOK)
    null = _device_replica(tmp_path / "null.v", "/dev/null")
    done = pla_cli("certify", data, "--coq", null)
    assert done.code == 0, done.err
    assert stat.S_ISCHR(os.stat(null).st_mode)         # still a device, not a regular file
    full = _device_replica(tmp_path / "full.v", "/dev/full")
    done = pla_cli("certify", data, "--coq", full)
    assert done.code == 2
    one_line_error(done, "full.v", "No space left")
    assert stat.S_ISCHR(os.stat(full).st_mode) and not leftovers(tmp_path)


@pytest.mark.parametrize("command", ["certify", "proof"])
def test_a_full_disk_leaves_no_temporary_file_and_names_the_target(tmp_path, command):
    data = write(tmp_path / "d.dat", TEXTBOOK)
    out = tmp_path / "out"
    out.mkdir()
    args = (["certify", data, "--coq", str(out / "c.v"), "--coq-lib", str(out / "lib")]
            if command == "certify" else ["proof", "--coq", str(out)])
    proc = run_limited(args, file_size=3000)   # ulimit -f: like a disk that fills up
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    line = proc.stderr.strip().splitlines()[-1]
    assert line.startswith("pla: error: ") and "File too large" in line
    assert ".tmp" not in line and str(out) in line          # the target, not a temporary
    for directory in [out, *[p for p in out.rglob("*") if p.is_dir()]]:
        assert not leftovers(directory), list(directory.iterdir())


def test_pla_proof_coq_refuses_a_directory_of_the_users_own_files(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "Makefile").write_text("all:\n\techo mine\n")
    done = pla_cli("proof", "--coq", str(mine))
    assert done.code == 2
    one_line_error(done, "holds files not written by pla (Makefile)", "--force")
    assert (mine / "Makefile").read_text() == "all:\n\techo mine\n"
    assert sorted(p.name for p in mine.iterdir()) == ["Makefile"]
    lib = pla_cli("certify", write(tmp_path / "d.dat", TEXTBOOK), "--coq",
                  str(tmp_path / "c.v"), "--coq-lib", str(mine))
    assert lib.code == 2 and (mine / "Makefile").read_text() == "all:\n\techo mine\n"
    assert not (tmp_path / "c.v").exists()


def test_a_directory_written_by_pla_may_be_written_again_and_force_replaces():
    import tempfile

    from verify.coq.library import MARKER, write_library
    with tempfile.TemporaryDirectory() as d:
        empty = Path(d) / "empty"
        empty.mkdir()
        write_library(str(empty))                      # empty: accepted, marked
        assert (empty / MARKER).exists() and (empty / "Makefile").exists()
        write_library(str(empty))                      # written by pla: accepted again
        mine = Path(d) / "mine"
        mine.mkdir()
        (mine / "Makefile").write_text("mine\n")
        with pytest.raises(OutputRefused, match="not written by pla"):
            write_library(str(mine))
        write_library(str(mine), force=True)
        assert "Written by pla-verify" in (mine / "Makefile").read_text()
        with pytest.raises(OutputRefused, match="not a directory"):
            claim_directory(str(mine / "Makefile"), MARKER)


# ------------------------------------------------------------------ decided by type, not name
def _regular_targets(tmp_path: Path) -> dict[str, str]:
    shm = Path("/dev/shm")
    targets = {"proc-cwd": "/proc/self/cwd/old.jsonl",
               "symlink": str(tmp_path / "link.jsonl")}
    os.symlink(tmp_path / "real.jsonl", targets["symlink"])
    if shm.is_dir() and os.access(shm, os.W_OK):
        targets["dev-shm"] = str(shm / f"pla-issue27-{os.getpid()}-{tmp_path.name}.jsonl")
    return targets


def test_regular_files_under_dev_and_proc_are_replaced_never_appended(tmp_path):
    data = write(tmp_path / "xor.dat", XOR)
    for kind, target in _regular_targets(tmp_path).items():
        try:
            for _ in range(2):
                proc = subprocess.run(PLA + ["run", data, "--max-updates", "20", "--trace",
                                             target], capture_output=True, text=True,
                                      timeout=120, cwd=tmp_path)
                assert proc.returncode == 3, (kind, proc.stderr)
            real = Path(os.path.realpath(target)) if kind != "proc-cwd" else tmp_path / "old.jsonl"
            kinds = [json.loads(line)["kind"] for line in real.read_text().splitlines()]
            assert kinds.count("header") == 1 and kinds[-1] == "summary", kind
            assert pla_cli("audit", str(real), "--data", data).code == 0, kind
            if kind == "symlink":
                assert os.path.islink(target)              # the link kept, its file replaced
        finally:
            if kind == "dev-shm" and os.path.exists(target):
                os.unlink(target)


def test_make_data_to_a_regular_file_under_dev_shm_replaces_it(tmp_path):
    target = Path(f"/dev/shm/pla-issue27-{os.getpid()}.dat")
    if not os.access("/dev/shm", os.W_OK):
        target = tmp_path / "x.dat"
    try:
        for n in ("7", "5"):
            assert pla_cli("make-data", "--n", n, str(target)).code == 0
        assert len(target.read_text().splitlines()) == 5
    finally:
        target.unlink(missing_ok=True)


def test_a_hard_link_is_replaced_and_its_other_name_keeps_the_old_content(tmp_path):
    old = tmp_path / "a.txt"
    old.write_text("old\n")
    os.link(old, tmp_path / "b.txt")
    with SafeOutput(old) as out:
        out.write("new\n")
        out.commit()
    assert old.read_text() == "new\n" and (tmp_path / "b.txt").read_text() == "old\n"


# ------------------------------------------------------------------ the trace reader
def _trace(tmp_path: Path, *args: str) -> tuple[str, Path]:
    data = write(tmp_path / "xor.dat", XOR)
    trace = tmp_path / "t.jsonl"
    done = pla_cli("run", data, "--max-updates", "40", "--trace", str(trace), *args)
    assert done.code == 3, done.err
    return data, trace


def test_a_50_megabyte_line_is_refused_in_bounded_memory(tmp_path):
    """Issue case: the second line one 50 MB JSON string took 6 GB; now the line's length is
    checked before it is read whole, under a 1.5 GiB address-space limit (the interpreter and
    numpy alone take most of it)."""
    data, trace = _trace(tmp_path)
    lines = trace.read_text().splitlines()
    for name, line in (("string", '{"kind":"step","x":"' + "\\\\" * 25_000_000 + '"}'),
                       ("escapes", '["' + '\\"' * 25_000_000 + '"]')):
        huge = tmp_path / f"{name}.jsonl"
        huge.write_text("\n".join([lines[0], line, *lines[1:]]) + "\n")
        proc = run_limited(["audit", str(huge), "--data", data], address_space=1536 * 2**20)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr[-500:]
        assert "line 2: format" in proc.stdout and "longer than any genuine line" in proc.stdout


def test_the_line_limit_admits_every_genuine_line(tmp_path):
    """The limit is an upper bound for real traces: big numbers and fractional eta included."""
    data = write(tmp_path / "big.dat", "1/3 123456789012345678901234567890 1\n"
                                       "-7/11 -98765432109876543210 -1\n5 1/7 1\n")
    trace = tmp_path / "t.jsonl"
    assert pla_cli("run", data, "--eta", "22/7", "--w0", "1/9,-3/5,2", "--order", "random",
                   "--max-updates", "300", "--trace", str(trace)).code in (0, 3)
    assert pla_cli("audit", str(trace), "--data", data).code == 0


def test_the_nesting_scan_is_linear_and_still_sees_brackets_outside_strings():
    from verify.checks.audit import _Fail, _trace_json
    assert _trace_json('{"a":"[[[[[[[[[[\\\\]]]]]]","b":[1]}')["b"] == [1]
    with pytest.raises(_Fail, match="nested"):
        _trace_json('{"a":"\\\\\\"",' + '"b":' + "[" * 9 + "]" * 9 + "}")


# ------------------------------------------------------------------ signals and large traces
def _script_pla() -> list[str]:
    """The console script, as a user starts it (the start-up imports included)."""
    script = Path(sys.executable).with_name("pla")
    return [str(script)] if script.exists() else PLA


def test_sigterm_during_the_start_up_imports_exits_cleanly(tmp_path):
    """Issue case: SIGTERM 0.05–0.95 s after start gave a traceback in 4 of 10 tries."""
    data = write(tmp_path / "t.dat", TEXTBOOK)
    for delay in (0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.7, 0.95):
        proc = subprocess.Popen(_script_pla() + ["run", data, "--check"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(delay)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
        assert "Traceback" not in err, (delay, err)
        assert proc.returncode in (0, 143, -signal.SIGTERM), (delay, proc.returncode, err)
        if proc.returncode == 143:
            assert err.strip().splitlines()[-1] == "pla: terminated (SIGTERM)", err


#: A ``pla run`` (verify.cli.main, so its own signal handlers) whose third step drops an object
#: that waits for the signal in its ``__del__`` or in a weakref callback on it: what the signal's
#: handler raises there Python cannot propagate (an "unraisable" exception).  The child says
#: "ready" on the descriptor argv[1] once it waits, so the parent's signal lands there.
_SIGNAL_IN_A_FINALIZER = """
import os, sys, time, weakref
import verify.cli.run as run_command
from verify.cli import main

ready, where = int(sys.argv[1]), sys.argv[2]
record, steps = run_command.step_record, []

def wait_for_the_signal(*_):
    os.write(ready, b"ready")
    time.sleep(600)

class Held:
    def __del__(self):
        if where == "__del__":
            wait_for_the_signal()

def step_record(step):
    steps.append(step)
    if len(steps) == 3:
        held = Held()
        ref = weakref.ref(held, wait_for_the_signal if where == "weakref" else None)
        del held  # __del__, then the callback: the signal lands in one of them
    return record(step)

run_command.step_record = step_record
sys.exit(main(sys.argv[3:]))
"""


@pytest.mark.parametrize("signum, where", [(signal.SIGTERM, "__del__"),
                                           (signal.SIGINT, "weakref")])
def test_a_signal_that_lands_in_a_finalizer_still_stops_the_run(tmp_path, signum, where):
    """CI drew it: SIGTERM landed in the import machinery's weakref callback, Python printed
    "Exception ignored ... Terminated" with a traceback, lost the exception and ran on.  The
    command's sys.unraisablehook delivers the signal again, so the run stops in its next
    ordinary frame as promised: one line, exit 128 + signal, the trace ends ``incomplete``.
    (Without the hook the run goes on to its --timeout: exit 3 and a summary line.)"""
    data, trace = write(tmp_path / "xor.dat", XOR), tmp_path / "t.jsonl"
    ready, ready_writer = os.pipe()
    proc = subprocess.Popen(
        [sys.executable, "-c", _SIGNAL_IN_A_FINALIZER, str(ready_writer), where,
         "run", data, "--timeout", "60", "--trace", str(trace)],
        cwd=tmp_path, pass_fds=(ready_writer,), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        os.close(ready_writer)
        assert os.read(ready, 5) == b"ready", proc.communicate(timeout=120)
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=120)
    finally:
        os.close(ready)
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert proc.returncode == 128 + signum, (proc.returncode, err)
    said = "pla: terminated (SIGTERM)" if signum == signal.SIGTERM else "pla: interrupted"
    assert err.strip().splitlines()[-1] == said, err
    last = json.loads(trace.read_text().splitlines()[-1])
    reason = "terminated (SIGTERM)" if signum == signal.SIGTERM else "interrupted"
    assert last["kind"] == "incomplete" and last["reason"] == reason, last
    assert not leftovers(tmp_path)


def _wait_for_temporary(directory: Path, size: int, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:
        temporaries = [p for p in directory.iterdir() if p.name.startswith(".trace-")]
        if temporaries and temporaries[0].stat().st_size >= size:
            return
        time.sleep(0.1)
    raise AssertionError(f"no temporary trace of {size} bytes: {proc.poll()}")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_large_trace_is_finished_in_constant_memory(tmp_path, signum):
    """Issue case: Ctrl-C with a 45 MB temporary trace under `ulimit -v 380000` ran out of
    memory and lost the trace (abort() re-read the whole file).  Here 20 MB under 400 MB."""
    data = write(tmp_path / "xor.dat", XOR)
    trace = tmp_path / "t.jsonl"

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (400 * 2**20, 400 * 2**20))
    proc = subprocess.Popen(PLA + ["run", data, "--max-updates", "1000000000", "--trace",
                                   str(trace)], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=limit)
    _wait_for_temporary(tmp_path, 20 * 2**20, proc)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 128 + signum and "Traceback" not in err, err
    with trace.open("rb") as handle:
        handle.seek(-300, os.SEEK_END)
        last = json.loads(handle.read().splitlines()[-1])
    assert last["kind"] == "incomplete" and not leftovers(tmp_path)
    assert last["reason"] == ("interrupted" if signum == signal.SIGINT else "terminated (SIGTERM)")
    if signum == signal.SIGINT:     # (the same abort() finishes both; its 100,000 updates are
        # audited once: about 15 s of the suite's time each)
        assert pla_cli("audit", str(trace), "--data", data, "--max-input-bytes",
                       str(2**31)).code == 5


def test_abort_cuts_a_partial_line_and_keeps_a_pending_complete_one(tmp_path):
    from verify.checks.audit import audit
    ds = pla.Dataset.from_rows([[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1])
    steps = pla.run(ds, max_updates=3).steps
    options = pla.RunOptions()
    for case in ("partial", "pending"):
        path = tmp_path / f"{case}.jsonl"
        writer = TraceWriter(path, header_record(ds, options))
        writer.write(step_record(steps[0]))
        if case == "partial":       # interrupted in the middle of a line
            writer._out.write('{"kind":"step","t":1,"ind')
        else:                       # interrupted after a whole line, before it was remembered
            text = writer._line(step_record(steps[1]))
            writer._pending = (writer.bytes + len(text) + 1,
                               __import__("hashlib").sha256(text.encode()).hexdigest(),
                               writer.lines + 1)
            writer._out.write(text + "\n")
        writer.abort("interrupted")
        report = audit(str(path), ds)
        assert report.status == "incomplete", report
        assert report.steps == (1 if case == "partial" else 2)


# ------------------------------------------------------------------ workers and the trace budget
def test_workers_that_cannot_start_are_one_line(monkeypatch):
    import multiprocessing

    from pla.experiments import parallel_map
    from pla.runs import OptionError

    class NoThreads:
        def Pool(self, *args, **kwargs):
            raise RuntimeError("can't start new thread")
    monkeypatch.setattr(multiprocessing, "get_context", lambda method: NoThreads())
    with pytest.raises(OptionError, match="cannot start 4 worker processes .*can't start new "
                                          "thread.*--jobs"):
        parallel_map(abs, list(range(10)), jobs=4)


def test_runs_and_jobs_under_a_memory_limit_end_in_one_line_or_succeed(tmp_path):
    """Issue case: `ulimit -v 300000` with `--runs 200 --jobs 4` gave a traceback."""
    data = write(tmp_path / "t.dat", TEXTBOOK)
    proc = run_limited(["run", data, "--order", "random", "--runs", "200", "--jobs", "4"],
                       address_space=300_000 * 1024)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 2), proc.stderr
    if proc.returncode == 2:
        assert proc.stderr.strip().splitlines()[-1].startswith("pla: error: ")


def test_max_trace_bytes_stops_like_a_budget_and_the_audit_checks_it(tmp_path):
    data, trace = _trace(tmp_path)   # 40 updates fit in the default budget
    assert json.loads(trace.read_text().splitlines()[0])["options"]["max_trace_bytes"] \
        == MAX_TRACE_BYTES
    big = tmp_path / "big.jsonl"
    done = pla_cli("run", data, "--max-updates", "1000000000", "--trace", str(big),
                   "--max-trace-bytes", "20000", "--json")
    assert done.code == 3 and json.loads(done.out)["stopped_by"] == "max-trace-bytes"
    assert "--max-trace-bytes 20,000" in done.err
    lines = big.read_text().splitlines()
    assert 20000 <= sum(len(line) + 1 for line in lines[:-1]) < 20000 + 2 * len(lines[-2])
    assert pla_cli("audit", str(big), "--data", data).code == 0
    # forged: a summary claiming the size budget on a trace below it
    from verify.checks.audit import audit_text
    from tests.test_audit import rechain
    short = trace.read_text().splitlines()
    summary = json.loads(short[-1])
    short[-1] = json.dumps(dict(summary, stopped_by="max-trace-bytes"), separators=(",", ":"))
    report = audit_text(rechain(short), pla.load(data))
    assert report.status == "failed" and report.failure.check == "budget"


def test_the_default_trace_budget_is_documented_and_auditable():
    from pla.files import MAX_INPUT_BYTES
    assert MAX_TRACE_BYTES == MAX_INPUT_BYTES   # a default trace is read by a default audit
    page = (ROOT / "docs" / "reliability.md").read_text()
    assert "`--max-trace-bytes N`" in page and f"{MAX_TRACE_BYTES // 2**20} MiB" in page


# ------------------------------------------------------------------ estimators
def test_the_float_view_is_infinite_for_huge_numbers():
    clf = pla.Perceptron(max_updates=50).fit([[10**400, 1], [-10**400, 2]], [1, -1])
    assert clf.coef_float_[0][0] == float("inf") and clf.coef_[0][0] == 10**400
    clf = pla.Perceptron(max_updates=50).fit([[-10**400, 1], [10**400, 2]], [1, -1])
    assert clf.coef_float_[0][0] == float("-inf")


@pytest.mark.parametrize("timeout", [-1, 0, float("nan"), float("inf"), True, "1"])
def test_a_bad_timeout_is_refused(timeout):
    from pla.runs import OptionError
    with pytest.raises(OptionError, match="timeout must be None or a positive number"):
        pla.Perceptron(timeout=timeout).fit([[1], [2]], [1, -1])


# ------------------------------------------------------------------ claims and messages
def test_too_many_assumptions_stop_before_anything_is_built(tmp_path):
    lines = ["assume: " + ", ".join(f"a >= -{(i * 180 + j) % 9 + 1}" for j in range(180))
             for i in range(199)]
    md = write(tmp_path / "many.md", "```claim\n" + "\n".join(lines) + "\na**2 >= 0\n```\n")
    done = pla_cli("claims", md, "--json")
    (claim,) = json.loads(done.out)["claims"]
    assert done.code == 1 and claim["status"] == "unproved"
    assert claim["reason"].startswith("search limit reached: 35820 assumptions")
    from verify.claims.checker import check_claim_text
    from verify.claims.assumption_count import MAX_ASSUMPTIONS
    at_limit = "assume: " + ", ".join(["a >= 0"] * 5) + "\na >= 0"
    assert check_claim_text(at_limit).status == "proved"
    assert MAX_ASSUMPTIONS >= 5


def test_pytest_claims_on_a_file_that_is_not_utf8_is_one_clean_error(tmp_path):
    (tmp_path / "bad.md").write_bytes(b"```claim\nx**2 >= 0 \xff\n```\n")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           "--claims", "bad.md"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=180)
    assert proc.returncode != 0
    assert "bad.md: not UTF-8 text" in proc.stdout
    assert "UnicodeDecodeError" not in proc.stdout and "Traceback" not in proc.stdout


def test_pla_claims_with_nothing_to_check_is_an_error(tmp_path):
    (tmp_path / "notes.txt").write_text("no markdown here\n")
    done = pla_cli("claims", str(tmp_path))
    assert done.code == 2
    one_line_error(done, "no Markdown files", "nothing to check")


@pytest.mark.parametrize("value", ["-1", "0", "-5000"])
def test_a_non_positive_byte_limit_says_positive(tmp_path, value):
    data = write(tmp_path / "t.dat", TEXTBOOK)
    done = pla_cli("run", data, "--max-input-bytes", value)
    assert done.code == 2
    one_line_error(done, f"expected a positive integer, not '{value}'")


def test_reliability_page_gives_a_refused_claim_the_exit_code_of_pla_claims():
    row = next(line for line in (ROOT / "docs" / "reliability.md").read_text().splitlines()
               if "tries to run code" in line)
    assert row.rstrip(" |").split("|")[-1].strip().startswith("2")
    assert "exit 2 when the only problems are malformed blocks" in " ".join(
        pla_cli("claims", "--help").out.split())


def test_a_trace_to_the_commands_own_standard_output_file_is_appended(tmp_path):
    """A regular file that is the command's own standard output (compared by inode) keeps what
    the command prints there: the trace is appended, not renamed over it."""
    data = write(tmp_path / "t.dat", TEXTBOOK)
    out = tmp_path / "out.txt"
    with out.open("w") as stdout:
        proc = subprocess.run(PLA + ["run", data, "--trace", "/dev/stdout"], stdout=stdout,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    assert '"kind":"summary"' in text and "result   halted" in text


class _ParserOf:
    """A stand-in for the command's parser whose one command is ``handler``."""

    def __init__(self, handler):
        self.handler = handler

    def parse_args(self, argv):
        import argparse
        return argparse.Namespace(handler=self.handler)


@pytest.mark.parametrize("signum, line, code", [
    (signal.SIGTERM, "pla: terminated (SIGTERM)", 143), (signal.SIGINT, "pla: interrupted", 130)])
def test_a_signal_that_an_import_turns_into_an_import_error_still_ends_cleanly(
        monkeypatch, capsys, signum, line, code):
    """What the start-up SIGTERM test met once in CI (session 40): the signal landed while
    numpy's extension module imported ``datetime`` through ``PyCapsule_Import``, which replaces
    whatever exception the import raised by an ImportError, and numpy raised its own
    ImportError from that.  The command's handler had raised Terminated; a traceback came out.
    The handlers now record the signal, and an exception that reaches the command after it
    ends the command as that signal does, in one line."""
    from verify.cli import command

    def handler(args):
        try:
            signal.raise_signal(signum)           # the command's own handler raises here
        except BaseException as exc:
            raise ImportError('PyCapsule_Import could not import module "datetime"') from exc
        return 0

    monkeypatch.setattr(command, "build_parser", lambda: _ParserOf(handler))
    assert command.main(["run"]) == code
    assert capsys.readouterr().err.strip().splitlines() == [line]


def test_an_import_error_with_no_signal_behind_it_is_not_called_a_signal(monkeypatch):
    """(the record is per command: an earlier command's signal says nothing of this one)"""
    from verify.cli import command

    def signalled(args):
        signal.raise_signal(signal.SIGTERM)

    def failing(args):
        raise ImportError("a module that is not there")

    monkeypatch.setattr(command, "build_parser", lambda: _ParserOf(signalled))
    assert command.main(["run"]) == 143
    monkeypatch.setattr(command, "build_parser", lambda: _ParserOf(failing))
    with pytest.raises(ImportError, match="not there"):
        command.main(["run"])
