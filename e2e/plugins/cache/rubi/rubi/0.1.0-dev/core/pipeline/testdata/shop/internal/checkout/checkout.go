// Package checkout finishes a purchase: it totals the cart, applies
// discounts and charges the customer.
package checkout

import (
	"example.com/shop/internal/config"
	"example.com/shop/internal/discount"
)

// Cart holds the items a customer is buying.
type Cart struct {
	Items  []Item
	Coupon string
}

// Item is one line of a cart.
type Item struct {
	SKU   string
	Price int
	Qty   int
}

// Total sums the cart and applies its coupon once.
func Total(c Cart) int {
	sum := 0
	for _, it := range c.Items {
		sum += it.Price * it.Qty
	}
	return discount.Apply(sum, c.Coupon)
}

// Serve starts the checkout HTTP handlers.
func Serve(cfg *config.Config) error {
	return nil
}
