"""``ohhell strategies``: the registered strategies, with their metadata."""

from __future__ import annotations

import argparse
import re
import textwrap
from typing import TYPE_CHECKING

from ohhell_sim.cli.options import add_import_option, import_modules

if TYPE_CHECKING:
    from ohhell_sim.strategy import Strategy

# :role:`~pkg.mod.name` or :role:`text <target>` or :role:`target`
_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`(?P<body>[^`]+)`")
_LITERAL = re.compile(r"``(?P<body>[^`]+)``|`(?P<single>[^`]+)`")


def _role_text(match: re.Match) -> str:
    body = match["body"]
    titled = re.fullmatch(r"(?P<title>.+?)\s*<[^>]+>", body)
    if titled:
        return titled["title"]
    if body.startswith("~"):
        return body[1:].rpartition(".")[2]
    return body


def plain_text(rst: str) -> str:
    """``rst`` (a docstring) with its reStructuredText markup removed.

    Roles become their text (``:func:`~a.b` `` -> ``b``), literals and
    interpreted text lose their backquotes, and a paragraph's closing ``::``
    becomes ``:``.

    Examples
    --------
    >>> plain_text("Plays like ``card_counter`` (:mod:`ohhell_sim.strategies._counting`)::")
    'Plays like card_counter (ohhell_sim.strategies._counting):'
    """
    text = _ROLE.sub(_role_text, rst)
    text = _LITERAL.sub(lambda m: m["body"] or m["single"], text)
    return re.sub(r"::$", ":", text, flags=re.MULTILINE)


def describe(strategy: Strategy) -> str:
    """One line: name, kind, cost, parameters with defaults, unsupported variants."""
    params = ", ".join(f"{k}={v:g}" for k, v in strategy.params.items()) or "no parameters"
    kind = "stochastic" if strategy.stochastic else "deterministic"
    parts = [f"{kind}, {strategy.cost}", params]
    if strategy.unsupported:
        refused = ", ".join(
            f"{rule}={'/'.join(map(str, values))}" for rule, values in strategy.unsupported.items()
        )
        parts.append(f"not for {refused}")
    origin = "" if strategy.builtin_id is not None else " [user]"
    return f"{strategy.name}{origin} ({'; '.join(parts)})"


def cmd_strategies(args: argparse.Namespace) -> int:
    """Print every registered strategy; with ``-v`` its description as plain text."""
    from ohhell_sim.strategy import available_strategies, get_strategy

    import_modules(args)
    for name in available_strategies():
        strategy = get_strategy(name)
        print(describe(strategy))
        if args.verbose and strategy.description:
            print(textwrap.indent(plain_text(strategy.description), "    "))
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``ohhell strategies``."""
    p = sub.add_parser("strategies", help="list the registered strategies")
    p.add_argument("--verbose", "-v", action="store_true", help="print descriptions")
    add_import_option(p)
    p.set_defaults(func=cmd_strategies)
