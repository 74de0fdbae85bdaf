package hooks

import (
	"io"
	"net/http"
	"time"

	"example.com/relay/internal/queue"
)

// eventTypes are the events the relay accepts; any other is refused.
var eventTypes = map[string]bool{"push": true, "issues": true, "pull_request": true}

// replayWindow is how old a delivery's timestamp may be.
const replayWindow = 5 * time.Minute

// Receiver accepts webhook deliveries over HTTP.
type Receiver struct {
	secret []byte
	q      *queue.Queue
}

func NewReceiver(secret string, q *queue.Queue) *Receiver {
	return &Receiver{secret: []byte(secret), q: q}
}

func (r *Receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	if err != nil {
		http.Error(w, "cannot read body", http.StatusBadRequest)
		return
	}
	if !Verify(r.secret, body, req.Header.Get("X-Hub-Signature-256")) {
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	if !fresh(req.Header.Get("X-Relay-Timestamp"), time.Now()) {
		http.Error(w, "replayed delivery", http.StatusConflict)
		return
	}
	event := req.Header.Get("X-GitHub-Event")
	if !eventTypes[event] {
		http.Error(w, "unknown event", http.StatusUnprocessableEntity)
		return
	}
	r.q.Push(queue.Delivery{Event: event, Body: body})
	w.WriteHeader(http.StatusAccepted)
}

func fresh(stamp string, now time.Time) bool {
	t, err := time.Parse(time.RFC3339, stamp)
	return err == nil && now.Sub(t) < replayWindow
}
