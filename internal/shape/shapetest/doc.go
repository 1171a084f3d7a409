// Package shapetest provides JSON documents shaped like the responses of
// GitHub and GitLab tool servers, for the tests and benchmarks of package
// shape and for `winnow bench shape`: the devboy fixtures (real responses
// of an MCP server for GitHub and GitLab, embedded) and a deterministic
// generator of larger arrays of issues, pull requests and pipelines.
//
// It does not encode or check anything itself.
package shapetest
