package engine

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

// The direct encoders (Move.MarshalJSON and AppendJSON, Position.AppendJSON;
// json.go)
// against encoding/json, and the decoders (jsonfast.go) on everything the
// engine can produce.

// legacyMove is Move with its MarshalJSON as it was before the direct
// encoder: moveJSON through json.Marshal, the reference.
type legacyMove Move

func (m legacyMove) MarshalJSON() ([]byte, error) {
	var j moveJSON
	heap, take := m.Heap, m.Take
	switch m.Kind {
	case Take:
		j.Heap, j.Take = &heap, &take
	case Diagonal:
		j.Heaps, j.Take = []int{0, 1}, &take
	case Multi:
		j.Takes = m.Takes
		if j.Takes == nil {
			j.Takes = []int64{}
		}
		if len(j.Takes) == 0 {
			return []byte(`{"takes":[]}`), nil
		}
	case Split:
		parts := m.Parts
		j.Heap, j.Split = &heap, &parts
	case Knock:
		parts := m.Parts
		j.Heap, j.Take, j.Leave = &heap, &take, &parts
	default:
		return nil, invalidf("move of unknown kind %d", m.Kind)
	}
	return json.Marshal(j)
}

// plainPosition is Position without methods: encoding/json's own encoding
// (Position has none today; the test still holds if it gets one).
type plainPosition Position

// encodesAsJSON checks m's direct encodings against encoding/json's, and
// that DecodeMove reads them back as json.Unmarshal does.
func encodesAsJSON(t *testing.T, m Move) {
	t.Helper()
	want, wantErr := json.Marshal(legacyMove(m))
	direct, directErr := m.AppendJSON([]byte("x"))
	marshal, marshalErr := m.MarshalJSON()
	viaJSON, viaErr := json.Marshal(m)
	if wantErr != nil {
		if directErr == nil || marshalErr == nil || viaErr == nil {
			t.Fatalf("%+v: encoding/json fails (%v), the direct encoder does not", m, wantErr)
		}
		return
	}
	if directErr != nil || marshalErr != nil || viaErr != nil ||
		!bytes.Equal(direct[1:], want) || !bytes.Equal(marshal, want) || !bytes.Equal(viaJSON, want) {
		t.Fatalf("%+v: AppendJSON %s (%v), MarshalJSON %s, json.Marshal %s; encoding/json wrote %s",
			m, direct, directErr, marshal, viaJSON, want)
	}
	var ref Move
	refErr := json.Unmarshal(want, &ref)
	got, err := DecodeMove(want)
	if (err != nil) != (refErr != nil) || (err == nil && !reflect.DeepEqual(got, ref)) {
		t.Fatalf("%s: DecodeMove %+v (%v), json.Unmarshal %+v (%v)", want, got, err, ref, refErr)
	}
}

// positionEncodesAsJSON is encodesAsJSON for a position.
func positionEncodesAsJSON(t *testing.T, p Position) {
	t.Helper()
	want, err := json.Marshal(plainPosition(p))
	if err != nil {
		t.Fatal(err)
	}
	direct := p.AppendJSON([]byte("x"))
	viaJSON, err := json.Marshal(p)
	if err != nil || !bytes.Equal(direct[1:], want) || !bytes.Equal(viaJSON, want) {
		t.Fatalf("%+v: AppendJSON %s, json.Marshal %s (%v); encoding/json wrote %s", p, direct, viaJSON, err, want)
	}
	var ref Position
	refErr := json.Unmarshal(want, &ref)
	got, err := DecodePosition(want)
	if (err != nil) != (refErr != nil) || (err == nil && !reflect.DeepEqual(got, ref)) {
		t.Fatalf("%s: DecodePosition %+v (%v), json.Unmarshal %+v (%v)", want, got, err, ref, refErr)
	}
}

// everyRules is every variant in both conventions with the settings each
// takes at a few values.
func everyRules(t *testing.T) []Rules {
	t.Helper()
	var out []Rules
	for _, v := range Variants() {
		for _, misere := range []bool{false, true} {
			base, err := Rules{Variant: v, Misere: misere}.Normalize()
			if err != nil {
				t.Fatalf("%s: %v", v, err)
			}
			out = append(out, base)
			for _, opt := range []struct {
				name string
				vals []int64
			}{{"k", []int64{2}}, {"k", []int64{3}}, {"set", []int64{1, 3, 4}}, {"target", []int64{10}}} {
				if r, err := base.With(opt.name, opt.vals...); err == nil {
					if r, err := r.Normalize(); err == nil {
						out = append(out, r)
					}
				}
			}
		}
	}
	return out
}

// TestEncodeEqualsJSON walks every position reachable from every opening of
// up to 3 heaps of up to 5 (6 pins or counters in all for Lasker and Kayles,
// whose splits multiply the positions; TwentyOne and Fibonacci from each
// count too), in
// every variant, and checks each position and each legal move: encoded as
// encoding/json encodes it, and decoded as encoding/json decodes it, by the
// fast path.
func TestEncodeEqualsJSON(t *testing.T) {
	positions, moves := 0, 0
	seenMoves := map[string]bool{}
	for _, r := range everyRules(t) {
		seen := map[string]bool{}
		var walk func(p Position)
		walk = func(p Position) {
			b := p.AppendJSON(nil)
			if seen[string(b)] {
				return
			}
			seen[string(b)] = true
			positionEncodesAsJSON(t, p)
			if _, ok := fastPosition(b); !ok {
				t.Fatalf("%s: the fast decoder hands a position the engine made to encoding/json", b)
			}
			positions++
			for _, m := range r.Legal(p) {
				if b, _ := m.MarshalJSON(); !seenMoves[string(b)] {
					seenMoves[string(b)] = true
					encodesAsJSON(t, m)
					if !fastMoveTakes(b) {
						t.Fatalf("%s: the fast decoder hands a move the engine made to encoding/json", b)
					}
					moves++
				}
				q, err := r.Apply(p, m)
				if err != nil {
					t.Fatalf("%s %+v %+v: %v", r.Name(), p, m, err)
				}
				walk(q)
			}
		}
		openings := [][]int64{nil}
		for n := 1; n <= 3; n++ {
			eachHeaps(n, 5, func(h []int64) { openings = append(openings, h) })
		}
		for _, h := range openings {
			if r.Variant == Lasker || r.Variant == Kayles {
				// Splits multiply the positions: openings up to 6 in all.
				var total int64
				for _, x := range h {
					total += x
				}
				if total > 6 {
					continue
				}
			}
			if p, err := r.Start(h); err == nil {
				walk(p)
			}
		}
		if len(seen) == 0 {
			t.Fatalf("%s: no position", r.Name())
		}
	}
	t.Logf("%d positions, %d distinct moves", positions, moves)
}

func fastMoveTakes(b []byte) bool {
	_, ok := fastMove(b)
	return ok
}

// TestEncodeAtLimits: positions at every variant's Limits, moves with the
// largest heap numbers and amounts they allow, the ends of int64, and the
// zero and odd values.
func TestEncodeAtLimits(t *testing.T) {
	for _, r := range everyRules(t) {
		l := r.Limits()
		heap := l.MaxHeap
		if l.MaxTotal > 0 {
			heap = min(heap, l.MaxTotal/int64(l.MaxHeaps))
		}
		if r.Variant == TwentyOne {
			heap = int64(r.Target) // the count still to say
		}
		// The most heaps, up to 256 (the encoding of a list does not change
		// with its length; under -race thousands of them take seconds).
		heaps := make([]int64, min(l.MaxHeaps, 256))
		for i := range heaps {
			heaps[i] = heap
		}
		p := Position{Heaps: heaps}
		if r.Variant == Fibonacci {
			p.Limit = heap - 1
		}
		positionEncodesAsJSON(t, p)
		last := l.MaxHeaps - 1 // the last heap number, whatever the list holds
		for _, m := range []Move{
			{Kind: Take, Heap: last, Take: heap},
			{Kind: Diagonal, Take: heap},
			{Kind: Multi, Takes: heaps},
			{Kind: Split, Heap: last, Parts: [2]int64{heap - 1, 1}},
			{Kind: Knock, Heap: last, Take: 2, Parts: [2]int64{heap / 2, heap - heap/2 - 2}},
		} {
			encodesAsJSON(t, m)
		}
	}
	for _, v := range []int64{0, 1, -1, 999_999_999_999_999_999, 1_000_000_000_000_000_000, math.MaxInt64, math.MinInt64} {
		positionEncodesAsJSON(t, Position{Heaps: []int64{v, 3}, Limit: v})
		for kind := range Knock + 2 {
			encodesAsJSON(t, Move{Kind: kind, Heap: int(v), Take: v, Takes: []int64{v, v}, Parts: [2]int64{v, -v}})
		}
	}
	positionEncodesAsJSON(t, Position{})
	positionEncodesAsJSON(t, Position{Heaps: []int64{}})
	encodesAsJSON(t, Move{Kind: Multi})
	encodesAsJSON(t, Move{Kind: Multi, Takes: []int64{}})
}

// FuzzEncode: any move or position, well-formed or not, encodes as
// encoding/json encodes it.
func FuzzEncode(f *testing.F) {
	f.Add(uint8(Take), int64(1), int64(2), int64(3), int64(4), uint8(2))
	f.Add(uint8(Multi), int64(0), int64(-1), int64(math.MaxInt64), int64(math.MinInt64), uint8(0))
	f.Add(uint8(Knock+1), int64(7), int64(0), int64(0), int64(0), uint8(9))
	f.Fuzz(func(t *testing.T, kind uint8, heap, take, a, b int64, n uint8) {
		var takes []int64
		if n != 0 {
			takes = make([]int64, n%8-1+1)
			for i := range takes {
				takes[i] = a + int64(i)*b
			}
		}
		encodesAsJSON(t, Move{Kind: MoveKind(kind), Heap: int(heap), Take: take, Takes: takes, Parts: [2]int64{a, b}})
		positionEncodesAsJSON(t, Position{Heaps: takes, Limit: take})
	})
}
