"""The story of a game told truly, on a 360 x 640 phone, in English and Nepali (issue 31, sections
4 and 5):

- past hands credit each move to whoever held the seat then: a real server, a host and two
  computers; a friend arrives late and takes a computer's seat from the next hand; the earlier
  hands still name the computer for its moves (for the host, and for the friend, who is not "You"
  for moves they never made);
- the side-show button names its partner, a declined side show is told to everyone, the news line
  clears with the next move, and past hands show a timeout as a timeout and what became of each
  side show. Real play reaches none of these reliably (a side show needs two seen players side by
  side; a timeout needs the turn timer to run out), so the page's own renderer is fed the state the
  real server sent this phone, changed (as test_ui_nepali.py does), and the past hands the real
  server recorded, changed on their way to the page;
- a player out of chips sees what happens next: a real server, the rebuy house rule on, a host
  who packs every hand until they have no chips; the page offers "Buy back in", the tap sends the
  rebuy to the server, which records it, and the standings show it at the end. The words for a
  table without rebuys are drawn by the page's renderer from the real state with the offer
  taken out.
"""

from __future__ import annotations

from typing import Any

from test_ui_social import lobby, open_table, sit

NE_DIGITS = str.maketrans("0123456789", "०१२३४५६७८९")


def ne(n: int) -> str:
    """A number as a Nepali screen writes it."""
    return str(n).translate(NE_DIGITS)


def names(page: Any) -> list[str]:
    """The seats' names in the state this page holds."""
    return list(page.evaluate("() => window.__tp.table.st.seats.map((s) => s.name)"))


SEAT_NAMES_JS = """async () => {
  const moves = await import('/static/js/moves.js');
  const st = window.__tp.table.st;
  return st.seats.map((_, seat) => moves.seatName(st, seat));
}"""


def seat_names(page: Any) -> list[str]:
    """The seats as this page names them in its language ("Asha (computer)", "You")."""
    return list(page.evaluate(SEAT_NAMES_JS))


def to_lang(page: Any, lang: str) -> None:
    """Switch the page to ``lang`` with its own language button."""
    if page.evaluate("() => document.documentElement.lang") != lang:
        page.get_by_test_id("lang").tap()
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)


def my_turn(page: Any) -> None:
    page.wait_for_function(
        """() => { const d = document.querySelector('[data-testid=table]').dataset;
          return d.myturn === '1' && d.pending === '0'; }"""
    )


PAST_MOVES_JS = """(hand) => [...document.querySelectorAll(
  `[data-testid=past-hand][data-hand='${hand}'] li[data-key^=m]`)]
  .map((li) => li.textContent)"""


def past_moves(page: Any, hand: int) -> list[str]:
    """The moves of past hand ``hand`` as Past hands lists them (opened if it is not)."""
    if (
        page.get_by_test_id("past-hands").count() == 0
        or not page.locator(f"[data-testid=past-hand][data-hand='{hand}']").is_visible()
    ):
        page.get_by_test_id("hands-toggle").tap()
    page.locator(f"[data-testid=past-hand][data-hand='{hand}'] li[data-key^=m]").first.wait_for()
    return list(page.evaluate(PAST_MOVES_JS, hand))


def _keep_playing(_phone: Any, _state: dict[str, str], choices: list[str]) -> str:
    """Never pack (so every seat moves in each hand); the late friend packs."""
    for pick in ("act-chaal", "act-show", "act-pack"):
        if pick in choices:
            return pick
    return choices[0]


def test_past_hands_credit_the_seat_as_it_was_held(phone, server, play) -> None:
    code, (host_seat,) = open_table(server, ["Sita"], seats=3, hands=4)
    host = phone()
    hpage = sit(host, code, host_seat)
    hpage.get_by_test_id("start").tap()
    hpage.locator("[data-testid=table][data-hand='1']").wait_for()
    before = names(hpage)
    # Hand 1 is played through: the host never packs, so every seat moves in it.
    play([host], _keep_playing, lambda s: int(s["hand"]) >= 2 or s["status"] == "finished")

    # A friend (in Nepali) arrives late and takes a computer's seat; from the next hand it is hers.
    late = phone()
    friend = lobby(server, f"/api/tables/{code}/join", {"name": "Laxmi"})
    seat = friend["seat"]
    computer = before[seat]
    assert computer != "Laxmi"
    lpage = sit(late, code, friend, "ne")
    joined = int(lpage.get_by_test_id("table").get_attribute("data-hand"))
    state = play(
        [host, late],
        _keep_playing,
        lambda s: int(s["hand"]) > joined and s["actor"] == str(seat),
    )
    # Laxmi's page is where the host's is (her turn draws her moves and scrolls to them: no tap
    # on her page before), and nothing moves before she does
    lpage.locator(f"[data-testid=table][data-version='{state['version']}']").wait_for()
    assert names(hpage)[seat] == "Laxmi"

    # Hand 1: every move of that seat names the computer, as a computer, never Laxmi (nor "You"
    # on her phone).
    moves = past_moves(hpage, 1)
    theirs = [m for m in moves if m.startswith(f"{computer} (computer): ")]
    assert theirs, f"{computer} made no move in hand 1: {moves}"
    assert not [m for m in moves if "Laxmi" in m], moves
    ne_moves = past_moves(lpage, 1)
    assert [m for m in ne_moves if m.startswith(f"{computer} (कम्प्युटर): ")], ne_moves
    assert not [m for m in ne_moves if "Laxmi" in m or m.startswith("तपाईं")], ne_moves
    to_lang(hpage, "ne")
    assert [m for m in past_moves(hpage, 1) if m.startswith(f"{computer} (कम्प्युटर): ")]


# ------------------------------------------------------------------ the side show and the news
SIDESHOW_BUTTON_JS = """(partner) => {
  const view = window.__tp.table;
  const real = view.st;
  const st = structuredClone(real);
  st.hand.finished = false;
  st.hand.actor = st.you;
  st.hand.side_show = null;
  st.legal = [
    { do: 'pack', cost: 0, max: 0, label: null, targets: [] },
    { do: 'sideshow', cost: 40, max: 40, label: null, targets: [partner] },
  ];
  view.store.dispatch({type: 'received', st: st, now: Date.now()});
  view.render();
  const button = document.querySelector('[data-testid=table] button[data-do=sideshow]');
  const line = document.querySelector('[data-testid=sideshow-partner]');
  const text = button && line
    ? `${line.textContent.trim()} / ${button.textContent.trim()}` : null;
  view.store.dispatch({type: 'received', st: real, now: Date.now()});
  view.render();
  return text;
}"""

NEWS_JS = """(actions) => {
  const view = window.__tp.table;
  const real = view.st;
  const st = structuredClone(real);
  st.hand.finished = false;
  st.hand.side_show = null;
  st.hand.actions = actions;
  view.store.dispatch({type: 'received', st: st, now: Date.now()});
  view.render();
  const news = document.querySelector('[data-testid=news]');
  const text = news ? news.textContent.trim() : null;
  view.store.dispatch({type: 'received', st: real, now: Date.now()});
  view.render();
  return text;
}"""


def _pack(_phone: Any, _state: dict[str, str], choices: list[str]) -> str:
    return "act-pack" if "act-pack" in choices else choices[0]


def test_side_show_named_declines_told_news_cleared_and_past_hands_tell_it(
    phone, server, play
) -> None:
    """Drawn by the page's renderer from the real server's state, changed: the side-show button,
    the news line; and Past hands from the real server's recorded hands, changed on their way."""
    code, (host_seat,) = open_table(server, ["Sita"], seats=3, hands=5)
    host = phone()
    hpage = sit(host, code, host_seat)

    def changed_hands(route: Any) -> None:
        # The hands the server recorded, hand 1's moves replaced by two side shows (one declined,
        # one accepted) and a move the turn timer made.
        reply = route.fetch()
        hands = reply.json()
        if hands:
            hands[0]["actions"] = [
                {"seat": 1, "do": "sideshow", "paid": 20, "with": 2},
                {"seat": 2, "do": "decline", "paid": 0},
                {"seat": 1, "do": "sideshow", "paid": 20, "with": 2},
                {"seat": 2, "do": "accept", "paid": 0, "loser": 1},
                {"seat": 2, "do": "pack", "paid": 0, "timeout": True},
            ]
        route.fulfill(response=reply, json=hands)

    hpage.route(f"**/api/tables/{code}/hands", changed_hands)
    hpage.get_by_test_id("start").tap()
    play([host], _pack, lambda s: int(s["hand"]) >= 2 or s["status"] == "finished")
    my_turn(hpage)  # the table waits for the host (no turn timer): nothing redraws meanwhile

    for lang in ("en", "ne"):
        to_lang(hpage, lang)
        a, b = seat_names(hpage)[1:3]
        # The line above the moves names the side show's partner; its button gives its price.
        want = (
            f"Side show with {a} / Side show 40"
            if lang == "en"
            else f"{a} सँग साइड सो / साइड सो {ne(40)}"
        )
        assert hpage.evaluate(SIDESHOW_BUTTON_JS, 1) == want
        # A declined side show is told to everyone (here to the host, who is neither of them).
        declined = [
            {"seat": 1, "do": "sideshow", "paid": 20, "with": 2},
            {"seat": 2, "do": "decline", "paid": 0},
        ]
        want = (
            f"{b} declined {a}'s side show" if lang == "en" else f"{b} ले {a} लाई साइड सो हुँदैन भन्नुभयो"
        )
        assert hpage.evaluate(NEWS_JS, declined) == want
        # The news line holds the latest move's news only: the next move clears it.
        timed_out = [{"seat": 1, "do": "pack", "paid": 0, "timeout": True}]
        want = f"{a} ran out of time" if lang == "en" else f"{a} को समय सकियो"
        assert hpage.evaluate(NEWS_JS, timed_out) == want
        moved_on = [*timed_out, {"seat": 2, "do": "chaal", "paid": 20}]
        assert hpage.evaluate(NEWS_JS, moved_on) is None
        moved_on = [*declined, {"seat": 1, "do": "pack", "paid": 0}]
        assert hpage.evaluate(NEWS_JS, moved_on) is None

    # Past hands: whom a side show asked, what became of it, and a timeout as a timeout.
    to_lang(hpage, "en")
    a, b = seat_names(hpage)[1:3]
    assert past_moves(hpage, 1) == [
        f"{a}: Asked {b} for a side show 20",
        f"{b}: Declined {a}'s side show",
        f"{a}: Asked {b} for a side show 20",
        f"{b}: Side show accepted: {a} packed",
        f"{b}: Packed (time ran out)",
    ]
    to_lang(hpage, "ne")
    hpage.wait_for_function(
        "() => document.querySelector('[data-testid=past-hand] li[data-key^=m]')"
        ".textContent.includes('साइड')"
    )
    a, b = seat_names(hpage)[1:3]
    assert past_moves(hpage, 1) == [
        f"{a}: {b} सँग साइड सो {ne(20)}",
        f"{b}: {a} को साइड सो: हुँदैन",
        f"{a}: {b} सँग साइड सो {ne(20)}",
        f"{b}: साइड सो: हुन्छ — {a} प्याक",
        f"{b}: प्याक (समय सकियो)",
    ]


# ------------------------------------------------------------------------- out of chips, rebuy
OUT_JS = """([offer, keep]) => {
  const view = window.__tp.table;
  const real = view.st;
  const st = structuredClone(real);
  st.out = true;
  if (offer) st.rebuy = offer;
  st.seats[st.you].dealt = false;
  st.seats[st.you].chips = 0;
  st.seats[st.you].cards = null;
  st.legal = [];
  view.store.dispatch({type: 'received', st: st, now: Date.now()});
  view.render();
  const out = document.querySelector('[data-testid=out]');
  const button = document.querySelector('[data-testid=rebuy]');
  const told = {
    text: out ? out.textContent.trim() : null, button: button ? button.textContent : null,
  };
  if (!keep) {
    view.store.dispatch({type: 'received', st: real, now: Date.now()});
    view.render();
  }
  return told;
}"""

STANDINGS_JS = """(rows) => {
  const view = window.__tp.table;
  const real = view.st;
  const st = structuredClone(real);
  st.status = 'finished';
  st.standings = rows;
  view.store.dispatch({type: 'received', st: st, now: Date.now()});
  view.render();
  const shown = [...document.querySelectorAll('[data-testid=standing-rebuys]')]
    .map((e) => e.textContent);
  view.store.dispatch({type: 'received', st: real, now: Date.now()});
  view.render();
  return shown;
}"""


def test_out_of_chips_told_what_next_and_the_rebuy_offer(phone, server) -> None:
    """A real table with the rebuy house rule; the state the real server sent this phone is
    changed to one where this player has no chips (real play makes a person run out of chips only
    at an all in at the boot, whose cards decide it: the server's rebuy itself is tested in
    tests/server/test_server_host.py). The tap on "Buy back in" goes to the real server, which
    answers it by the rules (this player still has chips there)."""
    code, (host_seat,) = open_table(server, ["Sita"], seats=3, hands=5, rebuy_chips=50)
    host = phone()
    hpage = sit(host, code, host_seat)
    sent: list[str] = []
    hpage.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(str(frame))))
    hpage.reload()
    hpage.wait_for_selector("html[data-ready='1']")
    hpage.locator("[data-testid=table][data-you='0']").wait_for()
    hpage.get_by_test_id("start").tap()
    hpage.locator("[data-testid=table][data-hand='1']").wait_for()
    my_turn(hpage)  # the table waits for the host (no turn timer): nothing redraws meanwhile
    offer = {"chips": 50, "left": 1, "until": 5}
    a = names(hpage)[1]
    rows = [
        {"place": 1, "seat": 1, "name": a, "chips": 120},
        {"place": 2, "seat": 0, "name": "Sita", "chips": 60, "rebuys": 1, "net": 10},
    ]

    # Out of chips without a rebuy: what happens next is said; with one, the offer and its terms.
    assert hpage.evaluate(OUT_JS, [None, False]) == {
        "text": "You are out of chips: you sit out the rest of this game, and the standings "
        "come after hand 5.",
        "button": None,
    }
    assert hpage.evaluate(OUT_JS, [offer, False]) == {
        "text": "Buy back in: 50 chipsFrom the next hand. Rebuys left: 1; the last hand a "
        "rebuy plays from is hand 5.",
        "button": "Buy back in: 50 chips",
    }
    assert hpage.evaluate(STANDINGS_JS, rows) == [" (1 rebuys: 10 without them)"]
    to_lang(hpage, "ne")
    assert hpage.evaluate(OUT_JS, [None, False])["text"] == (
        f"तपाईंका चिप्स सकिए: यो खेलका बाँकी बाजी तपाईं खेल्न पाउनुहुन्न, र बाजी {ne(5)} पछि अन्तिम नतिजा आउँछ।"
    )
    told = hpage.evaluate(OUT_JS, [offer, False])
    assert told["button"] == f"फेरि लिनुहोस्: {ne(50)} चिप्स"
    assert ne(5) in told["text"] and ne(1) in told["text"]
    assert hpage.evaluate(STANDINGS_JS, rows) == [f" ({ne(1)} पटक फेरि लिनुभयो: ती घटाउँदा {ne(10)})"]

    # The tap sends the rebuy; the real server answers it (here: this seat has chips there).
    to_lang(hpage, "en")
    hpage.evaluate(OUT_JS, [offer, True])
    hpage.get_by_test_id("rebuy").tap()
    hpage.get_by_test_id("toast").get_by_text("Only a player out of chips buys back in.").wait_for()
    assert any('"type":"rebuy"' in frame.replace(" ", "") for frame in sent), sent
