//go:build unix

package e2e

import (
	"testing"

	"github.com/rubi-dev/rubi/internal/mockapi"
)

// The model mocks are internal/mockapi's, shared with bench/ab: a loopback
// Messages API for Claude Code and a Responses API for Codex, each
// answering what the test's script decides and recording every request
// (and any request beyond its endpoint).
type (
	mockAPI          = mockapi.Messages
	apiRequest       = mockapi.Request
	reply            = mockapi.Reply
	toolCall         = mockapi.ToolCall
	mockResponses    = mockapi.Responses
	responsesRequest = mockapi.ResponsesRequest
)

// newMockAPI starts the Messages API mock until the test ends.
func newMockAPI(t *testing.T, script func(apiRequest) reply) *mockAPI {
	t.Helper()
	m, err := mockapi.NewMessages(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// newMockResponses starts the Responses API mock until the test ends.
func newMockResponses(t *testing.T, script func(responsesRequest) reply) *mockResponses {
	t.Helper()
	m, err := mockapi.NewResponses(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}
