package commands

import (
	"reflect"
	"testing"
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
