"""The wire: what the server sends on a socket (:mod:`.messages`), a table rendered into it for
each viewer (:mod:`.render`), patches from one state to the next (:mod:`.patch`), the JSON Schema
of both directions (:mod:`.schema`) and the frames a socket is written (:mod:`.outgoing`). It
imports the rules of play and the engine.
"""
