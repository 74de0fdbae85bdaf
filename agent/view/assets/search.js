// The Search page: a question answered as an agent gets it (the text of
// rubi context, within the same budget), each item with the fused score
// and each ranker's, each ranker's own list, and the budget used.
'use strict';

(() => {
  const { el, fill, get, main, start, ready, fail, clearAlert } = window.rubi;
  let out = null;

  function score(x) { return (Math.round(x * 10000) / 10000).toString(); }

  async function ask(q) {
    delete document.body.dataset.ready;
    fill(out, el('p', { class: 'muted', text: 'Searching…' }));
    try {
      const r = await get('/api/search?q=' + encodeURIComponent(q));
      clearAlert();
      fill(out,
        el('p', { 'data-testid': 'budget', text: r.tokens + ' of ' + r.budget + ' tokens used · ' + r.items.length + ' items' + (r.omitted ? ' · ' + r.omitted + ' left out by the budget or the limit' : '') }),
        r.problems.length ? el('ul', {}, r.problems.map((p) => el('li', { class: 'muted', text: p }))) : null,
        el('h2', { text: 'Items' }),
        el('ol', { 'data-testid': 'results', class: 'results' }, r.items.map((it) => el('li', { 'data-id': it.id },
          el('strong', { text: it.title }), el('span', { class: 'muted', text: ' ' + it.kind + (it.path && it.path !== it.title ? ' · ' + it.path : '') + ' · ' + it.tokens + ' tokens' }),
          el('div', { class: 'scores', text: 'score ' + score(it.score) + ' · ' + Object.entries(it.scores).sort().map(([k, v]) => k + ' ' + score(v)).join(' · ') }),
          it.reasons.length ? el('div', { class: 'scores', text: it.reasons.join('; ') }) : null))),
        el('h2', { text: 'The answer, as the agent gets it' }),
        el('pre', { 'data-testid': 'answer', text: r.answer }),
        el('details', {}, el('summary', { text: 'With each ranker\'s score (--explain)' }), el('pre', { 'data-testid': 'explained', text: r.explained })),
        el('h2', { text: 'Each ranker\'s list' }),
        r.rankers.map((l) => el('section', { 'data-ranker': l.ranker },
          el('h3', { text: l.ranker }),
          el('ol', {}, l.items.map((x) => el('li', {}, el('code', { text: x.id }), el('span', { class: 'muted', text: ' ' + score(x.score) })))))),
      );
      ready();
    } catch (e) {
      fill(out);
      fail(e);
    }
  }

  start(async () => {
    const input = el('input', { name: 'q', type: 'search', maxlength: 1000, required: true, placeholder: 'how does the index refresh work?', 'aria-label': 'Question' });
    const form = el('form', { 'data-testid': 'search', class: 'search', role: 'search' }, input, el('button', { type: 'submit', text: 'Ask' }));
    out = el('div', { 'aria-live': 'polite' });
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const q = input.value.trim();
      if (!q) return;
      history.replaceState(null, '', '/search?q=' + encodeURIComponent(q));
      ask(q);
    });
    fill(main(),
      el('h1', { text: 'Search' }),
      el('p', { class: 'muted', text: 'The answer rubi context gives an agent for the question, from the index as it is.' }),
      form, out);
    const q = new URLSearchParams(location.search).get('q');
    if (q) {
      input.value = q;
      await ask(q);
    }
  });
})();
