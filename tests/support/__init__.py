"""What the tests share, written once: the table server process, its lobby and the clients that
check every card they are sent (:mod:`.server`); waiting on a table service for what it does
(:mod:`.tables`); the app served in the test's own event loop (:mod:`.in_loop`) and a clock the
test moves for a whole server there (:mod:`.clocks`); the properties' example counts
(:mod:`.properties`); Debian's Chromium, launched one way for every browser test
(:mod:`.chromium`), and the server the browser tests load the page from (:mod:`.page_server`),
and the moves the table page offers, read one way (:mod:`.table_page`); every error code the
server can send (:mod:`.codes`); private PostgreSQL and Redis servers (:mod:`.services`), the
scale-out tests' looks into them (:mod:`.cluster`), the fault proxy and the retrying player
(:mod:`.faults`); a server in a thread for the tests of how friends reach a table
(:mod:`.reach`); a test push service (:mod:`.push_service`).

``tests/`` is on ``sys.path`` when pytest runs (``tests/conftest.py`` sits there), so a test
module writes ``from support.server import Server``; no test loads another file by path.
"""
