package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// short formats a count for a chart: 950, 12.3k, 4.56M, 1.2B.
func short(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e9:
		return trimZeros(strconv.FormatFloat(v/1e9, 'f', 2, 64)) + "B"
	case a >= 1e6:
		return trimZeros(strconv.FormatFloat(v/1e6, 'f', 2, 64)) + "M"
	case a >= 1e3:
		return trimZeros(strconv.FormatFloat(v/1e3, 'f', 1, 64)) + "k"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// trimZeros drops the trailing zeros of a decimal fraction: "1.50" → "1.5",
// "2.00" → "2".
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

// thousands formats n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	if neg {
		out = append(out, '-')
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// usd formats dollars with the precision their size calls for: $1,234,
// $12.34, $0.27, and below a cent $0.0012.
func usd(x float64) string {
	a := math.Abs(x)
	switch {
	case x == 0:
		return "$0"
	case a >= 1000:
		return "$" + thousands(int(math.Round(x)))
	case a >= 0.01:
		return fmt.Sprintf("$%.2f", x)
	case a >= 0.0001:
		return "$" + trimZeros(fmt.Sprintf("%.4f", x))
	}
	return fmt.Sprintf("$%.1g", x)
}

// axisUSD formats a dollar tick: the axis steps are round, so fewer digits.
func axisUSD(x float64) string {
	if x == 0 {
		return "$0"
	}
	return "$" + trimZeros(strconv.FormatFloat(x, 'f', max(0, 2-int(math.Floor(math.Log10(x)))), 64))
}

// percent formats a ratio as a percentage with at most one decimal.
func percent(r float64) string {
	return trimZeros(strconv.FormatFloat(100*r, 'f', 1, 64)) + "%"
}

// share formats part/whole as a percentage, "–" when whole is zero.
func share(part, whole int) string {
	if whole == 0 {
		return "–"
	}
	return percent(float64(part) / float64(whole))
}
