// Command shop runs a cart through an order.
package main

import (
	"fmt"
	"os"

	"example.com/shop/cart"
	"example.com/shop/order"
	"example.com/shop/stack"
)

type receipt struct{ lines stack.Stack[string] }

func (r *receipt) Total() int { return 0 } // a third decoy, in main

func main() {
	c := cart.New()
	c.Add(cart.Item{Name: "tea", Price: 4})
	o := order.Place(1, c)
	fmt.Println(o.Describe(), order.Totals([]*cart.Cart{c}))
	var r receipt
	r.lines.Push(c.Names())
	r.lines.Push(fmt.Sprint(r.Total()))
	s := &stack.Stack[int]{}
	s.Push(cart.Max)
	top, _ := s.Pop()
	names := stack.Map([]cart.Item{{Name: "x"}}, func(it cart.Item) string { return it.Name })
	fmt.Fprintln(os.Stdout, top, names, cart.Sum(c, cart.Default))
}
