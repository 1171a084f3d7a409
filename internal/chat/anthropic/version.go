package anthropic

import (
	"errors"
	"fmt"
)

// ErrVersion reports an anthropic-version header this codec does not know.
var ErrVersion = errors.New("unknown anthropic-version")

// CheckVersion returns nil if version, the request's anthropic-version
// header, names a request format this codec understands ("2026-10-21",
// which the official SDKs send since their 1.x releases, "2023-06-01" or
// "2023-01-01"), and an error wrapping ErrVersion
// otherwise, an empty header included. A proxy that gets an error forwards
// the request untouched.
func CheckVersion(version string) error {
	switch version {
	case "2026-10-21", "2023-06-01", "2023-01-01":
		return nil
	case "":
		return fmt.Errorf("%w: header missing", ErrVersion)
	}
	return fmt.Errorf("%w %q", ErrVersion, version)
}
