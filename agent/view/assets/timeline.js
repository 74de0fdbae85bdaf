// The Timeline page: notes, handoffs and conversation chunks over time,
// one lane each, with the retention zones of the memory block (chunks
// used within archive_after stay; older ones are archived unless kept;
// archives past purge_after are deleted), and the same items as a table.
'use strict';

(() => {
  const { el, fill, get, main, start, fmtTime } = window.rubi;
  const SVG = 'http://www.w3.org/2000/svg';
  const DAY = 86400000;
  const zoneColour = { active: '#59a14f', kept: '#4e79a7', 'archive-due': '#f28e2b', archived: '#9c755f', 'purge-due': '#e15759' };
  const importanceColour = { critical: '#e15759', high: '#f28e2b', medium: '#4e79a7', low: '#bab0ac' };

  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function chart(data) {
    const items = data.items.filter((i) => !isNaN(new Date(i.time)) && new Date(i.time).getUTCFullYear() > 1970);
    const now = new Date(data.now).getTime();
    const times = items.map((i) => new Date(i.time).getTime());
    let from = Math.min(now - 7 * DAY, ...times);
    if (data.archive_after_days > 0) from = Math.min(from, now - data.archive_after_days * DAY * 1.2);
    const W = 1000, H = 220, left = 80, right = 10, top = 10, lane = 55;
    const x = (t) => left + (W - left - right) * (t - from) / Math.max(1, now - from);
    const s = svg('svg', { class: 'timeline-chart', viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': 'Timeline: the table below lists the same items' });
    if (data.archive_after_days > 0) {
      const edge = x(now - data.archive_after_days * DAY);
      s.append(svg('rect', { x: left, y: top, width: Math.max(0, edge - left), height: lane * 3, fill: '#fdf0e2' }));
      s.append(svg('rect', { x: edge, y: top, width: W - right - edge, height: lane * 3, fill: '#eaf5e6' }));
      s.append(svg('line', { x1: edge, x2: edge, y1: top, y2: top + lane * 3, stroke: '#f28e2b', 'stroke-dasharray': '4 3' }));
      s.append(svg('text', { x: edge + 4, y: top + 12, 'font-size': 11, fill: '#8a5a00' }, 'archive after ' + data.archive_after_days + ' days unused'));
    }
    ['note', 'handoff', 'chunk'].forEach((k, i) => {
      s.append(svg('text', { x: 4, y: top + lane * i + lane / 2 + 4, 'font-size': 12, fill: '#333' }, k + 's'));
      s.append(svg('line', { x1: left, x2: W - right, y1: top + lane * (i + 1), y2: top + lane * (i + 1), stroke: '#ddd' }));
    });
    const laneOf = { note: 0, handoff: 1, chunk: 2 };
    for (const it of items) {
      const t = new Date(it.time).getTime();
      const fill = it.kind === 'chunk' ? zoneColour[it.zone] || '#999' : it.kind === 'note' ? importanceColour[it.importance] || '#999' : '#b07aa1';
      const jitter = ((it.id.length * 7919) % 30) - 15;
      const c = svg('circle', { cx: x(t), cy: top + lane * laneOf[it.kind] + lane / 2 + jitter, r: it.kind === 'note' && it.importance === 'critical' ? 5 : 4, fill, opacity: 0.85 });
      c.append(svg('title', {}, fmtTime(it.time) + ' · ' + it.kind + ' · ' + it.title));
      s.append(c);
    }
    const axisY = top + lane * 3 + 16;
    for (let k = 0; k <= 5; k++) {
      const t = from + (now - from) * k / 5;
      s.append(svg('text', { x: x(t), y: axisY, 'font-size': 11, fill: '#666', 'text-anchor': k === 0 ? 'start' : k === 5 ? 'end' : 'middle' }, fmtTime(new Date(t).toISOString()).slice(0, 10)));
    }
    return s;
  }

  // legend names the dots' colours; a swatch takes its colour from
  // script (the page's policy allows no style attribute).
  function legend() {
    const item = (c, label) => {
      const sw = el('span', { class: 'swatch' });
      sw.style.backgroundColor = c;
      return el('span', {}, sw, label);
    };
    return el('div', { class: 'legend' },
      Object.entries(zoneColour).map(([z, c]) => item(c, 'chunk ' + z)),
      Object.entries(importanceColour).map(([i, c]) => item(c, 'note ' + i)),
      item('#b07aa1', 'handoff'));
  }

  start(async () => {
    const data = await get('/api/timeline');
    const counts = { note: 0, handoff: 0, chunk: 0 };
    for (const it of data.items) counts[it.kind]++;
    const policy = data.archive_after_days > 0
      ? 'Retention: a chunk unused for ' + data.archive_after_days + ' days is archived unless kept (tags, reads, keywords)' + (data.purge_after_days > 0 ? '; an archive older than ' + data.purge_after_days + ' days is deleted.' : '.')
      : 'Retention: chunks are never archived (archive_after is 0).';
    fill(main(),
      el('h1', { text: 'Timeline' }),
      el('p', { class: 'muted', text: counts.note + ' notes, ' + counts.handoff + ' handoffs, ' + counts.chunk + ' conversation chunks. ' + policy }),
      data.problems.length ? el('details', {}, el('summary', { text: data.problems.length + ' handoffs could not be read' }), el('ul', {}, data.problems.map((p) => el('li', { text: p })))) : null,
      chart(data),
      legend(),
      el('table', { 'data-testid': 'timeline' },
        el('thead', {}, el('tr', {}, ['Time (UTC)', 'Kind', 'Type', 'Title', 'Importance or zone'].map((h) => el('th', { text: h })))),
        el('tbody', {}, data.items.map((it) => el('tr', { 'data-id': it.id, 'data-kind': it.kind },
          el('td', { text: fmtTime(it.time) }),
          el('td', { text: it.kind }),
          el('td', { text: it.type || '' }),
          el('td', {}, it.kind === 'note' ? el('a', { href: '/knowledge?note=' + encodeURIComponent(it.id), text: it.title }) : it.title),
          el('td', { text: it.kind === 'chunk' ? it.zone + (it.why ? ' (' + it.why + ')' : '') : it.kind === 'note' ? it.importance + (it.status !== 'active' ? ', ' + it.status : '') : '' }),
        )))),
    );
  });
})();
