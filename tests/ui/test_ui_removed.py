"""A removed player's page, and the others': when the host removes Kiran, the others read that
the host removed him (not that he left), in English and Nepali; and his page, opened again, says
at once that the host removed him, with Watch this game beside it, before he types anything. At
the smallest phone."""

from __future__ import annotations

from typing import Any

from test_ui_social import three_playing


def test_a_removed_player_is_told_as_the_page_opens(phone: Any, server: Any) -> None:
    host, bimal, kiran = phone(), phone(), phone(width=320, height=568)
    code, (hpage, bpage, kpage) = three_playing(server, [host, bimal, kiran])
    hpage.get_by_test_id("menu-open").tap()
    hpage.get_by_test_id("remove-2").tap()
    hpage.get_by_test_id("confirm-yes").tap()
    kpage.get_by_test_id("join-form").wait_for()
    hpage.get_by_test_id("announce").get_by_text("The host removed Kiran").last.wait_for()
    bpage.get_by_test_id("announce").get_by_text("होस्टले Kiran लाई हटाउनुभयो").last.wait_for()
    assert "Kiran left" not in (hpage.get_by_test_id("announce").text_content() or "")
    # Kiran opens the table's link again: the page says so at once, Watch beside it
    kpage.goto(f"{kiran.base}/t/{code}")
    kpage.get_by_test_id("form-error").get_by_text("The host removed you").wait_for()
    kpage.get_by_test_id("watch").wait_for()
    assert kpage.get_by_test_id("name").input_value() in ("", "Kiran")
