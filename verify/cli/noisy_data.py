"""``pla make-data --flip P [--test-out TEST --test-n M]``: example data with label noise.

Wired into ``pla make-data`` (:mod:`verify.cli.make_data`); the data come from
:func:`pla.noise.noisy_data`.
"""

from __future__ import annotations

import argparse
from fractions import Fraction

from pla.exact import NumberError, parse_fraction
from pla.files import shown_path
from pla.generate import MarginTooLarge, write_dat
from pla.noise import noisy_data
from verify.cli.usage import UsageError

__all__ = ["write_noisy_data"]


def write_noisy_data(args: argparse.Namespace, margin: Fraction) -> int:
    """Write the training file (and the test file) with flipped labels; returns the exit code."""
    try:
        flip = parse_fraction(args.flip)
    except NumberError as exc:
        raise UsageError(f"--flip: {exc}") from None
    if not 0 <= flip <= 1:
        raise UsageError(f"--flip must be between 0 and 1, not {flip}")
    if args.test_n is not None and not args.test_out:
        raise UsageError("--test-n needs --test-out")
    test_n = (args.test_n or args.n) if args.test_out else 0
    try:
        rows, labels, test_rows, test_labels = noisy_data(args.n, args.d, margin, flip,
                                                          args.seed, test_n)
    except MarginTooLarge as exc:
        raise UsageError(str(exc)) from None
    outputs = [(args.out, rows, labels)]
    if args.test_out:
        outputs.append((args.test_out, test_rows, test_labels))
    for path, part_rows, part_labels in outputs:
        write_dat(path, part_rows, part_labels,
                  others=[args.test_out] if path == args.out else [])
        flipped = round(flip * len(part_labels))
        print(f"wrote {shown_path(path)}: {len(part_rows)} points, {args.d} features, margin >= {margin} "
              f"before {flipped} labels were flipped (--flip {flip}, seed {args.seed})")
    return 0
