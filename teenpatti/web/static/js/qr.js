// The QR code of a table's join link, fetched once from the server. Its SVG comes without the SVG
// namespace, which an <img> needs, so it is added here and the picture shown from a blob URL.

export class QrImage {
  /** onReady() is called once the picture can be shown. */
  constructor(code, onReady) {
    this.code = code;
    this.onReady = onReady;
    this.url = null;
    this.loading = false;
  }

  /** The picture's URL, or null while it loads (the first call starts the load). */
  src() {
    if (this.url) return this.url;
    if (!this.loading) {
      this.loading = true;
      fetch(`/api/tables/${encodeURIComponent(this.code)}/qr.svg`)
        .then((response) => (response.ok ? response.text() : Promise.reject(new Error("qr"))))
        .then((text) => {
          const svg = /<svg[^>]*xmlns=/.test(text) ? text : text.replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg"');
          this.url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
          this.onReady();
        })
        .catch(() => {
          this.loading = false;
        });
    }
    return null;
  }

  release() {
    if (this.url) URL.revokeObjectURL(this.url);
  }
}
