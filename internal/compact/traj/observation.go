package traj

import (
	"encoding/json"
	"fmt"
)

// An Observation is one tool output in a message list: what the
// environment told the agent, as opposed to what the agent or its user
// wrote.
type Observation struct {
	Message int    // index of the message holding it
	ID      string // the tool call it answers; empty in the text form
	Text    string
}

// Observations returns the tool outputs of msgs in order. When msgs has
// tool calls or tool results, the observations are the tool results:
// OpenAI tool (and function) messages, Anthropic tool_result blocks (a
// user message may hold several). When it has neither, the agent ran its
// tools through text (SWE-agent's text form, SWE-smith): the observations
// are then the user messages that follow an assistant message, and the
// user messages before the first assistant message are the task.
func Observations(dialect string, msgs []json.RawMessage) ([]Observation, error) {
	parsed := make([]Message, len(msgs))
	toolForm := false
	for i, raw := range msgs {
		m, err := ParseMessage(dialect, raw)
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		parsed[i] = m
		toolForm = toolForm || len(m.Calls) > 0 || len(m.Results) > 0
	}
	var obs []Observation
	seenAssistant := false
	for i, m := range parsed {
		switch {
		case toolForm:
			for _, r := range m.Results {
				obs = append(obs, Observation{Message: i, ID: r.ID, Text: r.Text})
			}
		case m.Role == "assistant":
			seenAssistant = true
		case m.Role == "user" && seenAssistant:
			obs = append(obs, Observation{Message: i, Text: m.Text})
		}
	}
	return obs, nil
}

// Observations returns the tool outputs of t's messages; see the
// function Observations.
func (t *Trajectory) Observations() ([]Observation, error) {
	return Observations(t.Dialect, t.Messages)
}
