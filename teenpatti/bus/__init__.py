"""Fan-out of table changes between server processes, and the leases that decide which process
runs a table's clocks. In-process by default; Redis across processes and machines."""

from .base import Bus, open_bus

__all__ = ["Bus", "open_bus"]
