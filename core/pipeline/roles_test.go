package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"

	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/walk"
)

// pyProject is a small Python tree with what real ones carry beside the
// code: a vendored copy of a library, docs and a changelog that use the
// same words, and a test.
func pyProject(t *testing.T) string {
	root := t.TempDir()
	files := map[string]string{
		"pkg/__init__.py": "from pkg.session import Session\n",
		"pkg/session.py": `"""HTTP sessions."""
from pkg._vendor.urllib3.util import retry


class Session:
    """A session sends requests and retries them."""

    def send(self, request):
        """Send a request once."""
        return self.adapter.send(request)

    def mount(self, prefix, adapter):
        self.adapters[prefix] = adapter


def max_retries_for(config):
    """How many times a failed request is retried, with backoff."""
    return config.get("max_retries", 3)
`,
		"pkg/adapters.py": "from pkg.session import Session\n\nclass HTTPAdapter:\n    def send(self, request):\n        return request\n",
		"pkg/_vendor/urllib3/util/retry.py": `class Retry:
    """Retry configuration: total retries, backoff factor, status retries."""

    def increment(self, method, url):
        """Return a new Retry object with incremented retry counters."""
        return Retry(self.total - 1)

    def sleep_for_retry(self, response):
        """Sleep between retries with backoff."""
`,
		"docs/retries.rst":   "Retries\n=======\n\nRequests are retried with backoff. Configure max retries on the session.\nRetry retry retries backoff.\n",
		"CHANGELOG.rst":      "1.2: retries now use backoff; retry logic fixed; session retries.\n",
		"tests/test_sess.py": "from pkg.session import Session\n\ndef test_retry():\n    Session().send(None)\n",
		"setup.py":           "from setuptools import setup\nsetup(name='pkg', description='sessions with retries and backoff')\n",
	}
	for p, c := range files {
		write(t, root, p, c)
	}
	return root
}

func fileIDs(res *answer.Result) []string {
	var out []string
	for _, it := range res.Items {
		if it.Kind == "file" {
			out = append(out, it.Path)
		}
	}
	return out
}

func TestRolesInAnswers(t *testing.T) {
	root := pyProject(t)
	e := engine(t, root)
	index(t, e)
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "where is the retry logic with backoff", Kinds: []string{"file"}})
	if err != nil {
		t.Fatal(err)
	}
	got := fileIDs(res)
	if len(got) == 0 || got[0] != "pkg/session.py" {
		t.Errorf("retry logic: files = %v, want the project's own pkg/session.py first", got)
	}
	if slices.Contains(got, "pkg/_vendor/urllib3/util/retry.py") {
		t.Errorf("a vendored file is in the answer: %v", got)
	}
	for _, it := range res.Items {
		switch it.Path {
		case "pkg/session.py":
			if it.Role != "code" {
				t.Errorf("role of %s = %q", it.Path, it.Role)
			}
		case "docs/retries.rst", "CHANGELOG.rst":
			if it.Role != "docs" || !slices.Contains(it.Reasons, "docs file, weighed down: the question asks for code") {
				t.Errorf("%s: role %q, reasons %q", it.Path, it.Role, it.Reasons)
			}
		}
	}
	// A question about using the project finds the docs first.
	res, err = e.Retrieve(context.Background(), answer.Query{Text: "how do I configure retries", Kinds: []string{"file"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fileIDs(res); len(got) == 0 || got[0] != "docs/retries.rst" {
		t.Errorf("how do I configure retries: files = %v, want the docs first", got)
	}
	// hidden_roles = [] brings the vendored files back.
	write(t, root, "rubi.hcl", "index {\n  hidden_roles = []\n}\n")
	e2 := engine(t, root)
	index(t, e2)
	res, err = e2.Retrieve(context.Background(), answer.Query{Text: "Retry increment counters", Kinds: []string{"file"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fileIDs(res); len(got) == 0 || got[0] != "pkg/_vendor/urllib3/util/retry.py" {
		t.Errorf("with hidden_roles = []: files = %v, want the vendored file", got)
	}
}

func TestGitattributesRoles(t *testing.T) {
	root := pyProject(t)
	write(t, root, "pkg/gen_tables.py", "TABLE = {'retry': 1, 'backoff': 2, 'session': 3}\n")
	write(t, root, ".gitattributes", "pkg/gen_tables.py linguist-generated\n")
	e := engine(t, root)
	index(t, e)
	q := answer.Query{Text: "retry backoff session table", Kinds: []string{"file"}, Limit: 50}
	res, err := e.Retrieve(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(fileIDs(res), "pkg/gen_tables.py") {
		t.Errorf("a linguist-generated file is in the answer: %v", fileIDs(res))
	}
	// Changing the attributes re-decides the roles.
	edit(t, root, ".gitattributes", "linguist-generated", "-linguist-generated")
	index(t, e)
	res, err = e.Retrieve(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(fileIDs(res), "pkg/gen_tables.py") {
		t.Errorf("after unsetting linguist-generated the file should be found: %v", fileIDs(res))
	}
}

func TestTracebackAndUnits(t *testing.T) {
	root := pyProject(t)
	e := engine(t, root)
	index(t, e)
	report := "Sending fails after a mount\n\nTraceback (most recent call last):\n" +
		"  File \"/home/u/venv/lib/site-packages/pkg/session.py\", line 10, in send\n" +
		"AttributeError: 'Session' object has no attribute 'adapter'\n\n" +
		"I expected `Session.send` to use the mounted adapter. " + strings.Repeat("It used to work before the upgrade. ", 10)
	res, err := e.Retrieve(context.Background(), answer.Query{Text: report, Kinds: []string{"file"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) == 0 || res.Items[0].Path != "pkg/session.py" {
		t.Fatalf("files = %v, want the traceback's file first", fileIDs(res))
	}
	top := res.Items[0]
	if !slices.ContainsFunc(top.Reasons, func(r string) bool { return strings.HasPrefix(r, "in the traceback") }) {
		t.Errorf("reasons = %q, want the traceback", top.Reasons)
	}
	if len(top.Units) == 0 || top.Units[0].Name != "Session.send" || top.Units[0].Line != 8 || top.Units[0].EndLine != 10 {
		t.Fatalf("units = %+v, want Session.send (lines 8-10) first", top.Units)
	}
	if !strings.Contains(top.Units[0].Why, "Session.send") {
		t.Errorf("why = %q", top.Units[0].Why)
	}
	if !strings.Contains(top.Text, "L8-10 def send(self, request): — Send a request once. [") {
		t.Errorf("the item's text should open the unit at its lines:\n%s", top.Text)
	}
}

// TestBadQueries: whatever arrives as a question, a clear answer or a
// clear error, never a crash or a hang.
func TestBadQueries(t *testing.T) {
	root := pyProject(t)
	e := engine(t, root)
	index(t, e)
	if _, err := e.Retrieve(context.Background(), answer.Query{Text: "  \n\t"}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("an empty query: err = %v, want one saying it is empty", err)
	}
	big := strings.Repeat("File \"pkg/session.py\", line 10, in send\n`Session.send` retry backoff x/y.py:3 ", 5<<20/80)
	for name, text := range map[string]string{
		"5 MB":      big,
		"binary":    string([]byte{0, 0xff, 0xfe, 's', 'e', 's', 's', 'i', 'o', 'n', 0, 0x80}),
		"stopwords": "the of and to a in is it that",
	} {
		res, err := e.Retrieve(context.Background(), answer.Query{Text: text})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if res.Tokens > res.Budget {
			t.Errorf("%s: %d tokens over the budget of %d", name, res.Tokens, res.Budget)
		}
		if name == "stopwords" && len(res.Items) != 0 {
			t.Errorf("stopwords alone match nothing, got %v", ids(res))
		}
		if name == "5 MB" && (len(res.Items) == 0 || res.Items[0].Path != "pkg/session.py") {
			t.Errorf("5 MB: %v", ids(res))
		}
	}
}

func TestRoleSignatureInManifest(t *testing.T) {
	root := pyProject(t)
	e := engine(t, root)
	index(t, e)
	m, err := manifest.Load(filepath.Join(root, ".rubi", "index"), true, false)
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{
		"pkg/session.py": "code", "pkg/_vendor/urllib3/util/retry.py": "vendored", "docs/retries.rst": "docs",
		"CHANGELOG.rst": "docs", "tests/test_sess.py": "test", "setup.py": "build",
	} {
		rec, ok := m.File(p)
		if !ok || rec.Role != want {
			t.Errorf("%s: role %q, want %q", p, rec.Role, want)
		}
	}
	if rec, _ := m.File("pkg/_vendor/urllib3/util/retry.py"); rec.Rank != 0 && rec.Importers != 0 {
		t.Errorf("a vendored file has centrality: rank %v, importers %d", rec.Rank, rec.Importers)
	}
	if _, err := os.Stat(filepath.Join(root, ".rubi", "index")); err != nil {
		t.Fatal(err)
	}
}

// A note the user registered stands beside the files in the default
// answer, not only with --kinds node.
func TestNotesBesideFiles(t *testing.T) {
	root := pyProject(t)
	// A crowd of files that share the question's words.
	for i := range 20 {
		write(t, root, fmt.Sprintf("pkg/transport/t%02d.py", i), fmt.Sprintf("from pkg.session import Session\n\n\nclass HTTPTransport%d:\n    \"\"\"HTTP transport with retries.\"\"\"\n\n    def http_retries(self):\n        return self.retries  # http retries\n", i))
	}
	e := engine(t, root)
	if _, err := e.project.Knowledge().Register(context.Background(), []knowledge.Input{
		{Type: "gotcha", Title: "HTTP retries double-count the first attempt", Body: "max_retries_for counts the first request as a retry, so retries = 3 sends 3 requests in all.", Files: []string{"pkg/session.py"}},
	}); err != nil {
		t.Fatal(err)
	}
	index(t, e)
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "http retries"})
	if err != nil {
		t.Fatal(err)
	}
	got := ids(res)
	if i := slices.Index(got, "node:gotcha-http-retries-double-count-the-first-attempt"); i < 0 || i > 1 {
		t.Errorf("http retries: %v, want the gotcha among the first two", got)
	}
	if len(got) < 5 || !strings.HasPrefix(got[0], "file:") {
		t.Errorf("http retries: %v, want the files beside the note", got)
	}
}

// TestAnswersGolden holds the answers to real-shaped questions on a
// Python tree — a bug report with a traceback, a question about code, one
// about using the project, one a note answers — with the units listed
// first across files, and each item's role, reasons and units, for
// review.
func TestAnswersGolden(t *testing.T) {
	root := pyProject(t)
	e := engine(t, root)
	if _, err := e.project.Knowledge().Register(context.Background(), []knowledge.Input{
		{Type: "gotcha", Title: "HTTP retries double-count the first attempt", Body: "max_retries_for counts the first request as a retry.", Files: []string{"pkg/session.py"}},
	}); err != nil {
		t.Fatal(err)
	}
	index(t, e)
	queries := []string{
		"Sending fails after a mount\n\nTraceback (most recent call last):\n  File \"/home/u/venv/lib/site-packages/pkg/session.py\", line 10, in send\nAttributeError: 'Session' object has no attribute 'adapter'\n\nI expected `Session.send` to use the mounted adapter.",
		"where is the retry logic with backoff",
		"how do I configure retries",
		"http retries",
		"HTTPAdapter.send returns the request",
	}
	var b strings.Builder
	for _, q := range queries {
		res, err := e.Retrieve(context.Background(), answer.Query{Text: q, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "query %q\n", strings.SplitN(q, "\n", 2)[0])
		for _, u := range res.OpenFirst {
			fmt.Fprintf(&b, "  open first: %s:%d-%d %s: %s\n", u.Path, u.Line, u.EndLine, u.Name, u.Why)
		}
		for i, it := range res.Items {
			fmt.Fprintf(&b, "  %d. %s [%s] — %s\n", i+1, it.ID, it.Role, strings.Join(it.Reasons, "; "))
			for _, u := range it.Units {
				fmt.Fprintf(&b, "       %s L%d-%d: %s\n", u.Name, u.Line, u.EndLine, u.Why)
			}
		}
	}
	checkGolden(t, "answers.golden", b.String())
}

// TestNoteFilesVote: a note that answers the question lends its vote to
// the files it is about, though their own words are not the question's
// (the loader "opens stages" and names a plugin once; the question asks
// how plugins are loaded), while a crowd of files repeats the question's
// words. With
// notes.files off, the file stays behind the crowd.
func TestNoteFilesVote(t *testing.T) {
	root := pluginsProject(t, 12)
	rank := func(noteFiles bool) (int, *answer.Result) {
		t.Helper()
		e := engine(t, root)
		setStage(t, e, core.KindRanker, "notes.files", "enabled", fmt.Sprint(noteFiles))
		index(t, e)
		res, err := e.Retrieve(context.Background(), answer.Query{Text: "how are plugins loaded", Limit: 8})
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		for _, it := range res.Items {
			if it.Kind == "file" {
				files = append(files, it.Path)
			}
		}
		return slices.Index(files, "pkg/stages.py"), res
	}
	e := engine(t, root)
	registerPluginsNote(t, e)
	if i, res := rank(false); i >= 0 && i < 3 {
		t.Fatalf("without note_files, pkg/stages.py is file %d: the test no longer shows the crowd (%v)", i+1, ids(res))
	}
	i, res := rank(true)
	if i < 0 || i > 2 {
		t.Fatalf("how are plugins loaded: pkg/stages.py is file %d of %v, want among the first three files", i+1, ids(res))
	}
	for _, it := range res.Items {
		if it.Path == "pkg/stages.py" && !slices.Contains(it.Reasons, `named by the note "How plugins are loaded"`) {
			t.Errorf("pkg/stages.py's reasons %q do not name the note", it.Reasons)
		}
	}
}

// TestReportsWeighTestTreesDown: a bug report asks for the code at fault,
// and the sample projects and test apps of a test tree reproduce it in
// its own words; they count test_weight for a report, in full for a
// question that is not one (a test helper is code people look for).
func TestReportsWeighTestTreesDown(t *testing.T) {
	root := pyProject(t)
	write(t, root, "tests/sampleproject/manage.py", "\"\"\"Sample project: mount an adapter, then send a request; the mounted adapter is lost.\"\"\"\nfrom pkg.session import Session\n\n\ndef mounted_adapter_lost():\n    # After a mount, sending a request fails: the mounted adapter is lost.\n    return Session()\n")
	e := engine(t, root)
	index(t, e)
	report := "Mounted adapter lost after a mount\n\nAfter I mount an adapter, sending a request fails: the mounted adapter is lost and the request goes out without it. " +
		"I expected the mounted adapter to be used for every request sent after the mount. This worked in the previous release; " +
		"now the adapter is lost as soon as a request is sent, every time, on every platform I tried, with the default settings."
	files := func(q string) []string {
		t.Helper()
		res, err := e.Retrieve(context.Background(), answer.Query{Text: q, Kinds: []string{"file"}})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, it := range res.Items {
			out = append(out, it.Path)
		}
		return out
	}
	before := func(got []string) bool {
		s, m := slices.Index(got, "pkg/session.py"), slices.Index(got, "tests/sampleproject/manage.py")
		return s >= 0 && (m < 0 || s < m)
	}
	if got := files(report); !before(got) {
		t.Errorf("report: %v, want pkg/session.py before the sample project's manage.py", got)
	}
	setStage(t, e, core.KindReranker, "rerank.roles", "test_weight", "1")
	if got := files(report); before(got) {
		t.Errorf("report, test_weight = 1: %v, want the sample project first (else the test shows nothing)", got)
	}
	setStage(t, e, core.KindReranker, "rerank.roles", "test_weight", "0.5")
	if got := files("mounted adapter lost"); len(got) == 0 || got[0] != "tests/sampleproject/manage.py" {
		t.Errorf("a question that is not a report: %v, want the sample project first", got)
	}
}

// TestFirstItemsDoNotDependOnTheLimit: asking for more items lists more,
// it does not reorder the first ones. A file the question's words rank
// past the first fifty (a crowd shares them) but a note names comes in
// the first places through the note; it must keep the words' vote there
// whether 5 or 20 items are asked for.
func TestFirstItemsDoNotDependOnTheLimit(t *testing.T) {
	root := pluginsProject(t, 70)
	e := engine(t, root)
	registerPluginsNote(t, e)
	index(t, e)
	first := func(limit int) []string {
		t.Helper()
		res, err := e.Retrieve(context.Background(), answer.Query{Text: "how are plugins loaded", Limit: limit, Budget: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		return ids(res)[:min(5, len(res.Items))]
	}
	five, twenty := first(5), first(20)
	if !slices.Equal(five, twenty) {
		t.Errorf("the first five items change with the limit:\n  limit 5:  %v\n  limit 20: %v", five, twenty)
	}
	if !slices.Contains(five, "file:pkg/stages.py") {
		t.Errorf("limit 5: %v, want the note's file among the first five (else the test shows nothing)", five)
	}
}

// pluginsProject is pyProject with pkg/stages.py, the file that loads
// plugins in other words ("opens stages", a plugin named once), and a
// crowd of n files that repeat "plugins loaded".
func pluginsProject(t *testing.T, n int) string {
	t.Helper()
	root := pyProject(t)
	write(t, root, "pkg/stages.py", "\"\"\"Open each stage: built in, or a plugin's subprocess.\"\"\"\n\n\ndef open_stage(block):\n    return spawn(block.path)\n")
	for i := range n {
		write(t, root, fmt.Sprintf("pkg/ext/p%02d.py", i), fmt.Sprintf("\"\"\"Plugin %d, loaded by name.\"\"\"\n\n\ndef loaded_plugins_%d():\n    return plugins  # plugins loaded\n", i, i))
	}
	return root
}

// registerPluginsNote registers the concept note about pkg/stages.py
// that answers "how are plugins loaded".
func registerPluginsNote(t *testing.T, e *Engine) {
	t.Helper()
	if _, err := e.project.Knowledge().Register(context.Background(), []knowledge.Input{
		{Type: "concept", Title: "How plugins are loaded", Body: "Plugins are loaded when a stage opens: open_stage spawns the plugin's process.", Files: []string{"pkg/stages.py"}},
	}); err != nil {
		t.Fatal(err)
	}
}

// The roles' signature follows the .gitattributes files at any depth and
// no other file whose name only ends so.
func TestAttributesFilesFound(t *testing.T) {
	root := t.TempDir()
	paths := []string{".gitattributes", "a/.gitattributes", "a/x.gitattributes", "b.gitattributes"}
	var files []*scanned
	for _, p := range paths {
		write(t, root, p, "*.gen linguist-generated\n")
		files = append(files, &scanned{file: walk.File{Path: p}})
	}
	ix := &config.Index{}
	_, before := attributes(root, ix, files)
	for _, c := range []struct {
		path  string
		moves bool
	}{{".gitattributes", true}, {"a/.gitattributes", true}, {"a/x.gitattributes", false}, {"b.gitattributes", false}} {
		write(t, root, c.path, "*.other linguist-generated\n")
		_, after := attributes(root, ix, files)
		if (after != before) != c.moves {
			t.Errorf("%s edited: signature moved %v, want %v", c.path, after != before, c.moves)
		}
		before = after
	}
}
