// The Tokens page: the token X-ray of this project's agent sessions
// (rubi xray --html), framed.
'use strict';

(() => {
  const { el, fill, get, main, start, fail } = window.rubi;

  start(async () => {
    const info = await get('/api/tokens');
    const root = main();
    fill(root, el('h1', { text: 'Tokens' }));
    if (!info.xray) {
      root.append(el('p', { class: 'muted', text: 'This view has no token X-ray: rubi xray reads the agents\' session logs.' }));
      return;
    }
    root.append(
      el('p', { class: 'muted' }, 'Where the tokens of this project\'s agent sessions went (rubi xray --project, the last ' + info.days + ' days). ',
        el('a', { href: '/xray', target: '_blank', rel: 'noopener', text: 'Open it alone' })),
    );
    // The page is ready once the frame has loaded; an error in it shows
    // here.
    await new Promise((resolve) => {
      const frame = el('iframe', { class: 'xray', title: 'Token X-ray', src: '/xray' });
      frame.addEventListener('load', () => {
        const doc = frame.contentDocument;
        if (doc && doc.contentType === 'text/plain') fail(new Error(doc.body.textContent.trim()));
        resolve();
      });
      root.append(frame);
    });
  });
})();
