package setup

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Codex (0.169, as run by the tests) reads $CODEX_HOME/config.toml (~/.codex/config.toml),
// and a project's .codex/config.toml once the user trusts the project.
//
//   - An [mcp_servers.<name>] table with command and args is a stdio MCP server
//     (`codex mcp list` lists it).
//   - OPENAI_BASE_URL alone does not move Codex; a provider of its own does:
//     [model_providers.<name>] with base_url (ending in /v1) and wire_api = "responses"
//     ("chat" is refused), chosen by the top-level model_provider. The proxy's
//     TestCodexThroughProxy runs the real Codex so. The provider takes the API key from
//     the variable env_key names.
//
// The proxy is a process on this machine, so its provider goes into the user's file
// even when the MCP server goes into a project's.

// codexProvider is the provider name winnow adds.
const codexProvider = "winnow"

// codexHTTPKeys are the keys of an MCP server reached over HTTP, dropped when an entry
// named winnow is turned into one that starts `winnow mcp`.
var codexHTTPKeys = []string{"url", "bearer_token_env_var", "http_headers", "env_http_headers"}

func planCodex(p *Plan, o Options) error {
	home := o.CodexHome
	if home == "" {
		home = filepath.Join(o.Home, ".codex")
	}
	userFile := filepath.Join(home, "config.toml")
	if o.MCP {
		path := userFile
		if o.Scope == ScopeProject {
			path = filepath.Join(o.Project, ".codex", "config.toml")
		}
		server := []tomlPair{{"command", o.Command}, {"args", []string{"mcp"}}}
		err := editFile(p, path, parseTOML, func(d *tomlDoc) error {
			return ensureTable(d, []string{"mcp_servers", "winnow"}, server, codexHTTPKeys)
		})
		if err != nil {
			return err
		}
		c, _ := p.change(path)
		c.Sets = append(c.Sets, "[mcp_servers.winnow]")
		c.Snippet = tomlSnippet(nil, []string{"mcp_servers", "winnow"}, server)
		p.Notes = append(p.Notes, mcpNote(o.Command))
		if o.Scope == ScopeProject {
			p.Notes = append(p.Notes, fmt.Sprintf("Codex reads %s only in a project you trust: it asks the first time you run codex in %s.", path, o.Project))
		}
	}
	if o.Proxy {
		provider := []tomlPair{
			{"name", "OpenAI through winnow"},
			{"base_url", o.ProxyURL + "/v1"},
			{"wire_api", "responses"},
			{"env_key", "OPENAI_API_KEY"},
		}
		err := editFile(p, userFile, parseTOML, func(d *tomlDoc) error {
			if cur, ok := d.get("model_provider"); ok && cur != codexProvider && cur != "openai" {
				return fmt.Errorf("model_provider is already %q, which winnow setup does not replace (only \"openai\"): "+
					"to put winnow's proxy in front of that provider, set [proxy] openai_upstream to its server in winnow's user configuration and model_provider = %q here; "+
					"or pass --no-proxy", cur, codexProvider)
			}
			if err := ensureTable(d, []string{"model_providers", codexProvider}, provider, nil); err != nil {
				return err
			}
			_, err := d.setKey(nil, "model_provider", codexProvider)
			return err
		})
		if err != nil {
			return err
		}
		c, _ := p.change(userFile)
		c.Sets = append(c.Sets, "model_provider", "[model_providers.winnow]")
		// The top-level key goes first: after a table header it would be the table's.
		snippet := tomlSnippet([]tomlPair{{"model_provider", codexProvider}}, []string{"model_providers", codexProvider}, provider)
		if c.Snippet != "" {
			top, tables, _ := strings.Cut(snippet, "\n\n")
			snippet = top + "\n\n" + c.Snippet + "\n" + tables
		}
		c.Snippet = snippet
		p.Notes = append(p.Notes, fmt.Sprintf("Codex uses the model provider %q: OpenAI's Responses API through winnow's proxy at %s/v1, with the API key in OPENAI_API_KEY. "+
			"Start 'winnow proxy' and keep it running while you use Codex, which cannot reach the API without it.", codexProvider, o.ProxyURL))
	}
	return nil
}

// ensureTable sets pairs in [table], adding the table when it is missing and removing
// the keys of drop from it. A table defined inline or by dotted keys is not edited.
func ensureTable(d *tomlDoc, table []string, pairs []tomlPair, drop []string) error {
	name := joinKey(table)
	for i := 1; i < len(table); i++ {
		if v, ok := d.get(table[:i]...); ok {
			if _, isTable := v.(map[string]any); !isTable {
				return fmt.Errorf("%s is not a table, so [%s] cannot be added", joinKey(table[:i]), name)
			}
		}
	}
	cur, ok := d.get(table...)
	if !ok {
		return d.appendTable(table, pairs)
	}
	if _, isTable := cur.(map[string]any); !isTable {
		return fmt.Errorf("%s is not a table", name)
	}
	if head, _ := d.table(table); head == nil {
		return fmt.Errorf("%s is defined inline or by dotted keys, which winnow setup does not edit: write it as a [%s] table, or remove it", name, name)
	}
	for _, k := range drop {
		if err := d.deleteKey(table, k); err != nil {
			return err
		}
	}
	for _, p := range pairs {
		if _, err := d.setKey(table, p.Key, p.Value); err != nil {
			return err
		}
	}
	return nil
}

// tomlSnippet writes top-level pairs, then [table] with its pairs.
func tomlSnippet(top []tomlPair, table []string, pairs []tomlPair) string {
	var b strings.Builder
	line := func(p tomlPair) {
		lit, _ := tomlLiteral(p.Value)
		fmt.Fprintf(&b, "%s = %s\n", tomlKey(p.Key), lit)
	}
	for _, p := range top {
		line(p)
	}
	if len(top) > 0 {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[%s]\n", joinKey(table))
	for _, p := range pairs {
		line(p)
	}
	return b.String()
}
