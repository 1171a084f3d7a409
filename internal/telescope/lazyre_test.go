package telescope

import (
	"regexp"
	"testing"
)

// TestLazyPatternsCompile compiles every pattern of the package, which
// would otherwise first compile, and so panic on a bad expression, in
// the middle of a build.
func TestLazyPatternsCompile(t *testing.T) {
	patterns := []*lazyRegexp{
		severityLabel, severityTag, severityLead, findingIDs, findingWord, fileLocation, markerComment,
		atxHeading, adocHead, orgHead, rstRule, setextRule, idPattern, keyComment,
	}
	for _, c := range siteCategories {
		patterns = append(patterns, c.re)
	}
	for _, p := range patterns {
		if _, err := regexp.Compile(p.expr); err != nil {
			t.Errorf("%q: %v", p.expr, err)
			continue
		}
		if p.re().String() != p.expr {
			t.Errorf("%q compiled as %q", p.expr, p.re().String())
		}
	}
}
