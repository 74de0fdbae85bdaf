package src

// Cart holds the items of a purchase.
type Cart struct{ Items []string }

// ApplyCoupon takes a coupon's discount off the cart's total.
func ApplyCoupon(c *Cart, code string) int { return len(code) }
