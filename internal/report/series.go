package report

import (
	"slices"
	"time"
)

// maxBuckets bounds the time series: a period of more units than this
// (months of decades, or a clock gone wrong) gets buckets of several units.
const maxBuckets = 240

// A unit is one width of bucket: how to find the start of the one holding
// a time, and the start of the next.
type unit struct {
	name  string
	floor func(time.Time) time.Time
	next  func(time.Time) time.Time
}

var (
	hourUnit = unit{"hour", func(t time.Time) time.Time {
		return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), 0, 0, 0, t.Location())
	}, func(t time.Time) time.Time { return t.Add(time.Hour) }}
	dayUnit = unit{"day", func(t time.Time) time.Time {
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
	}, func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }}
	weekUnit = unit{"week", func(t time.Time) time.Time { // weeks start on Monday
		d := dayUnit.floor(t)
		return d.AddDate(0, 0, -(int(d.Weekday())+6)%7)
	}, func(t time.Time) time.Time { return t.AddDate(0, 0, 7) }}
	monthUnit = unit{"month", func(t time.Time) time.Time {
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, t.Location())
	}, func(t time.Time) time.Time { return t.AddDate(0, 1, 0) }}
)

// unitFor picks the bucket width for a period of length span: hours up to
// two days (a day of use reads as its hours), days up to about six months,
// weeks up to four years, months beyond.
func unitFor(span time.Duration) unit {
	const day = 24 * time.Hour
	switch {
	case span <= 2*day:
		return hourUnit
	case span <= 183*day:
		return dayUnit
	case span <= 4*366*day:
		return weekUnit
	}
	return monthUnit
}

// series rolls the hourly buckets up into the buckets of the period from
// from to to, in loc: every bucket of the period in order, empty ones
// included. Hourly series cover whole days. It returns the unit's name and
// the units per bucket; nothing when the period is empty.
func series(hours map[int64]*Bucket, from, to time.Time, loc *time.Location) (string, int, []Bucket) {
	if from.IsZero() || to.Before(from) {
		return "", 0, nil
	}
	u := unitFor(to.Sub(from))
	from, to = from.In(loc), to.In(loc)
	start, end := u.floor(from), u.next(u.floor(to))
	if u.name == hourUnit.name {
		start, end = dayUnit.floor(from), dayUnit.next(dayUnit.floor(to))
	}
	var starts []time.Time
	for t := start; t.Before(end); t = u.next(t) {
		starts = append(starts, t)
	}
	every := (len(starts) + maxBuckets - 1) / maxBuckets
	out := make([]Bucket, 0, (len(starts)+every-1)/every)
	for i := 0; i < len(starts); i += every {
		out = append(out, Bucket{Start: starts[i]})
	}
	for _, h := range hours {
		i, found := slices.BinarySearchFunc(starts, h.Start, func(s, t time.Time) int { return s.Compare(t) })
		if !found {
			i--
		}
		if i < 0 || i >= len(starts) {
			continue // outside the period: every counted hour is inside it
		}
		out[i/every].add(*h)
	}
	return u.name, every, out
}
