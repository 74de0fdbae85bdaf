// Command feedhub polls feeds and serves their entries.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"

	"example.org/feedhub/internal/config"
	"example.org/feedhub/internal/fetch"
	"example.org/feedhub/internal/schedule"
	"example.org/feedhub/internal/server"
	"example.org/feedhub/internal/store"
)

func main() {
	path := flag.String("config", "feedhub.yaml", "configuration file")
	flag.Parse()
	cfg, err := config.Load(*path)
	if err != nil {
		log.Fatal(err)
	}
	st, err := store.Open(cfg.DataDir, cfg.MaxEntriesPerFeed)
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	f := fetch.New(cfg.UserAgent)
	s := schedule.New(cfg, f, st)
	go s.Run(ctx)
	log.Fatal(server.Serve(ctx, cfg.Listen, st, s))
}
