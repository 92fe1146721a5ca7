package terminal

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"nimbot/engine"
)

var puzzleFooter = regexp.MustCompile(`\(Puzzle ([a-z0-9]+\.\d\.\d+) ·`)

// TestTerminalPuzzle: the terminal offers puzzles as Discord does: /nim
// puzzle shows one with its move menu, a move picked by number is judged
// (here a losing one, explained with the moves that would have won), the
// attempt counts in /nim stats, /nim daily shows the day's puzzle, and
// /nim learn opens the first lesson.
func TestTerminalPuzzle(t *testing.T) {
	tm := startTerminal(t, filepath.Join(t.TempDir(), "nimbot.db"))
	out := tm.do("nim puzzle theme:nimsum")
	m := puzzleFooter.FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, "Choose your move") {
		t.Fatalf("no puzzle shown:\n%s", out)
	}
	z, err := engine.PuzzleByID(m[1])
	if err != nil {
		t.Fatal(err)
	}
	legal := z.Rules.Legal(z.Start)
	losing := slices.IndexFunc(legal, func(l engine.Move) bool {
		return !slices.ContainsFunc(z.Winning, func(w engine.Move) bool { return fmt.Sprint(w) == fmt.Sprint(l) })
	})
	out = tm.do(fmt.Sprintf("1 %d", losing+1))
	for _, want := range []string{"gives the win away", "What would have won", z.Rules.FormatMove(z.Start, z.Winning[0]), "Puzzle rating"} {
		if !strings.Contains(out, want) {
			t.Fatalf("the failed puzzle does not say %q:\n%s", want, out)
		}
	}
	if out := tm.do("nim stats"); !strings.Contains(out, "0 solved of 1") {
		t.Fatalf("stats:\n%s", out)
	}
	if out := tm.do("nim daily"); !strings.Contains(out, "Today's puzzle") || puzzleFooter.FindString(out) == "" {
		t.Fatalf("daily:\n%s", out)
	}
	if out := tm.do("nim learn"); !strings.Contains(out, "Lesson 1 of 9") || !strings.Contains(out, "Next") {
		t.Fatalf("learn:\n%s", out)
	}
	tm.close()
}
