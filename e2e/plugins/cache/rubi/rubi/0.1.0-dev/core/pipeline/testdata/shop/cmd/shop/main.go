// Command shop runs the shop's HTTP server.
package main

import (
	"log"

	"example.com/shop/internal/checkout"
	"example.com/shop/internal/config"
)

func main() {
	cfg, err := config.Load("shop.yaml")
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(checkout.Serve(cfg))
}
