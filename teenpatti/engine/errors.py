"""The engine's error types: each carries a stable code and a sentence a player understands."""

from __future__ import annotations

__all__ = ["CodedError", "EngineError", "IllegalAction", "RulesError"]


class CodedError(Exception):
    """A refusal with a stable ``code`` (``show/seen_vs_blind``) and a ``reason``, a sentence for
    a person: the base of the engine's errors and of the table's own (which are not rules)."""

    code: str
    reason: str

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


class EngineError(CodedError):
    """Base of the engine's errors: a rule of the game refused something."""


class IllegalAction(EngineError):
    """An action the rules do not allow now. Raised before anything changes: the state is as it
    was."""


class RulesError(EngineError, ValueError):
    """An unknown preset or option, a value it cannot take, or options that contradict each
    other. ``option`` names the option at fault (``None`` for the preset)."""

    option: str | None

    def __init__(self, option: str | None, reason: str) -> None:
        super().__init__(f"rules/{option or 'preset'}", reason)
        self.option = option
