package intent

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Weights of where a cue stands, and of the cues that are not phrases.
const (
	titleBoost     = 3.0  // the title states the task; the body mostly gives context
	bodyDecayBytes = 4096 // a body cue at offset d into the body counts 1/(1+d/bodyDecayBytes): half at 4 KB, a fifth at 16 KB

	errorTypeWeight = cueMedium // an exception type named in prose ("raises KeyError"): BugFix
	questionLean    = cueWeak   // a title that asks a question leans Definition, and half as much Usage

	// scoreTrace is what a stack trace adds to BugFix: the weight of four
	// strong cues in a title, more than any real text gives another kind,
	// so a trace decides the kind.
	scoreTrace = 4 * titleBoost * cueStrong
)

// Confidence.
const (
	// confidencePrior damps the confidence of thin evidence: confidence is
	// margin/(best+confidencePrior), so one strong cue in a body alone gives
	// 0.5, the same cue in the title 0.75, one weak cue in a body 0.2.
	confidencePrior = cueStrong
	// traceConfidence is the least confidence of a text with a stack trace.
	traceConfidence = 0.9
)

// maxSignals bounds Result.Signals.
const maxSignals = 12

// Result is what Detect found in a task text.
type Result struct {
	// Kind is the kind with the highest score; BugFix whenever the text
	// holds a stack trace; Definition when nothing scored.
	Kind Kind `json:"kind"`
	// Confidence is in [0, 1]: 0 when nothing scored or the two best kinds
	// tie, approaching 1 as the margin grows (see the package docs).
	Confidence float64 `json:"confidence"`
	// Scores is each kind's score, indexed by Kind.
	Scores [NumKinds]float64 `json:"scores"`
	// Profile is the budget profile to pack context by: Kind's profile,
	// mixed with the runner-up's in proportion to their scores, so that an
	// ambiguous text ("fix the failing test") gets some of both.
	Profile Profile `json:"profile"`
	// Frames are the stack frames in the text, most relevant first (see
	// the package docs); nil when there are none.
	Frames []Frame `json:"frames,omitempty"`
	// Signals explain the scores, largest contribution first, at most
	// maxSignals: `bug_fix +12.0: "crash*" in title`.
	Signals []string `json:"signals,omitempty"`
}

// A contribution is one reason for a score.
type contribution struct {
	kind   Kind
	points float64
	reason string // a cue phrase, or a description when phrase is false
	phrase bool
	title  bool
}

func (c contribution) String() string {
	reason := c.reason
	if c.phrase {
		where := " in body"
		if c.title {
			where = " in title"
		}
		reason = strconv.Quote(c.reason) + where
	}
	return c.kind.String() + " +" + strconv.FormatFloat(c.points, 'f', 1, 64) + ": " + reason
}

// Detect classifies a task text (an issue, a chat request, a pasted
// traceback) and extracts its stack frames. It reads at most the first
// 256 KB for frames and the first 16 KB for cues, in time linear in what
// it reads, and never fails: an empty text is a Definition with
// confidence 0.
func Detect(text string) Result {
	tr := parseTrace(head(text, frameScanBytes))
	pr := scanProse(head(text, cueScanBytes), tr.lines)

	contribs := cueContributions(pr)
	if pr.question {
		contribs = append(contribs,
			contribution{kind: Definition, points: questionLean, reason: "question"},
			contribution{kind: Usage, points: questionLean / 2, reason: "question"})
	}
	if tr.seen {
		reason := "stack trace without frames"
		switch n := len(tr.frames); {
		case n == 1:
			reason = "stack trace, 1 frame"
		case n > 1:
			reason = "stack trace, " + strconv.Itoa(n) + " frames"
		}
		contribs = append(contribs, contribution{kind: BugFix, points: scoreTrace, reason: reason})
	}

	// Sorted before summing, so that float addition always runs in the
	// same order and equal texts give bit-equal scores.
	sortContributions(contribs)
	var r Result
	for _, c := range contribs {
		r.Scores[c.kind] += c.points
	}
	best, second := topTwo(r.Scores)
	r.Kind = best
	if s1 := r.Scores[best]; s1 > 0 {
		r.Confidence = (s1 - r.Scores[second]) / (s1 + confidencePrior)
	}
	if tr.seen && best != BugFix {
		r.Kind, second = BugFix, best
	}
	if tr.seen {
		r.Confidence = max(r.Confidence, traceConfidence)
	}
	r.Confidence = min(max(r.Confidence, 0), 1)
	r.Profile = ProfileFor(r.Kind)
	if s1, s2 := r.Scores[r.Kind], r.Scores[second]; s2 > 0 && second != r.Kind {
		// At most half: a trace makes BugFix the kind even when prose
		// scored another kind higher.
		r.Profile = mix(r.Profile, ProfileFor(second), min(s2/(s1+s2), 0.5))
	}
	r.Frames = tr.frames
	r.Signals = signals(contribs)
	return r
}

// cueContributions scores the cues in pr: each cue counts once, at the
// weight of its best-placed occurrence.
func cueContributions(pr prose) []contribution {
	var out []contribution
	at := make(map[int]int) // index in out, by cue index; errTypeCue for exception types
	const errTypeCue = -1
	record := func(ci int, c contribution) {
		if i, ok := at[ci]; !ok {
			at[ci] = len(out)
			out = append(out, c)
		} else if c.points > out[i].points {
			c.reason = out[i].reason
			out[i] = c
		}
	}
	for i := 0; i < len(pr.toks); {
		t := &pr.toks[i]
		place := placeWeight(t, pr.bodyStart)
		if t.errType {
			record(errTypeCue, contribution{kind: BugFix, points: errorTypeWeight * place, title: t.title,
				reason: "exception type " + pr.raw(i)})
		}
		ci, end := cues.match(&pr, i)
		if ci < 0 {
			i++
			continue
		}
		if c := &cues.cues[ci]; c.kind != noKind {
			record(ci, contribution{kind: c.kind, points: c.weight * place, title: t.title, reason: c.phrase, phrase: true})
		}
		i = end
	}
	return out
}

// placeWeight is the weight of a token's position: titleBoost in the
// title, decaying with the distance into the body.
func placeWeight(t *token, bodyStart int) float64 {
	if t.title {
		return titleBoost
	}
	return 1 / (1 + float64(max(int(t.pos)-bodyStart, 0))/bodyDecayBytes)
}

// topTwo returns the kinds with the highest and second-highest scores;
// ties go to the kind declared first.
func topTwo(scores [NumKinds]float64) (best, second Kind) {
	best, second = Definition, Usage
	if scores[second] > scores[best] {
		best, second = second, best
	}
	for k := Kind(2); k < NumKinds; k++ {
		switch {
		case scores[k] > scores[best]:
			best, second = k, best
		case scores[k] > scores[second]:
			second = k
		}
	}
	return best, second
}

// sortContributions sorts the largest first; equal ones in kind order,
// then alphabetically.
func sortContributions(cs []contribution) {
	slices.SortFunc(cs, func(a, b contribution) int {
		return cmp.Or(cmp.Compare(b.points, a.points), cmp.Compare(a.kind, b.kind), strings.Compare(a.reason, b.reason))
	})
}

// signals formats the first maxSignals of sorted contributions.
func signals(cs []contribution) []string {
	var out []string
	for _, c := range cs[:min(len(cs), maxSignals)] {
		out = append(out, c.String())
	}
	return out
}

// head returns the first n bytes of text, cut back to the last line break
// within them, or if a line is longer than half of n, to a character
// boundary.
func head(text string, n int) string {
	if len(text) <= n {
		return text
	}
	if i := strings.LastIndexByte(text[:n], '\n'); i >= n/2 {
		return text[:i+1]
	}
	for n > 0 && text[n]&0xC0 == 0x80 {
		n--
	}
	return text[:n]
}
