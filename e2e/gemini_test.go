//go:build unix

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// geminiDir holds the pinned Gemini CLI (package.json, npm ci).
const geminiDir = "agent/connect/testdata/gemini"

// geminiCLI returns the real Gemini CLI installed by npm ci, or fails the
// test saying how to install it.
func geminiCLI(t *testing.T) string {
	t.Helper()
	if os.Getenv(noNodeEnv) == "1" {
		t.Skipf("%s=1: the Gemini CLI is not run", noNodeEnv)
	}
	bin := filepath.Join(repoRoot, geminiDir, "node_modules", ".bin", "gemini")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("the Gemini CLI is not installed: run `(cd %s && npm ci)` (make test does), or set %s=1 to leave this test out", geminiDir, noNodeEnv)
	}
	return bin
}

// geminiRequest is the part of a generateContent request the tests read.
type geminiRequest struct {
	Contents []struct {
		Role  string `json:"role"`
		Parts []struct {
			Text             string          `json:"text"`
			FunctionResponse json.RawMessage `json:"functionResponse"`
		} `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		Functions []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	raw string
}

func (r geminiRequest) hasTool(name string) bool {
	for _, t := range r.Tools {
		for _, f := range t.Functions {
			if f.Name == name {
				return true
			}
		}
	}
	return false
}

// responses lists the function responses the request carries, in order.
func (r geminiRequest) responses() []string {
	var out []string
	for _, c := range r.Contents {
		for _, p := range c.Parts {
			if len(p.FunctionResponse) > 0 {
				out = append(out, string(p.FunctionResponse))
			}
		}
	}
	return out
}

// mockGemini is the Gemini API's streamGenerateContent: a prompt about the
// tariff table reads it whole with read_file until it gets it; anything
// else is answered with text.
type mockGemini struct {
	*httptest.Server
	mu       sync.Mutex
	requests []geminiRequest
	// script, when set, decides the answer's part first; nil from it
	// leaves the answer to the default above.
	script func(geminiRequest) map[string]any
}

func newMockGemini(t *testing.T) *mockGemini {
	m := &mockGemini{}
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req geminiRequest
		if !strings.Contains(r.URL.Path, "generateContent") && !strings.Contains(r.URL.Path, "GenerateContent") || json.Unmarshal(body, &req) != nil {
			w.Write([]byte("{}"))
			return
		}
		req.raw = string(body)
		m.mu.Lock()
		m.requests = append(m.requests, req)
		m.mu.Unlock()
		part := map[string]any{"text": "Done."}
		prompt := 100
		if m.script != nil {
			if p := m.script(req); p != nil {
				part = p
			}
		}
		if strings.Contains(req.raw, "tariff table") {
			// A long session: past the meter's share of rubi's window.
			prompt = 130000
			if len(req.responses()) < 2 {
				part = map[string]any{"functionCall": map[string]any{"name": "read_file", "args": map[string]any{"file_path": bigFile}}}
			}
		}
		resp, _ := json.Marshal(map[string]any{
			"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
			"usageMetadata": map[string]any{"promptTokenCount": prompt, "candidatesTokenCount": 5, "totalTokenCount": prompt + 5},
		})
		if strings.Contains(r.URL.Path, "stream") {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\r\n\r\n", resp)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(resp)
	}))
	t.Cleanup(m.Close)
	return m
}

func (m *mockGemini) since(n int) []geminiRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]geminiRequest(nil), m.requests[n:]...)
}

// geminiSession is a project connected to the real Gemini CLI with `rubi
// connect gemini SCOPE`, a home that trusts it, and the mock API.
type geminiSession struct {
	gemini, project string
	env             []string
	api             *mockGemini
}

func newGeminiSession(t *testing.T, scope string) *geminiSession {
	t.Helper()
	return newGeminiSessionIn(t, scope, shopProject)
}

// newGeminiSessionIn is newGeminiSession in the project fixture makes.
func newGeminiSessionIn(t *testing.T, scope string, fixture func(*testing.T, []string) string) *geminiSession {
	t.Helper()
	s := &geminiSession{gemini: geminiCLI(t), api: newMockGemini(t)}
	env := rubiEnv(t)
	s.project = fixture(t, env)
	home := t.TempDir()
	trust, _ := json.Marshal(map[string]string{s.project: "TRUST_FOLDER"})
	writeFiles(t, filepath.Join(home, ".gemini"), map[string]string{
		"settings.json":       "{\n  // chosen at first start\n  \"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}}\n}\n",
		"trustedFolders.json": string(trust),
	})
	s.env = append(env, "HOME="+home, "TMPDIR="+t.TempDir(), "PATH="+rubiBinDir(t)+string(os.PathListSeparator)+os.Getenv("PATH"))
	runRubi(t, s.project, s.env, "connect", "gemini", scope)
	t.Cleanup(func() {
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(s.project, ".rubi", "hooks.log"))
			t.Logf(".rubi/hooks.log:\n%s", log)
		}
	})
	return s
}

// run runs one headless prompt and returns the requests it sent.
func (s *geminiSession) run(t *testing.T, prompt string) []geminiRequest {
	t.Helper()
	before := len(s.api.since(0))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// --yolo: headless Gemini CLI offers tools that need a confirmation
	// (MCP servers' tools) only when nothing is asked.
	cmd := exec.CommandContext(ctx, s.gemini, "-m", "gemini-2.5-flash", "--yolo", "-p", prompt)
	cmd.Dir = s.project
	cmd.Env = append(os.Environ(), append(s.env, "GEMINI_API_KEY=dummy", "GOOGLE_GEMINI_BASE_URL="+s.api.URL, "NO_COLOR=1")...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("gemini -p %q: %v\n%s", prompt, err, out.String())
	}
	reqs := s.api.since(before)
	if len(reqs) == 0 {
		t.Fatalf("gemini -p %q sent the mock nothing:\n%s", prompt, out.String())
	}
	return reqs
}

// TestGeminiHooks connects rubi to the real Gemini CLI with `rubi connect
// gemini --global` and runs headless sessions in the fixture project
// against a mock of the Gemini API: the hooks put the map and the recalled
// notes in front of the model, the read guard refuses a whole read of a
// huge file once, the meter warns past its share of the window, rubi's MCP
// tools are offered, and nothing is logged.
func TestGeminiHooks(t *testing.T) {
	s := newGeminiSession(t, "--global")
	project, run := s.project, s.run
	matching := run(t, "Why is the coupon discount applied twice when the cart total is recomputed?")
	unrelated := run(t, "Write a haiku about autumn leaves falling on a quiet pond.")

	t.Run("session start map", func(t *testing.T) {
		for _, reqs := range [][]geminiRequest{matching, unrelated} {
			for _, want := range []string{"rubi: the project map", "cart/cart.go", centsTitle} {
				if !strings.Contains(reqs[0].raw, want) {
					t.Errorf("the model's first request lacks %q", want)
				}
			}
		}
	})
	t.Run("recall on a matching prompt", func(t *testing.T) {
		if !strings.Contains(matching[0].raw, "rubi recall") || !strings.Contains(matching[0].raw, couponTitle) {
			t.Errorf("the prompt about coupons did not recall %q", couponTitle)
		}
		if i := strings.Index(unrelated[0].raw, "rubi recall"); i >= 0 {
			t.Errorf("a prompt about autumn leaves got rubi's recall: %s", unrelated[0].raw[max(0, i-300):min(len(unrelated[0].raw), i+300)])
		}
	})
	t.Run("rubi mcp", func(t *testing.T) {
		if !matching[0].hasTool("mcp_rubi_context") {
			t.Errorf("the model is not offered rubi's MCP tools: %+v", matching[0].Tools)
		}
	})
	t.Run("huge file read guard and meter", func(t *testing.T) {
		reqs := run(t, "Show me the tariff table in full.")
		got := reqs[len(reqs)-1].responses()
		if len(got) != 2 {
			t.Fatalf("want the two read_file calls of %s answered, got %d", bigFile, len(got))
		}
		if !strings.Contains(got[0], "rubi read guard: "+bigFile) {
			t.Errorf("the first read_file of a %d-line file was not refused by rubi; the model got:\n%.600s", bigRows, got[0])
		}
		if strings.Contains(got[1], "rubi read guard") || !strings.Contains(got[1], `R0001`) {
			t.Errorf("the second read_file of the same file was not allowed; the model got:\n%.600s", got[1])
		}
		// The session reports 130k tokens: the meter's warning comes
		// after the first tool call, once.
		if n := strings.Count(reqs[len(reqs)-1].raw, "rubi meter: the context holds 130k tokens"); n != 1 {
			t.Errorf("the meter's warning reached the model %d times, want once", n)
		}
	})
	t.Run("no hook error", func(t *testing.T) {
		if log, err := os.ReadFile(filepath.Join(project, ".rubi", "hooks.log")); err == nil && len(bytes.TrimSpace(log)) > 0 {
			t.Errorf("the hooks logged errors (.rubi/hooks.log):\n%s", log)
		}
	})
}

// The hooks rubi connect gemini writes into a trusted project's
// .gemini/settings.json run too (Gemini CLI warns once about project
// hooks, then runs them): the map reaches the model.
func TestGeminiProjectHooks(t *testing.T) {
	s := newGeminiSession(t, "--project")
	reqs := s.run(t, "Why is the coupon discount applied twice when the cart total is recomputed?")
	for _, want := range []string{"rubi: the project map", centsTitle, couponTitle} {
		if !strings.Contains(reqs[0].raw, want) {
			t.Errorf("the model's first request lacks %q", want)
		}
	}
}
