package report

import (
	"bytes"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/telemetry"
)

// BenchmarkBuildAndRender reads 100,000 events spanning a year (40% gateway
// tool results, 60% proxy requests) and renders the page, against its peer,
// `winnow stats`'s summary of the same file: the ratio of the two is what
// the page costs beyond reading the telemetry. It reports the page's size.
func BenchmarkBuildAndRender(b *testing.B) {
	path := synthFile(b, yearOfEvents)
	b.Run("stats", func(b *testing.B) {
		for b.Loop() {
			if _, err := telemetry.SummarizeFile(path, time.Time{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("report", func(b *testing.B) {
		var page bytes.Buffer
		for b.Loop() {
			r, err := BuildFile(path, nil)
			if err != nil {
				b.Fatal(err)
			}
			page.Reset()
			if err := Render(&page, r); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(page.Len()), "page-bytes")
	})
}
