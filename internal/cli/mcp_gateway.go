package cli

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/config"
	"github.com/winnowhq/winnow/internal/gateway"
	"github.com/winnowhq/winnow/internal/gateway/pipeline"
	"github.com/winnowhq/winnow/internal/telemetry"
)

// startGateway connects the [[upstream]] servers of cfg, the user's own
// configuration file, to srv, their results shaped by the response
// pipeline, and returns the function that stops it all. With no upstream
// configured it does nothing.
//
// Upstreams, the pipeline and telemetry are read from the user file only,
// never from the repository's .winnow.toml: a cloned repository must not
// be able to start programs or send tokens anywhere by being opened.
func (a *app) startGateway(ctx context.Context, srv *mcp.Server, cfg *config.Config) (stop func(), err error) {
	if len(cfg.Upstreams) == 0 {
		return func() {}, nil
	}
	opts := pipeline.Options{
		DedupWindow:   cfg.Gateway.DedupWindow,
		MinDedupChars: cfg.Gateway.MinDedupChars,
		CallBudget:    cfg.Gateway.CallBudget,
		ClientCaps:    cfg.Gateway.ClientCaps,
		Invalidates:   gateway.Invalidations(cfg.Upstreams),
		Logger:        a.logger(),
	}
	var rec *telemetry.Writer
	if cfg.Telemetry.Enabled {
		path, err := cfg.TelemetryPath()
		if err != nil {
			return nil, err
		}
		if rec, err = telemetry.Open(path, nil); err != nil {
			return nil, fmt.Errorf("telemetry: %w", err)
		}
		opts.Telemetry = rec
	}
	pipe := pipeline.Default(opts)
	srv.AddTool(pipe.MoreTool())
	gw, err := gateway.Start(ctx, cfg.Upstreams, srv, &gateway.Options{
		Shaper:  pipe,
		Logger:  a.logger(),
		Version: version(),
	})
	if err != nil {
		if rec != nil {
			rec.Close()
		}
		return nil, err
	}
	for _, s := range gw.Status() {
		if s.State == gateway.StateFailed || s.State == gateway.StateRestarting {
			fmt.Fprintf(a.stderr, "winnow mcp: upstream %s\n", s)
		}
	}
	return func() {
		gw.Close()
		if rec != nil {
			rec.Close()
		}
	}, nil
}
