"""The in-process bus: one server process owns every table, so there is nobody to tell."""

from __future__ import annotations

from .base import Listener

__all__ = ["MemoryBus"]


class MemoryBus:
    """The default bus for a single process: announcements go nowhere, every lease is ours."""

    owner = "local"

    async def start(self, listener: Listener) -> None:
        """Nothing to listen to."""

    async def publish(self, code: str, version: int) -> None:
        """No other process to tell."""

    async def lease(self, code: str, ttl: float) -> bool:
        """Always held."""
        return True

    async def leases(self, codes: list[str], ttl: float) -> set[str]:
        """All held."""
        return set(codes)

    async def release(self, code: str) -> None:
        """Nothing to release."""

    async def present(
        self,
        seats: dict[str, list[int] | None],
        ttl: float,
        left: dict[str, dict[int, float]] | None = None,
        keep: float = 0.0,
    ) -> None:
        """No other process to tell."""

    async def online(self, codes: list[str]) -> dict[str, set[int]]:
        """No other process."""
        return {}

    async def last_seen(self, codes: list[str]) -> dict[str, dict[int, float]]:
        """No other process."""
        return {}

    async def ping(self) -> None:
        """Always reachable."""

    async def close(self) -> None:
        """Nothing to close."""
