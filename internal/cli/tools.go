package cli

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/config"
	"github.com/winnowhq/winnow/internal/toolvalue"
)

// originDefault is the origin `winnow tools show` gives a field no rule set: the model of
// a tool nothing describes.
const originDefault = "default"

func (a *app) toolsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "Inspect the value models the gateway plans tool calls with",
	}
	var repo string
	var asJSON bool
	show := &cobra.Command{
		Use:   "show [name]",
		Short: "Print the tools' value models, or one tool's with where each field came from",
		Long: `Show prints the value models the MCP gateway plans with: for each tool, what its
results are worth (value_class), what calling it changes (side_effect; only
pure and read_only tools are ever called ahead of the agent), the size of its
results, the calls that usually follow it and what it makes stale.

A model is built from three sources, each overriding the fields it sets:
winnow's built-in models (Claude Code's and Codex's tools, winnow's own,
server-filesystem, the GitHub and GitLab servers), the MCP annotations of the
upstream's tool (readOnlyHint, destructiveHint, openWorldHint), and the
[tools."<name>"] tables of the user file and the repository's .winnow.toml.
Annotations come from the upstreams themselves, which show does not start: it
shows the built-in and configured models.

Without a name, show lists every tool and pattern the built-ins and the
configuration describe ("*__read_text_file" is read_text_file of any
upstream). With a name, as the agent sees it (Read, fs__read_text_file), it
prints every field of that tool's model with its value and its origin:
"builtin", the configuration file and line that set it, or "default" for the
model of a tool nothing describes. --json prints one JSON object.`,
		Example: `  winnow tools show
  winnow tools show fs__read_text_file
  winnow tools show github__search_issues --json`,
		Args: maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 && strings.TrimSpace(args[0]) == "" {
				return usageError{fmt.Errorf("the tool name is empty: give it as the agent sees it, such as Read or fs__read_text_file")}
			}
			root := repo
			if root == "" {
				var err error
				if root, err = findRoot("."); err != nil {
					return err
				}
			}
			cfg, warns, err := a.loadConfigWarnings(root)
			if err != nil {
				return err
			}
			reg := toolvalue.NewRegistry(toolvalue.Builtin())
			reg.SetUser(cfg.ToolRules())
			if len(args) == 0 {
				return a.showTools(reg, cfg, warns, asJSON)
			}
			return a.showTool(reg, args[0], warns, asJSON)
		},
	}
	show.Flags().StringVar(&repo, "repo", "", "repository whose .winnow.toml applies (default: found from the current directory)")
	show.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	cmd.AddCommand(show)
	return cmd
}

// toolRow is one line of `winnow tools show`.
type toolRow struct {
	Tool          string `json:"tool"`
	Class         string `json:"value_class"`
	SideEffect    string `json:"side_effect"`
	Speculable    bool   `json:"speculable"`
	TypicalTokens int    `json:"typical_tokens"`
	FollowUps     int    `json:"follow_ups"`
}

func (a *app) showTools(reg *toolvalue.Registry, cfg *config.Config, warns []config.Warning, asJSON bool) error {
	var rows []toolRow
	for _, name := range reg.Tools() {
		m := reg.Model(name)
		rows = append(rows, toolRow{
			Tool: name, Class: string(m.Class), SideEffect: string(m.SideEffect), Speculable: m.Speculable(),
			TypicalTokens: m.Cost.TypicalTokens, FollowUps: len(m.FollowUps),
		})
	}
	if asJSON {
		return writeJSON(a.stdout, struct {
			Tools    []toolRow        `json:"tools"`
			Sources  []string         `json:"sources"`
			Warnings []config.Warning `json:"warnings"`
		}{orEmpty(rows), orEmpty(cfg.Sources), orEmpty(warns)})
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tCLASS\tSIDE EFFECT\tAHEAD\tTOKENS\tFOLLOW-UPS")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\n", r.Tool, r.Class, r.SideEffect, yesNo(r.Speculable), r.TypicalTokens, r.FollowUps)
	}
	return tw.Flush()
}

func (a *app) showTool(reg *toolvalue.Registry, name string, warns []config.Warning, asJSON bool) error {
	m, prov := reg.Explain(name)
	if len(prov) == 0 {
		a.noRuleNames(reg, name)
	}
	origins := make(map[string]string, len(toolvalue.Fields))
	for _, f := range toolvalue.Fields {
		origins[f] = originOf(prov, f)
	}
	if asJSON {
		return writeJSON(a.stdout, struct {
			Tool       string            `json:"tool"`
			Speculable bool              `json:"speculable"`
			Model      toolvalue.Model   `json:"model"`
			Origins    map[string]string `json:"origins"`
			Warnings   []config.Warning  `json:"warnings"`
		}{name, m.Speculable(), m, origins, orEmpty(warns)})
	}
	ahead := "never called ahead of the agent"
	if m.Speculable() {
		ahead = "may be called ahead of the agent"
	}
	fmt.Fprintf(a.stdout, "%s: %s, %s\n", name, m.SideEffect, ahead)
	tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FIELD\tVALUE\tORIGIN")
	for _, f := range toolvalue.Fields {
		lines := fieldValue(&m, f)
		fmt.Fprintf(tw, "%s\t%s\t%s\n", f, lines[0], origins[f])
		for _, l := range lines[1:] {
			fmt.Fprintf(tw, "\t%s\t\n", l)
		}
	}
	return tw.Flush()
}

// noRuleNames says on stderr that no rule describes name, and which name the user may
// have meant: a server's tool is named <prefix>__<tool> by the gateway.
func (a *app) noRuleNames(reg *toolvalue.Registry, name string) {
	fmt.Fprintf(a.stderr, "winnow: no built-in or configured rule names %q: this is the model of a tool nothing describes (an upstream's annotations, which apply when the gateway runs, may still set its side effect)\n", name)
	var near []string
	for _, t := range reg.Tools() {
		if t == "*__"+name || strings.EqualFold(t, name) {
			near = append(near, t)
		}
	}
	if len(near) > 0 {
		fmt.Fprintf(a.stderr, "winnow: did you mean %s? The gateway names an upstream's tools <prefix>__<tool>, and \"*__\" stands for any prefix\n",
			strings.Join(near, " or "))
	}
}

// originOf is where the field f of a model came from: a rule's origin, or the model of a
// tool nothing describes.
func originOf(prov toolvalue.Provenance, f string) string {
	if o, ok := prov[f]; ok {
		return o
	}
	return originDefault
}

// fieldValue formats the field f of m as one line, or one line per item of a list.
func fieldValue(m *toolvalue.Model, f string) []string {
	switch f {
	case "value_class":
		return []string{string(m.Class)}
	case "side_effect":
		return []string{string(m.SideEffect)}
	case "speculate":
		if m.Speculate == nil {
			return []string{"-"}
		}
		return []string{strconv.FormatBool(*m.Speculate)}
	case "field_groups":
		var out []string
		for _, g := range m.FieldGroups {
			on := "off"
			if g.Default {
				on = "on"
			}
			out = append(out, fmt.Sprintf("%s (value %g, %s by default): %s", g.Name, g.Value, on, strings.Join(g.Fields, ", ")))
		}
		return orDash(out)
	case "cost_model.typical_tokens":
		return []string{strconv.Itoa(m.Cost.TypicalTokens)}
	case "cost_model.max_tokens":
		return []string{strconv.Itoa(m.Cost.MaxTokens)}
	case "cost_model.latency_p50":
		return []string{m.Cost.LatencyP50.String()}
	case "cost_model.dollars":
		return []string{"$" + strconv.FormatFloat(m.Cost.Dollars, 'f', -1, 64)}
	case "cost_model.freshness_ttl":
		if m.Cost.FreshnessTTL == 0 {
			return []string{"until invalidated"}
		}
		return []string{m.Cost.FreshnessTTL.Round(time.Second).String()}
	case "follow_up":
		var out []string
		for _, e := range m.FollowUps {
			var args []string
			for _, k := range slices.Sorted(maps.Keys(e.Args)) {
				args = append(args, k+" = "+e.Args[k])
			}
			out = append(out, fmt.Sprintf("%s (p %g) %s", e.Tool, e.Probability, strings.Join(args, ", ")))
		}
		return orDash(out)
	case "invalidates":
		return orDash(m.Invalidates)
	case "fail_fast_after_n":
		if m.FailFastAfter == 0 {
			return []string{"never"}
		}
		return []string{strconv.Itoa(m.FailFastAfter)}
	case "rate_limit_host":
		if m.RateLimitHost == "" {
			return []string{"-"}
		}
		return []string{m.RateLimitHost}
	}
	return []string{"?"}
}

func orDash(lines []string) []string {
	if len(lines) == 0 {
		return []string{"-"}
	}
	return lines
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
