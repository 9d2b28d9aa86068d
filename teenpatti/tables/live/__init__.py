"""The live server: the table service (:mod:`.service`) and its parts, each with one job: the
tables in memory (:mod:`.registry`, :mod:`.table`), the writer of their logs (:mod:`.writer`),
the fan-out to their sockets (:mod:`.fanout`), presence (:mod:`.presence`), the game's timers
(:mod:`.timers`) and the time source they run on (:mod:`.time_source`), the computers' thinking
(:mod:`.thinker`), the reconciler (:mod:`.reconciler`), other processes (:mod:`.cluster`), and
the codes, tokens and seeds it draws (:mod:`.codes`). It stands on the wire, the rules of play,
the store and the bus.
"""
