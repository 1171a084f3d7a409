package retrieve

import (
	"strings"
	"testing"
)

func TestDropEnvironmentDump(t *testing.T) {
	tests := []struct {
		name  string
		block string
		drop  bool
	}{
		{"requests.help", "```json\n{\n  \"chardet\": {\n    \"version\": null\n  },\n  \"idna\": {\n    \"version\": \"3.3\"\n  },\n" +
			"  \"urllib3\": {\n    \"version\": \"1.26.7\"\n  },\n  \"implementation\": {\n    \"name\": \"CPython\",\n    \"version\": \"3.8.12\"\n  }\n}\n```", true},
		{"packages", "```\nnumpy version 1.21\nscipy version 1.7\nmatplotlib version 3.4\n```", true},
		{"a session about versions", "```\n>>> from astropy.utils import minversion\n>>> minversion('numpy', '1.14dev')\nTypeError\n" +
			"version one\nversion two\nversion three\n```", false},
		{"code", "```python\nv = parse_version(x)\nversion = 1\nversion = 2\nversion = 3\n```", false},
		{"few", "```\nversion: 3\nsomething else\nmore\nand more\nand more\n```", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.TrimSpace(dropEnvironmentDump(tt.block)) == ""
			if got != tt.drop {
				t.Errorf("dropEnvironmentDump dropped %v, want %v", got, tt.drop)
			}
		})
	}
}
