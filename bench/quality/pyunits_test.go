package main

import (
	"reflect"
	"strings"
	"testing"
)

const pySample = `"""Module doc.

def not_a_function():
"""
import os


def top(a,
b):
    x = 1

    # a comment at the body's indentation
# a comment at column 0 does not end it
    return x


class Session(Base):
    """Doc.
with a line at column 0
    """

    @property
    def send(self):
        s = """
def hidden():
"""
        return s

    async def close(self): pass

    class Inner:
        def method(self):
            def local():
                pass
            return local

x = top(1,
  2)

def last():
	return 0
`

func TestPyUnits(t *testing.T) {
	got := pyUnits(pySample)
	type span struct {
		Name          string
		Line, EndLine int
	}
	var spans []span
	for _, u := range got {
		spans = append(spans, span{u.Name, u.Line, u.EndLine})
	}
	want := []span{
		{"top", 8, 14},
		{"Session", 17, 35},
		{"Session.send", 23, 27},
		{"Session.close", 29, 29},
		{"Session.Inner", 31, 35},
		{"Session.Inner.method", 32, 35},
		{"Session.Inner.method.local", 33, 34},
		{"last", 40, 41},
	}
	if !reflect.DeepEqual(spans, want) {
		t.Errorf("units:\n got %v\nwant %v", spans, want)
	}
	for _, u := range got {
		if u.Name == "Session.send" && (!strings.HasPrefix(u.Text, "    def send(self):") || !strings.HasSuffix(u.Text, "return s")) {
			t.Errorf("Session.send's text is %q", u.Text)
		}
	}
	if len(pyUnits("")) != 0 || len(pyUnits("x = 1\n")) != 0 {
		t.Error("units in a file without any")
	}
}
