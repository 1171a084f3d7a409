package cli

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/config"
	"github.com/winnowhq/winnow/internal/gateway"
	"github.com/winnowhq/winnow/internal/gateway/pipeline"
	"github.com/winnowhq/winnow/internal/planner"
	"github.com/winnowhq/winnow/internal/telemetry"
	"github.com/winnowhq/winnow/internal/toolvalue"
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
	tools := toolvalue.NewRegistry(toolvalue.Builtin())
	tools.SetUser(cfg.ToolRules())
	turnBudget := cfg.Gateway.TurnBudget
	if turnBudget == 0 {
		turnBudget = -1 // the gateway's zero is its default; the configuration's inlines nothing
	}
	gw, err := gateway.Start(ctx, cfg.Upstreams, srv, &gateway.Options{
		Shaper:  pipe,
		Logger:  a.logger(),
		Version: version(),
		Enrich: &gateway.Enrich{
			Mode:       cfg.Gateway.Enrich,
			Tools:      tools,
			Planner:    &planner.Planner{Models: tools.Model, Logger: a.logger()},
			TurnBudget: turnBudget,
		},
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
	wctx, stopWatch := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		a.watchToolRules(wctx, toolsReloadEvery, tools)
	}()
	return func() {
		stopWatch()
		<-watched
		gw.Close()
		if rec != nil {
			rec.Close()
		}
	}, nil
}

// toolsReloadEvery is how often `winnow mcp` looks whether the user's configuration file
// changed, to reload its [tools] rules.
const toolsReloadEvery = 2 * time.Second

// watchToolRules gives tools the user's [tools] rules again whenever the user's
// configuration file changes (its size or modification time, looked at every interval),
// until ctx ends. A file that no longer loads keeps the previous rules, and says why.
// Only the [tools] rules are reloaded: upstreams and the [gateway] table need a restart.
func (a *app) watchToolRules(ctx context.Context, every time.Duration, tools *toolvalue.Registry) {
	path := a.configFile
	if path == "" {
		p, _, err := config.UserFile()
		if err != nil {
			return // no config directory: no file to watch
		}
		path = p
	}
	last := fileStamp(path)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		now := fileStamp(path)
		if now == last {
			continue
		}
		last = now
		cfg, _, err := config.Load(config.LoadOptions{UserFile: a.configFile})
		if err != nil {
			fmt.Fprintf(a.stderr, "winnow mcp: %s changed but does not load, so the [tools] rules stay as they were: %v\n", path, err)
			continue
		}
		rules := cfg.ToolRules()
		tools.SetUser(rules)
		fmt.Fprintf(a.stderr, "winnow mcp: %s changed: reloaded its [tools] rules (%d tables)\n", path, len(cfg.Tools))
	}
}

// A stamp tells a file's versions apart: its size and modification time, or that it does
// not exist.
type stamp struct {
	size   int64
	mod    time.Time
	exists bool
}

func fileStamp(path string) stamp {
	fi, err := os.Stat(path)
	if err != nil {
		return stamp{}
	}
	return stamp{size: fi.Size(), mod: fi.ModTime(), exists: true}
}
