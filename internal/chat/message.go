package chat

// A Role is the author of a message, as the wire names it.
type Role string

// The roles of both APIs. Anthropic uses user and assistant (its system
// prompt is Conversation.System); OpenAI uses all of them.
const (
	RoleSystem    Role = "system"
	RoleDeveloper Role = "developer" // OpenAI's system role for reasoning models
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"     // OpenAI: one tool result
	RoleFunction  Role = "function" // OpenAI, legacy: one function result
)

// A Message is one entry of a conversation.
//
// Anthropic messages map one to one: Parts are the content blocks, and a
// string content is one Text part. OpenAI messages are normalised so that
// passes see one shape for both APIs: an assistant's reasoning field
// (reasoning_content or reasoning) is a leading Thinking part, its content
// parts follow, then one ToolCall per tool_calls entry (or for a legacy
// function_call); a tool or function message is a single ToolResult part
// whose Content is the message content.
type Message struct {
	Role  Role
	Parts []Part

	orig *msgOrigin
}

// TextLen returns the summed TextLen of m's parts.
func (m *Message) TextLen() int {
	n := 0
	for i := range m.Parts {
		n += m.Parts[i].TextLen()
	}
	return n
}

// Has reports whether m has a part of type t.
func (m *Message) Has(t PartType) bool {
	for i := range m.Parts {
		if m.Parts[i].Type == t {
			return true
		}
	}
	return false
}
