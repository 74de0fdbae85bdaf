// The Knowledge page: the notes, the files they name and the links
// between them as a graph, the same notes as a table, filters by type,
// status and importance, and a panel to read the note clicked.
'use strict';

(() => {
  const { el, fill, get, main, start, colour, fail, clearAlert, fmtTime, param } = window.rubi;
  let cy = null;
  let panel = null;
  let table = null;
  let notes = [];
  const filters = { type: '', status: '', importance: '' };

  function statusOf(n) { return n.stale.length > 0 ? [n.status, 'stale'] : [n.status]; }

  function passes(n) {
    return (!filters.type || n.type === filters.type) &&
      (!filters.status || statusOf(n).includes(filters.status)) &&
      (!filters.importance || n.importance === filters.importance);
  }

  function applyFilters() {
    const shown = new Set(notes.filter(passes).map((n) => n.id));
    for (const tr of table.querySelectorAll('tbody tr')) tr.hidden = !shown.has(tr.dataset.id);
    if (cy) {
      cy.batch(() => {
        cy.nodes('[kind = "note"]').forEach((node) => { node.style('display', shown.has(node.id()) ? 'element' : 'none'); });
        cy.nodes('[kind = "file"]').forEach((node) => {
          const linked = node.connectedEdges().some((e) => shown.has(e.source().id()));
          node.style('display', linked ? 'element' : 'none');
        });
      });
    }
    count.textContent = shown.size + ' of ' + notes.length + ' notes shown';
  }
  const count = el('span', { class: 'muted' });

  function tags(n) {
    return [el('span', { class: 'tag', text: n.type }),
      ...statusOf(n).filter((s) => s !== 'active').map((s) => el('span', { class: 'tag ' + s, text: s })),
      n.importance && n.importance !== 'medium' ? el('span', { class: 'tag ' + n.importance, text: n.importance }) : null,
      n.personal ? el('span', { class: 'tag', text: 'personal' }) : null];
  }

  async function showNote(id) {
    for (const tr of table.querySelectorAll('tbody tr')) tr.classList.toggle('selected', tr.dataset.id === id);
    if (cy) { cy.$('node').unselect(); cy.getElementById(id).select(); }
    try {
      const n = await get('/api/note?id=' + encodeURIComponent(id));
      clearAlert();
      fill(panel,
        el('h2', { 'data-testid': 'note-title', text: n.title }),
        el('p', {}, tags(n), el('span', { class: 'muted', text: ' ' + n.id + ' · updated ' + fmtTime(n.updated) })),
        n.stale.length ? el('ul', { class: 'plain' }, n.stale.map((s) => el('li', { class: 'alert-line', text: '⚠ ' + s }))) : null,
        n.repository ? el('p', { class: 'muted', text: 'From the repository: its own words, not rubi\'s.' }) : null,
        el('pre', { 'data-testid': 'note-body', class: n.repository ? 'quoted' : '', text: n.body || '' }),
        n.files.length ? el('h3', { text: n.files_total > n.files.length ? 'Files (the first ' + n.files.length + ' of ' + n.files_total + ')' : 'Files' }) : null,
        n.files.length ? el('ul', { class: 'plain' }, n.files.map((f) => el('li', {}, el('code', { text: f })))) : null,
        n.links.length ? el('h3', { text: 'Links' }) : null,
        n.links.length ? el('ul', { class: 'plain' }, n.links.map((l) => el('li', {}, el('span', { class: 'muted', text: l.rel + ' → ' }),
          notes.some((m) => m.id === l.target) ? el('button', { class: 'link', type: 'button', onclick: () => showNote(l.target), text: l.target }) : el('code', { text: l.target })))) : null,
      );
    } catch (e) { fail(e); }
  }

  function drawGraph(box) {
    if (typeof window.cytoscape !== 'function') throw new Error('the graph library did not load');
    const ids = new Set(notes.map((n) => n.id));
    const elements = [];
    const files = new Set();
    for (const n of notes) {
      elements.push({ data: { id: n.id, kind: 'note', label: n.title.length > 40 ? n.title.slice(0, 39) + '…' : n.title, colour: colour(n.type), size: { critical: 34, high: 28, medium: 22, low: 16 }[n.importance] || 22 } });
    }
    const edges = [];
    for (const n of notes) {
      const named = new Set(n.files);
      for (const l of n.links) {
        if (l.target.startsWith('file:')) named.add(l.target.slice(5));
        else if (ids.has(l.target) && l.target !== n.id) edges.push({ source: n.id, target: l.target, rel: l.rel });
      }
      // A note may name thousands of files: the graph draws the first
      // few, the panel says how many.
      for (const f of [...named].slice(0, 12)) {
        files.add(f);
        edges.push({ source: n.id, target: 'file:' + f, rel: 'about' });
      }
    }
    for (const f of files) elements.push({ data: { id: 'file:' + f, kind: 'file', label: f.split('/').pop(), colour: '#c8c8cc', size: 12 } });
    edges.forEach((e, i) => elements.push({ data: { id: 'l' + i, source: e.source, target: e.target, rel: e.rel } }));
    cy = window.cytoscape({
      container: box,
      elements,
      style: [
        { selector: 'node', style: { width: 'data(size)', height: 'data(size)', 'background-color': 'data(colour)', label: 'data(label)', 'font-size': 8, 'text-valign': 'bottom', color: '#333', 'min-zoomed-font-size': 7 } },
        { selector: 'node[kind = "file"]', style: { shape: 'round-rectangle', 'font-size': 7, color: '#666' } },
        { selector: 'node:selected', style: { 'border-color': '#b3123a', 'border-width': 3 } },
        { selector: 'edge', style: { width: 1, 'line-color': '#b9bcc2', 'curve-style': 'haystack', opacity: 0.8 } },
      ],
      layout: { name: 'cose', animate: false, randomize: false, nodeRepulsion: () => 6000, idealEdgeLength: () => 60 },
    });
    cy.on('tap', 'node[kind = "note"]', (ev) => showNote(ev.target.id()));
  }

  function select(label, key, values) {
    const s = el('select', { name: key, 'aria-label': label, onchange: () => { filters[key] = s.value; applyFilters(); } },
      el('option', { value: '', text: 'any ' + label }), values.map((v) => el('option', { value: v, text: v })));
    return el('label', {}, label + ' ', s);
  }

  start(async () => {
    const data = await get('/api/notes');
    notes = data.notes;
    const root = main();
    panel = el('aside', { class: 'panel', 'aria-live': 'polite' }, el('p', { class: 'muted', text: 'Click a note, in the graph or the table, to read it.' }));
    const box = el('div', { class: 'graph', role: 'img', 'aria-label': 'Notes and the files they name: the table below lists the same notes' });
    const uniq = (f) => [...new Set(notes.map(f).filter(Boolean))].sort();
    table = el('table', { 'data-testid': 'notes' },
      el('thead', {}, el('tr', {}, ['Note', 'Type', 'Status', 'Importance', 'Updated', 'Files'].map((h) => el('th', { text: h })))),
      el('tbody', {}, notes.map((n) => el('tr', { 'data-id': n.id },
        el('td', {}, el('button', { class: 'link', type: 'button', onclick: () => showNote(n.id), text: n.title })),
        el('td', { text: n.type }),
        el('td', { text: statusOf(n).join(', ') }),
        el('td', { text: n.importance }),
        el('td', { text: fmtTime(n.updated) }),
        el('td', { text: n.files.join(', ') }),
      ))));
    fill(root,
      el('h1', { text: 'Knowledge' }),
      data.problems.length ? el('details', {}, el('summary', { text: data.problems.length + ' notes could not be read' }), el('ul', {}, data.problems.map((p) => el('li', { text: p })))) : null,
      el('div', { class: 'toolbar' },
        select('type', 'type', uniq((n) => n.type)),
        select('status', 'status', ['active', 'superseded', 'retracted', 'stale']),
        select('importance', 'importance', ['critical', 'high', 'medium', 'low']),
        el('button', { type: 'button', onclick: () => cy && cy.fit(undefined, 20), text: 'Fit' }),
        count),
      el('div', { class: 'layout' }, box, panel),
      el('h2', { text: 'Notes' }),
      table,
    );
    if (notes.length > 0) drawGraph(box);
    applyFilters();
    const want = param('note');
    if (want) await showNote(want);
  });
})();
