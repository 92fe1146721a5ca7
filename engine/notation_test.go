package engine

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseGameRoundTrip(t *testing.T) {
	tests := []struct {
		in, canonical string
		rules         Rules
		heaps         []int64
		limit         int64
	}{
		{"3 4 5", "3 4 5", Rules{Variant: Nim}, []int64{3, 4, 5}, 0},
		{"nim misere 3-4-5", "nim misere 3 4 5", Rules{Variant: Nim, Misere: true}, []int64{3, 4, 5}, 0},
		{"NIM Misère 3,4,5", "nim misere 3 4 5", Rules{Variant: Nim, Misere: true}, []int64{3, 4, 5}, 0},
		{"subtraction k=3 10 12", "subtraction k=3 10 12", Rules{Variant: Subtraction, K: 3}, []int64{10, 12}, 0},
		{"subtraction 10 12", "subtraction k=3 10 12", Rules{Variant: Subtraction, K: 3}, []int64{10, 12}, 0},
		{"subtraction set=1,3,4 7 9", "subtraction set=1,3,4 7 9", Rules{Variant: Subtraction, Set: []int{1, 3, 4}}, []int64{7, 9}, 0},
		{"subtraction set=4,1,3,1 7 9", "subtraction set=1,3,4 7 9", Rules{Variant: Subtraction, Set: []int{1, 3, 4}}, []int64{7, 9}, 0},
		// The limit of 8 amounts counts distinct ones: these are {1} and
		// {1..8}, once refused as 9 and 10 amounts.
		{"subtraction set=1,1,1,1,1,1,1,1,1 5", "subtraction set=1 5", Rules{Variant: Subtraction, Set: []int{1}}, []int64{5}, 0},
		{"subtraction set=8,7,6,5,4,3,2,1,2,1 9", "subtraction set=1,2,3,4,5,6,7,8 9", Rules{Variant: Subtraction, Set: []int{1, 2, 3, 4, 5, 6, 7, 8}}, []int64{9}, 0},
		{"21", "21", Rules{Variant: TwentyOne, Misere: true, K: 3, Target: 21}, []int64{21}, 0},
		{"21 k=3 target=21 count=5", "21 k=3 target=21 count=5", Rules{Variant: TwentyOne, Misere: true, K: 3, Target: 21}, []int64{16}, 0},
		{"21 normal target=10", "21 normal k=3 target=10 count=0", Rules{Variant: TwentyOne, K: 3, Target: 10}, []int64{10}, 0},
		{"fibonacci 20", "fibonacci 20", Rules{Variant: Fibonacci}, []int64{20}, 19},
		{"fibonacci 20 limit=4", "fibonacci 20 limit=4", Rules{Variant: Fibonacci}, []int64{20}, 4},
		{"moore k=2 3 5 6", "moore k=2 3 5 6", Rules{Variant: Moore, K: 2}, []int64{3, 5, 6}, 0},
		{"moore 3 5 6", "moore k=2 3 5 6", Rules{Variant: Moore, K: 2}, []int64{3, 5, 6}, 0},
		{"wythoff 3 5", "wythoff 3 5", Rules{Variant: Wythoff}, []int64{3, 5}, 0},
		{"lasker 4 7", "lasker 4 7", Rules{Variant: Lasker}, []int64{4, 7}, 0},
		{"kayles 5 8", "kayles 5 8", Rules{Variant: Kayles}, []int64{5, 8}, 0},
		{"greedy misere 3 3 1", "greedy misere 3 3 1", Rules{Variant: Greedy, Misere: true}, []int64{3, 3, 1}, 0},
		{"nim 21 4", "nim 21 4", Rules{Variant: Nim}, []int64{21, 4}, 0},
		{"nim 21", "nim 21", Rules{Variant: Nim}, []int64{21}, 0},
		{"21 4", "21 k=3 target=21 count=4", Rules{Variant: TwentyOne, Misere: true, K: 3, Target: 21}, []int64{17}, 0},
		{"1000000000000 7", "1000000000000 7", Rules{Variant: Nim}, []int64{1_000_000_000_000, 7}, 0},
		// Spaces alone would read as 3500 with its digits grouped, which
		// ParseHeaps refuses: the canonical form separates with commas.
		{"nim 3-500", "3, 500", Rules{Variant: Nim}, []int64{3, 500}, 0},
		{"kayles 100, 200, 300", "kayles 100, 200, 300", Rules{Variant: Kayles}, []int64{100, 200, 300}, 0},
		{"0 500", "0 500", Rules{Variant: Nim}, []int64{0, 500}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			r, p, err := ParseGame(tt.in)
			if err != nil {
				t.Fatalf("ParseGame(%q): %v", tt.in, err)
			}
			if !reflect.DeepEqual(r, tt.rules) || !reflect.DeepEqual(p.Heaps, tt.heaps) || p.Limit != tt.limit {
				t.Fatalf("ParseGame(%q) = %+v %+v, want %+v %v limit %d", tt.in, r, p, tt.rules, tt.heaps, tt.limit)
			}
			if got := FormatGame(r, p); got != tt.canonical {
				t.Fatalf("FormatGame = %q, want %q", got, tt.canonical)
			}
			r2, p2, err := ParseGame(tt.canonical)
			if err != nil || !reflect.DeepEqual(r2, r) || !reflect.DeepEqual(p2, p) {
				t.Fatalf("ParseGame(%q) = %+v %+v %v, want %+v %+v", tt.canonical, r2, p2, err, r, p)
			}
		})
	}
}

func TestParseGameErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "describe a game"},
		{"nim", "give the heaps"},
		{"3 x 5", `heap B: "x" is not a heap size`},
		{"3 99999999999999999999", "heap B: 99999999999999999999 is too large"},
		{"3 2000000000000", "heap B: 2000000000000 is too large"},
		{"nim k=3 4 5", "Nim takes no k"},
		{"subtraction k=2 set=1,2 4", "give k or a set, not both"},
		{"subtraction set=0,2 4", "set amounts run from 1 to 64, not 0"},
		{"subtraction set=1,2,3,4,5,6,7,8,9 4", "a set has at most 8 amounts, this one has 9"},
		{"subtraction set=9,1,2,3,4,5,6,7,8,9,1 4", "a set has at most 8 amounts, this one has 9"},
		{"nim misere normal 3", "say normal or misere once"},
		{"nim color=red 3", "unknown setting color="},
		{"21 count=22", "the count runs from 0 to 21, not 22"},
		{"nim 3 limit=2", "has no limit="},
		{"moore k=9 3 4", "k is at most 8"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, _, err := ParseGame(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ParseGame(%q) error = %v, want it to contain %q", tt.in, err, tt.want)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("ParseGame(%q) error %v does not wrap ErrInvalid", tt.in, err)
			}
		})
	}
	if _, _, err := ParseGame("3 2000000000000"); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a heap over 10^12: error %v, want ErrTooLarge as well as ErrInvalid", err)
	}
	if _, _, err := ParseGame("kayles misere 200, 200"); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("kayles misere 200, 200: error %v, want ErrTooLarge", err)
	}
}

func TestHeapLabel(t *testing.T) {
	for i, want := range map[int]string{0: "A", 1: "B", 25: "Z", 26: "AA", 27: "AB", 51: "AZ", 52: "BA", 701: "ZZ", 702: "AAA"} {
		if got := HeapLabel(i); got != want {
			t.Errorf("HeapLabel(%d) = %q, want %q", i, got, want)
		}
		if back := labelIndex(want); back != i {
			t.Errorf("labelIndex(%q) = %d, want %d", want, back, i)
		}
		if back, ok := HeapIndex(strings.ToLower(want)); !ok || back != i {
			t.Errorf("HeapIndex(%q) = %d, %v, want %d", strings.ToLower(want), back, ok, i)
		}
	}
	// What a player may type in a heap field that is no label: joined to an
	// amount, each would read as another move ("1"+"3" is 13).
	for _, s := range []string{"", "1", "A1", "1A", "A-", "A B", "AAAAA"} {
		if i, ok := HeapIndex(s); ok {
			t.Errorf("HeapIndex(%q) = %d, want no heap", s, i)
		}
	}
}

func TestParseHeaps(t *testing.T) {
	// A dash between two numbers separates them, spaced or not.
	for _, in := range []string{"3 4 5", "3-4-5", "3,4,5", " 3 , 4 - 5 ", "3- 4-5", "3 - 4-5", "3-4-5-", "3\t-\t4,5"} {
		got, err := ParseHeaps(in)
		if err != nil || !reflect.DeepEqual(got, []int64{3, 4, 5}) {
			t.Errorf("ParseHeaps(%q) = %v, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "3 a", "1.5"} {
		if _, err := ParseHeaps(in); !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseHeaps(%q) error = %v, want ErrInvalid", in, err)
		}
	}
	// A minus sign before a number, anywhere, is refused as the leading one
	// is; read as a separator it made "3,-4" the heaps 3 and 4.
	_, lead := ParseHeaps("-3")
	if !errors.Is(lead, ErrInvalid) || lead.Error() != "heaps cannot be negative" {
		t.Fatalf(`ParseHeaps("-3") error = %v, want "heaps cannot be negative"`, lead)
	}
	for _, in := range []string{"- 3", " -3 4", "3,-4", "3, -4", "3 -4", "5 -3", "3\t-4", "3 , - 4", "3--4", "3 4 -5", "3-4,-5", "3 4\n-5"} {
		got, err := ParseHeaps(in)
		if !errors.Is(err, ErrInvalid) || err.Error() != lead.Error() {
			t.Errorf("ParseHeaps(%q) = %v, %v; want the error %q", in, got, err, lead)
		}
	}
}

// A heap written with its digits grouped ("1,000", "2 500") must never be
// read as separate heaps: "1,000" started a game on the heaps 1 and 0, lost
// in one move. What could be either is refused, saying how to write both.
func TestParseHeapsGroupedDigits(t *testing.T) {
	refused := []struct{ in, want string }{
		{"1,000", `"1,000" reads as the number 1000 with its digits grouped: write it as 1000, with no separator inside a heap`},
		{"1 000", `"1 000" reads as the number 1000`},
		{"10,000,000", `"10,000,000" reads as the number 10000000`},
		{"2,500", `"2,500" could be the number 2500 with its digits grouped, or separate heaps: write 2500 for one heap, or 2, 500 for separate heaps`},
		{"2 500", `"2 500" could be the number 2500`},
		{"12 345", `"12 345" could be the number 12345`},
		{"3  500", `"3  500" could be the number 3500`},
		{"3\t500", `"3\t500" could be the number 3500`},
		{"100 200 300", `"100 200 300" could be the number 100200300 with its digits grouped, or separate heaps: write 100200300 for one heap, or 100, 200, 300 for separate heaps`},
		{"1,234,567", `"1,234,567" could be the number 1234567`},
		{"999 999 999 999", `"999 999 999 999" could be the number 999999999999`},
		{"1 000 000 000 000", `"1 000 000 000 000" reads as the number 1000000000000`},
		// A list separated one way holds a number grouped the other.
		{"3 4,500", `"4,500" could be the number 4500`},
		{"3, 4, 2 500", `"2 500" could be the number 2500`},
		{"3,4 500", `"4 500" could be the number 4500`},
		{"1,000 2,000", `"1,000" reads as the number 1000`},
		// A leading zero is only ever part of a grouped number.
		{"05", `heap A: write "05" without leading zeros, as 5`},
		{"3 000", `"3 000" reads as the number 3000`},
		{"3 4 000", `heap C: write "000" without leading zeros, as 0`},
		{"3-0050", `heap B: write "0050" without leading zeros, as 50`},
		// Too large for one heap, yet still never read as heaps 1 and 0.
		{"1,000,000,000,001", `heap B: write "000" without leading zeros, as 0`},
	}
	// Where heaps go up to 9999, a run grouping into a larger number is
	// only heaps; one grouping into a number up to it is still refused.
	for in, want := range map[string][]int64{"100 200 300": {100, 200, 300}, "12 345": {12, 345}, "10,500": {10, 500}} {
		if got, err := ParseHeapsUpTo(in, 9999); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseHeapsUpTo(%q, 9999) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"1,000", "9 999", "2 500"} {
		if got, err := ParseHeapsUpTo(in, 9999); !errors.Is(err, ErrAmbiguous) {
			t.Errorf("ParseHeapsUpTo(%q, 9999) = %v, %v; want ErrAmbiguous", in, got, err)
		}
	}
	for _, tt := range refused {
		got, err := ParseHeaps(tt.in)
		if !errors.Is(err, ErrAmbiguous) || !errors.Is(err, ErrInvalid) || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("ParseHeaps(%q) = %v, %v; want ErrAmbiguous saying %q", tt.in, got, err, tt.want)
		}
		if _, _, err := ParseGame("nim " + tt.in); !errors.Is(err, ErrAmbiguous) {
			t.Errorf("ParseGame(%q) error = %v, want ErrAmbiguous", "nim "+tt.in, err)
		}
	}
	// Lists no one groups digits in, and lone zeros, read as before.
	read := []struct {
		in   string
		want []int64
	}{
		{"0", []int64{0}},
		{"0 3", []int64{0, 3}},
		{"0 500", []int64{0, 500}},
		{"0,500", []int64{0, 500}},
		{"3 4 500", []int64{3, 4, 500}},
		{"3, 500", []int64{3, 500}},
		{"3 ,500", []int64{3, 500}},
		{"3-500", []int64{3, 500}},
		{"3,4,500", []int64{3, 4, 500}},
		{"3,500,7", []int64{3, 500, 7}},
		{"1000 1", []int64{1000, 1}},
		{"1000,100", []int64{1000, 100}},
		{"12 3456", []int64{12, 3456}},
		{"1 2 3", []int64{1, 2, 3}},
		{"10 20 30", []int64{10, 20, 30}},
		{"100", []int64{100}},
		// Past the largest heap of any game, a grouped number is no heap.
		{"833 833 833 833 833", []int64{833, 833, 833, 833, 833}},
	}
	for _, tt := range read {
		got, err := ParseHeaps(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseHeaps(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	// FormatHeaps writes what ParseHeaps reads back.
	for _, heaps := range [][]int64{{3, 500}, {1, 100}, {100, 200, 300}, {999, 999}, {3, 4, 500}, {0, 100}, {1000, 100}} {
		s := FormatHeaps(heaps)
		if got, err := ParseHeaps(s); err != nil || !reflect.DeepEqual(got, heaps) {
			t.Errorf("FormatHeaps(%v) = %q, read back as %v, %v", heaps, s, got, err)
		}
	}
}

func TestParseMoveRoundTrip(t *testing.T) {
	tests := []struct {
		game, move, canonical string
		want                  Move
	}{
		{"3 4 5", "B3", "B3", Move{Kind: Take, Heap: 1, Take: 3}},
		{"3 4 5", "c2", "C2", Move{Kind: Take, Heap: 2, Take: 2}},
		{"wythoff 3 5", "AB3", "AB3", Move{Kind: Diagonal, Take: 3}},
		{"wythoff 3 5", "B2", "B2", Move{Kind: Take, Heap: 1, Take: 2}},
		{"moore k=2 3 5 6", "A2 C1", "A2 C1", Move{Kind: Multi, Takes: []int64{2, 0, 1}}},
		{"moore k=2 3 5 6", "C1 A2", "A2 C1", Move{Kind: Multi, Takes: []int64{2, 0, 1}}},
		{"moore k=2 3 5 6", "B4", "B4", Move{Kind: Take, Heap: 1, Take: 4}},
		{"lasker 4 7", "B=3+4", "B=3+4", Move{Kind: Split, Heap: 1, Parts: [2]int64{3, 4}}},
		{"kayles 5 8", "B4", "B4", Move{Kind: Knock, Heap: 1, Take: 1, Parts: [2]int64{3, 4}}},
		{"kayles 5 8", "B4-5", "B4-5", Move{Kind: Knock, Heap: 1, Take: 2, Parts: [2]int64{3, 3}}},
		{"kayles 5 8", "A1", "A1", Move{Kind: Knock, Heap: 0, Take: 1, Parts: [2]int64{0, 4}}},
		// One row: its pins alone name the move, one pin or two.
		{"kayles 8", "4", "A4", Move{Kind: Knock, Heap: 0, Take: 1, Parts: [2]int64{3, 4}}},
		{"kayles 8", "4-5", "A4-5", Move{Kind: Knock, Heap: 0, Take: 2, Parts: [2]int64{3, 3}}},
		{"kayles 8", "+4-5", "A4-5", Move{Kind: Knock, Heap: 0, Take: 2, Parts: [2]int64{3, 3}}},
		{"21", "+3", "+3", Move{Kind: Take, Heap: 0, Take: 3}},
		{"21", "2", "+2", Move{Kind: Take, Heap: 0, Take: 2}},
		{"fibonacci 20", "A3", "A3", Move{Kind: Take, Heap: 0, Take: 3}},
		{"fibonacci 20", "3", "A3", Move{Kind: Take, Heap: 0, Take: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.game+"/"+tt.move, func(t *testing.T) {
			r, p, err := ParseGame(tt.game)
			if err != nil {
				t.Fatal(err)
			}
			m, err := r.ParseMove(p, tt.move)
			if err != nil {
				t.Fatalf("ParseMove(%q): %v", tt.move, err)
			}
			if !reflect.DeepEqual(m, tt.want) {
				t.Fatalf("ParseMove(%q) = %+v, want %+v", tt.move, m, tt.want)
			}
			if got := r.FormatMove(p, m); got != tt.canonical {
				t.Fatalf("FormatMove = %q, want %q", got, tt.canonical)
			}
			if _, err := r.Apply(p, m); err != nil {
				t.Fatalf("Apply(%q): %v", tt.move, err)
			}
		})
	}
}

// A move typed with a blank inside ("B 1") went to Moore's several-heap
// reader, whose refusal advised "like A2 C1" in every game. Where the
// blank cannot change the move it is read as the move; where it could, the
// refusal shows the game's own move.
func TestParseMoveWithBlanks(t *testing.T) {
	read := []struct{ game, move, canonical string }{
		{"3 4 5", "B 1", "B1"},
		{"3 4 5", "b\t1", "B1"},
		{"3 4 5", "B,1", "B1"},
		{"21", "+ 3", "+3"},
		{"fibonacci 10", "A 2", "A2"},
		{"kayles 5 8", "B 4", "B4"},
		{"kayles 5 8", "B3 - 4", "B3-4"},
		{"kayles 5 8", "B 4 -5", "B4-5"},
		{"kayles 8", "4 - 5", "A4-5"},
		{"lasker 3 5", "B =2+3", "B=2+3"},
		{"lasker 3 5", "B = 2 + 3", "B=2+3"},
		{"wythoff 3 5", "AB 2", "AB2"},
		{"moore k=2 3 5 6", "A 2 C 1", "A2 C1"},
		{"moore k=2 3 5 6", "B 1", "B1"},
	}
	for _, tt := range read {
		r, p, err := ParseGame(tt.game)
		if err != nil {
			t.Fatal(err)
		}
		m, err := r.ParseMove(p, tt.move)
		if err != nil {
			t.Errorf("%s: ParseMove(%q): %v", tt.game, tt.move, err)
			continue
		}
		if got := r.FormatMove(p, m); got != tt.canonical {
			t.Errorf("%s: ParseMove(%q) = %s, want %s", tt.game, tt.move, got, tt.canonical)
		}
	}
	refused := []struct{ game, move, want string }{
		// Several heaps read, and Apply refuses them in the game's words.
		{"3 4 5", "A1 B1", "Nim: take from one heap at a time (like B3)"},
		{"lasker 3 5", "A1 B1", "Lasker's Nim: take from one heap (like B3) or split one in two (like B=2+3)"},
		{"3 4 5", "B1 1", `"B1 1" is not a move: write it like B3`},
		{"3 4 5", "B 1 2", `"B 1 2" is not a move: write it like B3`},
		{"21", "3 3", `"3 3" is not a move: write it like +3`},
		{"wythoff 3 5", "A B2", `"A B2" is not a move: write it like B3 or AB3`},
		{"kayles 8", "4,5", `"4,5" is not a move: write it like B4 or B4-5`},
		{"lasker 3 5", "B2 x", `"B2 x" is not a move: write it like B3 or B=2+3`},
		{"moore k=2 3 5 6", "A2 + C1", `"A2 + C1" is not a move: write each heap and amount, like A2 C1`},
		{"moore k=2 3 5 6", "A 2 1", `"A 2 1" is not a move: write each heap and amount, like A2 C1`},
	}
	for _, tt := range refused {
		r, p, err := ParseGame(tt.game)
		if err != nil {
			t.Fatal(err)
		}
		m, err := r.ParseMove(p, tt.move)
		var illegal *MoveError
		if err == nil {
			_, err = r.Apply(p, m)
			if !errors.As(err, &illegal) {
				t.Errorf("%s: %q read as %+v, and Apply says %v, no MoveError", tt.game, tt.move, m, err)
			}
		} else if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: ParseMove(%q): %v does not wrap ErrInvalid", tt.game, tt.move, err)
		}
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: ParseMove(%q) then Apply: %+v, %v; want %q", tt.game, tt.move, m, err, tt.want)
		}
	}
}

func TestParseMoveErrors(t *testing.T) {
	tests := []struct{ game, move, want string }{
		{"3 4 5", "F2", "no heap F: the heaps are A to C"},
		{"3 4 5", "", "give a move, like B3"},
		{"3 4 5", "3", "name the heap too"},
		{"3 4 5", "B", "is not a move"},
		{"3 4 5", "Bx", "is not a move"},
		{"moore 3 4 5", "A1 A2", "names heap A twice"},
		{"moore 3 4 5", "A1 B0", "take at least 1 from each heap you name"},
		{"kayles 5 8", "A7", "row A has pins 1 to 5, not 7"},
		{"kayles 5 8", "A2-4", "knock down one pin or two side by side"},
		{"kayles 5 8", "4-5", `"4-5": name the heap too, like B4 or B4-5`},
		{"kayles 8", "4-6", "knock down one pin or two side by side, like A4 or A4-5"},
		{"kayles 8", "8-9", "row A has pins 1 to 8, not 8-9"},
		{"kayles 8", "4-", "is not a move"},
		{"nim 8", "4-5", "is not a move"},
		{"lasker 4 7", "B=2", "write a split like B=2+3"},
	}
	for _, tt := range tests {
		t.Run(tt.game+"/"+tt.move, func(t *testing.T) {
			r, p, err := ParseGame(tt.game)
			if err != nil {
				t.Fatal(err)
			}
			_, err = r.ParseMove(p, tt.move)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("ParseMove(%q) error = %v, want ErrInvalid containing %q", tt.move, err, tt.want)
			}
		})
	}
}

func TestMoveJSON(t *testing.T) {
	tests := []struct {
		m    Move
		json string
	}{
		{Move{Kind: Take, Heap: 1, Take: 2}, `{"heap":1,"take":2}`},
		{Move{Kind: Take, Heap: 0, Take: 5}, `{"heap":0,"take":5}`},
		{Move{Kind: Diagonal, Take: 3}, `{"heaps":[0,1],"take":3}`},
		{Move{Kind: Multi, Takes: []int64{2, 0, 1}}, `{"takes":[2,0,1]}`},
		{Move{Kind: Split, Heap: 1, Parts: [2]int64{2, 3}}, `{"heap":1,"split":[2,3]}`},
		{Move{Kind: Knock, Heap: 1, Take: 1, Parts: [2]int64{3, 4}}, `{"heap":1,"take":1,"leave":[3,4]}`},
	}
	for _, tt := range tests {
		t.Run(tt.json, func(t *testing.T) {
			b, err := json.Marshal(tt.m)
			if err != nil || string(b) != tt.json {
				t.Fatalf("Marshal = %s, %v; want %s", b, err, tt.json)
			}
			var back Move
			if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, tt.m) {
				t.Fatalf("Unmarshal = %+v, %v; want %+v", back, err, tt.m)
			}
		})
	}
	for _, bad := range []string{`{}`, `{"heap":1}`, `{"take":1}`, `{"heap":1,"take":1,"split":[1,2]}`, `{"heaps":[0,2],"take":1}`, `{"hepa":1}`, `[]`} {
		var m Move
		if err := json.Unmarshal([]byte(bad), &m); !errors.Is(err, ErrInvalid) {
			t.Errorf("Unmarshal(%s) error = %v, want ErrInvalid", bad, err)
		}
	}
}
