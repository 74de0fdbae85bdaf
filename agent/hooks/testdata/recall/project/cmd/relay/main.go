package main

import (
	"flag"
	"log"
	"net/http"

	"example.com/relay/internal/config"
	"example.com/relay/internal/deliver"
	"example.com/relay/internal/hooks"
	"example.com/relay/internal/queue"
)

func main() {
	path := flag.String("config", "relay.yaml", "configuration file")
	flag.Parse()
	cfg, err := config.Load(*path)
	if err != nil {
		log.Fatal(err)
	}
	q, err := queue.Open(cfg.QueueFile)
	if err != nil {
		log.Fatal(err)
	}
	go deliver.Run(q, deliver.NewClient(cfg))
	http.Handle("/hooks/", hooks.NewReceiver(cfg.Secret, q))
	log.Fatal(http.ListenAndServe(cfg.Listen, nil))
}
