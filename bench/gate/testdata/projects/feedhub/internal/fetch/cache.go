package fetch

import (
	"strconv"
	"strings"
	"time"
)

// maxAge reads max-age from a Cache-Control header; no-store and no-cache
// give 0.
func maxAge(h string) time.Duration {
	for _, part := range strings.Split(h, ",") {
		part = strings.TrimSpace(strings.ToLower(part))
		if part == "no-store" || part == "no-cache" {
			return 0
		}
		if v, ok := strings.CutPrefix(part, "max-age="); ok {
			if secs, err := strconv.Atoi(v); err == nil && secs > 0 {
				return time.Duration(secs) * time.Second
			}
		}
	}
	return 0
}
