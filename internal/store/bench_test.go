package store

import (
	"crypto/rand"
	"fmt"
	"testing"
)

// BenchmarkStore puts and gets 1 KB values on each backend, side by side: compare the
// sqlite and redis lines of one run.
func BenchmarkStore(b *testing.B) {
	value := make([]byte, 1024)
	rand.Read(value)
	const keys = 1024
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			e := be.setup(b)
			s := e.open(b, nil)
			ctx := b.Context()
			for i := range keys {
				if err := s.Put(ctx, fmt.Sprintf("bench/%d", i), value, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.Run("get-1KB", func(b *testing.B) {
				b.SetBytes(int64(len(value)))
				i := 0
				for b.Loop() {
					if _, ok, err := s.Get(ctx, fmt.Sprintf("bench/%d", i%keys)); !ok || err != nil {
						b.Fatalf("get: %v %v", ok, err)
					}
					i++
				}
			})
			b.Run("put-1KB", func(b *testing.B) {
				b.SetBytes(int64(len(value)))
				i := 0
				for b.Loop() {
					if err := s.Put(ctx, fmt.Sprintf("bench/%d", i%keys), value, 0); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		})
	}
}
