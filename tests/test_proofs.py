"""The built-in theorems, `pla proof` and the generated proof pages."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from verify.cli import proof as proof_command
from verify.proofs import GROUPS, builtin_proofs, check_builtin_proofs
from verify.present.render import proof_pages

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def results():
    return check_builtin_proofs()


def test_every_builtin_theorem_is_checked_in_all_eight_groups(results):
    assert all(r.checked is not None and r.error is None for r in results)
    assert {r.group for r in results} == set(GROUPS)
    novikoff = next(r for r in results if r.name == "novikoff")
    assert set(novikoff.checked.lemmas) >= {"inner-product-bound", "norm-bound", "cauchy-schwarz"}
    assert {"lemma", "positive-divisor", "norm-nonneg"} <= set(novikoff.checked.rules)


def test_a_theorem_is_reported_failed_when_its_lemma_is_missing(monkeypatch):
    from verify import proofs
    original = proofs.builtin_proofs

    def broken():
        out = []
        for p in original():
            if p.name == "cauchy-schwarz":
                p = proofs.BuiltinProof(p.name, p.group, lambda L: _broken_cs(L))
            out.append(p)
        return tuple(out)

    monkeypatch.setattr(proofs, "builtin_proofs", broken)
    results = {r.name: r for r in proofs.check_builtin_proofs(("novikoff",))}
    assert results["cauchy-schwarz"].checked is None
    assert "cauchy-schwarz" in results["novikoff"].error


def _broken_cs(lemmas):
    import dataclasses as dc
    from verify.proofs.novikoff import cauchy_schwarz_theorem
    thm = cauchy_schwarz_theorem(lemmas)
    chain = thm.proof.lines[0]
    link = dc.replace(chain.links[0], certificate=dc.replace(chain.links[0].certificate,
                                                             divisors=()))
    return dc.replace(thm, proof=dc.replace(thm.proof, lines=(dc.replace(chain, links=(link,)),)))


def _args(**kw):
    defaults = {"names": [], "json": False, "out": None}
    defaults.update(kw)
    return argparse.Namespace(**defaults)


def test_pla_proof_json(capsys):
    assert proof_command.handle(_args(json=True)) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["failed"] == 0
    assert {t["name"] for t in data["theorems"]} == {p.name for p in builtin_proofs()}
    for t in data["theorems"]:
        assert t["verified"] is True and t["steps"] > 0 and "ring" in t["rules"]


def test_pla_proof_table_and_out(tmp_path, capsys):
    assert proof_command.handle(_args(names=["norm-bound"], out=str(tmp_path))) == 0
    out = capsys.readouterr().out
    assert re.search(r"norm-step\s+3\s+4\s+checked", out)
    assert re.search(r"norm-bound\s+4\s+5\s+checked", out)
    assert (tmp_path / "novikoff.md").read_text().startswith("# 6. Novikoff")
    assert not list(tmp_path.glob("*.tmp"))


def test_pla_proof_exits_1_when_a_step_fails(monkeypatch, capsys):
    from verify import proofs
    original = proofs.builtin_proofs

    def broken():
        return tuple(proofs.BuiltinProof(p.name, p.group, _broken_cs) if p.name == "cauchy-schwarz"
                     else p for p in original())

    monkeypatch.setattr(proofs, "builtin_proofs", broken)
    assert proof_command.handle(_args(names=["cauchy-schwarz"])) == 1
    assert "FAILED" in capsys.readouterr().out


def test_unknown_theorem_is_a_usage_error():
    from verify.cli import UsageError
    with pytest.raises(UsageError, match="no built-in theorem"):
        proof_command.handle(_args(names=["fermat"]))


def test_pages_render_every_formula_to_mathml_and_the_nav_lists_them():
    from sitebuild.mathml import latex_to_mathml
    pages = proof_pages()
    assert set(pages) == {"proofs/index.md"} | {f"proofs/{p.name}.md" for p in builtin_proofs()}
    for text in pages.values():
        for display, inline in re.findall(r"\$\$(.+?)\$\$|\$([^$\n]+?)\$", text):
            latex_to_mathml(display or inline)
    nav = (ROOT / "mkdocs.yml").read_text()
    for path in pages:
        assert path in nav, f"{path} missing from the nav of mkdocs.yml"
    assert "docs/hooks/proofs.py" in nav


def test_page_shows_steps_certificates_and_trusted_base():
    page = proof_pages()["proofs/norm-step.md"]
    assert "Checked by the kernel: 4 steps" in page
    # the certificate is maths: 2 times the nonnegative side of the hypothesis [mistake]
    assert r"certificate $b - a = 2 \left[\,\left({w}_{t} \cdot {x}_{t}\right) {y}_{t} \le 0\,\right]$" in page
    assert "## Trusted base" in page and "- bilinearity: the inner product is linear" in page
    assert "`" not in page.split("## Hypotheses")[1].split("## Trusted base")[0]  # no code font
