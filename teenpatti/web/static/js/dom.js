// Building and updating the page without innerHTML: every piece of text goes in as a text node
// (names can hold HTML and must show as typed), and `morph` updates the page in place so a button
// that stays on screen keeps its focus and a screen reader keeps its place.

const SVG_NS = "http://www.w3.org/2000/svg";
const HANDLERS = ["onclick", "oninput", "onchange", "onsubmit", "onkeydown", "onpointerdown"];
const PROPS = ["value", "checked", "disabled", "open"];

function append(el, child) {
  if (child === null || child === undefined || child === false || child === true) return;
  if (Array.isArray(child)) {
    for (const c of child) append(el, c);
  } else if (child instanceof Node) {
    el.appendChild(child);
  } else {
    el.appendChild(document.createTextNode(String(child)));
  }
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (HANDLERS.includes(key)) {
      el[key] = value;
    } else if (key === "text") {
      el.textContent = String(value);
    } else if (key === "style") {
      el.style.cssText = String(value); // CSSOM: the page's CSP allows no style attribute markup
    } else if (key === "props") {
      el.__props = value; // applied once when created, and again only when they change
      for (const [p, v] of Object.entries(value)) el[p] = v;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

/** An HTML element: h("button", {class: "x", onclick}, "text", child, [more]). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element, same calling convention. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function keyOf(node) {
  return node.nodeType === 1 ? node.getAttribute("data-key") : null;
}

function same(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName && keyOf(a) === keyOf(b);
}

function morphNode(from, to) {
  to.__live = from; // where the page shows what `to` was built to show
  from.__drawn = to;
  // copies of one drawing (cards.js) are the same inside: nothing to compare
  if (to.__drawing !== undefined && from.__drawing === to.__drawing) return;
  from.__drawing = to.__drawing; // made the same as `to` below
  if (from.nodeType === 3) {
    if (from.nodeValue !== to.nodeValue) from.nodeValue = to.nodeValue;
    return;
  }
  for (const attr of Array.from(from.attributes)) {
    if (!to.hasAttribute(attr.name)) from.removeAttribute(attr.name);
  }
  for (const attr of Array.from(to.attributes)) {
    if (from.getAttribute(attr.name) === attr.value) continue;
    if (attr.name === "style") from.style.cssText = attr.value;
    else from.setAttribute(attr.name, attr.value);
  }
  for (const key of HANDLERS) {
    if (from[key] !== to[key]) from[key] = to[key] || null;
  }
  if (to.__props) {
    const before = from.__props || {};
    for (const key of PROPS) {
      if (key in to.__props && before[key] !== to.__props[key]) from[key] = to.__props[key];
    }
    from.__props = to.__props;
  }
  morphChildren(from, to);
}

/** Make `parent`'s children look like `children` (nodes or text), reusing what matches. */
export function morphChildren(parent, next) {
  const wanted = next instanceof Node ? Array.from(next.childNodes) : flat(next);
  let i = 0;
  for (; i < wanted.length; i++) {
    const want = wanted[i];
    const have = parent.childNodes[i];
    if (want.__kept) {
      // a part of the page that did not change: the node it is on the page, left as it is
      if (have !== want.__kept) parent.insertBefore(want.__kept, have || null);
      continue;
    }
    if (have && have.__claimed === drawing) {
      // a node kept for another part of this drawing is not made into this one
      parent.insertBefore(want, have);
      placeKept(want);
      continue;
    }
    if (!have) {
      parent.appendChild(want);
      placeKept(want);
    } else if (same(have, want)) {
      morphNode(have, want);
    } else {
      // look ahead for a keyed match before replacing
      let match = null;
      const key = keyOf(want);
      if (key !== null) {
        for (let j = i + 1; j < parent.childNodes.length; j++) {
          if (same(parent.childNodes[j], want) && parent.childNodes[j].__claimed !== drawing) {
            match = parent.childNodes[j];
            break;
          }
        }
      }
      if (match) {
        parent.insertBefore(match, have);
        morphNode(match, want);
      } else {
        parent.replaceChild(want, have);
        placeKept(want);
      }
    }
  }
  while (parent.childNodes.length > wanted.length) parent.removeChild(parent.lastChild);
}

/** Put in a subtree just added to the page the nodes its stand-ins (`kept`) stand for. */
function placeKept(root) {
  if (root.nodeType !== 1 || !root.firstChild) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_COMMENT);
  const markers = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.__kept) markers.push(node);
  for (const marker of markers) marker.replaceWith(marker.__kept);
}

function flat(children) {
  const holder = document.createElement("div");
  append(holder, children);
  return Array.from(holder.childNodes);
}

/**
 * A stand-in, in a tree built to morph the page into, for the node the page shows for `built`
 * (a node built before, and morphed in or put in then): morphing keeps that node where the
 * stand-in is, as it is, without comparing it. Null when the page's node has since been made to
 * show something else: then `built` no longer describes it and must be built again.
 */
export function kept(built) {
  const live = built.__live || built;
  if (live.__drawn && live.__drawn !== built) return null;
  const marker = document.createComment("");
  marker.__kept = live;
  live.__claimed = drawing; // no other part may be morphed into it in this drawing
  return marker;
}

let drawing = 0;

/** A new drawing of the page begins: the nodes kept in the last one are free again. */
export function newDrawing() {
  drawing += 1;
}

/** Replace everything in `el` (for pages rendered once, such as forms). */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** A code shown as typed and read out one character at a time ("K 7 M 2 P Q"), not as a word. */
export function codeText(code) {
  return h(
    "span",
    { class: "code-text" },
    h("span", { "aria-hidden": "true" }, code),
    h("span", { class: "sr-only" }, String(code).split("").join(" ")),
  );
}

/** Ids unique to this page, for label/aria wiring. */
let counter = 0;
export function uid(prefix = "id") {
  counter += 1;
  return `${prefix}-${counter}`;
}
