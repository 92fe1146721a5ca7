package engine

import (
	"math/rand/v2"
	"testing"
)

// init adds engine-core's variants to BenchmarkChoose (search_bench_test.go):
// a small position, where the bot also searches for the quickest win, and
// heaps of up to 10^12, where it plays by the rule alone. Nim is timed with
// 10,000 heaps too, won and lost (the lost case judges hold-out candidates).
func init() {
	add := func(name string, r Rules, heaps []int64) {
		for _, misere := range []bool{false, true} {
			play := "normal"
			if misere {
				play = "misere"
			}
			rr := r
			rr.Misere = misere
			if r.Variant == TwentyOne {
				rr.Misere = !misere // the 21 game is misère by default; both get timed
				play = map[bool]string{true: "misere", false: "normal"}[rr.Misere]
			}
			chooseBenchCases = append(chooseBenchCases, chooseBenchCase{variant: name, play: play, rules: rr, pos: Position{Heaps: heaps}})
		}
	}
	rng := rand.New(rand.NewPCG(2026, 11))
	huge := func(n int) []int64 {
		h := make([]int64, n)
		for i := range h {
			h[i] = rng.Int64N(1 << 39)
		}
		return h
	}
	won := huge(10_000)
	lost := huge(10_000)
	var x int64
	for _, v := range lost[:len(lost)-1] {
		x ^= v
	}
	lost[len(lost)-1] = x // nim-sum 0: every move loses

	add("nim", Rules{Variant: Nim}, []int64{3, 4, 5, 6})
	add("nim-huge", Rules{Variant: Nim}, huge(8))
	add("nim-10000heaps-won", Rules{Variant: Nim}, won)
	add("nim-10000heaps-lost", Rules{Variant: Nim}, lost)
	add("subtraction-k3", Rules{Variant: Subtraction, K: 3}, []int64{10, 12, 7})
	add("subtraction-k3-huge", Rules{Variant: Subtraction, K: 3}, huge(1000))
	add("subtraction-134", Rules{Variant: Subtraction, Set: []int{1, 3, 4}}, []int64{10, 12, 7})
	add("subtraction-256-huge", Rules{Variant: Subtraction, Set: []int{2, 5, 6}}, huge(1000))
	add("21", Rules{Variant: TwentyOne}, []int64{21})
	add("greedy", Rules{Variant: Greedy}, []int64{5, 7, 7, 3})
	add("greedy-huge", Rules{Variant: Greedy}, huge(1000))
	add("moore-k2", Rules{Variant: Moore, K: 2}, []int64{3, 5, 6, 4})
	add("moore-k2-huge", Rules{Variant: Moore, K: 2}, huge(20))
	add("moore-k3-huge", Rules{Variant: Moore, K: 3}, huge(12))
}

// BenchmarkAnalyze times the verdict and the full list of winning moves.
func BenchmarkAnalyze(b *testing.B) {
	for _, c := range chooseBenchCases {
		b.Run(c.variant+"/"+c.play, func(b *testing.B) {
			for b.Loop() {
				if c.cold {
					b.StopTimer()
					resetKaylesCache()
					b.StartTimer()
				}
				if _, err := c.rules.Analyze(c.pos); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
