package shape

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// targetSaving is the target: winnow's encoding of an array of
// objects has at least this share fewer tokens than compact JSON.
const targetSaving = 0.25

// A Report is the result of a run.
type Report struct {
	// Tokens names the counter, e.g. "o200k_base (exact)".
	Tokens string `json:"tokens"`
	// Toon names the TOON package and node that ran it, or says why TOON
	// is not available.
	Toon string `json:"toon"`
	// Docs are the documents in the order measured.
	Docs []Doc `json:"docs"`
	// Arrays sums the documents that are arrays of objects (or wrappers
	// of one), the shape the target is set for.
	Arrays Totals `json:"arrays_of_objects"`
}

// A Doc holds the measurements of one document. Token counts are zero
// for formats that do not apply (compact JSON of a text that is not
// JSON).
type Doc struct {
	Name    string `json:"name"`
	Shape   string `json:"shape"`
	Bytes   int    `json:"bytes"`
	Pretty  int    `json:"pretty"`  // tokens as sent
	Compact int    `json:"compact"` // tokens of compact JSON
	Winnow  int    `json:"winnow"`  // tokens of winnow's encoding
	Encoder string `json:"encoder"` // winnow's encoder, "" when it kept the text
	// RoundTrip is "exact" when winnow's encoding decodes to the same
	// JSON, "kept" when winnow kept the text, else what went wrong.
	RoundTrip string `json:"round_trip"`
	// Toon is the token count of TOON's encoding; nil without TOON.
	Toon *int `json:"toon,omitempty"`
	// ToonRoundTrip is "exact", "js" (equal as JavaScript reads the
	// JSON), "differs" or "failed: …"; empty without TOON.
	ToonRoundTrip string `json:"toon_round_trip,omitempty"`
}

// Ratio returns n over d's compact JSON tokens, or 0 without them.
func (d *Doc) Ratio(n int) float64 {
	if d.Compact == 0 {
		return 0
	}
	return float64(n) / float64(d.Compact)
}

// Totals sums token counts over documents.
type Totals struct {
	Docs    int `json:"docs"`
	Compact int `json:"compact"`
	Winnow  int `json:"winnow"`
	// Toon sums TOON's counts over the documents TOON encoded; ToonCompact
	// sums compact JSON over the same documents.
	Toon        int `json:"toon,omitempty"`
	ToonCompact int `json:"toon_compact,omitempty"`
	// Exact counts the documents whose round trip was exact.
	Exact int `json:"exact"`
	// Saving is 1 - Winnow/Compact over the sums, so large documents
	// weigh more; MeetsTarget says whether it reaches the target and every
	// round trip was exact.
	Saving      float64 `json:"saving"`
	MeetsTarget bool    `json:"meets_target"`
	// MeanSaving averages 1 - Winnow/Compact over the documents, each
	// weighing the same; MinSaving is the smallest, and Below lists the
	// documents under the target.
	MeanSaving float64  `json:"mean_saving"`
	MinSaving  float64  `json:"min_saving"`
	Below      []string `json:"below_target"`
}

func (r *Report) summarize() {
	t := &r.Arrays
	for i := range r.Docs {
		d := &r.Docs[i]
		if !isArrayOfObjects(d) {
			continue
		}
		saving := 1 - d.Ratio(d.Winnow)
		if t.Docs == 0 || saving < t.MinSaving {
			t.MinSaving = saving
		}
		if saving < targetSaving {
			t.Below = append(t.Below, d.Name)
		}
		t.MeanSaving += saving
		t.Docs++
		t.Compact += d.Compact
		t.Winnow += d.Winnow
		if d.RoundTrip == "exact" {
			t.Exact++
		}
		if d.Toon != nil {
			t.Toon += *d.Toon
			t.ToonCompact += d.Compact
		}
	}
	if t.Compact > 0 {
		t.Saving = 1 - float64(t.Winnow)/float64(t.Compact)
		t.MeanSaving /= float64(t.Docs)
	}
	t.MeetsTarget = t.Docs > 0 && t.Saving >= targetSaving && t.Exact == t.Docs
}

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the report as an aligned table with the totals and the
// target below it.
func (r *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "tokens  %s\ntoon    %s\n\n", r.Tokens, r.Toon)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "document\tshape\tbytes\tpretty\tcompact\twinnow\tencoder\twinnow/compact\ttoon\ttoon/compact\tround trip\ttoon round trip\t\n")
	for i := range r.Docs {
		d := &r.Docs[i]
		toon, toonRatio := "-", "-"
		if d.Toon != nil {
			toon, toonRatio = fmt.Sprint(*d.Toon), ratio(d.Ratio(*d.Toon))
		}
		enc := d.Encoder
		if enc == "" {
			enc = "(kept)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n",
			d.Name, d.Shape, d.Bytes, d.Pretty, orDash(d.Compact), d.Winnow, enc, ratio(d.Ratio(d.Winnow)),
			toon, toonRatio, d.RoundTrip, orDash(d.ToonRoundTrip))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	t := r.Arrays
	if t.Docs == 0 {
		fmt.Fprintln(w, "\nno arrays of objects measured")
		return nil
	}
	verdict := "target met"
	if !t.MeetsTarget {
		verdict = "target NOT met"
	}
	fmt.Fprintf(w, "\narrays of objects, %d documents: compact %d tokens, winnow %d: %s (target ≥ %.0f%% fewer), round trips exact %d/%d: %s\n",
		t.Docs, t.Compact, t.Winnow, fewer(t.Winnow, t.Compact), 100*targetSaving, t.Exact, t.Docs, verdict)
	fmt.Fprintf(w, "per document: mean %.1f%% fewer, least %.1f%%", 100*t.MeanSaving, 100*t.MinSaving)
	if len(t.Below) > 0 {
		fmt.Fprintf(w, "; under the target: %s", strings.Join(t.Below, ", "))
	}
	fmt.Fprintln(w)
	if t.ToonCompact > 0 {
		fmt.Fprintf(w, "toon on the same documents: %d tokens for compact %d: %s\n", t.Toon, t.ToonCompact, fewer(t.Toon, t.ToonCompact))
	}
	return nil
}

// fewer says how n compares with base: "28.3% fewer" or "13.0% more".
func fewer(n, base int) string {
	d := 100 * (1 - float64(n)/float64(base))
	if d < 0 {
		return fmt.Sprintf("%.1f%% more", -d)
	}
	return fmt.Sprintf("%.1f%% fewer", d)
}

func ratio(x float64) string {
	if x == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", x)
}

func orDash[T comparable](v T) string {
	var zero T
	if v == zero {
		return "-"
	}
	return fmt.Sprint(v)
}
