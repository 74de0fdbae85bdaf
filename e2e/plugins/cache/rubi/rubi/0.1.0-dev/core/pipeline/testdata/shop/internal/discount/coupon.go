// Package discount computes coupon and promotion discounts.
package discount

// Apply returns total after the coupon's discount. Coupons must be applied
// after the total is computed, or they are applied twice.
func Apply(total int, coupon string) int {
	if rule, ok := rules[coupon]; ok {
		return rule(total)
	}
	return total
}
