"""``ohhell train``: fit the weights of a learned built-in strategy."""

from __future__ import annotations

import argparse
import sys

#: Strategies this command trains.
TRAINABLE = ("distilled",)
#: The sampled deals that label each card by default
#: (:data:`ohhell_sim.training.distilled.WORLDS`; a test keeps them equal).
WORLDS = 32


def cmd_train(args: argparse.Namespace) -> int:
    """Train the named strategy's weights and save them."""
    from ohhell_sim.results import check_output_file
    from ohhell_sim.strategies.distilled import WEIGHTS_FILE
    from ohhell_sim.training.distilled import save_weights, train_distilled

    output = args.output or WEIGHTS_FILE
    check_output_file(output, ".npz")
    weights = train_distilled(
        seed=args.seed,
        games=args.games,
        epochs=args.epochs,
        workers=args.workers,
        worlds=args.worlds,
        log=lambda line: print(line, file=sys.stderr, flush=True),
    )
    path = save_weights(weights, output)
    print(f"weights of {args.name} written to {path} ({path.stat().st_size:,} bytes)")
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``ohhell train``."""
    p = sub.add_parser(
        "train",
        help="fit the networks of the distilled strategy from positions of the built-in players",
        description=(
            "Play games of the built-in players, label each card of their positions by "
            "playing it out on the real deal and on --worlds sampled deals, and fit the "
            "distilled strategy's networks "
            "(ohhell_sim.training.distilled)."
        ),
    )
    p.add_argument("name", choices=TRAINABLE, help="the strategy to train")
    p.add_argument("--seed", type=int, default=0, help="seed of the games and of the fit")
    p.add_argument("--games", type=int, default=3000, help="games played for positions")
    p.add_argument("--epochs", type=int, default=10, help="passes over the training positions")
    p.add_argument("--workers", type=int, default=1, help="threads playing the games")
    p.add_argument(
        "--worlds",
        type=int,
        default=WORLDS,
        help="sampled deals beside the real one that label each card",
    )
    p.add_argument(
        "--output",
        "-o",
        help="output .npz file (default: the file the strategy reads, in the current folder)",
    )
    p.set_defaults(func=cmd_train)
