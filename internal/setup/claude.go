package setup

import (
	"fmt"
	"path/filepath"
)

// Claude Code (2.1.328, as run by the tests) reads:
//
//   - the MCP servers of the user scope from the top-level "mcpServers" of ~/.claude.json
//     ($CLAUDE_CONFIG_DIR/.claude.json when that is set), those of a project from the
//     project's .mcp.json, which is shared (Claude Code asks before starting them);
//   - the environment of every session from the "env" of ~/.claude/settings.json
//     ($CLAUDE_CONFIG_DIR/settings.json), or of a project's .claude/settings.local.json,
//     which is meant to stay personal, out of git. ANTHROPIC_BASE_URL there
//     sends its API requests to winnow's proxy, as the proxy's TestClaudeCode does.
//
// The proxy is a process on this machine, so it never goes into a project's shared
// .claude/settings.json.

// claudeServer is the "mcpServers" entry that starts `winnow mcp`, as `claude mcp add`
// writes one.
func claudeServer(command string) jsonOrdered {
	return jsonOrdered{{"type", "stdio"}, {"command", command}, {"args", []string{"mcp"}}}
}

func planClaude(p *Plan, o Options) error {
	mcpFile := filepath.Join(o.Home, ".claude.json")
	settingsFile := filepath.Join(o.Home, ".claude", "settings.json")
	if o.ClaudeConfigDir != "" {
		mcpFile = filepath.Join(o.ClaudeConfigDir, ".claude.json")
		settingsFile = filepath.Join(o.ClaudeConfigDir, "settings.json")
	}
	if o.Scope == ScopeProject {
		mcpFile = filepath.Join(o.Project, ".mcp.json")
		settingsFile = filepath.Join(o.Project, ".claude", "settings.local.json")
	}
	if o.MCP {
		if err := editFile(p, mcpFile, parseJSON, func(d *jsonDoc) error { return setClaudeServer(d, o.Command) }); err != nil {
			return err
		}
		c, _ := p.change(mcpFile)
		c.Sets = append(c.Sets, "mcpServers.winnow")
		c.Snippet = jsonSnippet(jsonOrdered{{"mcpServers", jsonOrdered{{"winnow", claudeServer(o.Command)}}}})
		p.Notes = append(p.Notes, mcpNote(o.Command))
		if o.Scope == ScopeProject {
			p.Notes = append(p.Notes, fmt.Sprintf("Claude Code asks before it starts a server of %s: approve winnow the first time you run claude in %s.", mcpFile, o.Project))
		}
	}
	if o.Proxy {
		err := editFile(p, settingsFile, parseJSON, func(d *jsonDoc) error {
			if cur, ok := d.get("env", "ANTHROPIC_BASE_URL"); ok && cur != o.ProxyURL {
				return fmt.Errorf("env.ANTHROPIC_BASE_URL is already %s, which winnow setup does not replace: "+
					"to put winnow's proxy in front of it, set [proxy] anthropic_upstream to it in winnow's user configuration and remove it from this file; "+
					"or pass --no-proxy", jsonText(cur))
			}
			_, err := d.set([]string{"env", "ANTHROPIC_BASE_URL"}, o.ProxyURL)
			return err
		})
		if err != nil {
			return err
		}
		c, _ := p.change(settingsFile)
		c.Sets = append(c.Sets, "env.ANTHROPIC_BASE_URL")
		c.Snippet = jsonSnippet(jsonOrdered{{"env", jsonOrdered{{"ANTHROPIC_BASE_URL", o.ProxyURL}}}})
		if o.Scope == ScopeProject {
			p.Notes = append(p.Notes, fmt.Sprintf("%s is personal (the proxy runs on your machine): keep it out of git, in .gitignore if git does not ignore it yet.", settingsFile))
		}
		p.Notes = append(p.Notes, fmt.Sprintf("Claude Code sends its API requests to winnow's proxy at %s: start 'winnow proxy' and keep it running while you use Claude Code, which cannot reach the API without it.", o.ProxyURL))
	}
	return nil
}

// setClaudeServer points mcpServers.winnow at `command mcp`. An entry that already
// starts a command keeps its other members (env, for one); an entry of another
// transport (a url) is replaced whole.
func setClaudeServer(d *jsonDoc, command string) error {
	path := []string{"mcpServers", "winnow"}
	if cur, ok := d.get(path...); ok {
		if m, isObject := cur.(map[string]any); isObject && m["url"] == nil && (m["type"] == nil || m["type"] == "stdio") {
			if _, err := d.set(append(path, "command"), command); err != nil {
				return err
			}
			_, err := d.set(append(path, "args"), []string{"mcp"})
			return err
		}
	}
	_, err := d.set(path, claudeServer(command))
	return err
}

// cannotEdit is the error for a file winnow setup will not write.
func cannotEdit(path string, err error) error {
	return fmt.Errorf("%s: %w\nNothing was written: fix the file (or move it aside), then run winnow setup again", path, err)
}

func jsonSnippet(v jsonOrdered) string {
	raw, _ := marshalJSON(v)
	d := &jsonDoc{unit: "  "}
	return string(d.indent(raw, "")) + "\n"
}

func jsonText(v any) string {
	b, _ := marshalJSON(v)
	return string(b)
}

// mcpNote says what the registered server does.
func mcpNote(command string) string {
	return fmt.Sprintf("The MCP server runs '%s mcp' in the directory the client starts in, and serves that repository (its git work tree), indexing it on first use.", command)
}
