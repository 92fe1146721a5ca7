package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// limitRules are the rules BenchmarkChooseAtLimits and BenchmarkHintAtLimits
// time: every variant with its defaults, plus the settings that change a
// variant's cost (a subtraction set, Moore's k from 1 to its maximum, a 21
// game counting to the largest target).
var limitRules = []struct {
	name  string
	rules Rules
}{
	{"nim", Rules{Variant: Nim}},
	{"subtraction-k3", Rules{Variant: Subtraction}},
	{"subtraction-256", Rules{Variant: Subtraction, Set: []int{2, 5, 6}}},
	{"21", Rules{Variant: TwentyOne}},
	{"21-target-max", Rules{Variant: TwentyOne, Target: int(MaxHeapSize)}},
	{"greedy", Rules{Variant: Greedy}},
	{"fibonacci", Rules{Variant: Fibonacci}},
	{"wythoff", Rules{Variant: Wythoff}},
	{"moore-k1", Rules{Variant: Moore, K: 1}},
	{"moore-k2", Rules{Variant: Moore, K: 2}},
	{"moore-k3", Rules{Variant: Moore, K: 3}},
	{"moore-k4", Rules{Variant: Moore, K: 4}},
	{"moore-k5", Rules{Variant: Moore, K: 5}},
	{"moore-k6", Rules{Variant: Moore, K: 6}},
	{"moore-k7", Rules{Variant: Moore, K: 7}},
	{"moore-k8", Rules{Variant: Moore, K: maxMooreK}},
	{"lasker", Rules{Variant: Lasker}},
	{"kayles", Rules{Variant: Kayles}},
}

// limitShape is one position at (or just inside) a variant's Limits.
type limitShape struct {
	name string
	pos  Position
}

// limitShapes are the positions at r's published Limits that cost the most,
// found by reading each code path: random heaps (won), lost shapes (every
// move judged as a hold-out candidate), shapes where a random move is hard
// to find (Greedy with one largest heap, a subtraction set on huge heaps),
// shapes where every heap is a candidate (Greedy with all heaps equal), and
// the largest shapes the remoteness search still takes on.
func limitShapes(r Rules) []limitShape {
	n, err := r.Normalize()
	if err != nil {
		panic(err)
	}
	l := n.Limits()
	rng := rand.New(rand.NewPCG(13, uint64(len(n.Variant))))
	rnd := func(count int, hi int64) []int64 {
		h := make([]int64, count)
		for i := range h {
			h[i] = 1 + rng.Int64N(hi)
		}
		return h
	}
	var shapes []limitShape
	add := func(name string, heaps []int64, limit int64) {
		shapes = append(shapes, limitShape{name, Position{Heaps: heaps, Limit: limit}})
	}
	switch n.Variant {
	case TwentyOne:
		t := int64(n.Target)
		add("start", []int64{t}, 0)
		add("lost", []int64{t - (t-1)%int64(n.K+1)}, 0) // misère: T−c ≡ 1 (mod k+1)
		return shapes
	case Fibonacci:
		add("start", []int64{l.MaxHeap}, l.MaxHeap-1)
		add("lost", []int64{956722026041}, 956722026040) // a Fibonacci number
		add("small", []int64{300}, 299)
		return shapes
	case Wythoff:
		add("random", rnd(2, l.MaxHeap), 0)
		add("lost", []int64{618033988749, 999999999999}, 0) // the pair with k = 381966011250
		add("small", []int64{200, 300}, 0)
		return shapes
	case Kayles:
		if n.Misere {
			for _, s := range kaylesLimitShapes(l.MaxTotal) {
				add(shapeName(s), s, 0)
			}
			return shapes
		}
	}
	count := l.MaxHeaps
	add("random", rnd(count, l.MaxHeap), 0)
	// Lost in normal play for every heap game here (and in misère play
	// while some heap is large): heaps in equal groups of k+1 (k = 1 but
	// for Moore).
	group := 2
	if n.Variant == Moore {
		group = n.K + 1
	}
	lost := make([]int64, 0, count)
	for len(lost)+group <= count {
		v := 2 + rng.Int64N(l.MaxHeap-1)
		for range group {
			lost = append(lost, v)
		}
	}
	if len(lost) > 0 {
		add("lost", lost, 0)
	}
	equal := make([]int64, count-count%2)
	for i := range equal {
		equal[i] = l.MaxHeap
	}
	if len(equal) > 0 {
		add("equal", equal, 0)
	}
	// A lost position whose every legal move is judged as a hold-out (the
	// moves are few enough to list, and moves times heaps is the most
	// holdoutCandidates takes on): 64 heaps of 64.
	if count >= 64 {
		mid := make([]int64, 64)
		for i := range mid {
			mid[i] = 64
		}
		add("64x64", mid, 0)
	}
	if count > 1 {
		one := rnd(count, l.MaxHeap-1)
		one[count/2] = l.MaxHeap
		add("onemax", one, 0)
	}
	// Moore's Nim lists every legal move of a lost position whose heap
	// product is at most 8192 (legalIsSmall), and judging each costs a
	// pass over every set of up to k heaps: the most heaps of 1 that are
	// lost (n ≡ 0 mod k+1 in normal play, 1 in misère), and heaps of 3 in
	// groups of k+1 (lost both ways). And the remoteness search lists the
	// winning moves of every won position it visits: small mixed heaps
	// (won at k = 4, the costliest found by a scan of small shapes).
	if n.Variant == Moore {
		lostRest := 0
		if n.Misere {
			lostRest = 1
		}
		for c := min(count, 13); c >= 1; c-- {
			if c%(n.K+1) == lostRest {
				add("ones", slices.Repeat([]int64{1}, c), 0)
				break
			}
		}
		if threes := min(count, 6) / (n.K + 1) * (n.K + 1); threes > 0 {
			add("threes", slices.Repeat([]int64{3}, threes), 0)
		}
		add("smallmix", []int64{3, 2, 1, 3, 3, 3, 2}[:min(count, 7)], 0)
	}
	// The remoteness search takes on heap products up to 1e5 (and, where
	// rows split, totals whose partitions stay within its budget): the
	// largest such shapes run it until its budget gives out.
	switch n.Variant {
	case Lasker, Kayles:
		t := int64(1)
		for partitionsUpTo(t+1) <= searchBudget {
			t++
		}
		add("small", []int64{t / 3, t / 3, t - 2*(t/3)}, 0)
	default:
		if count >= 5 {
			add("small", []int64{9, 9, 9, 9, 9}, 0)
		}
		add("small3", []int64{45, 45, 45}[:min(3, count)], 0)
	}
	return shapes
}

// limitCase is one position the AtLimits benchmarks time: rules (with
// its convention set) and one of limitShapes(rules), named
// <variant>/<normal|misere>/<shape>.
type limitCase struct {
	name  string
	rules Rules
	pos   Position
	// cold: every call starts from an empty memo (misère Kayles, whose
	// first call's time is the one that counts).
	cold bool
}

// limitCases are every rule of limitRules in both conventions, in every
// shape limitShapes knows for it, each checked with Analyze first.
func limitCases(b *testing.B) []limitCase {
	var cases []limitCase
	for _, lr := range limitRules {
		for _, misere := range []bool{false, true} {
			r := lr.rules
			r.Misere = misere
			play := "normal"
			if misere {
				play = "misere"
			}
			for _, s := range limitShapes(r) {
				name := lr.name + "/" + play + "/" + s.name
				if _, err := r.Analyze(s.pos); err != nil {
					b.Fatalf("%s: %v", name, err)
				}
				cases = append(cases, limitCase{name, r, s.pos, r.Variant == Kayles && misere})
			}
		}
	}
	return cases
}

// timeCPU runs call b.N times on one locked thread and reports the
// thread's own CPU time per call (cpu-ms/op: the machine is shared),
// emptying the Kayles memo before each call when cold (outside the timer).
func timeCPU(b *testing.B, cold bool, call func() error) {
	defer lockThread()()
	var cpu time.Duration
	for b.Loop() {
		if cold {
			b.StopTimer()
			resetKaylesCache()
			b.StartTimer()
		}
		t0 := threadCPU()
		if err := call(); err != nil {
			b.Fatal(err)
		}
		cpu += threadCPU() - t0
	}
	reportCPU(b, cpu)
}

// BenchmarkChooseAtLimits times Rules.Choose for every variant, both
// conventions and every difficulty at the variant's published Limits, in
// the costliest shapes limitShapes knows:
// BenchmarkChooseAtLimits/<variant>/<normal|misere>/<shape>/<difficulty>.
// Easy to Hard draw from one seeded source across iterations, so their
// figure is the mean over random and best moves. Misère Kayles starts each
// call from an empty memo (the first call's time, the one that counts).
// cpu-ms/op is the thread's own CPU time: the machine is shared.
func BenchmarkChooseAtLimits(b *testing.B) {
	for _, c := range limitCases(b) {
		for _, d := range Difficulties() {
			b.Run(c.name+"/"+string(d), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, 2))
				timeCPU(b, c.cold, func() error {
					_, err := c.rules.Choose(c.pos, d, rng)
					return err
				})
			})
		}
	}
}

// BenchmarkHintAtLimits times Rules.Hint (the verdict, the perfect
// player's move, quickest win or longest hold-out, and the explanation in
// the variant's theory: what /nim hint answers) for every variant and both
// conventions at the variant's published Limits, in the same shapes as
// BenchmarkChooseAtLimits: BenchmarkHintAtLimits/<variant>/<normal|misere>/<shape>.
// Hint takes no difficulty. Misère Kayles starts each call from an empty
// memo (the first call's time, the one that counts). cpu-ms/op is the
// thread's own CPU time: the machine is shared.
func BenchmarkHintAtLimits(b *testing.B) {
	for _, c := range limitCases(b) {
		b.Run(c.name, func(b *testing.B) {
			timeCPU(b, c.cold, func() error {
				_, err := c.rules.Hint(c.pos)
				return err
			})
		})
	}
}
