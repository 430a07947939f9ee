"""Fuzzing the trace reader: any text gives a verdict (ok, failed, incomplete) or a clear
"unreadable", never a crash; and any change to an honest trace is not a pass."""

from __future__ import annotations

import json

from hypothesis import given, strategies as st

import pla
from pla.trace import TraceWriter, header_record, step_record, summary_record
from verify.checks.audit import TraceUnreadable, audit_text

DATA = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1], ["1/2", -2]], [1, 1, -1, 1])


def honest_trace(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("trace") / "t.jsonl"
    options = pla.RunOptions(order="cyclic")
    with TraceWriter(path, header_record(DATA, options)) as tw:
        result = pla.run(DATA, options=options, keep_steps=False,
                         on_step=lambda s: tw.write(step_record(s)))
        tw.close(summary_record(result))
    return path.read_text(encoding="utf-8")


def verdict(text: str) -> str:
    try:
        return audit_text(text, DATA).status
    except TraceUnreadable as exc:
        assert "\n" not in str(exc)
        return "unreadable"


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8) |
    st.sampled_from(["1/2", "0", "-3", "1e5", "nan"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=3),
    max_leaves=8,
)


@given(st.data())
def test_line_edits_never_pass_and_never_crash(tmp_path_factory, data):
    lines = honest_trace(tmp_path_factory).splitlines()
    edit = data.draw(st.sampled_from(["drop", "duplicate", "swap", "replace", "field", "bytes"]))
    k = data.draw(st.integers(0, len(lines) - 1))
    if edit == "drop":
        del lines[k]
    elif edit == "duplicate":
        lines.insert(k, lines[k])
    elif edit == "swap":
        j = data.draw(st.integers(0, len(lines) - 1).filter(lambda j: lines[j] != lines[k]))
        lines[j], lines[k] = lines[k], lines[j]
    elif edit == "replace":
        lines[k] = json.dumps(data.draw(JSON_VALUES))
    elif edit == "field":
        record = json.loads(lines[k])
        key = data.draw(st.sampled_from(sorted(record)))
        value = data.draw(JSON_VALUES.filter(lambda v: v != record[key]))
        record[key] = value
        lines[k] = json.dumps(record, separators=(",", ":"))
    else:
        raw = bytearray(lines[k].encode())
        position = data.draw(st.integers(0, len(raw) - 1))
        raw[position] = data.draw(st.integers(32, 126).filter(lambda b: b != raw[position]))
        lines[k] = raw.decode("ascii", "replace")
    assert verdict("\n".join(lines) + "\n") != "ok"


@given(st.text(max_size=300))
def test_arbitrary_text_is_refused_cleanly(text):
    assert verdict(text) in ("unreadable", "failed", "incomplete")


def test_the_honest_trace_passes(tmp_path_factory):
    assert verdict(honest_trace(tmp_path_factory)) == "ok"
