package config_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/winnowhq/winnow/internal/config"
)

// Layering is Parse applied in order over the defaults; Load does the same with the user file
// and the repository file, leaving out of the repository file the settings only the user may
// make. Flags come last: the CLI assigns the ones the user set and validates again.
func ExampleParse() {
	c := config.Default()
	layers := []struct{ name, doc string }{
		{"config.toml", "[index]\nlocation = \"cache\"\nworkers = 4\nexclude = [\"*.min.js\"]\n"},
		{".winnow.toml", "[index]\nexclude = [\"testdata/\"]\n"},
	}
	for _, l := range layers {
		warns, err := config.Parse(strings.NewReader(l.doc), l.name, c)
		if err != nil {
			log.Fatal(err)
		}
		for _, w := range warns {
			fmt.Println(w)
		}
	}

	workersFlag, workersSet := 2, true // as parsed by the CLI
	if workersSet {
		c.Index.Workers = workersFlag
	}
	if err := c.Validate(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Index.Location, c.Index.Workers, c.Index.Exclude, c.Tokens.Encoding)
	// Output: cache 2 [testdata/] o200k_base
}

func ExampleConfig_WriteTOML() {
	var b strings.Builder
	if err := config.Default().WriteTOML(&b); err != nil {
		log.Fatal(err)
	}
	fmt.Print(b.String())
	// Output:
	// version = 1
	//
	// [index]
	// location = "repo"
	// cache_dir = ""
	// max_file_bytes = 1048576
	// exclude = []
	// languages = []
	// workers = 0
	// include_vendored = false
	// include_generated = false
	//
	// [tokens]
	// encoding = "o200k_base"
	//
	// [proxy]
	// listen = "127.0.0.1:8787"
	// anthropic_upstream = "https://api.anthropic.com"
	// openai_upstream = "https://api.openai.com"
	// max_body_bytes = 33554432
	// body_idle_timeout = "30s"
	// body_timeout = "2m0s"
	// server_edits = "auto"
	//
	// [gateway]
	// dedup_window = 5
	// min_dedup_chars = 200
	// call_budget = 4000
	// enrich = "prefetch"
	// turn_budget = 2000
	//
	// [telemetry]
	// enabled = false
	// path = ""
	//
	// [llm]
	// provider = ""
	// base_url = ""
	// api_key_env = ""
	// model = ""
	// concurrency = 0
	// rate = 0.0
	// max_retries = 0
	// timeout = "0s"
	//
	// [store]
	// url = ""
	// ttl = "30d"
}
