package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/llmproxy/scripted/claude"
	"github.com/winnowhq/winnow/internal/llmproxy/scripted/codex"
)

// The real-client tests of `winnow setup`: after `setup --write` on an empty home, the
// real Claude Code and Codex, with HOME at that home and nothing else to go on, list
// winnow's MCP server and send a session's requests through a real `winnow proxy`
// (in front of a scripted API) at the address setup wrote.

// TestSetupClaudeCodeForReal: `claude mcp list` connects to winnow's server (it starts
// it), and `claude -p` talks to the API through the proxy.
func TestSetupClaudeCodeForReal(t *testing.T) {
	bin := agentBin(t, "claude")
	api, err := claude.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	home, work := t.TempDir(), t.TempDir()
	cfg, proxy := setupProxy(t, "--anthropic-upstream", api.URL)
	wcmd := winnowExecutable(t)
	if code, out, errOut := run(t, "setup", "claude-code", "--write", "--home", home, "--command", wcmd, "--config", cfg); code != 0 {
		t.Fatalf("setup: exit %d\n%s%s", code, out, errOut)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "ANTHROPIC_API_KEY=test-key", "TERM=dumb",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1"}

	list := runClient(t, bin, work, env, "mcp", "list")
	if !strings.Contains(list, "winnow: "+wcmd+" mcp - ") || !strings.Contains(list, "Connected") {
		t.Errorf("claude mcp list does not show winnow (%s mcp) connected:\n%s", wcmd, list)
	}
	out := runClient(t, bin, work, env, "-p", "Say hello.", "--output-format", "json", "--model", claude.DefaultModel)
	var res claude.Result
	if err := json.Unmarshal([]byte(lastLine(out)), &res); err != nil || !res.Success() {
		t.Errorf("claude -p did not succeed (%v):\n%s", err, out)
	}
	rep := api.Report()
	_, log := proxy.stop(t)
	t.Logf("claude mcp list:\n%sclaude -p: %q; the API saw %d main and %d side requests", list, res.Result, rep.Main.Requests, rep.Side.Requests)
	if !rep.Finished || rep.Main.Requests == 0 || !strings.Contains(log, "/v1/messages") {
		t.Errorf("the session did not go through winnow proxy to the API: API %+v; proxy log:\n%s", rep, log)
	}
}

// TestSetupCodexForReal: `codex mcp list` shows winnow's server as setup wrote it, and
// `codex exec` runs a scripted session through the proxy with the provider setup added.
func TestSetupCodexForReal(t *testing.T) {
	bin := agentBin(t, "codex")
	api, err := codex.StartServer(&codex.ServerOptions{Steps: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	home, work := t.TempDir(), t.TempDir()
	if err := codex.WriteWorkspace(work, 1); err != nil {
		t.Fatal(err)
	}
	cfg, proxy := setupProxy(t, "--openai-upstream", api.URL)
	wcmd := winnowExecutable(t)
	t.Setenv("CODEX_HOME", "")
	if code, out, errOut := run(t, "setup", "codex", "--write", "--home", home, "--command", wcmd, "--config", cfg); code != 0 {
		t.Fatalf("setup: exit %d\n%s%s", code, out, errOut)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "OPENAI_API_KEY=test-key", "LANG=C.UTF-8", "TMPDIR=" + os.TempDir()}

	var servers []struct {
		Name      string
		Enabled   bool
		Transport struct {
			Type    string
			Command string
			Args    []string
		}
	}
	list := runClient(t, bin, work, env, "mcp", "list", "--json")
	if err := json.Unmarshal([]byte(list), &servers); err != nil {
		t.Fatalf("codex mcp list --json: %v\n%s", err, list)
	}
	if len(servers) != 1 || servers[0].Name != "winnow" || !servers[0].Enabled || servers[0].Transport.Type != "stdio" ||
		servers[0].Transport.Command != wcmd || strings.Join(servers[0].Transport.Args, " ") != "mcp" {
		t.Errorf("codex mcp list: %+v, want winnow, enabled, stdio, %s mcp", servers, wcmd)
	}
	defer func() {
		if t.Failed() {
			_, log := proxy.stop(t)
			t.Logf("API: %+v\nproxy log:\n%s", api.Report(), log)
		}
	}()
	runClient(t, bin, work, env, "exec", "--skip-git-repo-check", "--json", "--dangerously-bypass-approvals-and-sandbox",
		"-m", codex.DefaultModel, "-C", work, codex.Prompt)
	rep := api.Report()
	_, log := proxy.stop(t)
	t.Logf("codex mcp list: %+v; the API saw %d requests, finished %v", servers, rep.Requests, rep.Finished)
	if !rep.Finished || len(rep.Invalid) > 0 || !strings.Contains(log, "/v1/responses") {
		t.Errorf("the session did not go through winnow proxy to the API: API %+v; proxy log:\n%s", rep, log)
	}
}

// setupProxy starts `winnow proxy` on a free loopback port with upstream flags, and
// returns a user configuration naming that port as [proxy] listen, for setup to read.
func setupProxy(t *testing.T, upstream ...string) (string, *runningProxy) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf("[proxy]\nlisten = %q\n", addr)), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg, startProxy(t, append([]string{"--config", cfg}, upstream...)...)
}

// winnowExecutable is a program that runs winnow: a script running this test binary as
// winnow (TestMain runs Main when childEnv is set). Clients start MCP servers with an
// environment of their own, so the variable is set in the script.
func winnowExecutable(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "winnow")
	script := fmt.Sprintf("#!/bin/sh\n%s=1 exec %q \"$@\"\n", childEnv, os.Args[0])
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// runClient runs a client CLI in dir with exactly env, and returns its stdout; a
// failure fails the test with its stderr.
func runClient(t *testing.T, bin, dir string, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env, cmd.WaitDelay = dir, env, 5*time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstdout: %s\nstderr: %s", filepath.Base(bin), strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// TestSetupProjectScopeForReal: with --scope project, Claude Code finds winnow in the
// project's .mcp.json (pending the approval it asks for), and Codex in the project's
// .codex/config.toml once the user trusts the project.
func TestSetupProjectScopeForReal(t *testing.T) {
	claudeBin, codexBin := agentBin(t, "claude"), agentBin(t, "codex")
	wcmd := winnowExecutable(t)
	home, work := t.TempDir(), t.TempDir()
	t.Setenv("CODEX_HOME", "")
	for _, client := range []string{"claude-code", "codex"} {
		code, out, errOut := run(t, "setup", client, "--scope", "project", "--repo", work, "--no-proxy", "--write", "--home", home, "--command", wcmd)
		if code != 0 {
			t.Fatalf("setup %s: exit %d\n%s%s", client, code, out, errOut)
		}
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TERM=dumb", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1"}
	fromClaude := runClient(t, claudeBin, work, env, "mcp", "get", "winnow")
	if !strings.Contains(fromClaude, "Scope: Project config") || !strings.Contains(fromClaude, "Command: "+wcmd) {
		t.Errorf("claude mcp get winnow, in the project:\n%s", fromClaude)
	}
	// The user's trust, as Codex records it when asked.
	trust := fmt.Sprintf("[projects.%q]\ntrust_level = \"trusted\"\n", work)
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".codex", "config.toml"), []byte(trust), 0o644); err != nil {
		t.Fatal(err)
	}
	fromCodex := runClient(t, codexBin, work, env, "mcp", "get", "winnow")
	if !strings.Contains(fromCodex, "command: "+wcmd) || !strings.Contains(fromCodex, "args: mcp") {
		t.Errorf("codex mcp get winnow, in the trusted project:\n%s", fromCodex)
	}
	t.Logf("claude mcp get winnow:\n%s\ncodex mcp get winnow:\n%s", fromClaude, fromCodex)
}
