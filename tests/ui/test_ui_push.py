"""Turn alerts in Chromium: a player at a play-anytime table taps "Tell me when it's my turn",
the page subscribes and sends the subscription for their seat; when their turn comes the server
sends an alert to the test's push service (which checks its VAPID signature and decrypts it);
the alert is handed to the phone's service worker through the DevTools protocol
(``ServiceWorker.deliverPushMessage``), which shows it in the phone's language; a click on it
(a ``notificationclick`` dispatched in the worker) brings the page to the table.

Chromium's own ``PushManager.subscribe`` needs Google's push service (it hangs, or fails in a
fresh profile, with no network): the page is given the test push service's subscription in its
place, so everything from the page's button to the notification's click is the real code.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from support.chromium import WAIT
from support.page_server import Server
from support.page_strings import page_strings
from support.push_service import PushService, running
from websockets.sync.client import connect

Phone = Any


@pytest.fixture(scope="module")
def push_service() -> Iterator[PushService]:
    with running() as service:
        yield service


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, push_service: Any) -> Iterator[Server]:
    srv = Server(
        tmp_path_factory.mktemp("ui-push"),
        extra=("--push-hosts", push_service.origin),
    )
    srv.start()
    push_service.server_key = httpx.get(srv.url + "/api/push").json()["key"]
    try:
        yield srv
    finally:
        srv.close()


STAND_IN = """
(() => {
  const SUB = %s;
  let made = null;
  PushManager.prototype.getSubscription = async function () { return made; };
  PushManager.prototype.subscribe = async function (options) {
    made = {
      endpoint: SUB.endpoint,
      options: { applicationServerKey: options.applicationServerKey.buffer },
      toJSON() { return SUB; },
      async unsubscribe() { made = null; return true; },
    };
    return made;
  };
})();
"""


def seated(me: Phone, server: Server, push: str, code: str, joined: Any, seat: int) -> Any:
    """``me``'s page at table ``code`` in the seat ``joined`` (the lobby's answer) holds, with
    notifications allowed and ``push`` (a script) standing in for the browser's push service."""
    me.context.grant_permissions(["notifications"], origin=server.url)
    me.context.add_init_script(push)
    page = me.open("/")
    page.evaluate(
        "([code, token, seat]) => localStorage.setItem('tp.seats', JSON.stringify("
        "{[code]: {token, seat, at: Date.now()}}))",
        [code, joined["token"], seat],
    )
    page.goto(f"{server.url}/t/{code}")
    return page


def start_game(ws_base: str, code: str, token: str) -> None:
    """The host starts the game from a socket of their own once the guest's page has let go of
    the table (a person with the table open is not alerted), and leaves once it is dealt."""
    with connect(f"{ws_base}/ws/{code}", open_timeout=5) as sock:
        # this socket reads whole states, so it asks for them instead of patches
        sock.send(json.dumps({"type": "hello", "token": token, "patches": False}))
        deadline = time.monotonic() + 10
        started = False
        while time.monotonic() < deadline:
            message = json.loads(sock.recv(timeout=10))
            if message.get("type") != "state":
                continue
            if message.get("hand"):
                return
            if not started and not message["seats"][1]["connected"]:
                sock.send(json.dumps({"type": "start"}))
                started = True
            elif not started:
                sock.send(json.dumps({"type": "sync"}))
    raise AssertionError("the game did not start")


def registration_id(phone: Phone) -> tuple[Any, str]:
    cdp = phone.context.new_cdp_session(phone.page)
    found: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: found.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 10
    while not [r for r in found if not r["isDeleted"]] and time.monotonic() < deadline:
        phone.page.wait_for_timeout(50)
    live = [r for r in found if not r["isDeleted"]]
    assert live, "no service worker registration"
    return cdp, live[0]["registrationId"]


def notifications(page: Any) -> list[dict[str, Any]]:
    return list(
        page.evaluate(
            """navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((all) =>
                 all.map((n) => ({title: n.title, body: n.body, lang: n.lang, tag: n.tag,
                                  url: n.data && n.data.url})))"""
        )
    )


def delivered(page: Any, cdp: Any, worker: dict[str, str], alert: dict[str, str]) -> list[Any]:
    """Hand ``alert`` to the phone's service worker (``worker``: its origin and registration)
    until it shows a notification (a push service may deliver a message again; the worker's
    notifications for a table share a tag, so a second delivery replaces the first): what it
    shows. The worker shows it in its own time, so the notifications are looked at until then
    (a busy machine may take a while to start the worker)."""
    deadline = time.monotonic() + WAIT / 1000
    while True:
        cdp.send("ServiceWorker.deliverPushMessage", {**worker, "data": json.dumps(alert)})
        again = min(deadline, time.monotonic() + 5)
        while time.monotonic() < again:
            shown = notifications(page)
            if shown:
                return shown
            page.wait_for_timeout(50)
        assert time.monotonic() < deadline, "the service worker showed no notification"


@pytest.mark.parametrize("locale", ["ne-NP", "en-GB"])
def test_alerts_from_the_button_to_the_table(
    phone: Callable[..., Phone], server: Server, push_service: Any, locale: str
) -> None:
    host = httpx.post(
        server.url + "/api/tables", json={"name": "Asha", "preset": "duo", "seats": 2}
    ).json()
    code = host["code"]
    guest = httpx.post(server.url + f"/api/tables/{code}/join", json={"name": "Bikash"}).json()
    mobile = push_service.phone(f"bikash-{locale}")
    me = phone(locale=locale)
    page = seated(me, server, STAND_IN % json.dumps(mobile.subscription()), code, guest, 1)
    ask = page.locator(f"[data-testid=alerts-{code}-ask]")
    words = {
        "ne-NP": ("मेरो पालो आउँदा मलाई भन्नुहोस्", "सूचना खुला छ"),
        "en-GB": ("Tell me when it's my turn", "Alerts on"),
    }
    assert ask.inner_text() == words[locale][0]
    ask.click()
    page.wait_for_selector(f"[data-testid=alerts-{code}][data-alerts=on]")
    assert words[locale][1] in page.locator(f"[data-testid=alerts-{code}]").inner_text()
    # Bikash leaves the table's page; Asha starts: the first turn is his, and he is told.
    page.goto(f"{server.url}/")
    page.wait_for_selector("html[data-ready='1']")
    start_game(server.url.replace("http://", "ws://"), code, host["token"])
    push_service.wait(lambda: len(push_service.alerts(mobile)) == 2)
    got = sorted(push_service.alerts(mobile), key=lambda a: a["kind"])
    assert got == [{"kind": "start", "table": code}, {"kind": "turn", "table": code}]
    # The alert reaches the phone's service worker: shown in the phone's language.
    cdp, registration = registration_id(me)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # its worker is active
    [shown] = delivered(page, cdp, {"origin": server.url, "registrationId": registration}, got[1])
    title = {"ne-NP": f"टेबल {code} मा तपाईंको पालो", "en-GB": f"Your turn at table {code}"}
    assert (shown["title"], shown["lang"], shown["tag"], shown["url"]) == (
        title[locale],
        locale[:2],
        f"table-{code}",
        f"/t/{code}",
    )
    # Tapped: the page goes to the table.
    [worker] = me.context.service_workers
    worker.evaluate(
        """self.registration.getNotifications().then((all) => {
             self.dispatchEvent(new NotificationEvent("notificationclick", {notification: all[0]}));
           })"""
    )
    page.wait_for_url(f"{server.url}/t/{code}")
    page.wait_for_selector(f'[data-testid=table][data-code="{code}"]')


NO_PUSH_SERVICE = """
PushManager.prototype.getSubscription = async function () { return null; };
PushManager.prototype.subscribe = async function () {
  throw new DOMException("Registration failed - push service not available", "AbortError");
};
"""
"""A phone whose browser has no push service: Chromium's own refusal (an AbortError, code 20)."""


@pytest.mark.parametrize("locale", ["ne-NP", "en-GB"])
def test_a_phone_that_cannot_sign_up_is_told_what_to_do_in_words(
    phone: Callable[..., Phone], server: Server, locale: str
) -> None:
    host = httpx.post(
        server.url + "/api/tables", json={"name": "Asha", "preset": "duo", "seats": 2}
    ).json()
    code = host["code"]
    page = seated(phone(locale=locale), server, NO_PUSH_SERVICE, code, host, 0)
    page.locator(f"[data-testid=alerts-{code}-ask]").click()
    said = page.locator(f"[data-testid=alerts-{code}] [role=alert]")
    said.wait_for()
    assert said.inner_text().startswith(page_strings()["strings"][locale[:2]]["push.cannot"])
    assert not any(ch.isdigit() for ch in said.inner_text())
