package discount

// rules maps coupon codes to their discount.
var rules = map[string]func(int) int{
	"TENOFF": func(t int) int { return t - t/10 },
}

// MaxDiscountPercent caps any discount.
const MaxDiscountPercent = 50
