package engine

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
)

// chooseBenchCase is one position the bot is timed choosing a move in.
type chooseBenchCase struct {
	variant, play string // sub-benchmark names: "kayles", "misere"
	rules         Rules
	pos           Position
	// cold empties the misère Kayles memo before every call, so the figure
	// is the guaranteed (first-call) time rather than a cache hit.
	cold bool
}

// chooseBenchCases lists the positions for BenchmarkChoose. Each variant's
// test file adds its own from an init function.
var chooseBenchCases []chooseBenchCase

func init() {
	add := func(v Variant, heaps []int64, limit int64, cold bool) {
		for _, misere := range []bool{false, true} {
			play := "normal"
			if misere {
				play = "misere"
			}
			chooseBenchCases = append(chooseBenchCases, chooseBenchCase{
				variant: string(v), play: play,
				rules: Rules{Variant: v, Misere: misere},
				pos:   Position{Heaps: heaps, Limit: limit},
				cold:  cold && misere,
			})
		}
	}
	add(Fibonacci, []int64{MaxHeapSize - 1}, MaxHeapSize-2, false)
	add(Wythoff, []int64{MaxHeapSize - 12345, 618033988749}, 0, false)
	add(Lasker, []int64{MaxHeapSize, 999999999999, 123456789011, 7, 3}, 0, false)
	add(Kayles, []int64{15, 12, 10}, 0, true)
}

// BenchmarkChoose times Rules.Choose at Perfect (the full analysis, plus the
// search for the quickest win or longest hold-out where the tree is small):
// BenchmarkChoose/<variant>/<normal|misere>.
func BenchmarkChoose(b *testing.B) {
	for _, c := range chooseBenchCases {
		b.Run(c.variant+"/"+c.play, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			defer lockThread()()
			var cpu time.Duration
			for b.Loop() {
				if c.cold {
					b.StopTimer()
					resetKaylesCache()
					b.StartTimer()
				}
				t0 := threadCPU()
				if _, err := c.rules.Choose(c.pos, Perfect, rng); err != nil {
					b.Fatal(err)
				}
				cpu += threadCPU() - t0
			}
			reportCPU(b, cpu)
		})
	}
}

// BenchmarkKaylesMisereLimit times the analysis (verdict and every winning
// move) of misère Kayles positions of kaylesMisereMaxTotal pins, from an
// empty memo: the published limit is the largest total whose slowest shape
// here stays within 50 ms.
func BenchmarkKaylesMisereLimit(b *testing.B) {
	r := Rules{Variant: Kayles, Misere: true}
	for _, shape := range kaylesLimitShapes(kaylesMisereMaxTotal) {
		b.Run(shapeName(shape), func(b *testing.B) {
			defer lockThread()()
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				resetKaylesCache()
				b.StartTimer()
				t0 := threadCPU()
				if _, err := r.Analyze(Position{Heaps: shape}); err != nil {
					b.Fatal(err)
				}
				cpu += threadCPU() - t0
			}
			reportCPU(b, cpu)
		})
	}
}

// kaylesLimitShapes are positions of total pins each: one row, two, and
// the slowest shapes found by a scan of every split of 40 pins into up to
// three rows (plus up to three single pins) and 300 random ones: [3 11 26]
// and [1 2 3 14 20] searched the most positions, about 47,000.
func kaylesLimitShapes(total int64) [][]int64 {
	return [][]int64{
		{total},
		{total / 2, total - total/2},
		{3, 11, total - 14},
		{1, 2, 3, 14, total - 20},
		{1, 1, 11, total - 13},
	}
}

// reportCPU adds the thread's CPU time per call, in ms, beside the wall
// time: on this shared machine wall time includes other jobs' slices.
func reportCPU(b *testing.B, cpu time.Duration) {
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

func shapeName(h []int64) string {
	s := make([]string, len(h))
	for i, v := range h {
		s[i] = strconv.FormatInt(v, 10)
	}
	return strings.Join(s, "-")
}
