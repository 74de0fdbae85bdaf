package cart

// Totaler is what has a total: Cart, Wishlist, invoice.Invoice.
type Totaler interface {
	Total() int
}

// Sum adds the totals, calling Total through the interface.
func Sum(ts ...Totaler) int {
	s := 0
	for _, t := range ts {
		s += t.Total()
	}
	return s
}

// Both sums a cart and a wishlist directly.
func Both(c *Cart, w Wishlist) int {
	return c.Total() + w.Total()
}
