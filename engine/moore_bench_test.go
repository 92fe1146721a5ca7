package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkMooreLimit times Analyze and Choose for Moore's Nim_k at its
// published limit (Limits().MaxHeaps heaps of up to 2^39), won and lost:
// the figure that justifies the limit.
func BenchmarkMooreLimit(b *testing.B) {
	for k := 1; k <= maxMooreK; k++ {
		r := Rules{Variant: Moore, K: k}
		n := r.Limits().MaxHeaps
		rng := rand.New(rand.NewPCG(uint64(k), 9))
		won := make([]int64, n)
		for i := range won {
			won[i] = rng.Int64N(1 << 39)
		}
		// A lost position: k+1 copies of each value make every bit count 0 mod k+1.
		lost := make([]int64, n)
		for i := range lost {
			lost[i] = won[i/(k+1)]
		}
		if n%(k+1) != 0 {
			lost = lost[:n-n%(k+1)]
		}
		for _, c := range []struct {
			name  string
			heaps []int64
		}{{"won", won}, {"lost", lost}} {
			if len(c.heaps) == 0 {
				continue // fewer than k+1 heaps: no lost shape of this kind
			}
			p := Position{Heaps: c.heaps}
			b.Run(fmt.Sprintf("k=%d/heaps=%d/%s/analyze", k, len(c.heaps), c.name), func(b *testing.B) {
				for b.Loop() {
					if _, err := r.Analyze(p); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(fmt.Sprintf("k=%d/heaps=%d/%s/choose", k, len(c.heaps), c.name), func(b *testing.B) {
				for b.Loop() {
					if _, err := r.Choose(p, Perfect, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
