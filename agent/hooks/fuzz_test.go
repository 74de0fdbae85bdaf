package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// payloadSeeds are the payloads Claude Code, Codex and Gemini CLI sent,
// captured, each with the event its file is named after.
func payloadSeeds(tb testing.TB) (events []string, payloads [][]byte) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.json"))
	if len(files) == 0 {
		tb.Fatal("no payloads")
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		events = append(events, strings.TrimSuffix(filepath.Base(p), ".json"))
		payloads = append(payloads, data)
	}
	return events, payloads
}

// A payload is read from whatever an agent (or anything else) pipes into
// the hook: ReadInput never panics, and what it reads is an Input with the
// payload kept for a hand-over.
func FuzzReadInput(f *testing.F) {
	_, payloads := payloadSeeds(f)
	for _, p := range payloads {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer rubitest.Bound(rubitest.FuzzBound, "FuzzReadInput")()
		in, err := ReadInput(bytes.NewReader(data))
		if (in == nil) == (err == nil) {
			t.Fatalf("input %v, error %v", in, err)
		}
		if in != nil {
			if !json.Valid(in.payload) {
				t.Fatalf("the payload kept is not JSON: %q", in.payload)
			}
			in.tool().command()
			ProjectDir(in, func(string) string { return "" })
			Handler(EventName("", in))
		}
	})
}

// transcripts are the real logs a payload's transcript_path is pointed
// at: a fuzzed path must not read the machine's files.
var transcripts = []string{rubitest.ClaudeSample, rubitest.CodexSample, filepath.Join(testdata, "gemini-cli", "transcript.jsonl")}

// pinned points a payload that is a JSON object at the fixture: its cwd
// at the project, its transcript at one of the real logs. Anything else
// is left as it is.
func pinned(payload []byte, root string) []byte {
	var doc map[string]any
	if json.Unmarshal(payload, &doc) != nil || doc == nil {
		return payload
	}
	doc["cwd"] = root
	if p, ok := doc["transcript_path"]; ok {
		s, _ := p.(string)
		doc["transcript_path"] = transcripts[len(s)%len(transcripts)]
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return payload
	}
	return out
}

// A hook runs on each agent event with the agent's payload, against the
// project's index, notes and session state. Whatever the payload and the
// event named, Run returns, and prints nothing or one JSON object the
// agent reads. Each input starts from the same project: the state a run
// leaves (.rubi/sessions, the log) is removed after it.
func FuzzRun(f *testing.F) {
	events, payloads := payloadSeeds(f)
	for i := range events {
		f.Add(events[i], payloads[i])
	}
	p := newProject(f, couponNote, ruleNote)
	p.vars["CLAUDE_PROJECT_DIR"] = p.root // whatever cwd the payload names
	p.env.StartIndex = nil                // the fixture is indexed already
	f.Fuzz(func(t *testing.T, event string, payload []byte) {
		defer rubitest.Bound(rubitest.FuzzBound, "FuzzRun")()
		t.Chdir(p.root) // where a payload that does not read is logged
		defer func() {
			os.RemoveAll(filepath.Join(p.root, filepath.FromSlash(memory.Dir)))
			os.Remove(filepath.Join(p.root, ".rubi", LogName))
		}()
		var out bytes.Buffer
		Run(context.Background(), p.env, event, bytes.NewReader(pinned(payload, p.root)), &out)
		if out.Len() == 0 {
			return
		}
		var doc map[string]any
		dec := json.NewDecoder(bytes.NewReader(out.Bytes()))
		if err := dec.Decode(&doc); err != nil || dec.More() || !strings.HasSuffix(out.String(), "}\n") {
			t.Fatalf("printed %q: not one JSON object (%v)", out.String(), err)
		}
	})
}
