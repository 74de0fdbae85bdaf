package metrics

import "time"

// ObserveDelivery records a delivery's latency by event and outcome.
func ObserveDelivery(event, outcome string, d time.Duration) {}
