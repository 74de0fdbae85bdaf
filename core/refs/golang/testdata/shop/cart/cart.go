// Package cart is a shopping cart, with decoys: Wishlist.Total here and
// invoice.Invoice.Total elsewhere share the name of Cart.Total.
package cart

import "strings"

// Max bounds the items of a cart.
const Max = 10

// Default is the cart of a session that has none.
var Default = New()

// Item is one line of a cart.
type Item struct {
	Name  string
	Price int
}

// Cart holds items.
type Cart struct {
	Items []Item
}

// New returns an empty cart.
func New() *Cart { return &Cart{} }

// Add puts an item in the cart unless it is full.
func (c *Cart) Add(it Item) bool {
	if len(c.Items) >= Max {
		return false
	}
	c.Items = append(c.Items, it)
	return true
}

// Total sums the prices.
func (c *Cart) Total() int {
	t := 0
	for _, it := range c.Items {
		t += it.Price
	}
	return t
}

// Names lists the items' names, with a value from the standard library
// in between.
func (c *Cart) Names() string {
	var b strings.Builder
	for _, it := range c.Items {
		b.WriteString(it.Name)
	}
	return b.String()
}

// Wishlist is the decoy: its Total is not Cart's.
type Wishlist struct{ Wanted []Item }

// Total counts the wishes.
func (w Wishlist) Total() int { return len(w.Wanted) }
