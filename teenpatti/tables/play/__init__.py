"""The table's rules of play, pure (no clock, no I/O, no socket, no randomness: seeds are given):
the replay of a table's event log (:mod:`.table`), its events (:mod:`.events`), the commands a
client sends (:mod:`.commands`) and their refusals (:mod:`.errors`), settings, chat, names and
when a turn begins. It imports the engine alone.
"""
