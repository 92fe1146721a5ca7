package commands

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"nimbot/engine"
	"nimbot/match"
)

// puzzleControlOf finds the control of kind k a response offers.
func puzzleControlOf(t testing.TB, resp *discordgo.InteractionResponse, k anyKind) (PuzzleControl, bool) {
	t.Helper()
	for _, id := range customIDs(resp) {
		c, err := ParseControl(id)
		if err == nil && c.kindName() == k.kindName() {
			return c.(PuzzleControl), true
		}
	}
	return PuzzleControl{}, false
}

// solvePuzzle plays moves chosen by pick in the puzzle resp shows, by the
// move menu while it has one and the typed-move modal otherwise, until the
// run ends; it returns the last answer and the run as it ended.
func solvePuzzle(t *testing.T, s speaker, who string, resp *discordgo.InteractionResponse, pick func(run *match.PuzzleRun) engine.Move) (*discordgo.InteractionResponse, *match.PuzzleRun) {
	t.Helper()
	for range 3 {
		c, ok := puzzleControlOf(t, resp, puzzleTypeKind)
		if !ok {
			break
		}
		run, err := puzzleRun(c, true)
		if err != nil {
			t.Fatal(err)
		}
		m := pick(run)
		legal := run.Puzzle.Rules.Legal(run.Position)
		n := slices.IndexFunc(legal, func(l engine.Move) bool { return sameMove(l, m) })
		if menu, ok := puzzleControlOf(t, resp, puzzlePlayKind); ok {
			resp = s.choose(who, menu.CustomID(), strconv.Itoa(n))
		} else {
			modal := s.click(who, c.CustomID())
			if modal.Type != discordgo.InteractionResponseModal {
				t.Fatalf("%s: the type button answered %d: %s", s.lang, modal.Type, text(modal))
			}
			resp = s.submit(who, c.as(puzzleTypedKind).CustomID(), run.Puzzle.Rules.FormatMove(run.Position, m))
		}
		if resp.Type != discordgo.InteractionResponseUpdateMessage || !isEphemeral(resp) {
			t.Fatalf("%s: a puzzle move answered %d: %s", s.lang, resp.Type, text(resp))
		}
		if _, done := puzzleControlOf(t, resp, puzzleShareKind); done {
			c.Played = append(c.Played, n)
			run, err := puzzleRun(c, false)
			if err != nil {
				t.Fatal(err)
			}
			return resp, run
		}
	}
	t.Fatalf("%s: the puzzle did not end: %s", s.lang, text(resp))
	return nil, nil
}

func winningPick(run *match.PuzzleRun) engine.Move {
	a, _ := run.Puzzle.Rules.Analyze(run.Position)
	return a.Winning[len(a.Winning)-1]
}

func losingPick(run *match.PuzzleRun) engine.Move {
	a, _ := run.Puzzle.Rules.Analyze(run.Position)
	for _, m := range run.Puzzle.Rules.Legal(run.Position) {
		if !slices.ContainsFunc(a.Winning, func(w engine.Move) bool { return sameMove(w, m) }) {
			return m
		}
	}
	panic("every move wins")
}

// TestPuzzleSolvedAndFailed: /nim puzzle shows a puzzle only to its user;
// winning moves solve it (with nimbot's defence between two), and the
// attempt moves the user's rating; a losing move fails it and the answer
// says what would have won, and why.
func TestPuzzleSolvedAndFailed(t *testing.T) {
	s := speaker{newHarness(t, 1), "en-US"}
	ctx := context.Background()
	for _, theme := range engine.Themes() {
		resp := s.command(alice, "puzzle", "theme", string(theme))
		if !isEphemeral(resp) || resp.Type != discordgo.InteractionResponseChannelMessageWithSource || !strings.Contains(text(resp), "Your move") {
			t.Fatalf("%s: /nim puzzle answered %d: %s", theme, resp.Type, text(resp))
		}
		before, _ := s.db.PuzzleStats(ctx, alice)
		end, run := solvePuzzle(t, s, alice, resp, winningPick)
		if run.State != match.PuzzleSolved || !strings.Contains(text(end), "Solved!") || !strings.Contains(text(end), "Puzzle rating:") {
			t.Fatalf("%s: winning moves: %s", theme, text(end))
		}
		after, _ := s.db.PuzzleStats(ctx, alice)
		if after.Attempted != before.Attempted+1 || after.Solved != before.Solved+1 || after.Rating.Rating <= before.Rating.Rating {
			t.Fatalf("%s: stats %+v, then %+v", theme, before, after)
		}
	}
	for _, theme := range []engine.Theme{engine.ThemeNimSum, engine.ThemeZeckendorf, engine.ThemeMoore} {
		resp := s.command(bob, "puzzle", "theme", string(theme))
		end, run := solvePuzzle(t, s, bob, resp, losingPick)
		if run.State != match.PuzzleFailed {
			t.Fatalf("%s: a losing move: %+v", theme, run)
		}
		for _, want := range []string{"gives the win away", "What would have won", "Why", "Puzzle rating:"} {
			if !strings.Contains(text(end), want) {
				t.Errorf("%s: the failure does not say %q: %s", theme, want, text(end))
			}
		}
		if want := run.Puzzle.Rules.FormatMove(run.FailedAt, run.Better[0]); !strings.Contains(text(end), want) {
			t.Errorf("%s: the failure does not name the winning %s: %s", theme, want, text(end))
		}
	}
	if st, _ := s.db.PuzzleStats(ctx, bob); st.Attempted != 3 || st.Solved != 0 || st.Rating.Rating >= 1500 {
		t.Fatalf("bob after three failures: %+v", st)
	}
	checkNothingMissing(t)
}

// TestPuzzleDoubleClick: the last move clicked twice (two interactions)
// counts once, and both answers show the same result.
func TestPuzzleDoubleClick(t *testing.T) {
	s := speaker{newHarness(t, 2), "en-US"}
	resp := s.command(alice, "puzzle", "theme", string(engine.ThemeTwentyOne))
	for range 3 {
		menu, ok := puzzleControlOf(t, resp, puzzlePlayKind)
		if !ok {
			t.Fatalf("no move menu: %s", text(resp))
		}
		run, err := puzzleRun(menu, true)
		if err != nil {
			t.Fatal(err)
		}
		legal := run.Puzzle.Rules.Legal(run.Position)
		n := slices.IndexFunc(legal, func(l engine.Move) bool { return sameMove(l, winningPick(run)) })
		first := s.choose(alice, menu.CustomID(), strconv.Itoa(n))
		if _, done := puzzleControlOf(t, first, puzzleShareKind); !done {
			resp = first
			continue
		}
		second := s.choose(alice, menu.CustomID(), strconv.Itoa(n))
		if text(first) != text(second) || !strings.Contains(text(first), "Solved!") {
			t.Fatalf("two clicks answered\n%s\nand\n%s", text(first), text(second))
		}
		if st, _ := s.db.PuzzleStats(context.Background(), alice); st.Attempted != 1 || st.Solved != 1 {
			t.Fatalf("after a double click: %+v", st)
		}
		return
	}
	t.Fatal("the puzzle did not end")
}

// TestPuzzleShareAndNext: Share posts the finished run for everyone (and
// refuses a run not finished); Next shows another puzzle of the theme.
func TestPuzzleShareAndNext(t *testing.T) {
	s := speaker{newHarness(t, 3), "en-US"}
	resp := s.command(alice, "puzzle", "theme", string(engine.ThemeWythoff))
	start, _ := puzzleControlOf(t, resp, puzzleTypeKind)
	wantUserError(t, s.click(alice, start.as(puzzleShareKind).CustomID()), "Finish the puzzle")
	end, _ := solvePuzzle(t, s, alice, resp, winningPick)
	share, ok := puzzleControlOf(t, end, puzzleShareKind)
	if !ok {
		t.Fatalf("no Share button: %s", text(end))
	}
	posted := s.click(alice, share.CustomID())
	if isEphemeral(posted) || posted.Type != discordgo.InteractionResponseChannelMessageWithSource ||
		!strings.Contains(text(posted), "<@"+alice+"> shares a puzzle") || !strings.Contains(text(posted), "Solved!") ||
		len(customIDs(posted)) != 0 || len(posted.Data.AllowedMentions.Parse) != 0 {
		t.Fatalf("Share posted %d: %s", posted.Type, text(posted))
	}
	next, _ := puzzleControlOf(t, end, puzzleNextKind)
	again := s.click(alice, next.CustomID())
	c, ok := puzzleControlOf(t, again, puzzleTypeKind)
	if !ok || !isEphemeral(again) || !strings.HasPrefix(c.Puzzle, string(engine.ThemeWythoff)+".") || c.Puzzle == start.Puzzle {
		t.Fatalf("Next showed %s: %s", c.Puzzle, text(again))
	}
}

// TestPuzzleForgedControls: controls a client forged, or a finished run's
// menu clicked again, are refused in words and change nothing.
func TestPuzzleForgedControls(t *testing.T) {
	s := speaker{newHarness(t, 4), "en-US"}
	resp := s.command(alice, "puzzle", "theme", string(engine.ThemeTwentyOne))
	menu, _ := puzzleControlOf(t, resp, puzzlePlayKind)
	typ, _ := puzzleControlOf(t, resp, puzzleTypeKind)
	for _, tc := range []struct {
		id, value, want string
	}{
		{menu.CustomID(), "99", "not one nimbot understands"},
		{menu.CustomID(), "x", "not one nimbot understands"},
		{menu.CustomID(), "01", "not one nimbot understands"},
		{"pzplay/nimsum.9.1/" + menu.Key + "/-", "0", "not one nimbot understands"},
		{"pzplay/" + menu.Puzzle + "/" + menu.Key + "/77", "0", "not one nimbot understands"},
		{"pzplay/" + menu.Puzzle + "/" + menu.Key + "/0.0.0", "0", "not one nimbot understands"},
	} {
		wantUserError(t, s.choose(alice, tc.id, tc.value), tc.want)
	}
	wantUserError(t, s.submit(alice, typ.as(puzzleTypedKind).CustomID(), "???"), "")
	if st, _ := s.db.PuzzleStats(context.Background(), alice); st.Attempted != 0 {
		t.Fatalf("forged controls counted an attempt: %+v", st)
	}
	// A finished run's menu, clicked again with another move.
	run, _ := puzzleRun(menu, true)
	if run.Puzzle.Moves == 1 {
		s.choose(alice, menu.CustomID(), "0")
		c := menu
		c.Played = []int{0}
		wantUserError(t, s.choose(alice, c.CustomID(), "0"), "This puzzle is finished")
	}
}

// TestPuzzleInEveryLanguage: a puzzle solved and one failed, every answer
// in every language nimbot speaks, nothing falling back to English.
func TestPuzzleInEveryLanguage(t *testing.T) {
	for _, lang := range renderLangs() {
		t.Run(lang, func(t *testing.T) {
			s := speaker{newHarness(t, 5), lang}
			s.command(alice, "leaderboard", "puzzles", true)
			resp := s.command(alice, "puzzle")
			solvePuzzle(t, s, alice, resp, winningPick)
			resp = s.command(alice, "puzzle", "theme", string(engine.ThemeGrundy))
			end, _ := solvePuzzle(t, s, alice, resp, losingPick)
			share, _ := puzzleControlOf(t, end, puzzleShareKind)
			s.click(alice, share.CustomID())
			share.Played = nil
			s.click(alice, share.CustomID())
			resp = s.command(alice, "puzzle", "streak", true)
			resp = playOne(t, s, alice, resp, winningPick)
			playOne(t, s, alice, resp, losingPick)
			s.command(alice, "stats")
			s.command(alice, "leaderboard", "puzzles", true)
			s.command(bob, "stats")
			forged := PuzzleControl{Puzzle: "nimsum.1.1", Key: "1", Streak: 3}
			s.submit(alice, forged.as(puzzleTypedKind).CustomID(), "A1")
			s.submit(alice, forged.as(puzzleTypedKind).CustomID(), "???")
		})
	}
	checkNothingMissing(t)
}

// TestPuzzleRecordedInTheStore: the attempt is the store's, under the key
// of the interaction that showed the puzzle.
func TestPuzzleRecordedInTheStore(t *testing.T) {
	s := speaker{newHarness(t, 6), "en-US"}
	resp := s.command(alice, "puzzle", "theme", string(engine.ThemeGreedy))
	c, _ := puzzleControlOf(t, resp, puzzleTypeKind)
	solvePuzzle(t, s, alice, resp, winningPick)
	seen, err := s.db.PuzzlesSeen(context.Background(), alice, []string{c.Puzzle})
	if err != nil || !reflect.DeepEqual(seen, map[string]bool{c.Puzzle: true}) {
		t.Fatalf("PuzzlesSeen: %v, %v", seen, err)
	}
	_, err = s.db.RecordPuzzleAttempt(context.Background(), match.PuzzleAttempt{AttemptKey: c.Key + "/" + alice, UserID: alice,
		Scope: guildID, PuzzleID: c.Puzzle, Initial: match.NewGlicko()})
	if !match.IsDuplicateAttempt(err) {
		t.Fatalf("the attempt's key is not %s/%s: %v", c.Key, alice, err)
	}
	_ = fmt.Sprint
}

// playOne plays pick's moves in the puzzle resp shows until that puzzle
// is over: a finished answer (Share), or the next puzzle of a streak.
func playOne(t *testing.T, s speaker, who string, resp *discordgo.InteractionResponse, pick func(run *match.PuzzleRun) engine.Move) *discordgo.InteractionResponse {
	t.Helper()
	first, _ := puzzleControlOf(t, resp, puzzleTypeKind)
	for range 3 {
		c, ok := puzzleControlOf(t, resp, puzzleTypeKind)
		if !ok || c.Puzzle != first.Puzzle || c.Streak != first.Streak {
			return resp
		}
		run, err := puzzleRun(c, true)
		if err != nil {
			t.Fatal(err)
		}
		m := pick(run)
		legal := run.Puzzle.Rules.Legal(run.Position)
		n := slices.IndexFunc(legal, func(l engine.Move) bool { return sameMove(l, m) })
		resp = s.submit(who, c.as(puzzleTypedKind).CustomID(), run.Puzzle.Rules.FormatMove(run.Position, m))
		if resp.Type != discordgo.InteractionResponseUpdateMessage {
			t.Fatalf("move %d answered %d: %s", n, resp.Type, text(resp))
		}
	}
	return resp
}

// TestPuzzleStreak: a streak climbs its ladder, puzzle after puzzle, until
// the first mistake; it is not rated, and the best streak is kept. A
// forged place in a streak, or another puzzle in it, is refused.
func TestPuzzleStreak(t *testing.T) {
	s := speaker{newHarness(t, 7), "en-US"}
	ctx := context.Background()
	resp := s.command(alice, "puzzle", "streak", true)
	start, ok := puzzleControlOf(t, resp, puzzleTypeKind)
	if !ok || start.Streak != 1 || !strings.Contains(text(resp), "Streak: 0 solved") {
		t.Fatalf("a streak starts with %+v: %s", start, text(resp))
	}
	var ids []string
	for k := 1; k <= 3; k++ {
		c, _ := puzzleControlOf(t, resp, puzzleTypeKind)
		ids = append(ids, c.Puzzle)
		resp = playOne(t, s, alice, resp, winningPick)
		next, ok := puzzleControlOf(t, resp, puzzleTypeKind)
		if !ok || next.Streak != k+1 || !strings.Contains(text(resp), fmt.Sprintf("Streak: %d solved in a row", k)) {
			t.Fatalf("after %d solved: %+v: %s", k, next, text(resp))
		}
		if want, _ := match.StreakPuzzle(puzzleSeed(start.Key), k); next.Puzzle != want.ID {
			t.Fatalf("place %d is %s, the ladder's %s", k+1, next.Puzzle, want.ID)
		}
	}
	end := playOne(t, s, alice, resp, losingPick)
	if !strings.Contains(text(end), "Streak over: 3 puzzles solved in a row. Your best streak: 3.") || !strings.Contains(text(end), "gives the win away") {
		t.Fatalf("the streak's end: %s", text(end))
	}
	st, _ := s.db.PuzzleStats(ctx, alice)
	if st.BestStreak != 3 || st.Attempted != 4 || st.Solved != 3 || st.Rating.Rating != 1500 {
		t.Fatalf("after a streak of 3: %+v", st)
	}
	// A second, shorter streak keeps the best.
	resp = s.command(alice, "puzzle", "streak", true)
	playOne(t, s, alice, resp, losingPick)
	if st, _ := s.db.PuzzleStats(ctx, alice); st.BestStreak != 3 {
		t.Fatalf("after a streak of 0: %+v", st)
	}

	// Forged: a later place of bob's own streak, never reached; a puzzle
	// that is not the ladder's at its place.
	resp = s.command(bob, "puzzle", "streak", true)
	c, _ := puzzleControlOf(t, resp, puzzleTypeKind)
	z, _ := match.StreakPuzzle(puzzleSeed(c.Key), 5)
	forged := PuzzleControl{Puzzle: z.ID, Key: c.Key, Streak: 6}
	run, _ := puzzleRun(forged, true)
	wantUserError(t, s.submit(bob, forged.as(puzzleTypedKind).CustomID(), z.Rules.FormatMove(run.Position, winningPick(run))), "cannot go on")
	other := PuzzleControl{Puzzle: ids[0], Key: c.Key, Streak: 2}
	wantUserError(t, s.submit(bob, other.as(puzzleTypedKind).CustomID(), "A1"), "not one nimbot understands")
	if st, _ := s.db.PuzzleStats(ctx, bob); st.Attempted != 0 || st.BestStreak != 0 {
		t.Fatalf("forged streak controls counted: %+v", st)
	}
}

// TestPuzzleStatsAndBoard: /nim stats shows the puzzle record of whoever
// tried one; /nim leaderboard puzzles lists who tried one here, best
// puzzle rating first, and no one from elsewhere.
func TestPuzzleStatsAndBoard(t *testing.T) {
	s := speaker{newHarness(t, 8), "en-US"}
	if got := text(s.command(alice, "leaderboard", "puzzles", true)); !strings.Contains(got, "Nobody has tried a puzzle here yet") {
		t.Fatalf("an empty puzzle board: %s", got)
	}
	if got := text(s.command(alice, "stats")); strings.Contains(got, "Puzzles") {
		t.Fatalf("stats before any puzzle: %s", got)
	}
	solvePuzzle(t, s, alice, s.command(alice, "puzzle", "theme", string(engine.ThemeNimSum)), winningPick)
	solvePuzzle(t, s, bob, s.command(bob, "puzzle", "theme", string(engine.ThemeNimSum)), losingPick)
	st, _ := s.db.PuzzleStats(context.Background(), alice)
	want := fmt.Sprintf("🧩 Puzzles: rating **%s** · 1 solved of 1 · best streak **0**", englishNumber(int(st.Rating.Rating+0.5)))
	if got := text(s.command(alice, "stats")); !strings.Contains(got, want) {
		t.Fatalf("stats: want %q in %s", want, got)
	}
	board := text(s.command(carol, "leaderboard", "puzzles", true))
	ia, ib := strings.Index(board, "<@"+alice+">"), strings.Index(board, "<@"+bob+">")
	if ia < 0 || ib < 0 || ia > ib || !strings.Contains(board, "1 of 1 solved") || !strings.Contains(board, "0 of 1 solved") {
		t.Fatalf("the puzzle board: %s", board)
	}
	if got := text(s.command(carol, "leaderboard")); strings.Contains(got, "<@"+alice+">") {
		t.Fatalf("the games board lists puzzle solvers: %s", got)
	}
	s.channel = chanDM
	dm := text(s.commandWith("application_command_dm.json", fields{UserID: alice, Sub: "leaderboard", Options: opts("puzzles", true)}))
	if !strings.Contains(dm, "Nobody has tried a puzzle here yet") {
		t.Fatalf("a DM's puzzle board: %s", dm)
	}
}

// englishNumber writes n as English messages do (1,234).
func englishNumber(n int) string {
	s := strconv.Itoa(n)
	if len(s) > 3 {
		s = s[:len(s)-3] + "," + s[len(s)-3:]
	}
	return s
}
