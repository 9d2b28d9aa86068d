"""The table server, in three layers, each importing only the ones below it:

- :mod:`.play`: the table's rules of play, pure (no clock, no I/O, no socket): the fold of a
  table's events, commands and the events they make, settings, chat, names, turns;
- :mod:`.wire`: what a socket carries: the messages, a table rendered into them, patches, the
  schema, the bytes a socket is sent;
- :mod:`.live`: the server at work: the service, the writer, the tables in memory, the fan-out,
  presence, the game's timers and their time source, the computers' thinking, the reconciler and
  the cluster.

tests/test_layers.py holds the order.
"""
