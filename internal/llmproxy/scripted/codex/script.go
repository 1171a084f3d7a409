package codex

import (
	"encoding/json"
	"fmt"
	"strings"
)

// FinalText is the assistant's answer once every step is done.
const FinalText = "Done: I read the files one at a time and wrote my notes under notes/."

// isPatch reports whether step edits a file with apply_patch instead of reading one.
func (s *Server) isPatch(step int) bool {
	return s.opts.PatchEvery > 0 && step%s.opts.PatchEvery == 0
}

// notePath is the file a patch step adds.
func notePath(step int) string { return fmt.Sprintf("notes/step%02d.md", step) }

func patchText(step int) string {
	return fmt.Sprintf("*** Begin Patch\n*** Add File: %s\n+# Notes after step %d\n+\n+The files read so far look alike.\n*** End Patch\n",
		notePath(step), step)
}

// file returns the file step reads: Files in turn, or the generated file of the step.
func (s *Server) file(step int) string {
	if len(s.opts.Files) > 0 {
		return s.opts.Files[(step-1)%len(s.opts.Files)]
	}
	return FilePath(step)
}

// plan returns the output items of the response at step (Steps+1 is the final answer),
// issuing their ids. A tool call uses the tools the request offers: exec_command, shell
// or local_shell to read, apply_patch (custom or function) to edit.
func (s *Server) plan(r *request, step int) ([]*outItem, error) {
	var act *outItem
	var action string
	switch {
	case step > s.opts.Steps:
		action = "answer"
		act = &outItem{is: s.issue(typeMessage, step), text: FinalText}
	case len(s.opts.Calls) > 0:
		var err error
		c := s.opts.Calls[step-1]
		action = "call " + c.Name
		if act, err = s.call(r, step, c); err != nil {
			return nil, err
		}
	case s.isPatch(step) && r.hasTool("custom", "apply_patch"):
		action = "add " + notePath(step)
		act = &outItem{is: s.issue(typeCustomCall, step), name: "apply_patch", args: patchText(step)}
	case s.isPatch(step) && r.hasTool("function", "apply_patch"):
		action = "add " + notePath(step)
		args, _ := json.Marshal(map[string]string{"input": patchText(step)})
		act = &outItem{is: s.issue(typeFunctionCall, step), name: "apply_patch", args: string(args)}
	default:
		var err error
		action = "read " + s.file(step)
		if act, err = s.read(r, step); err != nil {
			return nil, err
		}
	}
	rs := &outItem{is: s.issue(typeReasoning, step), summary: summary(step, action)}
	rs.is.hidden = hiddenReasoning(step, action)
	rs.is.encrypted = s.seal(rs.is.id, rs.is.hidden)
	rs.is.follower, act.is.reasoning = act.is.id, rs.is.id
	s.ledger.add(rs.is)
	s.ledger.add(act.is)
	return []*outItem{rs, act}, nil
}

// read returns the tool call that prints the file of step.
func (s *Server) read(r *request, step int) (*outItem, error) {
	cmd := "cat " + shellQuote(s.file(step))
	switch {
	case r.hasTool("function", "exec_command"):
		args, _ := json.Marshal(map[string]any{"cmd": cmd, "max_output_tokens": 16000})
		return &outItem{is: s.issue(typeFunctionCall, step), name: "exec_command", args: string(args)}, nil
	case r.hasTool("function", "shell"):
		args, _ := json.Marshal(map[string]any{"command": []string{"bash", "-lc", cmd}})
		return &outItem{is: s.issue(typeFunctionCall, step), name: "shell", args: string(args)}, nil
	case r.hasTool("local_shell", ""):
		args, _ := json.Marshal(map[string]any{"type": "exec", "command": []string{"bash", "-lc", cmd}})
		return &outItem{is: s.issue(typeLocalShellCall, step), args: string(args)}, nil
	}
	names := make([]string, len(r.tools))
	for i, t := range r.tools {
		names[i] = t.Type + ":" + t.Name
	}
	return nil, fmt.Errorf("step %d: the request offers no shell tool (exec_command, shell or local_shell), only %s", step, strings.Join(names, ", "))
}

// verify reports whether a tool output is what step's command should have printed.
func (s *Server) verify(step int, output string) bool {
	if len(s.opts.Calls) > 0 {
		return output != ""
	}
	if s.isPatch(step) {
		return strings.Contains(output, notePath(step))
	}
	return strings.Contains(output, s.firstLine[s.file(step)])
}

// shellQuote quotes p for a POSIX shell when it needs quoting.
func shellQuote(p string) string {
	if strings.IndexFunc(p, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}
