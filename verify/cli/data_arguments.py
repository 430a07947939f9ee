"""The options every command that reads a data file shares (format, labels, bias, ...)."""

from __future__ import annotations

import argparse

import pla
from pla.dataset import Dataset

__all__ = ["add_data_arguments", "load_dataset", "limits_from_args", "positive_int", "non_negative_int",
           "positive_seconds"]


def positive_int(text: str) -> int:
    """argparse type: an integer ≥ 1 (a negative one or 0 is "not a positive integer").

    >>> positive_int("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a positive integer, not '-1'
    """
    try:
        value = non_negative_int(text)
    except argparse.ArgumentTypeError:
        if _is_integer(text):
            value = 0
        else:
            raise
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}")
    return value


def _is_integer(text: str) -> bool:
    try:
        int(text.replace(",", "").replace("_", ""))
    except ValueError:
        return False
    return True


def positive_seconds(text: str) -> float:
    """argparse type: a positive number of seconds (a duration, not a checked quantity)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, not {text!r}")
    return value


def non_negative_int(text: str) -> int:
    """argparse type: an integer ≥ 0 (underscores and commas allowed: 1_000_000)."""
    try:
        value = int(text.replace(",", "").replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, not {text!r}")
    return value


def add_data_arguments(parser: argparse.ArgumentParser, *, name: str = "data",
                       help: str = "the data file", option: bool = False,
                       required: bool = True) -> None:
    """Add DATA (a positional, or a required ``--data`` option when ``option``) and the options
    that say how to read it."""
    if option:
        parser.add_argument(f"--{name}", dest=name, metavar=name.upper(), required=required,
                            help=help)
    else:
        parser.add_argument(name, metavar=name.upper(), help=help)
    group = parser.add_argument_group("reading the data")
    group.add_argument("--format", choices=pla.FORMATS,
                       help="file format (default: from the extension; .csv, .coq, .libsvm/.svm, "
                            "otherwise dat)")
    group.add_argument("--labels", choices=("pm1", "01"), default="pm1",
                       help="labels are +1/-1 (pm1, default) or 0/1 (01; 0 becomes -1). "
                            "coq files are always 0/1")
    group.add_argument("--no-bias", dest="bias", action="store_false",
                       help="do not prepend the bias coordinate x0 = 1")
    group.add_argument("--label-column", metavar="COL",
                       help="csv: the label column, a 0-based number (negative from the end) or "
                            "a header name (default: the last column)")
    group.add_argument("--max-digits", type=positive_int, default=pla.formats.MAX_DIGITS,
                       metavar="N", help="refuse numbers with more than N digits (default "
                                         f"{pla.formats.MAX_DIGITS:,})")
    group.add_argument("--max-exponent", type=positive_int, default=pla.formats.MAX_EXPONENT,
                       metavar="N", help="refuse 1eN with |N| above this (default "
                                         f"{pla.formats.MAX_EXPONENT:,})")
    group.add_argument("--max-data-digits", type=positive_int,
                       default=pla.formats.MAX_DATA_DIGITS, metavar="N",
                       help="refuse data whose examples x coordinates x digits of their common "
                            f"denominator exceed N (default {pla.formats.MAX_DATA_DIGITS:,})")
    group.add_argument("--max-entries", type=positive_int, default=pla.formats.MAX_ENTRIES,
                       metavar="N", help="refuse data with more than N numbers once expanded "
                                         f"(examples x coordinates; default "
                                         f"{pla.formats.MAX_ENTRIES:,})")
    group.add_argument("--max-input-bytes", type=positive_int,
                       default=pla.formats.MAX_INPUT_BYTES, metavar="N",
                       help="refuse input files larger than N bytes (default "
                            f"{pla.formats.MAX_INPUT_BYTES:,}); devices that never end, like "
                            "/dev/zero, are always refused")
    group.add_argument("--features", type=positive_int, metavar="D",
                       help="libsvm: the number of features (default: the largest index)")


def limits_from_args(args: argparse.Namespace) -> "pla.formats.Limits":
    """The :class:`pla.formats.Limits` of the shared reading options."""
    return pla.formats.Limits(max_digits=args.max_digits, max_exponent=args.max_exponent,
                              max_data_digits=args.max_data_digits,
                              max_entries=args.max_entries,
                              max_input_bytes=args.max_input_bytes)


def load_dataset(args: argparse.Namespace, name: str = "data") -> Dataset:
    """Load the data file named by ``args.<name>`` with the shared reading options."""
    limits = limits_from_args(args)
    return pla.load(getattr(args, name), args.format, labels=args.labels, bias=args.bias,
                    label_column=args.label_column, features=args.features, limits=limits)
