// Package embedtest is a loopback fake of an OpenAI-compatible embeddings
// endpoint, for the tests of rank.embed and of bench/quality's wiring. It
// embeds deterministically: a text's vector counts its words (but a few
// stop words), each word
// hashed to one of Dim dimensions, and words declared synonyms share a
// dimension, so "meaning" can be staged. It logs every request.
package embedtest

import (
	"encoding/json"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"unicode"
)

// Dim is the dimension of the fake's vectors.
const Dim = 256

// stop are words the fake leaves out, as a real model gives them little
// weight.
var stop = map[string]bool{"a": true, "an": true, "the": true, "is": true, "are": true, "of": true, "in": true, "to": true, "and": true,
	"what": true, "where": true, "how": true, "which": true, "who": true, "go": true, "package": true}

// Server is the fake endpoint. URL is its base (".../v1"), to put in the
// ranker's endpoint setting.
type Server struct {
	URL   string
	Model string

	srv      *httptest.Server
	mu       sync.Mutex
	synonyms map[string]string
	requests [][]string
	failing  bool
}

// New starts the fake on 127.0.0.1, serving model. synonyms maps a word
// to the word whose dimension it shares.
func New(model string, synonyms map[string]string) *Server {
	s := &Server{Model: model, synonyms: synonyms}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/embeddings", s.embeddings)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/v1"
	return s
}

// Close stops the fake; the port then refuses connections.
func (s *Server) Close() { s.srv.Close() }

// Fail makes every later request answer 503 (on) or succeed again (off).
func (s *Server) Fail(on bool) {
	s.mu.Lock()
	s.failing = on
	s.mu.Unlock()
}

// Requests returns the inputs of every request so far, in order.
func (s *Server) Requests() [][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([][]string, len(s.requests))
	copy(out, s.requests)
	return out
}

// Inputs returns every text embedded so far, in order.
func (s *Server) Inputs() []string {
	var out []string
	for _, r := range s.Requests() {
		out = append(out, r...)
	}
	return out
}

// Reset forgets the requests so far.
func (s *Server) Reset() {
	s.mu.Lock()
	s.requests = nil
	s.mu.Unlock()
}

// Vector is the fake's embedding of text.
func (s *Server) Vector(text string) []float32 {
	v := make([]float32, Dim)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if stop[w] {
			continue
		}
		if to, ok := s.synonyms[w]; ok {
			w = to
		}
		h := fnv.New32a()
		h.Write([]byte(w))
		v[h.Sum32()%Dim]++
	}
	return v
}

func (s *Server) embeddings(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	failing := s.failing
	if !failing {
		s.requests = append(s.requests, req.Input)
	}
	s.mu.Unlock()
	switch {
	case failing:
		http.Error(w, `{"error":"model is loading"}`, http.StatusServiceUnavailable)
		return
	case req.Model != s.Model:
		http.Error(w, `{"error":"model \"`+req.Model+`\" not found, try pulling it first"}`, http.StatusNotFound)
		return
	}
	type datum struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	resp := struct {
		Object string  `json:"object"`
		Model  string  `json:"model"`
		Data   []datum `json:"data"`
	}{Object: "list", Model: s.Model}
	for i, in := range req.Input {
		resp.Data = append(resp.Data, datum{Object: "embedding", Index: i, Embedding: s.Vector(in)})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}
