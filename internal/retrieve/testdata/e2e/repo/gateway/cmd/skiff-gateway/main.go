// Command skiff-gateway runs the caching reverse proxy.
//
//	skiff-gateway -config gateway.json
package main

import (
	"flag"
	"log"
	"log/slog"
	"net/http"
	"os"

	"example.com/skiff/gateway"
)

func main() {
	configPath := flag.String("config", "gateway.json", "configuration file")
	flag.Parse()

	cfg, err := gateway.Load(*configPath)
	if err != nil {
		log.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	srv, err := gateway.NewServer(cfg, logger)
	if err != nil {
		log.Fatal(err)
	}
	logger.Info("skiff-gateway listening", "addr", cfg.Listen, "upstream", cfg.Upstream)
	log.Fatal(http.ListenAndServe(cfg.Listen, srv))
}
