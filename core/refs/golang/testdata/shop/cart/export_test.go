package cart

// ItemsOf shows a cart's items to the external tests.
func ItemsOf(c *Cart) []Item { return c.Items }
