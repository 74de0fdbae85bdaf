package cart

import "testing"

func TestTotal(t *testing.T) {
	c := New()
	c.Add(Item{Name: "a", Price: 2})
	if c.Total() != 2 {
		t.Fatal(c.Total())
	}
}
