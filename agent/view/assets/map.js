// The Map page: the module graph (a module sized by its files, coloured
// by its main language, a test module dashed; edges by imports, and
// references dashed where the index keeps them), the same modules as a
// table, and a panel for the module or file clicked.
'use strict';

(() => {
  const { el, fill, get, main, start, colour, fail, clearAlert } = window.rubi;
  let cy = null;
  let panel = null;
  let table = null;

  function selectRow(name) {
    for (const tr of table.querySelectorAll('tbody tr')) tr.classList.toggle('selected', tr.dataset.id === name);
  }

  function list(items, render) {
    if (!items || items.length === 0) return el('p', { class: 'muted', text: 'none' });
    return el('ul', { class: 'plain' }, items.map((x) => el('li', {}, render(x))));
  }

  function fileButton(path) {
    return el('button', { class: 'link', type: 'button', 'data-path': path, onclick: () => showFile(path), text: path });
  }

  function moduleButton(name) {
    return el('button', { class: 'link', type: 'button', onclick: () => showModule(name), text: name });
  }

  async function showModule(name) {
    selectRow(name);
    if (cy) {
      cy.$('node').unselect();
      cy.getElementById(name).select();
    }
    try {
      const m = await get('/api/module?name=' + encodeURIComponent(name));
      clearAlert();
      fill(panel,
        el('h2', { text: m.name }),
        el('p', { class: 'muted', text: m.files + ' files · PageRank ' + m.pagerank.toFixed(4) }),
        el('h3', { text: 'Central files' }), list(m.central, fileButton),
        el('h3', { text: 'Depends on' }), list(m.depends_on, moduleButton),
        el('h3', { text: 'Used by' }), list(m.used_by, moduleButton),
        el('h3', { text: 'Files' }), list(m.file_list, (f) => [fileButton(f.path), el('span', { class: 'muted', text: ' ' + (f.language || '') })]),
        el('h3', { text: 'Module page (exports, imports)' }), el('pre', { 'data-testid': 'module-page', text: m.page || '' }),
      );
    } catch (e) { fail(e); }
  }

  async function showFile(path) {
    try {
      const f = await get('/api/file?path=' + encodeURIComponent(path));
      clearAlert();
      fill(panel,
        el('h2', { text: f.path }),
        el('p', { class: 'muted' }, (f.language || '') + ' · module ', moduleButton(f.module), ' · PageRank ' + f.pagerank.toFixed(4)),
        el('h3', { text: 'Symbols' }),
        list(f.symbols, (s) => [el('code', { text: s.name }), el('span', { class: 'muted', text: ' ' + s.kind + ' · line ' + s.line })]),
        el('h3', { text: 'Notes about it' }),
        list(f.notes, (n) => [el('a', { href: '/knowledge?note=' + encodeURIComponent(n.id), text: n.title }), el('span', { class: 'muted', text: ' ' + n.type + (n.status !== 'active' ? ' · ' + n.status : '') })]),
      );
    } catch (e) { fail(e); }
  }

  function drawGraph(box, data) {
    if (typeof window.cytoscape !== 'function') throw new Error('the graph library did not load');
    const maxFiles = Math.max(1, ...data.modules.map((m) => m.files));
    const elements = [];
    for (const m of data.modules) {
      elements.push({ data: { id: m.name, label: m.name, size: 18 + 52 * Math.sqrt(m.files / maxFiles), colour: colour(m.language), border: m.test ? 'dashed' : 'solid' } });
    }
    const known = new Set(data.modules.map((m) => m.name));
    data.edges.forEach((e, i) => {
      if (!known.has(e.from) || !known.has(e.to) || e.from === e.to) return;
      const n = e.imports + e.refs;
      elements.push({ data: { id: 'e' + i, source: e.from, target: e.to, width: 1 + Math.min(5, Math.log2(1 + n)), line: e.imports > 0 ? 'solid' : 'dashed', label: e.imports + ' imports' + (e.refs ? ', ' + e.refs + ' refs' : '') } });
    });
    cy = window.cytoscape({
      container: box,
      elements,
      style: [
        { selector: 'node', style: { width: 'data(size)', height: 'data(size)', 'background-color': 'data(colour)', 'border-width': 2, 'border-color': '#333', 'border-style': 'data(border)', label: 'data(label)', 'font-size': 10, 'text-valign': 'bottom', 'text-margin-y': 3, color: '#222' } },
        { selector: 'node:selected', style: { 'border-color': '#b3123a', 'border-width': 4 } },
        { selector: 'edge', style: { width: 'data(width)', 'line-color': '#9aa0a6', 'line-style': 'data(line)', 'target-arrow-shape': 'triangle', 'target-arrow-color': '#9aa0a6', 'curve-style': 'bezier', opacity: 0.7 } },
      ],
      layout: { name: 'cose', animate: false, randomize: false, nodeRepulsion: () => 9000, idealEdgeLength: () => 90 },
    });
    cy.on('tap', 'node', (ev) => showModule(ev.target.id()));
  }

  start(async () => {
    const data = await get('/api/map');
    const root = main();
    panel = el('aside', { class: 'panel', 'aria-live': 'polite' }, el('p', { class: 'muted', text: 'Click a module, in the graph or the table, for its files; a file for its symbols and notes.' }));
    const box = el('div', { class: 'graph', role: 'img', 'aria-label': 'Module graph: the table below lists the same modules' });
    const legend = el('div', { class: 'legend' },
      data.languages.map((l) => el('span', {}, el('span', { class: 'swatch', 'data-colour': colour(l) }), l)),
      el('span', { class: 'muted', text: 'size: files · solid: imports · dashed edge: references only · dashed border: tests' }));
    const fit = el('button', { type: 'button', onclick: () => cy && cy.fit(undefined, 20), text: 'Fit' });
    table = el('table', { 'data-testid': 'modules' },
      el('thead', {}, el('tr', {}, ['Module', 'Files', 'Language', 'Role', 'Central files', 'Depends on'].map((h) => el('th', { text: h })))),
      el('tbody', {}, data.modules.map((m) => el('tr', { 'data-id': m.name },
        el('td', {}, moduleButton(m.name)),
        el('td', { text: m.files }),
        el('td', { text: m.language || '' }),
        el('td', { text: m.test ? 'tests' : 'code' }),
        el('td', {}, m.central.map((p) => el('div', {}, fileButton(p)))),
        el('td', { text: m.depends_on.join(', ') }),
      ))));
    fill(root,
      el('h1', { text: 'Map' }),
      el('p', { class: 'muted', text: data.files + ' files in ' + data.modules.length + ' modules' }),
      el('div', { class: 'toolbar' }, fit, el('span', { class: 'muted', text: 'scroll to zoom, drag to pan' })),
      legend,
      el('div', { class: 'layout' }, box, panel),
      el('h2', { text: 'Modules' }),
      table,
    );
    // Swatches take their colour from script, not from a style attribute
    // (the page's policy allows no inline style).
    for (const s of legend.querySelectorAll('.swatch')) s.style.backgroundColor = s.dataset.colour;
    if (data.modules.length > 0) drawGraph(box, data);
  });
})();
