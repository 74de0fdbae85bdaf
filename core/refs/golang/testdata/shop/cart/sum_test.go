package cart_test

import (
	"testing"

	"example.com/shop/cart"
)

func TestSum(t *testing.T) {
	c := cart.New()
	c.Add(cart.Item{Price: 3})
	if cart.Sum(c, cart.Wishlist{}) != 3 || len(cart.ItemsOf(c)) != 1 {
		t.Fatal(cart.Default.Total())
	}
}
