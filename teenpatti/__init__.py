"""Teen Patti (Flush): the three-card game, as an exact rules engine and the tools around it."""

__version__ = "0.1.0"
