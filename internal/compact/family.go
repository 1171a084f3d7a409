package compact

import (
	"encoding/json"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/modelid"
)

// A Family is how an Anthropic model treats the thinking blocks a request
// sends back, which decides what compaction may change around them (see
// the package documentation, "Thinking"). The zero value, Preserved, is
// the strictest, and the one an unknown model gets.
type Family int

const (
	// Preserved models bind every thinking block to its prefix: the
	// system prompt, the tools and every message before it. Changing any
	// of it invalidates that block and every later one ("Preserved
	// thinking"; Claude Fable 5.1 and later, Opus 5.5, Sonnet 5.5,
	// Haiku 5.5, Mythos 5.1 and later).
	Preserved Family = iota
	// LastTurn models strip the thinking of earlier turns themselves and
	// check only the latest assistant message's blocks (Claude 3.7, the
	// Claude 4 models before Opus 4.5 and Sonnet 4.6, Haiku 4.5).
	LastTurn
	// KeepAll models keep earlier turns' thinking in context but run no
	// prefix check: only the latest assistant message's blocks must come
	// back unmodified during a tool loop (Opus 4.5 to 4.8, Opus 5, Sonnet
	// 4.6, Sonnet 5, Fable 5, Mythos 5, Mythos Preview).
	KeepAll
)

func (f Family) String() string {
	switch f {
	case LastTurn:
		return "last-turn"
	case KeepAll:
		return "keep-all"
	}
	return "preserved"
}

// families maps normalised model ids (see modelid.Normalize) to their
// family; every other id is Preserved. Sources: the model lists of
// "Thinking block preservation by model",
// https://platform.claude.com/docs/en/build-with-claude/thinking, and the
// supported models of
// https://platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks.
var families = map[string]Family{
	"claude-3-7-sonnet": LastTurn,
	"claude-sonnet-4":   LastTurn,
	"claude-opus-4":     LastTurn,
	"claude-opus-4-1":   LastTurn,
	"claude-sonnet-4-5": LastTurn,
	"claude-haiku-4-5":  LastTurn,

	"claude-opus-4-5":       KeepAll,
	"claude-opus-4-6":       KeepAll,
	"claude-opus-4-7":       KeepAll,
	"claude-opus-4-8":       KeepAll,
	"claude-opus-5":         KeepAll,
	"claude-sonnet-4-6":     KeepAll,
	"claude-sonnet-5":       KeepAll,
	"claude-fable-5":        KeepAll,
	"claude-mythos-5":       KeepAll,
	"claude-mythos-preview": KeepAll,
}

// ModelFamily returns the Family of an Anthropic model id, as the
// Anthropic API, Bedrock ("us.anthropic.claude-opus-4-5-20251101-v1:0")
// or Vertex ("claude-haiku-4-5@20251001") spell it. An id it does not know
// is Preserved: treating a model as stricter than it is costs savings,
// the other way costs a failed request.
func ModelFamily(model string) Family {
	if f, ok := families[modelid.Normalize(model)]; ok {
		return f
	}
	return Preserved
}

// conversationFamily returns the Family of c's model; OpenAI dialects
// have no thinking rules and get KeepAll, which constrains nothing
// beyond the rules every dialect keeps.
func conversationFamily(c *chat.Conversation) Family {
	if c.Dialect != chat.Anthropic {
		return KeepAll
	}
	raw, ok := c.Field("model")
	if !ok {
		return Preserved
	}
	var model string
	if json.Unmarshal(raw, &model) != nil {
		return Preserved
	}
	return ModelFamily(model)
}
