"""Claims with sqrt and Abs render their auxiliary symbols back as √ and |·|."""

from verify.claims import check_claim_text
from verify.present.render import render_claim


def test_sqrt_and_abs_render():
    for body, shown in (("assume: x >= 0\nsqrt(x)**2 == x", r"\sqrt{x}"),
                        ("Abs(a) >= a", r"\left|{a}\right|")):
        text = render_claim(body, check_claim_text(body))
        assert "Claim proved" in text and shown in text
