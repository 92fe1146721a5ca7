package commands

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"nimbot/engine"
	"nimbot/match"
)

// moveCase is one /nim move sent by alice, on her turn, in a fresh game
// against nimbot: start are /nim start's options, move /nim move's.
type moveCase struct {
	name  string
	start []any
	move  []any
	want  string // in the ephemeral refusal; "" when the move must be played
}

// run starts the game, sends the move, and checks the answer: a refusal
// that says want and leaves the game exactly as it was (no move stored,
// same ply and heaps), or a move played.
func (c moveCase) run(t *testing.T) {
	t.Helper()
	h := newHarness(t, 1)
	start := append([]any{"first", "me", "difficulty", "easy"}, c.start...)
	if resp := h.command(alice, "start", start...); isEphemeral(resp) {
		t.Fatalf("start %v: %s", c.start, text(resp))
	}
	before := h.game()
	resp := h.command(alice, "move", c.move...)
	after := h.game()
	if c.want == "" {
		if isEphemeral(resp) || after.Ply == before.Ply {
			t.Fatalf("move %v was not played: %s", c.move, text(resp))
		}
		return
	}
	wantUserError(t, resp, c.want)
	if after.Ply != before.Ply || !reflect.DeepEqual(after.Position, before.Position) || len(h.moves(after.ID)) != 0 {
		t.Fatalf("the refused move %v changed the game: ply %d → %d, heaps %v → %v, moves %v",
			c.move, before.Ply, after.Ply, before.Position.Heaps, after.Position.Heaps, h.moves(after.ID))
	}
}

// TestMoveHeapIsALabel: /nim move's heap option is one of the game's heap
// labels or refused. It used to be joined to take as typed, so in a one-heap
// game heap:1 take:3 took 13, and heap:A1 take:2 took 12 from A.
func TestMoveHeapIsALabel(t *testing.T) {
	for _, c := range []moveCase{
		{"a digit in Fibonacci's one heap", []any{"variant", "fibonacci", "heaps", "20"}, []any{"heap", "1", "take", 3}, "There is no heap 1 in this game: the only heap is A."},
		{"a digit in one-heap Nim", []any{"heaps", "20"}, []any{"heap", "1", "take", 3}, "There is no heap 1 in this game"},
		{"a label and a digit", []any{"heaps", "20 4"}, []any{"heap", "A1", "take", 2}, "There is no heap A1 in this game: the heaps are A to B."},
		{"a label past the last heap", []any{"heaps", "3 4 5"}, []any{"heap", "AB", "take", 1}, "There is no heap AB in this game"},
		{"a sign", []any{"heaps", "3 4 5"}, []any{"heap", "-", "take", 1}, `There is no heap \- in this game`},
		{"a lower-case label plays", []any{"heaps", "3 4 5"}, []any{"heap", "c", "take", 1}, ""},
		{"no label in a one-heap game plays", []any{"heaps", "20"}, []any{"take", 3}, ""},
	} {
		t.Run(c.name, c.run)
	}
}

// TestMoveOptionsFitTheGame: an option of /nim move the game has no use for
// (pin outside Kayles, both outside Wythoff, split outside Lasker), take
// with pin other than 1 or 2 pins, and two options that contradict each
// other are refused, with nothing changed. They used to be dropped or
// misread into another move: pin:1 in Nim took 1, pin:3 take:5 in Kayles
// knocked one pin, heap:A both:true in Wythoff took from both heaps.
func TestMoveOptionsFitTheGame(t *testing.T) {
	nim := []any{"heaps", "3 4 5"}
	kayles := []any{"variant", "kayles", "heaps", "3 7 5"}
	wythoff := []any{"variant", "wythoff", "heaps", "4 7"}
	lasker := []any{"variant", "lasker", "heaps", "3 4 5"}
	twentyOne := []any{"variant", "21"}
	for _, c := range []moveCase{
		{"pin in Nim", nim, []any{"heap", "A", "take", 3, "pin", 1}, "The option pin belongs to another game (Kayles): this game (Nim) has no such move, so leave it out."},
		{"pin in the 21 game", twentyOne, []any{"take", 2, "pin", 1}, "The option pin belongs to another game (Kayles)"},
		{"both in Nim", nim, []any{"both", true, "take", 1}, "The option both belongs to another game (Wythoff's game)"},
		{"both in Lasker's Nim", lasker, []any{"both", true, "take", 1}, "The option both belongs to another game (Wythoff's game)"},
		{"split in Nim", nim, []any{"heap", "C", "split", "2+3"}, "The option split belongs to another game (Lasker's Nim)"},
		{"split in the 21 game", twentyOne, []any{"take", 2, "split", "1+1"}, "The option split belongs to another game (Lasker's Nim)"},
		{"take 5 with a pin", kayles, []any{"heap", "B", "pin", 3, "take", 5}, "With the option pin, the option take says how many pins to knock down: 1, or 2 side by side, not 5."},
		{"take 3 with a pin", kayles, []any{"heap", "B", "pin", 3, "take", 3}, "not 3."},
		{"both with a heap", wythoff, []any{"heap", "A", "both", true, "take", 2}, "The options both and heap do not go together in one move"},
		{"split with take", lasker, []any{"heap", "C", "split", "2+3", "take", 1}, "The options split and take do not go together"},
		{"notation with heap", nim, []any{"notation", "B3", "heap", "A"}, "The options notation and heap do not go together"},
		{"notation with take", nim, []any{"notation", "B3", "take", 1}, "The options notation and take do not go together"},
		// What each option is for still plays.
		{"one pin", kayles, []any{"heap", "B", "pin", 3}, ""},
		{"one pin, take:1", kayles, []any{"heap", "B", "pin", 3, "take", 1}, ""},
		{"two pins", kayles, []any{"heap", "B", "pin", 3, "take", 2}, ""},
		{"both in Wythoff", wythoff, []any{"both", true, "take", 2}, ""},
		{"both:false with a heap", wythoff, []any{"heap", "B", "both", false, "take", 2}, ""},
		{"a split", lasker, []any{"heap", "C", "split", "2+3"}, ""},
		{"the 21 game", twentyOne, []any{"take", 2}, ""},
		{"notation alone", nim, []any{"notation", "B3"}, ""},
	} {
		t.Run(c.name, c.run)
	}
}

// TestMoveNotationWithBlanks: a move typed with a blank inside ("B 1") was
// read as Moore's several heaps at once and refused with "like A2 C1" in
// every game. Where the blank changes nothing it is the move; where the
// text cannot be read, the refusal shows the game's own move.
func TestMoveNotationWithBlanks(t *testing.T) {
	for _, c := range []moveCase{
		{"Nim", []any{"heaps", "3 4 5"}, []any{"notation", "B 1"}, ""},
		{"the 21 game", []any{"variant", "21"}, []any{"notation", "+ 3"}, ""},
		{"Fibonacci Nim", []any{"variant", "fibonacci", "heaps", "10"}, []any{"notation", "A 2"}, ""},
		{"Kayles", []any{"variant", "kayles", "heaps", "5 8"}, []any{"notation", "B 4"}, ""},
		{"Lasker's Nim", []any{"variant", "lasker", "heaps", "3 5"}, []any{"notation", "B =2+3"}, ""},
		{"Wythoff's game", []any{"variant", "wythoff", "heaps", "3 5"}, []any{"notation", "AB 2"}, ""},
		{"Moore's Nim", []any{"variant", "moore", "heaps", "3 5 6"}, []any{"notation", "A 2 C 1"}, ""},
		{"digits apart", []any{"heaps", "3 4 5"}, []any{"notation", "B1 1"}, `nimbot cannot read the move "B1 1": "B1 1" is not a move: write it like B3.`},
		{"the 21 game, two amounts", []any{"variant", "21"}, []any{"notation", "2 1"}, `"2 1" is not a move: write it like +3.`},
		{"Kayles, pins with a comma", []any{"variant", "kayles", "heaps", "8"}, []any{"notation", "4,5"}, `"4,5" is not a move: write it like B4 or B4\-5.`},
		{"Moore's Nim, unreadable", []any{"variant", "moore", "heaps", "3 5 6"}, []any{"notation", "A 2 1"}, `write each heap and amount, like A2 C1`},
	} {
		t.Run(c.name, c.run)
	}
}

// TestMoveBothWhereABIsAHeap: with 28 heaps or more "AB" is heap 28's label,
// so both:true, once joined into "AB1", took 1 from that heap in Lasker's
// Nim. There both:true is refused and changes nothing.
func TestMoveBothWhereABIsAHeap(t *testing.T) {
	h := newHarness(t, 1)
	before, who := growTo28Heaps(t, h, "lasker")
	wantUserError(t, h.command(who, "move", "both", true, "take", 1), "The option both belongs to another game")
	if after := h.game(); after.Ply != before.Ply || !reflect.DeepEqual(after.Position, before.Position) {
		t.Fatalf("both:true changed the game: heaps %v → %v", before.Position.Heaps, after.Position.Heaps)
	}
}

// TestKaylesPinsFormTakesOnlyPins: the form that asks for pins of one row
// (a row too long for a menu) takes a pin number or two joined by a dash,
// nothing else. Its text was joined to the row's label, so "B1" typed in
// row A's form read as "AB1" and, with 28 rows or more, knocked a pin of
// row AB.
func TestKaylesPinsFormTakesOnlyPins(t *testing.T) {
	h := newHarness(t, 1)
	g, who := growTo28Heaps(t, h, "kayles")
	form := AmountModal{Game: g.ID, Ply: g.Ply, Heap: 0}.CustomID()
	for _, text := range []string{"B1", "b1", "A1", "+1", "1-", "-1", "1 - 2", "1-2-3", "1,2", "one"} {
		resp := h.submit(who, form, text)
		if after := h.game(); after.Ply != g.Ply || !reflect.DeepEqual(after.Position, g.Position) {
			ms := h.moves(g.ID)
			t.Fatalf("%q in row A's form played %s: rows %v → %v", text, after.Rules.FormatMove(g.Position, ms[len(ms)-1].Move), g.Position.Heaps, after.Position.Heaps)
		}
		wantUserError(t, resp, "is not a pin of row A: type one pin number like 4, or two side by side like 4-5.")
	}
	// A pin, or two, still plays; the engine judges where they are.
	wantUserError(t, h.submit(who, form, fmt.Sprint(g.Position.Heaps[0]+1)), "row A has pins 1 to")
	if resp := h.submit(who, form, "1-2"); isEphemeral(resp) || h.game().Ply != g.Ply+1 {
		t.Fatalf("pins 1-2 of row A were not knocked down: %s", text(resp))
	}
}

// growTo28Heaps starts variant (Lasker's Nim or Kayles) between alice and
// bob on the most rows a board starts with and splits the longest, turn by
// turn, until there are 28 with a non-empty 28th (labelled AB). It returns
// the game and whose turn it is.
func growTo28Heaps(t *testing.T, h *harness, variant string) (*match.Game, string) {
	t.Helper()
	h.command(alice, "start", "variant", variant, "heaps", strings.TrimSpace(strings.Repeat("20 ", maxBoardHeaps)), "opponent", user(bob), "first", "me")
	g := h.game()
	h.click(bob, AcceptControl{Game: g.ID}.CustomID())
	players := []string{alice, bob}
	for k := 0; len(h.game().Position.Heaps) < 28; k++ {
		g = h.game()
		big := largestHeap(g.Position.Heaps)
		n := g.Position.Heaps[big]
		// Halves: a split in Lasker's Nim, a knock in the middle in Kayles.
		move := fmt.Sprintf("%s=%d+%d", engine.HeapLabel(big), n/2, n-n/2)
		if variant == "kayles" {
			move = fmt.Sprintf("%s%d", engine.HeapLabel(big), (n+1)/2)
		}
		if resp := h.command(players[k%2], "move", "notation", move); isEphemeral(resp) {
			t.Fatalf("%s: %s", move, text(resp))
		}
	}
	g = h.game()
	if g.Position.Heaps[27] == 0 {
		t.Fatalf("heap AB is empty: %v", g.Position.Heaps)
	}
	return g, players[g.Ply%2]
}

// TestMoveSplitForm: /nim move's split option takes two numbers joined by a
// plus, with or without spaces around them; any other shape is refused with
// the right form and nothing changed. "2 + 3" and "2, 3" used to be joined
// into "C=2 + 3" and "C=2, 3", which the engine read as a move in several
// heaps and answered with advice about that ("write each heap and amount,
// like A2 C1").
func TestMoveSplitForm(t *testing.T) {
	lasker := []any{"variant", "lasker", "heaps", "3 4 5"}
	for _, split := range []string{"2 + 3", " 2 +3", "2+ 3", "2\u00a0+\u00a03"} {
		t.Run("plays "+split, func(t *testing.T) {
			h := newHarness(t, 1)
			if resp := h.command(alice, "start", append([]any{"first", "me", "difficulty", "easy"}, lasker...)...); isEphemeral(resp) {
				t.Fatalf("start: %s", text(resp))
			}
			g := h.game()
			if resp := h.command(alice, "move", "heap", "C", "split", split); isEphemeral(resp) {
				t.Fatalf("split %q refused: %s", split, text(resp))
			}
			ms := h.moves(g.ID)
			want := engine.Move{Kind: engine.Split, Heap: 2, Parts: [2]int64{2, 3}}
			if len(ms) == 0 || !reflect.DeepEqual(ms[0].Move, want) {
				t.Fatalf("split %q played %+v, want %+v", split, ms, want)
			}
		})
	}
	for _, text := range []string{"2, 3", "2 3", "2,3", "2+3+0", "+5", "2+", "two+three", "2x3", "2-3", "C=2+3"} {
		// The text is echoed escaped for Markdown ("2\-3").
		c := moveCase{"refuses " + text, lasker, []any{"heap", "C", "split", text},
			`"` + escapeMarkdown(text) + `" is not a split: write the two parts of heap C joined by a plus sign, like split:2+3.`}
		t.Run(c.name, c.run)
	}
	// The engine still judges the parts.
	moveCase{"parts that do not add up", lasker, []any{"heap", "C", "split", "1 + 3"}, "add up to 5"}.run(t)
}
