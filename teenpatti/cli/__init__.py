"""The ``teenpatti`` command line: one typer app; each command lives in a module of its own."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="teenpatti",
    help="Teen Patti (Flush): rank hands, replay hand histories, play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def commands() -> typer.Typer:
    """The app with every command (each module adds its own to ``app`` when imported)."""
    from . import arena, doctor, odds, play, rank, replay, serve, verify  # noqa: F401

    return app


def main() -> None:
    """Entry point of the ``teenpatti`` console script."""
    commands()()
