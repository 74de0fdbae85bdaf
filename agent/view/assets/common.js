// What every page of rubi view shares. Repository text (names, notes,
// symbols) only ever reaches the page as text: el() and append() make
// text nodes of strings, and nothing here parses a string as markup.
'use strict';

window.rubi = (() => {
  // el makes an element with attributes (text: its text; on*: listeners)
  // and children (nodes, or strings made text).
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'text') e.textContent = String(v);
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat()) {
      if (c !== undefined && c !== null && c !== false) e.append(c);
    }
    return e;
  }

  // get fetches a JSON route of the API; a refusal or an error throws
  // with the server's message.
  async function get(path) {
    const r = await fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    let body = null;
    try { body = await r.json(); } catch (e) { body = null; }
    if (!r.ok) throw new Error((body && body.error) || (r.status + ' ' + r.statusText));
    return body;
  }

  // fill replaces a parent's children (null, undefined and false stand
  // for nothing).
  function fill(parent, ...children) {
    parent.replaceChildren(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
    return parent;
  }

  function main() { return document.getElementById('page'); }

  // ready tells whoever waits (a test, a screenshot) that the page shows
  // its data.
  function ready() { document.body.dataset.ready = '1'; }

  // fail shows an error in the page's alert and marks the page ready.
  function fail(err) {
    let p = main().querySelector('p[role="alert"]');
    if (!p) {
      p = el('p', { role: 'alert', class: 'alert' });
      main().prepend(p);
    }
    p.textContent = String((err && err.message) || err);
    ready();
  }

  function clearAlert() {
    const p = main().querySelector('p[role="alert"]');
    if (p) p.remove();
  }

  // start runs a page's loader, then marks it ready, or shows its error.
  function start(load) {
    Promise.resolve().then(load).then(ready, fail);
  }

  // colour gives a name (a language, a type) a stable colour.
  const palette = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac', '#1f77b4', '#2ca02c'];
  const fixed = { go: '#00add8', python: '#3572a5', javascript: '#e8c000', typescript: '#3178c6', markdown: '#7a7a7a', rust: '#b7410e', java: '#b07219', c: '#555555', cpp: '#f34b7d', ruby: '#cc342d', shell: '#89e051' };
  function colour(name) {
    if (!name) return '#999999';
    if (fixed[name]) return fixed[name];
    let h = 0;
    for (const ch of name) h = (h * 31 + ch.codePointAt(0)) >>> 0;
    return palette[h % palette.length];
  }

  function fmtTime(t) {
    if (!t) return '';
    const d = new Date(t);
    if (isNaN(d) || d.getUTCFullYear() < 1971) return '';
    return d.toISOString().slice(0, 16).replace('T', ' ');
  }

  function param(name) { return new URLSearchParams(location.search).get(name); }

  return { el, fill, get, main, ready, fail, clearAlert, start, colour, fmtTime, param };
})();
