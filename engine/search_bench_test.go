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

// init adds Fibonacci, Wythoff, Lasker and Kayles: a small position (where
// the bot also searches for the quickest win or longest hold-out), heaps of
// up to 10^12 won and lost (played by the rule alone), and misère Kayles at
// its published limit from an empty memo.
func init() {
	add := func(name string, v Variant, heaps []int64, limit int64, plays ...bool) {
		if len(plays) == 0 {
			plays = []bool{false, true}
		}
		for _, misere := range plays {
			play := "normal"
			if misere {
				play = "misere"
			}
			chooseBenchCases = append(chooseBenchCases, chooseBenchCase{
				variant: name, play: play,
				rules: Rules{Variant: v, Misere: misere},
				pos:   Position{Heaps: heaps, Limit: limit},
				cold:  v == Kayles && misere,
			})
		}
	}
	add("fibonacci", Fibonacci, []int64{20}, 19)
	add("fibonacci-huge", Fibonacci, []int64{MaxHeapSize - 1}, MaxHeapSize-2)
	add("fibonacci-huge-lost", Fibonacci, []int64{956722026041}, 956722026040, false) // a Fibonacci number
	add("wythoff", Wythoff, []int64{7, 12}, 0)
	add("wythoff-huge", Wythoff, []int64{MaxHeapSize - 12345, 618033988749}, 0)
	add("wythoff-huge-lost", Wythoff, []int64{618033988749, 999999999999}, 0) // the pair with k = 381966011250
	add("lasker", Lasker, []int64{5, 6, 7}, 0)
	add("lasker-huge", Lasker, []int64{MaxHeapSize, 999999999999, 123456789011, 7, 3}, 0)
	add("lasker-huge-lost", Lasker, []int64{999999999999, 999999999999, 5, 5}, 0)
	add("kayles", Kayles, []int64{5, 6, 7}, 0)
	add("kayles-37pins", Kayles, []int64{15, 12, 10}, 0)
	add("kayles-40pins", Kayles, []int64{3, 11, 26}, 0, true) // misère: the published limit's slowest shape
	add("kayles-huge", Kayles, []int64{MaxHeapSize, 999999999971, 5}, 0, false)
	add("kayles-huge-lost", Kayles, []int64{MaxHeapSize, MaxHeapSize}, 0, false)
}

// BenchmarkChoose times Rules.Choose at Perfect (the full analysis, plus the
// search for the quickest win or longest hold-out where the tree is small):
// BenchmarkChoose/<variant>/<normal|misere>.
func BenchmarkChoose(b *testing.B) {
	for _, c := range chooseBenchCases {
		b.Run(c.variant+"/"+c.play, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			timeCPU(b, c.cold, func() error {
				_, err := c.rules.Choose(c.pos, Perfect, rng)
				return err
			})
		})
	}
}

// BenchmarkKaylesMisereLimit times the search's analysis (verdict and every
// winning move) of misère Kayles positions of kaylesMisereMaxTotal pins,
// from an empty memo: the published limit is the largest total whose
// slowest shape here stays within 50 ms. (Play reads the table the search
// wrote; this is the cost of writing or checking one entry's neighbourhood.)
func BenchmarkKaylesMisereLimit(b *testing.B) {
	for _, shape := range kaylesLimitShapes(kaylesMisereMaxTotal) {
		b.Run(shapeName(shape), func(b *testing.B) {
			defer lockThread()()
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				resetKaylesCache()
				b.StartTimer()
				t0 := threadCPU()
				kaylesSearchWinning(Position{Heaps: shape}, MaxListedMoves)
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
