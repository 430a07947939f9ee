"""The mutation score of the checkers on the Design page, generated from the committed results.

``make mutation`` (``tests/mutation_testing.py``) mutates the trusted kernel, the claims
translation and the monitor, runs the tests that execute each mutant's line against it and
writes ``benchmarks/results/mutation.json``; the
marker ``<!-- mutation-score -->`` in ``docs/design.md`` is replaced by
:func:`mutation_markdown` of that file (hook ``docs/hooks/mutation.py``).  Nothing is run
during the docs build: the page shows the recorded run, with its date.

>>> report = {"date": "2026-01-01T00:00:00+00:00", "commit": "0123456789ab",
...           "machine": {"cpu": "CPU", "cpus": 2, "python": "3.11"},
...           "workers": 2, "seconds_total": 60.0, "timeout_seconds": 60,
...           "counts": {"killed": 19, "timeout": 0, "survived": 1, "error": 0},
...           "score": {"detected": 19, "total": 20, "percent": 95.0},
...           "by_file": {"verify/kernel/": {"killed": 19, "timeout": 0, "survived": 1}},
...           "by_operator": {"compare": {"killed": 19, "timeout": 0, "survived": 1}},
...           "operators": {"compare": "< <=, > >="}, "tests": {"verify/kernel/": ["t.py"]},
...           "survivors": [{"path": "verify/kernel/", "line": 7, "description": "< -> <=",
...                          "function": "f", "code": "if y < 0:", "reason": "labels are +-1"}]}
>>> text = mutation_markdown(report)
>>> "19 of 20 mutants (95.0%)" in text and "2026-01-01" in text
True
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

__all__ = ["MARKER", "mutation_markdown", "expand_mutation_marker"]

MARKER = re.compile(r"<!--\s*mutation-score\s*-->")


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _code(text: str) -> str:
    text = text.replace("|", "\\|")
    return f"`{text}`" if "`" not in text else f"``{text}``"


def mutation_markdown(report: dict[str, Any]) -> str:
    """The Markdown that shows ``report`` (a parsed ``mutation.json``)."""
    score, counts, m = report["score"], report["counts"], report["machine"]
    minutes = report["seconds_total"] / 60
    commit = (report.get("commit") or "")[:12]
    lines = [
        f"**Mutation score: {score['detected']} of {score['total']} mutants "
        f"({score['percent']}%) detected**, recorded on {report['date'][:10]} "
        f"({report['date']}{', commit `' + commit + '`' if commit else ''}) on {m['cpu']}, "
        f"{m['cpus']} CPUs, Python {m['python']}: {counts['killed']} killed by a failing test, "
        f"{counts['timeout']} stopped by the time limit "
        f"({report.get('timeout_rule') or format(report['timeout_seconds'], '.0f') + ' s'}; "
        f"the tests hang: detected), {counts['survived']} survived"
        + (f", {counts['error']} ended with an unexpected pytest status" if counts.get("error")
           else "")
        + f". The run took {minutes:.0f} minutes with {report['workers']} workers"
        + (f" ({report['mutants_run']} mutants run, the others' outcomes reused from the runs "
           f"of their unchanged files)" if report.get("mutants_run", report["score"]["total"])
           < report["score"]["total"] else "")
        + ".",
        "",
    ]
    if report.get("partial"):
        lines += [f"**This recorded run is partial**: {report.get('not_run', 0)} mutants were not "
                  f"run (its time ran out); `make mutation MUTATION_ARGS=--reuse` continues it. "
                  f"The score counts the mutants that ran.", ""]
    lines += [
        "| file | mutants | killed | timed out | survived | run on | test files that ran |",
        "|---|---:|---:|---:|---:|---|---|",
    ]
    for path, c in report["by_file"].items():
        total = c["killed"] + c["timeout"] + c["survived"]
        tests = ", ".join(f"`{Path(t).name}`" for t in report["tests"].get(path, []))
        run = report.get("results", {}).get(path, {})
        when = (f"{run['date'][:10]}, `{(run.get('commit') or '')[:8]}`" if run.get("date")
                else report["date"][:10])
        lines.append(f"| `{path}` | {total} | {c['killed']} | {c['timeout']} | {c['survived']} "
                     f"| {when} | {tests} |")
    lines += ["", "| mutation operator | what it does | mutants | survived |",
              "|---|---|---:|---:|"]
    for name, text in report["operators"].items():
        c = report.get("by_operator", {}).get(name, {"killed": 0, "timeout": 0, "survived": 0})
        total = c["killed"] + c["timeout"] + c["survived"]
        lines.append(f"| `{name}` | {_cell(text)} | {total} | {c['survived']} |")
    survivors = report["survivors"]
    if survivors:
        lines += ["", "Every survivor, and why it is equivalent to the original code (or "
                  "changes nothing the checks decide):", "",
                  "| where | mutation | code | why it survives |", "|---|---|---|---|"]
        for s in survivors:
            uncovered = "" if s.get("covered", True) else " (no test executes this line)"
            lines.append(f"| `{s['path']}:{s['line']}` ({_cell(s['function'])}) | "
                         f"{_code(s['description'])} | {_code(s['code'])} | "
                         f"{_cell(s.get('reason') or '**no reason recorded**')}{uncovered} |")
    return "\n".join(lines) + "\n"


def expand_mutation_marker(markdown: str, results: Path) -> str:
    """Replace the marker in ``markdown`` by the tables of the results file ``results``."""
    report = json.loads(Path(results).read_text())
    return MARKER.sub(lambda _: mutation_markdown(report), markdown)
