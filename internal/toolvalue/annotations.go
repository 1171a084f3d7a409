package toolvalue

import "github.com/modelcontextprotocol/go-sdk/mcp"

// OriginAnnotations is the Origin of the rules [FromAnnotations] makes.
const OriginAnnotations = "annotations"

// FromAnnotations returns the provider layer of one tool: the side effect its MCP tool
// annotations declare, as a rule for exactly that name. The hints are read with the
// defaults the MCP specification gives an absent one (readOnlyHint false, destructiveHint
// true, openWorldHint true):
//
//	readOnlyHint                      read_only
//	otherwise, openWorldHint          mutates_external (an issue, a message, a web page)
//	otherwise                         mutates_local (a closed domain: files, a memory store)
//
// destructiveHint and idempotentHint qualify a mutation (overwrite or add; repeatable or
// not) but do not make it safe to run ahead, so they do not change the class. A tool with
// annotations but no hints (a title only) is therefore mutates_external, as the
// specification says a client must assume. A tool without annotations gets an empty layer:
// it stays indeterminate unless a built-in rule describes it.
func FromAnnotations(tool string, a *mcp.ToolAnnotations) Layer {
	if a == nil {
		return nil
	}
	se := MutatesExternal
	switch {
	case a.ReadOnlyHint:
		se = ReadOnly
	case a.OpenWorldHint != nil && !*a.OpenWorldHint:
		se = MutatesLocal
	}
	return Layer{{Pattern: tool, Origin: OriginAnnotations, Spec: Spec{SideEffect: &se}}}
}
