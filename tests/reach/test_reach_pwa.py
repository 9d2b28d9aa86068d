"""In Chromium: the link a host on ``http://127.0.0.1:PORT`` is given is the machine's network
address (interfaces faked), the plain warning when only this device can open it (both languages),
the Share button (the phone's share sheet, else the invitation copied) with its message in the
page's language, the manifests (parsed, linked, icons in the sizes phones ask for), and the
service worker: it registers and controls the page, an offline reload shows the shell with the
offline message, and it keeps no lobby reply and no socket.
"""

from __future__ import annotations

import json
import re
import struct
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from support.chromium import launch
from support.reach import FAKE_LAN, ThreadServer

WAIT = 20_000
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launch() as launched:
        yield launched


class Phone:
    def __init__(self, browser: Any, base: str, lang: str) -> None:
        self.context = browser.new_context(
            viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True
        )
        self.context.add_init_script(f"localStorage.setItem('tp.lang', {json.dumps(lang)})")
        self.page = self.context.new_page()
        self.page.set_default_timeout(WAIT)
        self.base = base
        self.errors: list[str] = []
        self.page.on("pageerror", lambda err: self.errors.append(str(err)))
        self.page.on(
            "console",
            lambda msg: self.errors.append(msg.text) if msg.type == "error" else None,
        )

    def open(self, path: str = "/") -> Any:
        self.page.goto(self.base + path)
        self.page.wait_for_selector("html[data-ready='1']")
        return self.page

    def create_table(self) -> str:
        page = self.open("/")
        page.get_by_test_id("menu-friends").tap()
        page.get_by_test_id("name").fill("Sita")
        page.get_by_test_id("create-submit").tap()
        page.get_by_test_id("lobby").wait_for()
        return str(page.get_by_test_id("table-code").get_attribute("data-code"))


@pytest.fixture
def phone(browser: Any) -> Iterator[Callable[..., Phone]]:
    made: list[Phone] = []

    def make(base: str, lang: str = "en") -> Phone:
        made.append(Phone(browser, base, lang))
        return made[-1]

    yield make
    for p in made:
        p.context.close()
    problems = [e for p in made for e in p.errors if not _expected(e)]
    assert not problems, problems


def _expected(text: str) -> bool:
    # Offline on purpose: the page's socket and fetches fail while the network is off.
    return "ERR_INTERNET_DISCONNECTED" in text or "WebSocket connection" in text


SHARE_SPY = """
window.__shared = [];
Object.defineProperty(navigator, "share", {
  value: (data) => { window.__shared.push(data); return Promise.resolve(); },
});
"""


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "Join my Teen Patti table: {code} {link}"),
        ("ne", "मेरो तीन पत्ती टेबलमा आउनुहोस्: {code} {link}"),
    ],
)
def test_host_on_loopback_gets_the_network_link(
    thread_server: Callable[..., ThreadServer], phone: Callable[..., Phone], lang: str, message: str
) -> None:
    srv = thread_server()  # listens "everywhere", the machine's only network address FAKE_LAN
    host = phone(srv.url, lang)
    host.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=srv.url)
    code = host.create_table()
    page = host.page
    field = page.get_by_test_id("share-link")
    page.wait_for_function("document.querySelector('[data-testid=share-link]').value !== ''")
    link = field.input_value()
    assert link == f"http://{FAKE_LAN}:{srv.port}/t/{code}"
    assert field.get_attribute("data-local") == "0"
    assert page.get_by_test_id("share-local").count() == 0
    page.wait_for_function("document.querySelector('[data-testid=qr]').naturalWidth > 0")

    # No share sheet on this browser: Share copies the invitation, in the page's language.
    assert page.evaluate("typeof navigator.share") == "undefined"
    page.get_by_test_id("share").tap()
    page.get_by_test_id("toast").wait_for()
    expected = message.format(code=code, link=link)
    assert page.evaluate("navigator.clipboard.readText()") == expected

    # With a share sheet (as on phones): the same message goes to it.
    host.context.add_init_script(SHARE_SPY)
    page.reload()
    page.get_by_test_id("lobby").wait_for()
    page.wait_for_function("document.querySelector('[data-testid=share-link]').value !== ''")
    page.get_by_test_id("share").tap()
    page.wait_for_function("window.__shared.length === 1")
    shared = page.evaluate("window.__shared[0]")
    assert shared["text"] == expected


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "opens only on this device"), ("ne", "यही कम्प्युटरमा मात्र")]
)
def test_only_this_device_is_said_plainly(
    thread_server: Callable[..., ThreadServer], phone: Callable[..., Phone], lang: str, words: str
) -> None:
    srv = thread_server(listen_host="127.0.0.1")
    host = phone(srv.url, lang)
    code = host.create_table()
    page = host.page
    note = page.get_by_test_id("share-local")
    note.wait_for()
    assert words in str(note.text_content())
    assert page.get_by_test_id("share-link").input_value() == f"{srv.url}/t/{code}"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_manifest_service_worker_and_offline(
    thread_server: Callable[..., ThreadServer], phone: Callable[..., Phone]
) -> None:
    srv = thread_server()
    p = phone(srv.url)
    code = p.create_table()
    page = p.page

    # The manifest: linked, parsed, named, coloured, with the icons phones ask for.
    href = page.eval_on_selector("link[rel=manifest]", "l => l.href")
    assert href == f"{srv.url}/manifest.webmanifest"
    reply = p.context.request.get(href)
    assert reply.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(reply.text())
    assert manifest["name"] == "Teen Patti (Flush)" and manifest["display"] == "standalone"
    assert manifest["theme_color"] == page.eval_on_selector(
        "meta[name=theme-color]", "m => m.content"
    )
    sizes = set()
    for icon in manifest["icons"]:
        got = p.context.request.get(srv.url + icon["src"])
        assert got.ok, icon
        if icon["type"] == "image/png":
            width, height = png_size(got.body())
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    # In Nepali the page links the Nepali manifest.
    page.get_by_test_id("lang").tap()
    page.wait_for_function(
        "document.querySelector('link[rel=manifest]').href.endsWith('/manifest-ne.webmanifest')"
    )
    nepali = json.loads(p.context.request.get(srv.url + "/manifest-ne.webmanifest").text())
    assert nepali["lang"] == "ne" and nepali["short_name"] == "तीन पत्ती"
    page.get_by_test_id("lang").tap()

    # The service worker registers, controls the page, and keeps the shell but no lobby reply.
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_selector("html[data-ready='1']")
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    page.get_by_test_id("lobby").wait_for()
    kept = page.evaluate(
        """async () => {
          const urls = [];
          for (const key of await caches.keys())
            for (const request of await (await caches.open(key)).keys())
              urls.push(new URL(request.url).pathname);
          return urls;
        }"""
    )
    assert "/" in kept and "/static/js/main.js" in kept and "/static/offline.html" in kept
    assert not [u for u in kept if u.startswith(("/api/", "/ws/"))], kept

    # No network: the table's page reloads from the shell and says it is offline; the lobby is
    # not answered from any cache.
    p.context.set_offline(True)
    page.reload()
    page.wait_for_selector("html[data-ready='1']")
    banner = page.locator("[data-testid=conn-banner][data-state=offline]")
    banner.wait_for()
    assert "offline" in str(banner.text_content())
    assert (
        page.evaluate(f"fetch('/api/tables/{code}').then(() => 'answered', () => 'failed')")
        == "failed"
    )
    # The home page too.
    page.goto(srv.url + "/")
    page.wait_for_selector("html[data-ready='1']")
    banner.wait_for()
    assert re.search(r"offline", str(banner.text_content()))
    p.context.set_offline(False)
    page.locator("[data-testid=conn-banner]").wait_for(state="hidden")
