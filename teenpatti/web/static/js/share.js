// Sharing a table: the link the server says friends can open (its public address, or this
// machine's network address when the page was opened on 127.0.0.1), whether it works only on this
// device, and the Share button: the phone's own share sheet where there is one, else the
// invitation is copied.

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
