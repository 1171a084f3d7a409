/*
Package trimtree chooses which items of one tool response to keep when the
response, already deduplicated and re-encoded, still exceeds the token
budget of a call: the items worth the most to the agent, within the budget,
in the order the tool returned them.

It does not write the line that tells the agent what was left out and how
to get it (the gateway appends it, knowing the call; Trim leaves
HintReserve tokens for it and reports Kept, Total, Path, Format and the
items' byte ranges, Items), does
not re-encode or deduplicate (packages shape and gateway), and does not cut
inside an item: an item is kept whole or not at all.

# The list

Trim looks for one list per response (list.go, jsonlist.go). A JSON
document whose top level is an array is that list. A top-level object is a
wrapper ({"total_count": 300, "items": [...]}, or GraphQL's
{"data": {"search": {"nodes": [...]}}}): its main list is its largest array,
in bytes, among those reached through object fields alone (at most
maxWrapperDepth deep) whose elements are all objects or arrays, or failing
those its largest array of scalars; the other fields of the wrapper are
kept as they are. Result.Path names the array. Text that is not JSON (logs,
ls or grep output, JSON Lines, malformed JSON) is a list of lines. Valid
JSON with no array has no list, and neither has a single line: both are
returned unchanged.

The document is checked and its structure found in one pass (jsonscan.go)
that accepts exactly what encoding/json's Valid accepts, in under a third
of the time, without decoding any value. Items are byte ranges of the
input: a trimmed text is the input with some items and the separators
before them cut out, so whitespace, key order and number spelling survive,
and a JSON input gives valid JSON.

# Value

An item is worth the signal terms it contains (value.go). The words of the
call's arguments (Signals.Args, weight 2) and of the session's recent
calls (Signals.Recent, weight 1) are split into identifier parts,
lower-cased and lightly stemmed by package terms, and so are the words of
each item (a JSON escape such as \n ends a word). A term counts once per
item, times its inverse document frequency among the items, ln(n/df):
a term that every item contains, such as a key name or the state a list
was filtered by, weighs nothing, and one that a single item of 300
contains weighs 5.7. Values are divided by the sum of the weights, so
they lie in [0, 1].

When the values are flat (no signals, no item matches, or every item
scores the same) nothing tells the items apart, and Trim keeps a prefix:
the first items in source order while they fit, the order in which the
tool ranked them (StrategyOrder). Source order is a strong prior: in 85
real gold-selection events from MCP list tools (devboy-tools'
gold_selection_real.csv), the item the agent went on to use was the first
of the list in 62% of events and among the first five in 85%.

# Cost and selection

The cost of an item is its tokens in the output: the item with the
separator before it, counted once (list.segment). The wrapper around the
list and HintReserve come off the budget first. Items that alone cost more
than what is left are never kept.

The choice is a 0/1 knapsack over the items that have value (choose.go,
knapsack.go). Up to maxDPItems of them, a dynamic program finds the subset
of largest total value exactly, on a table of at most maxDPWidth units of
capacity: above maxDPWidth tokens a unit is several tokens and costs are
rounded up, so the answer always fits and loses at most a unit per item
to rounding (StrategyDP). With more items with value, they are taken by
value per token, or the single most valuable item alone when that is worth
more, which bounds the loss to half of the optimum (StrategyGreedy). What
room is left is filled with the remaining items with value by value per
token, then with the items without value in source order, so the budget
is not left unused. Kept items stay in source order.

# Verification

Token counts are not quite additive: where two pieces of text meet, the
tokenizer may merge across the join. Trim therefore counts the trimmed
text as a whole; while it is over budget-HintReserve it drops the kept
items of least value per token (for a prefix, the last ones) worth at
least the excess, and counts again. Kept is empty, and the text returned
unchanged, when no item fits by its own count, or in the rare case that
the joins push the last item left over the limit.

Trim counts the whole input once (Result.Before, and whether it fits at
all), each item once, the wrapper once and the result once per round. With
an exact BPE counter, counting is nearly all of the time Trim takes; see
BenchmarkTrim.
*/
package trimtree
