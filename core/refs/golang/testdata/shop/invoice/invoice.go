// Package invoice bills a cart. Its Total is a decoy for Cart.Total.
package invoice

import "example.com/shop/cart"

// Invoice is a billed cart.
type Invoice struct {
	Cart *cart.Cart
	Tax  int
}

// Total is the cart's total with the tax.
func (i Invoice) Total() int {
	return i.Cart.Total() + i.Tax
}

// Of bills c.
func Of(c *cart.Cart) Invoice {
	return Invoice{Cart: c, Tax: c.Total() / 10}
}
