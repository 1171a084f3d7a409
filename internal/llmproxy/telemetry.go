package llmproxy

import (
	"crypto/sha256"
	"net/http"

	"github.com/winnowhq/winnow/internal/telemetry"
)

// A Recorder receives what the proxy did with each rewritable request, once its response
// has ended. It must not block; *telemetry.Writer is one.
type Recorder interface {
	RecordExchange(telemetry.Exchange)
}

// ReasonEditsRefused is the reason telemetry gives for a rewritten request whose upstream
// refused its server-side edit, so that the client's body went instead.
const ReasonEditsRefused = "edits_refused"

// noteRequest reads the model and the conversation's opening from a request body for
// telemetry, keeping the model id and a digest of the opening, never the text.
func (ex *exchange) noteRequest(body []byte) {
	model, opening := requestFacts(body)
	ex.model = model
	if opening != nil {
		sum := sha256.Sum256(opening)
		ex.digest = sum[:]
	}
}

// tapUsage makes res's body a usageTap, if the response can carry usage.
func (ex *exchange) tapUsage(res *http.Response) {
	if t := newUsageTap(res, ex.dialect); t != nil {
		res.Body, ex.usage = t, t
	}
}

// record hands the Recorder what happened with r, which the client answered with status;
// nothing when r was not forwarded (its body could not be read).
func (p *Proxy) record(r *http.Request, status int, ex *exchange) {
	if ex.result == "" {
		return
	}
	ev := telemetry.ProxyEvent{
		Time:          ex.start,
		Dialect:       ex.dialect,
		Path:          r.URL.Path,
		Client:        ClientOf(r.Header.Get("User-Agent")),
		Model:         ex.model,
		Status:        status,
		Rewrite:       ex.result,
		Reason:        ex.reason,
		TokensBefore:  ex.tokensBefore,
		TokensAfter:   ex.tokensAfter,
		EditRequested: len(ex.beta) > 0,
	}
	if ex.result == RewriteChanged {
		for _, ps := range ex.passes {
			ev.Passes = append(ev.Passes, telemetry.PassTokens{Pass: ps.Pass, Changed: ps.Changed, Before: ps.Before, After: ps.After})
		}
	}
	if ex.editsRefused {
		ev.Rewrite, ev.Reason, ev.TokensAfter, ev.Passes = RewriteBypassed, ReasonEditsRefused, ev.TokensBefore, nil
	}
	ev.Usage, ev.ServerEdits = ex.usage.result()
	p.recorder.RecordExchange(telemetry.Exchange{ProxyEvent: ev, ConversationDigest: ex.digest})
}
