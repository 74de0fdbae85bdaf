package query

import (
	"strings"
	"testing"
)

// find returns the mention of kind and text, or nil.
func find(a Analysis, kind, text string) *Mention {
	for i := range a.Mentions {
		if a.Mentions[i].Kind == kind && a.Mentions[i].Text == text {
			return &a.Mentions[i]
		}
	}
	return nil
}

const report = "requests.get is ALWAYS sending content length\n\nHi,\n\nIt seems like `requests.get` always adds 'content-length' header.\n" +
	"See https://github.com/psf/requests/issues/1142 for more.\n\n" +
	"```python\n>>> import requests\n>>> s = requests.Session()\n>>> s.prepare_request(req)\n```\n\n" +
	"Traceback (most recent call last):\n" +
	"  File \"/usr/lib/python3/site-packages/requests/api.py\", line 55, in get\n" +
	"  File \"/home/me/src/requests/requests/models.py\", line 441, in prepare_content_length\n" +
	"KeyError: 'Content-Length'\n\n" +
	"INSTALLED VERSIONS\npython: 3.8.5\nnumpy: 1.19.1\npandas: None\nrequests==2.0.1\n"

func TestAnalyzeReport(t *testing.T) {
	a := Analyze(report)
	if !a.Report || a.Intent != IntentCode {
		t.Errorf("report = %v, intent = %s; want a report about code", a.Report, a.Intent)
	}
	last := find(a, KindPath, "/home/me/src/requests/requests/models.py")
	first := find(a, KindPath, "/usr/lib/python3/site-packages/requests/api.py")
	if last == nil || first == nil {
		t.Fatalf("traceback frames missing: %+v", a.Mentions)
	}
	if last.Line != 441 || last.Func != "prepare_content_length" || last.Why != "in the traceback" || last.Weight <= first.Weight {
		t.Errorf("last frame = %+v (first %+v): the last frame is the strongest", last, first)
	}
	if m := find(a, KindName, "prepare_content_length"); m == nil || m.Why != "a function in the traceback" {
		t.Errorf("the frame's function = %+v", m)
	}
	if m := find(a, KindName, "requests.get"); m == nil || m.Why != "in backticks" {
		t.Errorf("the backticked name = %+v", m)
	}
	if m := find(a, KindName, "Session"); m == nil {
		t.Errorf("the last part of a dotted name in code is a name: %+v", a.Mentions)
	}
	if m := find(a, KindError, "KeyError"); m == nil {
		t.Errorf("the exception is missing: %+v", a.Mentions)
	}
	if find(a, KindPath, "github.com/psf/requests/issues/1142") != nil || strings.Contains(a.Text, "https://") {
		t.Error("a link is no path and leaves the text")
	}
	if strings.Contains(a.Text, "numpy: 1.19.1") || strings.Contains(a.Text, "requests==2.0.1") {
		t.Errorf("the version list stays in the text rankers read:\n%s", a.Text)
	}
	if !strings.Contains(a.Text, "content length") {
		t.Error("the report's words must stay in the text")
	}
}

// IPython and Jupyter print their own tracebacks: "PATH in FUNC(ARGS)"
// with a "---->" marker on the line (IPython 7), or "File PATH:LINE, in
// FUNC(ARGS)" (IPython 8).
func TestAnalyzeIPythonTraceback(t *testing.T) {
	for name, text := range map[string]string{
		"ipython 7": "vector add 0 error\n```\nTypeError                                 Traceback (most recent call last)\n" +
			"<ipython-input-1-0b9155eecc0e> in <module>()\n      2 from sympy import symbols\n----> 4 sum([N.x, (0 * N.x)])\n\n" +
			"/usr/local/lib/python3.6/site-packages/sympy/physics/vector/vector.py in __add__(self, other)\n" +
			"     59         \"\"\"The add operator for Vector. \"\"\"\n---> 61         other = _check_vector(other)\n     62         return Vector(self.args + other.args)\n\n" +
			"/usr/local/lib/python3.6/site-packages/sympy/physics/vector/vector.py in _check_vector(other)\n" +
			"    709     if not isinstance(other, Vector):\n--> 710         raise TypeError('A Vector must be supplied')\n```\n",
		"ipython 8": "```\nCell In[1], line 4\n----> 4 sum([N.x, (0 * N.x)])\n\n" +
			"File ~/sympy/physics/vector/vector.py:61, in __add__(self, other)\n     60 #if other == 0: return self\n---> 61 other = _check_vector(other)\n\n" +
			"File ~/sympy/physics/vector/vector.py:710, in _check_vector(other)\n--> 710     raise TypeError('A Vector must be supplied')\n```\n",
	} {
		a := Analyze(text)
		var frames []Mention
		for _, m := range a.Mentions {
			if m.Kind == KindPath && m.Why == "in the traceback" {
				frames = append(frames, m)
			}
		}
		if !a.Report || len(frames) != 1 || !strings.HasSuffix(frames[0].Text, "sympy/physics/vector/vector.py") {
			t.Fatalf("%s: frames %+v", name, frames)
		}
		// One path, two frames: the mention keeps the last frame's line.
		if frames[0].Line != 61 && frames[0].Line != 710 {
			t.Errorf("%s: frame line %d", name, frames[0].Line)
		}
		for _, fn := range []string{"__add__", "_check_vector"} {
			if m := find(a, KindName, fn); m == nil || m.Why != "a function in the traceback" {
				t.Errorf("%s: the frame's function %s = %+v", name, fn, m)
			}
		}
	}
}

func TestAnalyzeLocationsAndProse(t *testing.T) {
	a := Analyze("panic in core/host/host.go:123 when Open runs; see guard.go too. The loadPlugin and read_config helpers, e.g. this, fail.")
	if m := find(a, KindPath, "core/host/host.go"); m == nil || m.Line != 123 || m.Why != "a location in the question" {
		t.Errorf("path:line = %+v", m)
	}
	if m := find(a, KindPath, "guard.go"); m == nil || m.Weight >= find(a, KindPath, "core/host/host.go").Weight {
		t.Errorf("a bare file name counts less than a path: %+v", m)
	}
	for _, n := range []string{"loadPlugin", "read_config"} {
		if find(a, KindName, n) == nil {
			t.Errorf("%s should be a name: %+v", n, a.Mentions)
		}
	}
	for _, n := range []string{"e.g", "The", "Open", "helpers"} {
		if find(a, KindName, n) != nil {
			t.Errorf("%q is prose, not a name", n)
		}
	}
}

func TestIntent(t *testing.T) {
	cases := map[string]string{
		"how are plugins loaded":                   IntentCode,
		"how do I install rubi":                    IntentDocs,
		"where is the configuration documented":    IntentDocs,
		"which test covers the read guard":         IntentTests,
		"where is Session.send":                    IntentCode,
		"the docs say " + strings.Repeat("x ", 80): IntentCode, // a long report asks for code
	}
	for q, want := range cases {
		if got := Analyze(q).Intent; got != want {
			t.Errorf("Analyze(%.40q).Intent = %s, want %s", q, got, want)
		}
	}
	if !AsksForTests("fixtures") || AsksForTests("checkout") {
		t.Error("AsksForTests is wrong")
	}
}

// TestAnalyzeBadInput: whatever the question, an answer comes, bounded.
func TestAnalyzeBadInput(t *testing.T) {
	inputs := map[string]string{
		"empty":     "",
		"stopwords": "the of and to a in is it that",
		"binary":    string([]byte{0, 0xff, 0xfe, 'a', 0, 0x80, '\n', 0xc3}) + strings.Repeat("\x00\x01", 1000),
		"5 MB":      strings.Repeat("File \"a/b.py\", line 1, in f\n`Foo.bar` snake_case_name x/y.go:3 ", 5<<20/64),
		"fences":    strings.Repeat("```", 10000),
	}
	for name, in := range inputs {
		a := Analyze(in)
		if len(a.Mentions) > maxMentions {
			t.Errorf("%s: %d mentions, want at most %d", name, len(a.Mentions), maxMentions)
		}
		if len(a.Text) > maxScan {
			t.Errorf("%s: text of %d bytes, want at most %d", name, len(a.Text), maxScan)
		}
	}
	if a := Analyze("the of and"); len(a.Mentions) != 0 || a.Intent != IntentCode {
		t.Errorf("stopwords: %+v", a)
	}
}

// A report's title is its first line of prose; a question that is not a
// report, or a report that opens with code or a long paragraph, has none.
func TestTitle(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{report, "requests.get is ALWAYS sending content length"},
		{"\n\n  Paginator should implement __iter__  \n" + strings.Repeat("It would be more natural to iterate over the pages. ", 10), "Paginator should implement __iter__"},
		{"```python\nimport x\n```\n" + strings.Repeat("words of the report ", 40), ""},
		{strings.Repeat("one long paragraph that never ends ", 40), ""},
		{"how are plugins loaded", ""},
	} {
		if got := Analyze(c.text).Title; got != c.want {
			t.Errorf("title of %.40q = %q, want %q", c.text, got, c.want)
		}
	}
}
