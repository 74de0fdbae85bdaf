// Package view is rubi view: a local web view of one project's map, notes,
// memory and answers, served on loopback for the person at this machine.
//
// # What it serves
//
// Five pages, each a frame whose own script fills it from the JSON API:
//
//	/map        the module graph; a module's files, central files and page;
//	            a file's symbols and the notes about it   (/ redirects here)
//	/knowledge  notes and the files they name; filters by type, status
//	            (active, superseded, retracted, stale) and importance
//	/timeline   notes, handoffs and conversation chunks over time, with the
//	            memory's retention zones
//	/search     a question answered as rubi context answers it, each
//	            ranker's list and scores, the budget used
//	/tokens     the token X-ray (Options.Xray), framed from /xray
//
// and the API, JSON: /api/map, /api/module?name=, /api/file?path=,
// /api/notes, /api/note?id=, /api/timeline, /api/search?q=, /api/tokens.
// Everything comes from the project's index through the engine the
// command line uses (core/pipeline's Graph, Draw, MapText, Retrieve; the
// project's knowledge and memory): nothing is ranked or rendered here
// that rubi context, rubi graph or rubi map would not give. The view reads
// the index as it stands and runs no index itself (the command refreshes
// once before serving); it writes nothing.
//
// # Trust
//
// The view serves this machine only: ListenAddr and Serve refuse an
// address off loopback. Every request needs the run's token (Token): a
// page's first load may bring it as ?token=, which sets an HttpOnly,
// SameSite=Strict cookie (named after the token, so two views keep
// theirs) and redirects to the page without it; other requests, the API
// above all, carry the cookie or "Authorization: Bearer TOKEN". A request
// whose Host is not a loopback name (a site's name resolved to 127.0.0.1),
// whose Origin is another site's, that is not GET or HEAD, has a body or a
// query string over MaxQuery bytes is refused (agent/loopback holds the
// checks the MCP server's HTTP shares). The pages run only their own
// scripts, embedded with the graph library (no CDN, nothing fetched from
// elsewhere), under a Content-Security-Policy with script-src 'self'.
// The repository's names, notes and symbols are untrusted: the API hands
// them over as JSON data, and the scripts write them as text (never as
// HTML); a note the repository supplied is marked as its words.
//
// # Use from Go
//
//	s, err := view.New(view.Options{Engine: eng})
//	ts := httptest.NewServer(s.Handler())   // or s.Serve(ctx, ln)
//	req.Header.Set("Authorization", "Bearer "+s.Token())
//
// # The pages' DOM, for tests
//
// Every page has <main id="page" data-page="map|knowledge|timeline|
// search|tokens">. Once it shows its data, its script sets
// document.body.dataset.ready = "1"; a load error shows in <p
// role="alert"> and sets ready too. Every graph has a text twin: Map's
// <table data-testid="modules"> with a <tr data-id="MODULE"> per module,
// Knowledge's <table data-testid="notes"> with a <tr data-id="NOTE-ID">
// per note (hidden by a filter: the hidden attribute), Timeline's <table
// data-testid="timeline"> with a <tr data-id="ID" data-kind="note|
// handoff|chunk"> per item. Search has <form data-testid="search"> with
// <input name="q">; submitting it clears ready, and once answered the
// items are the <li data-id="ID"> of <ol data-testid="results">, the
// answer's text is <pre data-testid="answer">, and ready is "1" again
// (/search?q=QUESTION asks on load). The note read on Knowledge is
// <h2 data-testid="note-title"> and <pre data-testid="note-body">.
package view
