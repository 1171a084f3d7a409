package pipeline

// Default returns the standard pipeline, its stages in order:
//
//  1. Invalidate (before dispatch): a mutating call drops the cached
//     results it makes stale.
//  2. Dedup: a repeated result becomes a one-line reference; a near
//     repeat of a JSON result becomes its changes.
//  3. Encode: lossless re-encoding into a shorter form.
//  4. Trim: a result over the call budget is cut to its most relevant
//     items, the rest served by winnow__more.
func Default(opts Options) *Pipeline {
	return New(opts,
		Invalidate{},
		Dedup{},
		Encode{},
		Trim{},
	)
}
