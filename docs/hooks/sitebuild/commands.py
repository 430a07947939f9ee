"""Run the real ``pla`` commands a page shows, at build time, and insert their real output.

Two fenced-block kinds are expanded before Markdown sees the page:

````text
```pla-file data/bad.txt
1 2 +1
1 oops -1
```
````

writes the block's text to ``data/bad.txt`` in the page's scratch directory and shows it
as a code block titled with the file name, and

````text
```pla-run expect=2 lines=12
$ pla make-data --n 20 --d 2 --seed 1 data.txt
$ pla run data/bad.txt
```
````

runs each ``$ `` line in that directory (no shell: the line is split like a shell would,
and only ``pla``, ``cat``, ``head``, ``tail``, ``wc`` and, for the second checker, ``make``
and ``coqc`` may run) and shows a ``console``
block with each command and its real output (stdout and stderr interleaved).  Every
command must exit 0 except the last one, which must exit with ``expect`` (default 0);
anything else fails the build.  ``lines=N`` shows the first N lines of each output and
says how many were left out.  All blocks of one page share one scratch directory, so
a tutorial can make a file in one block and use it in the next.

The marker ``<!-- pla: cli-reference -->`` is replaced by the real ``--help`` of
``pla`` and of every subcommand it lists.

>>> parse_block_options("expect=3 lines=10")
BlockOptions(expect=3, lines=10)
>>> split_command_lines("$ pla run data.txt\\n$ head -n 2 trace.jsonl\\n")
[['pla', 'run', 'data.txt'], ['head', '-n', '2', 'trace.jsonl']]
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "BlockOptions",
    "CommandFailed",
    "CommandOutput",
    "PageBlockError",
    "cli_reference_markdown",
    "expand_command_blocks",
    "parse_block_options",
    "run_command",
    "split_command_lines",
]

ALLOWED_PROGRAMS = ("pla", "cat", "head", "tail", "wc", "make", "coqc")
CLI_REFERENCE_MARKER = "<!-- pla: cli-reference -->"
COMMAND_TIMEOUT_SECONDS = 120
_ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_FENCE_OPEN = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")


class PageBlockError(ValueError):
    """A ``pla-run`` / ``pla-file`` block that is malformed (bad option, forbidden program...)."""


class CommandFailed(RuntimeError):
    """A command shown on a page exited with a status the page did not expect."""

    def __init__(self, command: str, status: int, expected: int, output: str) -> None:
        self.command = command
        self.status = status
        self.expected = expected
        self.output = output
        super().__init__(
            f"`{command}` exited with status {status}, the page expects {expected}; output:\n{output}"
        )


@dataclass(frozen=True)
class BlockOptions:
    """Options of one ``pla-run`` block: the last command's expected exit status, lines shown."""

    expect: int = 0
    lines: int | None = None


@dataclass(frozen=True)
class CommandOutput:
    """One command as run: its display text, its exit status and its merged output."""

    display: str
    status: int
    output: str


def parse_block_options(info: str) -> BlockOptions:
    """Parse ``expect=N lines=N`` from the rest of a ``pla-run`` info string.

    >>> parse_block_options("")
    BlockOptions(expect=0, lines=None)
    >>> parse_block_options("colour=red")
    Traceback (most recent call last):
    ...
    sitebuild.commands.PageBlockError: unknown pla-run option 'colour' (known: expect, lines)
    """
    values: dict[str, int] = {}
    for word in info.split():
        key, sep, value = word.partition("=")
        if key not in ("expect", "lines"):
            raise PageBlockError(f"unknown pla-run option {key!r} (known: expect, lines)")
        if not sep or not value.isdigit():
            raise PageBlockError(f"pla-run option {key} needs a non-negative integer, got {word!r}")
        values[key] = int(value)
    return BlockOptions(expect=values.get("expect", 0), lines=values.get("lines"))


def split_command_lines(text: str) -> list[list[str]]:
    """The argument vectors of the ``$ `` lines of a ``pla-run`` block.

    >>> split_command_lines("pla run x")
    Traceback (most recent call last):
    ...
    sitebuild.commands.PageBlockError: pla-run lines must start with '$ ', got 'pla run x'
    """
    commands = []
    for line in text.splitlines():
        if not line.strip():
            continue
        if not line.startswith("$ "):
            raise PageBlockError(f"pla-run lines must start with '$ ', got {line!r}")
        argv = shlex.split(line[2:])
        if not argv or argv[0] not in ALLOWED_PROGRAMS:
            raise PageBlockError(
                f"pla-run may only run {', '.join(ALLOWED_PROGRAMS)}; got {line[2:]!r}"
            )
        commands.append(argv)
    if not commands:
        raise PageBlockError("empty pla-run block")
    return commands


def _environment() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST")}
    env.update(
        {
            "COLUMNS": "88",
            "LINES": "50",
            "NO_COLOR": "1",
            "TERM": "dumb",
            "LC_ALL": "C.UTF-8",
            "PYTHONIOENCODING": "utf-8",
            "PYTHONUNBUFFERED": "1",  # stdout and stderr interleave as on a terminal
            "PATH": os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin", "/bin"]),
        }
    )
    return env


def run_command(argv: list[str], cwd: Path) -> CommandOutput:
    """Run one command in ``cwd``; stdout and stderr merged, as a terminal would show them.

    ``pla`` runs in this process through :func:`verify.cli.main` -- the code behind the ``pla``
    console script -- with the working directory, the environment of :func:`_environment`
    and both output streams redirected to one buffer; this saves an interpreter start and
    the imports on every command of every page.  The other programs run as subprocesses.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     (Path(tmp) / "f.txt").write_text("a\\nb\\n")
    ...     run_command(["head", "-n", "1", "f.txt"], Path(tmp))
    4
    CommandOutput(display='head -n 1 f.txt', status=0, output='a\\n')
    """
    if argv[0] == "pla":
        status, output = _run_pla_in_process(argv[1:], cwd)
    else:
        completed = subprocess.run(
            argv,
            cwd=cwd,
            env=_environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=COMMAND_TIMEOUT_SECONDS,
            check=False,
        )
        status, output = completed.returncode, completed.stdout.decode("utf-8", errors="replace")
    return CommandOutput(display=shlex.join(argv), status=status,
                         output=_ANSI_ESCAPE.sub("", output))


def _run_pla_in_process(arguments: list[str], cwd: Path) -> tuple[int, str]:
    """``pla ARGUMENTS`` via :func:`verify.cli.main` in ``cwd``: (exit status, merged output)."""
    import contextlib
    import io

    from verify.cli import main

    buffer = io.BytesIO()
    stream = io.TextIOWrapper(buffer, encoding="utf-8", errors="replace", write_through=True)
    saved_cwd = os.getcwd()
    saved_env = dict(os.environ)
    saved_stdin = sys.stdin
    try:
        os.environ.clear()
        os.environ.update(_environment())
        os.chdir(cwd)
        sys.stdin = io.StringIO("")
        with contextlib.redirect_stdout(stream), contextlib.redirect_stderr(stream):
            try:
                status = main(arguments)
            except SystemExit as leaving:  # argparse: --help, usage errors
                code = leaving.code
                if isinstance(code, str):
                    print(code, file=sys.stderr)
                    status = 1
                else:
                    status = 0 if code is None else int(code)
        stream.flush()
    finally:
        sys.stdin = saved_stdin
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    return int(status or 0), buffer.getvalue().decode("utf-8", errors="replace")


def _shown_output(output: str, lines: int | None) -> str:
    text = output.rstrip("\n")
    if lines is None:
        return text
    all_lines = text.splitlines()
    if len(all_lines) <= lines:
        return text
    left_out = len(all_lines) - lines
    return "\n".join(all_lines[:lines] + [f"[... {left_out} more lines not shown ...]"])


def _fence_for(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    return "`" * max(3, longest + 1)


def _run_block(body: str, info: str, workdir: Path) -> str:
    options = parse_block_options(info)
    commands = split_command_lines(body)
    shown = []
    for position, argv in enumerate(commands):
        result = run_command(argv, workdir)
        expected = options.expect if position == len(commands) - 1 else 0
        if result.status != expected:
            raise CommandFailed(result.display, result.status, expected, result.output)
        shown.append(f"$ {result.display}")
        text = _shown_output(result.output, options.lines)
        if text:
            shown.append(text)
    console = "\n".join(shown)
    fence = _fence_for(console)
    block = f"{fence}console\n{console}\n{fence}\n"
    if options.expect:
        block += f"\n*exit status {options.expect}*\n"
    return block


def _file_block(body: str, info: str, workdir: Path) -> str:
    name = info.strip()
    if not name or " " in name or name.startswith("/") or ".." in Path(name).parts:
        raise PageBlockError(f"pla-file needs one relative file name, got {info!r}")
    target = workdir / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(body, encoding="utf-8")
    fence = _fence_for(body)
    return f'{fence}text title="{name}"\n{body.rstrip()}\n{fence}\n'


def subcommand_names() -> list[str]:
    """The subcommands of ``pla``, in the order ``pla --help`` lists them (from ``verify.cli``)."""
    import argparse

    from verify.cli import build_parser

    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    raise PageBlockError("verify.cli.build_parser() has no subcommands")


def cli_reference_markdown(workdir: Path, heading_level: int = 2) -> str:
    """Markdown with the real ``--help`` of ``pla`` and of each of its subcommands.

    The names come from the parser; every text shown is the output of really running
    ``pla --help`` and ``pla NAME --help``.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    hashes = "#" * heading_level
    parts = []
    for argv in (["pla", "--help"], *(["pla", name, "--help"] for name in subcommand_names())):
        result = run_command(argv, workdir)
        if result.status != 0:
            raise CommandFailed(result.display, result.status, 0, result.output)
        title = "pla" if len(argv) == 2 else f"pla {argv[1]}"
        parts.append(
            f"{hashes} `{title}`\n\n```console\n$ {result.display}\n{result.output.rstrip()}\n```\n"
        )
    return "\n".join(parts)


def expand_command_blocks(markdown: str, workdir: Path) -> str:
    """Expand every top-level ``pla-run`` / ``pla-file`` block and the CLI marker of a page.

    Blocks nested inside another fence (for example in a page documenting this
    syntax) are left as they are.

    >>> import tempfile
    >>> page = "Text\\n\\n```pla-file hello.txt\\nhi\\n```\\n\\n```pla-run\\n$ cat hello.txt\\n```\\n"
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     print(expand_command_blocks(page, Path(tmp)))
    Text
    <BLANKLINE>
    ```text title="hello.txt"
    hi
    ```
    <BLANKLINE>
    ```console
    $ cat hello.txt
    hi
    ```
    <BLANKLINE>
    """
    workdir.mkdir(parents=True, exist_ok=True)
    lines = markdown.splitlines(keepends=True)
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        opened = _FENCE_OPEN.match(line.rstrip("\n"))
        if opened is None:
            if line.strip() == CLI_REFERENCE_MARKER:
                out.append(cli_reference_markdown(workdir))
            else:
                out.append(line)
            index += 1
            continue
        fence = opened.group("fence")
        closing = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        end = index + 1
        while end < len(lines) and not closing.match(lines[end].rstrip("\n")):
            end += 1
        body = "".join(lines[index + 1: end])
        kind, _, rest = opened.group("info").strip().partition(" ")
        if kind == "pla-run":
            out.append(_run_block(body, rest, workdir))
        elif kind == "pla-file":
            out.append(_file_block(body, rest, workdir))
        else:
            out.extend(lines[index: end + 1])
        index = end + 1
    return "".join(out)
