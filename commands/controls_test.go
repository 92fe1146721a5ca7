package commands

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// Every kind of control, as boards already posted carry it: the format must
// not change, so these strings are written out rather than built.
var postedControls = []struct {
	customID string
	control  Control
}{
	{"accept/12", AcceptControl{Game: 12}},
	{"decline/12", DeclineControl{Game: 12}},
	{"heap/12/3/1", HeapControl{Game: 12, Ply: 3, Heap: 1}},
	{"heapsel/12/3", HeapMenuControl{Game: 12, Ply: 3}},
	{"move/12/3/1/4", MoveControl{Game: 12, Ply: 3, Heap: 1, Take: 4}},
	{"play/12/3/a", MoveMenuControl{Game: 12, Ply: 3, Slot: "a"}},
	{"play/12/3/x", MoveMenuControl{Game: 12, Ply: 3, Slot: "x"}},
	{"ask/12/3/0", AskControl{Game: 12, Ply: 3, Heap: 0}},
	{"amount/12/3/0", AmountModal{Game: 12, Ply: 3, Heap: 0}},
	{"type/12/3", TypeControl{Game: 12, Ply: 3}},
	{"type/12/3/x", TypeControl{Game: 12, Ply: 3, Slot: "x"}},
	{"typed/12/3", TypedModal{Game: 12, Ply: 3}},
	{"hint/12/3", HintControl{Game: 12, Ply: 3}},
	{"hint/12/3/2", HintControl{Game: 12, Ply: 3, Level: 2}},
	{"resign/12/3", ResignControl{Game: 12, Ply: 3}},
	{"rematch/12", RematchControl{Game: 12}},
	{"review/12", ReviewControl{Game: 12}},
	{"move/0/0/0/0", MoveControl{}},
	{"forget/ask", ForgetControl{Step: "ask"}},
	{"forget/yes/1767268800", ForgetControl{Step: "yes", Issued: 1767268800}},
	{"forget/no", ForgetControl{Step: "no"}},
	{"pzplay/nimsum.3.42/1300000000000000001/-", PuzzleControl{kind: "pzplay", Puzzle: "nimsum.3.42", Key: "1300000000000000001"}},
	{"pztype/21.1.7/1300000000000000001/2", PuzzleControl{kind: "pztype", Puzzle: "21.1.7", Key: "1300000000000000001", Played: []int{2}}},
	{"pztyped/21.1.7/1300000000000000001/2", PuzzleControl{kind: "pztyped", Puzzle: "21.1.7", Key: "1300000000000000001", Played: []int{2}}},
	{"pzshare/moore.5.7/1300000000000000001/4.0", PuzzleControl{kind: "pzshare", Puzzle: "moore.5.7", Key: "1300000000000000001", Played: []int{4, 0}}},
	{"pznext/wythoff.1.7/1300000000000000001/0", PuzzleControl{kind: "pznext", Puzzle: "wythoff.1.7", Key: "1300000000000000001", Played: []int{0}}},
	{"pzplay/21.1.7/1300000000000000001/-/3", PuzzleControl{kind: "pzplay", Puzzle: "21.1.7", Key: "1300000000000000001", Streak: 3}},
	{"learn/2/1", LessonPageControl{Lesson: 2, Page: 1}},
	{"learnsel/0", LessonMenuControl{}},
	{"lxplay/0/2/-", ExerciseControl{kind: "lxplay", Lesson: 0, Exercise: 2}},
	{"lxtype/8/0/3", ExerciseControl{kind: "lxtype", Lesson: 8, Exercise: 0, Played: []int{3}}},
	{"lxtyped/8/1/3.1", ExerciseControl{kind: "lxtyped", Lesson: 8, Exercise: 1, Played: []int{3, 1}}},
}

func TestControlsKeepTheirCustomIDs(t *testing.T) {
	kinds := map[string]bool{}
	for _, c := range postedControls {
		t.Run(c.customID, func(t *testing.T) {
			if got := c.control.CustomID(); got != c.customID {
				t.Errorf("%#v.CustomID() = %q, want %q", c.control, got, c.customID)
			}
			got, err := ParseControl(c.customID)
			if err != nil || !reflect.DeepEqual(got, c.control) {
				t.Errorf("ParseControl(%q) = %#v, %v; want %#v", c.customID, got, err, c.control)
			}
		})
		kinds[c.control.kindName()] = true
	}
	for name := range controlKinds {
		if !kinds[name] {
			t.Errorf("kind %q has no posted example here", name)
		}
	}
}

// Each id stays within Discord's limit (limCustomID) whatever its numbers.
func TestControlCustomIDsWithinDiscordLimit(t *testing.T) {
	const g, n, take = math.MaxInt64, math.MaxInt, math.MaxInt64
	widest := []Control{
		AcceptControl{g}, DeclineControl{g}, HeapControl{g, n, n}, HeapMenuControl{g, n},
		MoveControl{g, n, n, take}, MoveMenuControl{g, n, "x"}, AskControl{g, n, n}, AmountModal{g, n, n},
		TypeControl{g, n, "x"}, TypedModal{g, n}, HintControl{g, n, n}, ResignControl{g, n},
		RematchControl{g}, ReviewControl{g}, ForgetControl{"yes", take},
	}
	widest = append(widest, LessonPageControl{8, lessonPages - 1}, LessonMenuControl{})
	for _, k := range []string{"lxplay", "lxtype", "lxtyped"} {
		widest = append(widest, ExerciseControl{kind: k, Lesson: 8, Exercise: lessonExercises - 1, Played: []int{65535, 65535}})
	}
	for _, k := range []string{"pzplay", "pztype", "pztyped", "pzshare", "pznext"} {
		widest = append(widest, PuzzleControl{kind: k, Puzzle: "zeckendorf.5.4294967295", Key: "9223372036854775807", Played: []int{65535, 65535}, Streak: maxStreak})
	}
	if len(widest) != len(controlKinds) {
		t.Fatalf("%d controls checked, %d kinds", len(widest), len(controlKinds))
	}
	for _, c := range widest {
		if id := c.CustomID(); len(id) < 1 || len(id) > limCustomID {
			t.Errorf("%s: %d characters (%q), Discord allows 1 to %d", c.kindName(), len(id), id, limCustomID)
		}
	}
}

// Anything but an id nimbot draws is refused, so every control has one
// custom_id (and a forged variant of one acts on nothing).
func TestParseControlRefuses(t *testing.T) {
	for _, id := range []string{
		"", "move", "bogus/1", "move/1/0/0", "move/1/0/0/1/2", "move/x/0/0/1", "move/-1/0/0/1",
		"move/+1/0/0/1", "move/01/0/0/1", "move/1/0/0/99999999999999999999", "heap/1/0/4294967296",
		"hint/1/0/0", "type/1/2/", "play/1/2", "accept/", "accept//", "review/1/2",
		"forget", "forget/maybe", "forget/yes", "forget/yes/x", "forget/yes/01", "forget/ask/1", "forget/no/",
	} {
		if c, err := ParseControl(id); err == nil {
			t.Errorf("ParseControl(%q) = %#v, want an error", id, c)
		}
	}
}

// Every kind is routed, by exactly one interaction type's table, and only
// board-only kinds mark a message as the board.
func TestEveryControlIsRouted(t *testing.T) {
	s := New(Config{})
	for _, c := range postedControls {
		n := 0
		for _, rt := range s.mux {
			if rt.match(c.customID) != nil {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%q is routed by %d tables, want 1", c.customID, n)
		}
	}
	for _, c := range postedControls {
		m := &discordgo.Message{Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{CustomID: c.customID},
		}}}}
		game, ok := boardGame(m)
		_, isHint := c.control.(HintControl)
		_, isReview := c.control.(ReviewControl)
		_, isModal := c.control.(AmountModal)
		_, isTyped := c.control.(TypedModal)
		_, isPuzzle := c.control.(PuzzleControl)
		_, isPage := c.control.(LessonPageControl)
		_, isMenu := c.control.(LessonMenuControl)
		_, isExercise := c.control.(ExerciseControl)
		_, isForget := c.control.(ForgetControl)
		want := !isHint && !isReview && !isModal && !isTyped && !isForget && !isPuzzle && !isPage && !isMenu && !isExercise
		if ok != want || (ok && game != 12 && game != 0) {
			t.Errorf("%q marks a board: %v (game %d), want %v", c.customID, ok, game, want)
		}
	}
}

// FuzzParseControl: whatever ParseControl accepts, CustomID writes back as
// it was, so one control has one id.
func FuzzParseControl(f *testing.F) {
	for _, c := range postedControls {
		f.Add(c.customID)
	}
	f.Add("move/9223372036854775807/2147483647/2147483647/9223372036854775807")
	f.Fuzz(func(t *testing.T, id string) {
		c, err := ParseControl(id)
		if err != nil {
			return
		}
		if got := c.CustomID(); got != id {
			t.Fatalf("ParseControl(%q).CustomID() = %q", id, got)
		}
		if game, ply := c.Target(); game < 0 || ply < -1 {
			t.Fatalf("ParseControl(%q) targets game %d, ply %d", id, game, ply)
		}
		if !strings.HasPrefix(id, c.kindName()+"/") {
			t.Fatalf("ParseControl(%q) is of kind %q", id, c.kindName())
		}
	})
}
