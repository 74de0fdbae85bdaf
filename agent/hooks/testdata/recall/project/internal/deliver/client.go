package deliver

import (
	"bytes"
	"net/http"
	"time"

	"example.com/relay/internal/config"
	"example.com/relay/internal/queue"
)

// Client posts deliveries to subscribers.
type Client struct {
	http    *http.Client
	limiter *Limiter
}

func NewClient(cfg *config.Config) *Client {
	return &Client{http: &http.Client{Timeout: time.Duration(cfg.Timeout) * time.Second}, limiter: NewLimiter()}
}

// Send posts one delivery with its idempotency key.
func (c *Client) Send(url string, d queue.Delivery) error {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(d.Body))
	if err != nil {
		return err
	}
	req.Header.Set("X-Relay-Delivery", d.ID)
	c.limiter.Wait(req.URL.Host)
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Run delivers from the queue until it is closed.
func Run(q *queue.Queue, c *Client) {}
