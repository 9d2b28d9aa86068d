"""What Linux's ``/proc`` says of a process: the one reading of a process's CPU time that the
benchmarks share (the server's cost of a move, of a start-up, under the load test, the page's
renderers).

>>> import os
>>> cpu_seconds(os.getpid()) >= 0
True
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cpu_seconds"]

TICK = os.sysconf("SC_CLK_TCK")
"""Clock ticks a second: the unit of ``/proc/PID/stat``'s times."""


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` has used so far, in seconds: on a loaded
    machine wall-clock time is mostly waiting for a core, this is the work itself. Raises
    :class:`OSError` when there is no such process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK
