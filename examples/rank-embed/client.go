package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// client talks to an OpenAI-compatible embeddings endpoint:
//
//	POST {endpoint}/embeddings  {"model": M, "input": ["text", ...]}
//	→ {"data": [{"index": 0, "embedding": [0.1, ...]}, ...]}
//
// Ollama (http://127.0.0.1:11434/v1), llama.cpp's llama-server
// (http://127.0.0.1:8080/v1) and LM Studio (http://127.0.0.1:1234/v1)
// all answer it.
type client struct {
	url     string // endpoint + "/embeddings"
	model   string
	timeout time.Duration
	http    *http.Client
}

// maxResponse bounds one answer: a batch of 64 vectors of 4,096
// dimensions is about 6 MB of JSON.
const maxResponse = 64 << 20

// newClient checks the endpoint and builds a client that can only reach
// loopback addresses unless allowRemote is set: the check is made on the
// address actually dialled, so a name that resolves elsewhere is refused
// too. It follows no redirect and uses no proxy for loopback.
func newClient(endpoint, model string, timeout time.Duration, allowRemote bool) (*client, error) {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http:// or https:// URL", endpoint)
	}
	if !allowRemote && !loopbackHost(u.Hostname()) {
		return nil, fmt.Errorf("%s is not on this machine: rubi sends nothing over the network by default, so only a loopback address (127.0.0.1, ::1, localhost) is accepted; set allow_remote = true in this block to send your code's text to %s", endpoint, u.Host)
	}
	dialer := &net.Dialer{Timeout: timeout}
	transport := &http.Transport{
		DialContext:         dialer.DialContext,
		MaxIdleConnsPerHost: 2,
		IdleConnTimeout:     30 * time.Second,
		TLSHandshakeTimeout: timeout,
	}
	if allowRemote {
		transport.Proxy = http.ProxyFromEnvironment
	} else {
		dialer.Control = func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
				return fmt.Errorf("refusing to connect to %s, which is not a loopback address (allow_remote is not set)", address)
			}
			return nil
		}
	}
	return &client{
		url:     strings.TrimSuffix(u.String(), "/") + "/embeddings",
		model:   model,
		timeout: timeout,
		http: &http.Client{
			Transport: transport,
			CheckRedirect: func(req *http.Request, _ []*http.Request) error {
				return fmt.Errorf("the endpoint redirected to %s; rank.embed follows no redirect", req.URL.Redacted())
			},
		},
	}, nil
}

func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// unavailableError is an endpoint that did not answer as it should:
// down, missing the model, or answering something else.
type unavailableError struct {
	url string
	msg string
}

func (e *unavailableError) Error() string {
	return "embeddings endpoint " + e.url + " unavailable: " + e.msg
}

type embedRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type embedResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// embed returns one vector per text, in order, all of one dimension.
func (c *client) embed(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(embedRequest{Model: c.model, Input: texts})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		msg := err.Error()
		if errors.Is(err, context.DeadlineExceeded) {
			msg = fmt.Sprintf("no answer within %s (request_timeout)", c.timeout)
		}
		return nil, &unavailableError{url: c.url, msg: msg}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return nil, &unavailableError{url: c.url, msg: "reading the answer: " + err.Error()}
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &unavailableError{url: c.url, msg: fmt.Sprintf("%s: %s", resp.Status, snippet(data))}
	}
	if len(data) > maxResponse {
		return nil, &unavailableError{url: c.url, msg: fmt.Sprintf("answer larger than %d MB", maxResponse>>20)}
	}
	var out embedResponse
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, &unavailableError{url: c.url, msg: "answer is not an embeddings response: " + err.Error()}
	}
	if len(out.Data) != len(texts) {
		return nil, &unavailableError{url: c.url, msg: fmt.Sprintf("%d embeddings for %d inputs", len(out.Data), len(texts))}
	}
	vecs := make([][]float32, len(texts))
	for _, d := range out.Data {
		if d.Index < 0 || d.Index >= len(texts) || vecs[d.Index] != nil {
			return nil, &unavailableError{url: c.url, msg: fmt.Sprintf("embedding index %d is out of range or repeated", d.Index)}
		}
		if len(d.Embedding) == 0 || len(d.Embedding) > maxDim {
			return nil, &unavailableError{url: c.url, msg: fmt.Sprintf("embedding %d has %d dimensions", d.Index, len(d.Embedding))}
		}
		vecs[d.Index] = d.Embedding
	}
	dim := len(vecs[0])
	for i, v := range vecs {
		if len(v) != dim {
			return nil, &unavailableError{url: c.url, msg: fmt.Sprintf("embeddings of %d and %d dimensions in one answer", dim, len(v))}
		}
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, &unavailableError{url: c.url, msg: fmt.Sprintf("embedding %d holds a value that is not a finite number", i)}
			}
		}
	}
	return vecs, nil
}

// snippet is the start of an error answer, on one line.
func snippet(data []byte) string {
	s := strings.Join(strings.Fields(string(data)), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	if s == "" {
		return "(empty answer)"
	}
	return s
}
