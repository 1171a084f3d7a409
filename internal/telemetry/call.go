package telemetry

import "time"

// A Call is what a [Writer] is given for one tool result. Unlike an [Event]
// it carries raw text, so that tokens can be counted off the request path;
// the Writer turns it into an Event and keeps none of the text.
type Call struct {
	Time    time.Time
	Session string // raw session id, hashed by the Writer
	Tool    string
	Args    []byte // raw arguments, hashed by the Writer
	Shape   string
	Error   bool
	Dedup   bool
	Latency time.Duration
	// Upstream holds the text contents the upstream returned; Delivered the
	// text contents the agent received.
	Upstream, Delivered []string
	// Steps holds, in order, each change a layer made to one text content.
	Steps []Step
}

// A Step is one layer's change to one text content: the text before and
// after it.
type Step struct {
	Layer         string
	Before, After string
}
