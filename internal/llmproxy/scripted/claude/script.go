package claude

import (
	"encoding/json"
	"fmt"
	"path/filepath"
)

// DefaultSteps is the number of tool steps of a Script when none is given.
const DefaultSteps = 20

// A Script is what the fake model does in the main loop: Steps tool calls over Files, one
// per response, then a text answer that ends the turn. Every response starts with a
// thinking block.
type Script struct {
	Steps int      // tool steps before the final answer; DefaultSteps when <= 0
	Files []string // absolute paths the tool calls read (see WriteWorkspace)
	// Calls, when set, replace the Read and Bash steps: the model makes these calls in
	// order, one per response, then gives its final answer (Steps and Files are unused).
	// The client's answers are kept for API.ToolResults.
	Calls []ToolCall
}

// A turn is one scripted response.
type turn struct {
	thinking string
	tool     string         // "" for the final text answer
	input    map[string]any // the tool call's arguments
	text     string         // the final answer
}

func (s Script) steps() int {
	if s.Steps <= 0 {
		return DefaultSteps
	}
	return s.Steps
}

// turn returns the response for step i (0-based) given the tools the client offers
// (input schemas by name). Even steps Read a file; odd steps run grep or sed on it through
// Bash. A client without one of the two tools gets the other; without either, the script
// answers at once.
func (s Script) turn(i int, tools map[string]json.RawMessage) turn {
	if len(s.Calls) > 0 {
		return s.callsTurn(i, tools)
	}
	n := s.steps()
	_, hasRead := tools["Read"]
	_, hasBash := tools["Bash"]
	if i >= n || len(s.Files) == 0 || (!hasRead && !hasBash) {
		return turn{
			thinking: fmt.Sprintf("That was the last of the %d steps. I have read each module at least once and searched them for their error paths; the pattern is the same everywhere, so I can summarise now without another tool call.", n),
			text:     fmt.Sprintf("Done: %d tool steps over %d files. Every handler wraps its errors with the operation and the noun it works on, and returns a running total.", min(i, n), len(s.Files)),
		}
	}
	file := s.Files[(i/2)%len(s.Files)]
	base := filepath.Base(file)
	useRead := i%2 == 0
	if useRead && !hasRead || !useRead && !hasBash {
		useRead = !useRead
	}
	t := turn{}
	if useRead {
		t.tool = "Read"
		t.input = map[string]any{"file_path": file}
		t.thinking = fmt.Sprintf("Step %d of %d. I want to see %s in full before I say anything about it: the handlers there may wrap their errors differently from the ones I have read so far. Reading the whole file is cheaper than guessing.", i+1, n, base)
	} else {
		t.tool = "Bash"
		cmd := fmt.Sprintf("grep -n 'return' %s", file)
		if i%4 == 3 {
			cmd = fmt.Sprintf("sed -n '1,240p' %s", file)
		}
		t.input = map[string]any{"command": cmd, "description": "Search a module for its return statements"}
		t.thinking = fmt.Sprintf("Step %d of %d. I read %s already; a grep for the return statements, or its first lines, tells me whether every path wraps its error. That is enough to compare it with the other modules.", i+1, n, base)
	}
	t.input = fillRequired(tools[t.tool], t.input)
	return t
}

// fillRequired adds a zero value for each property the schema requires that input lacks,
// so the call passes the client's validation whatever its tool version asks for.
func fillRequired(tool json.RawMessage, input map[string]any) map[string]any {
	var def struct {
		InputSchema struct {
			Required   []string `json:"required"`
			Properties map[string]struct {
				Type string `json:"type"`
			} `json:"properties"`
		} `json:"input_schema"`
	}
	if json.Unmarshal(tool, &def) != nil {
		return input
	}
	for _, name := range def.InputSchema.Required {
		if _, ok := input[name]; ok {
			continue
		}
		switch def.InputSchema.Properties[name].Type {
		case "number", "integer":
			input[name] = 0
		case "boolean":
			input[name] = false
		case "array":
			input[name] = []any{}
		case "object":
			input[name] = map[string]any{}
		default:
			input[name] = ""
		}
	}
	return input
}

// toolsByName indexes a request's tool definitions by name.
func toolsByName(tools []json.RawMessage) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(tools))
	for _, raw := range tools {
		var t struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(raw, &t) == nil && t.Name != "" {
			out[t.Name] = raw
		}
	}
	return out
}
