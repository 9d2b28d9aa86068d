"""What the tests share, written once: the table server and its clients (:mod:`.server`), the
computer-like scripted players (:mod:`.players`), the Chromium launch (:mod:`.browser`), the
private PostgreSQL and Redis (:mod:`.services`), and the properties' example counts
(:mod:`.properties`).

``tests/`` is on ``sys.path`` when pytest runs (``tests/conftest.py`` sits there), so a test
module writes ``from support.server import Server``; no test loads another file by path.
"""
