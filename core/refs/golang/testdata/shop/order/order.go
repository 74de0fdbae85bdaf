// Package order embeds a cart: its Total is the cart's.
package order

import (
	"fmt"

	"example.com/shop/cart"
	"example.com/shop/invoice"
)

// Order is a cart being paid.
type Order struct {
	*cart.Cart
	ID int
}

// Place makes an order of c.
func Place(id int, c *cart.Cart) *Order {
	return &Order{Cart: c, ID: id}
}

// Describe reads the total through the embedded cart, as a method value,
// and the invoice's total beside it.
func (o *Order) Describe() string {
	total := o.Total
	inv := invoice.Of(o.Cart)
	return fmt.Sprintf("%d: %d (%d billed)", o.ID, total(), inv.Total())
}

// Totals is a generic helper over anything with a total.
func Totals[T cart.Totaler](xs []T) []int {
	var out []int
	for _, x := range xs {
		out = append(out, x.Total())
	}
	return out
}
