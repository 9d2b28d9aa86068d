// Sharing a table: the link the server says friends can open (its public address, or this
// machine's network address when the page was opened on 127.0.0.1), whether it works only on this
// device, and the Share button: the phone's own share sheet where there is one, else the
// invitation is copied. The invitation panel (code, QR, link, Copy, Share) is the waiting room's
// and the table menu's during the game.

import { codeText, h } from "./dom.js";
import { t } from "./i18n.js";

export class ShareLink {
  /** onReady() is called once the server has said which link to share. */
  constructor(code, onReady) {
    this.code = code;
    this.onReady = onReady;
    this.found = null;
    this.loading = false;
  }

  /** {url, local_only} from the server, or null while it loads (the first call starts it). */
  get() {
    if (this.found) return this.found;
    if (!this.loading) {
      this.loading = true;
      fetch(`/api/tables/${encodeURIComponent(this.code)}`)
        .then((response) => (response.ok ? response.json() : Promise.reject(new Error("share"))))
        .then((info) => {
          this.found = info.share;
          this.onReady();
        })
        .catch(() => {
          this.loading = false;
        });
    }
    return null;
  }
}

/** The invitation in the page's language: "Join my Teen Patti table: CODE LINK". */
export function invitation(code, link) {
  return t("share.message", { code, link });
}

/** Open the phone's share sheet with the invitation, or copy it where there is none. */
export async function shareTable(view, code, link) {
  const text = invitation(code, link);
  if (typeof navigator.share === "function") {
    try {
      await navigator.share({ title: t("app.name"), text });
      return;
    } catch (error) {
      if (error && error.name === "AbortError") return; // the player closed the share sheet
    }
  }
  await copyText(view, text, t("share.ready"));
}

/** Copy text to the clipboard and say so; if the browser refuses, select the link to copy by hand. */
export async function copyText(view, text, done) {
  try {
    await navigator.clipboard.writeText(text);
    view.app.toast(done);
  } catch {
    const input = view.root.querySelector("#share-link");
    if (input) input.select();
    view.app.toast(t("err.copy", { link: input ? input.value : text }));
  }
}

/** The invitation: the code, the QR code, the link, Copy and Share. `heading` is the tag of its
 *  title (h2 in the waiting room, h3 in the table menu). */
export function invitePanel(view, st, heading = "h2") {
  const share = view.share.get();
  const link = share ? share.url : "";
  return h(
    "section",
    { class: "panel share", "aria-labelledby": "share-title", "data-key": "invite", "data-testid": "invite" },
    h(heading, { id: "share-title" }, t("share.title")),
    h("p", { class: "label", id: "code-label" }, t("share.code")),
    h("p", { class: "code-big", "data-testid": "table-code", "data-code": st.code }, codeText(st.code)),
    h(
      "figure",
      { class: "qr" },
      h("img", {
        src: view.qr.src(),
        alt: t("share.qr.alt", { code: st.code }),
        width: 168,
        height: 168,
        "data-testid": "qr",
      }),
      h("figcaption", {}, t("share.qr")),
    ),
    h("label", { class: "label", for: "share-link" }, t("share.link")),
    h(
      "div",
      { class: "link-row" },
      h("input", {
        id: "share-link",
        class: "link",
        readonly: true,
        value: link,
        "data-testid": "share-link",
        "data-local": share && share.local_only ? "1" : "0",
        onclick: (e) => e.target.select(),
      }),
    ),
    share && share.local_only ? h("p", { class: "warn small", role: "note", "data-testid": "share-local" }, t("share.local")) : null,
    // a plain-http address on the Wi-Fi: phones let no such page copy or share, so the link is
    // written out whole to copy by hand (and the QR code above is there to scan)
    byHand()
      ? [
          h("p", { class: "link-whole", "data-testid": "share-whole" }, link),
          h("p", { class: "small muted", role: "note", "data-testid": "share-manual" }, t("share.manual")),
        ]
      : h(
          "div",
          { class: "row" },
          h(
            "button",
            { type: "button", class: "btn", "data-testid": "copy-link", disabled: !link, onclick: () => copyText(view, link, t("share.copied")) },
            t("share.copy"),
          ),
          h(
            "button",
            { type: "button", class: "btn", "data-testid": "share", disabled: !link, onclick: () => shareTable(view, st.code, link) },
            t("share.share"),
          ),
        ),
  );
}

/** Whether this page can neither copy nor share (a plain-http address that is not this device). */
export function byHand() {
  const clipboard = navigator.clipboard && typeof navigator.clipboard.writeText === "function";
  return !window.isSecureContext || (!clipboard && typeof navigator.share !== "function");
}
