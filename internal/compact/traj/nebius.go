package traj

import (
	"encoding/json"
	"errors"
	"fmt"
)

// parseNebius reads an ADP record of nebius/SWE-agent-trajectories:
// trajectory[] of {role, text, system_prompt}, where role is system, user
// or ai and the system message keeps its prompt in system_prompt. It
// becomes OpenAI text messages (the runs are Llama models served behind
// OpenAI-compatible APIs).
func parseNebius(rec map[string]json.RawMessage) (Trajectory, error) {
	var steps []struct {
		Role         string  `json:"role"`
		Text         *string `json:"text"`
		SystemPrompt *string `json:"system_prompt"`
	}
	if err := json.Unmarshal(rec["trajectory"], &steps); err != nil {
		return Trajectory{}, fmt.Errorf("trajectory: want an array of steps: %w", err)
	}
	if len(steps) == 0 {
		return Trajectory{}, errors.New("trajectory: no steps")
	}
	msgs := make([]json.RawMessage, len(steps))
	for i, s := range steps {
		text := deref(s.Text)
		var role string
		switch s.Role {
		case "system":
			role = "system"
			if text == "" {
				text = deref(s.SystemPrompt)
			}
		case "user":
			role = "user"
		case "ai", "assistant":
			role = "assistant"
		default:
			return Trajectory{}, fmt.Errorf("trajectory[%d]: role %q: want system, user or ai", i, s.Role)
		}
		if s.Text == nil && s.SystemPrompt == nil {
			return Trajectory{}, fmt.Errorf("trajectory[%d]: no text", i)
		}
		m, err := marshal(openAIOut{Role: role, Content: text})
		if err != nil {
			return Trajectory{}, fmt.Errorf("trajectory[%d]: %w", i, err)
		}
		msgs[i] = m
	}
	t := Trajectory{Format: FormatNebius, Dialect: OpenAI, Model: firstString(rec, "model_name", "model"), Messages: msgs}
	if err := t.Validate(); err != nil {
		return Trajectory{}, err
	}
	return t, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
