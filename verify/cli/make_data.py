"""``pla make-data``: exact linearly separable example data with a guaranteed margin."""

from __future__ import annotations

import argparse
from typing import Any

from pla.exact import NumberError, parse_fraction
from pla.files import shown_path
from pla.generate import MarginTooLarge, separable_data, write_dat
from verify.cli.usage import UsageError
from verify.cli.data_arguments import positive_int

__all__ = ["register", "handle"]


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "make-data", help="write exact separable data with a guaranteed margin",
        description="Write N points in [-1, 1]^D (3 decimals) labelled by a random hyperplane, "
                    "keeping only points at distance >= MARGIN from it (checked exactly), in "
                    "the dat format (features, a tab, the label +1/-1).",
    )
    parser.add_argument("out", metavar="OUT", help="the file to write (.dat)")
    parser.add_argument("--n", type=positive_int, default=100, help="number of points (100)")
    parser.add_argument("--d", type=positive_int, default=2, help="number of features (2)")
    parser.add_argument("--margin", default="1/10", metavar="GAMMA",
                        help="geometric margin, exact (default 1/10)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (0)")
    noise = parser.add_argument_group("label noise (non-separable data, for pla pocket)")
    noise.add_argument("--flip", default="0", metavar="P",
                       help="flip exactly round(P*N) labels, chosen by the seed (default 0)")
    noise.add_argument("--test-out", metavar="TEST", help="also write a test set from the same "
                       "hyperplane (its own round(P*M) labels flipped)")
    noise.add_argument("--test-n", type=positive_int, metavar="M",
                       help="number of test points (default: N)")
    parser.set_defaults(handler=handle)
    return parser


def handle(args: argparse.Namespace) -> int:
    try:
        margin = parse_fraction(args.margin)
    except NumberError as exc:
        raise UsageError(f"--margin: {exc}") from None
    if margin < 0:
        raise UsageError("--margin must be non-negative")
    if args.flip != "0" or args.test_out or args.test_n:  # label noise and/or a test set: pla/noise.py
        from verify.cli.noisy_data import write_noisy_data
        return write_noisy_data(args, margin)
    try:
        rows, labels = separable_data(args.n, args.d, margin, args.seed)
    except MarginTooLarge as exc:
        raise UsageError(str(exc)) from None
    write_dat(args.out, rows, labels)
    positives = sum(1 for y in labels if y > 0)
    print(f"wrote {shown_path(args.out)}: {args.n} points, {args.d} features, margin >= {margin}, "
          f"{positives} positive / {args.n - positives} negative (seed {args.seed})")
    return 0
