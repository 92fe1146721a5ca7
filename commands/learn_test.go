package commands

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"nimbot/engine"
	"nimbot/match"
)

// controlOf finds the first control of type C a response offers.
func controlOf[C Control](t testing.TB, resp *discordgo.InteractionResponse, kind string) (C, bool) {
	t.Helper()
	var zero C
	for _, id := range customIDs(resp) {
		c, err := ParseControl(id)
		if err == nil && c.kindName() == kind {
			if v, ok := c.(C); ok {
				return v, true
			}
		}
	}
	return zero, false
}

// playExercise plays pick's moves in the exercise resp shows, by its menu
// or typed, until it ends; it returns the last answer.
func playExercise(t *testing.T, s speaker, who string, resp *discordgo.InteractionResponse, pick func(run *match.PuzzleRun) engine.Move) *discordgo.InteractionResponse {
	t.Helper()
	for range 3 {
		c, ok := controlOf[ExerciseControl](t, resp, "lxtype")
		if !ok {
			return resp
		}
		run, err := exerciseRun(c)
		if err != nil {
			t.Fatal(err)
		}
		m := pick(run)
		legal := run.Puzzle.Rules.Legal(run.Position)
		n := slices.IndexFunc(legal, func(l engine.Move) bool { return sameMove(l, m) })
		if menu, ok := controlOf[ExerciseControl](t, resp, "lxplay"); ok {
			resp = s.choose(who, menu.CustomID(), strconv.Itoa(n))
		} else {
			resp = s.submit(who, c.as(exerciseTypedKind).CustomID(), run.Puzzle.Rules.FormatMove(run.Position, m))
		}
		if resp.Type != discordgo.InteractionResponseUpdateMessage {
			t.Fatalf("%s: an exercise move answered %d: %s", s.lang, resp.Type, text(resp))
		}
	}
	t.Fatalf("the exercise did not end: %s", text(resp))
	return nil
}

// TestLearn: /nim learn opens the first lesson at its idea; Next shows the
// worked example, then the exercises; each solved exercise is saved, a
// failed one explained and offered again; all three complete the lesson,
// which /nim stats shows, and /nim learn resumes at the next lesson.
// Exercises count in order, and the lesson menu goes anywhere.
func TestLearn(t *testing.T) {
	s := speaker{newHarness(t, 11), "en-US"}
	ctx := context.Background()
	resp := s.command(alice, "learn")
	if !isEphemeral(resp) || !strings.Contains(text(resp), "Lesson 1 of 9 · the 21 game") || !strings.Contains(text(resp), "say the next multiple of 4") {
		t.Fatalf("/nim learn: %s", text(resp))
	}
	next, ok := controlOf[LessonPageControl](t, resp, "learn")
	if !ok || next != (LessonPageControl{Lesson: 0, Page: 1}) {
		t.Fatalf("the first page's Next: %+v", next)
	}
	resp = s.click(alice, next.CustomID())
	ex, _ := engine.LessonPuzzle(engine.ThemeTwentyOne, 0)
	if !strings.Contains(text(resp), "The winning move: "+ex.Rules.FormatMove(ex.Start, ex.Winning[0])) || !strings.Contains(text(resp), "Why") {
		t.Fatalf("the worked example: %s", text(resp))
	}
	// Exercise 3 before 1 and 2: solved, but not counted.
	resp = s.click(alice, LessonPageControl{Lesson: 0, Page: 4}.CustomID())
	playExercise(t, s, alice, resp, winningPick)
	if p, _ := s.db.LessonProgress(ctx, alice); p["21"] != 0 {
		t.Fatalf("an exercise out of order counted: %v", p)
	}
	// A mistake: explained, Try again, nothing saved.
	resp = s.click(alice, LessonPageControl{Lesson: 0, Page: 2}.CustomID())
	end := playExercise(t, s, alice, resp, losingPick)
	retry, ok := controlOf[LessonPageControl](t, end, "learn")
	if !strings.Contains(text(end), "gives the win away") || !ok || retry.Page != 2 {
		t.Fatalf("a failed exercise: %s", text(end))
	}
	for page := 2; page < lessonPages; page++ {
		resp = s.click(alice, LessonPageControl{Lesson: 0, Page: page}.CustomID())
		end = playExercise(t, s, alice, resp, winningPick)
		if !strings.Contains(text(end), "Solved!") {
			t.Fatalf("exercise %d: %s", page-1, text(end))
		}
		if p, _ := s.db.LessonProgress(ctx, alice); p["21"] != page-1 {
			t.Fatalf("after exercise %d: %v", page-1, p)
		}
	}
	if !strings.Contains(text(end), "Lesson complete!") || !hasID(end, LessonPageControl{Lesson: 1}.CustomID()) {
		t.Fatalf("the lesson's end: %s", text(end))
	}
	if got := text(s.command(alice, "learn")); !strings.Contains(got, "Lesson 2 of 9 · residues") {
		t.Fatalf("/nim learn after lesson 1: %s", got)
	}
	if got := text(s.command(alice, "stats")); !strings.Contains(got, "📘 Lessons: 1 of 9 complete") {
		t.Fatalf("stats: %s", got)
	}
	// The lesson menu.
	menu := LessonMenuControl{}.CustomID()
	if got := text(s.choose(alice, menu, "8")); !strings.Contains(got, "Lesson 9 of 9 · Moore's Nim_k") {
		t.Fatalf("the menu's lesson 9: %s", got)
	}
	for _, bad := range []string{"9", "-1", "x", "08"} {
		wantUserError(t, s.choose(alice, menu, bad), "not one nimbot understands")
	}
	wantUserError(t, s.click(alice, "learn/9/0"), "not one nimbot understands")
	wantUserError(t, s.click(alice, "learn/0/5"), "not one nimbot understands")
	// A finished exercise's controls, clicked again.
	c := ExerciseControl{kind: "lxplay", Lesson: 0, Exercise: 0}
	run, _ := exerciseRun(c)
	legal := run.Puzzle.Rules.Legal(run.Position)
	c.Played = []int{slices.IndexFunc(legal, func(l engine.Move) bool { return sameMove(l, run.Puzzle.Winning[0]) })}
	if run.Puzzle.Moves == 1 {
		wantUserError(t, s.choose(alice, c.CustomID(), "0"), "This exercise is finished")
	}
}

// TestLearnInEveryLanguage: every lesson's pages and an exercise of each,
// in every language, nothing falling back to English.
func TestLearnInEveryLanguage(t *testing.T) {
	for _, lang := range renderLangs() {
		t.Run(lang, func(t *testing.T) {
			s := speaker{newHarness(t, 12), lang}
			s.command(alice, "learn")
			for l := range engine.Themes() {
				for page := 0; page < lessonPages; page++ {
					resp := s.click(alice, LessonPageControl{Lesson: l, Page: page}.CustomID())
					if page == 2 {
						playExercise(t, s, alice, resp, winningPick)
					}
					if page == 3 {
						playExercise(t, s, alice, resp, losingPick)
					}
				}
			}
			s.command(alice, "stats")
			s.click(alice, "learn/9/0")
		})
	}
	checkNothingMissing(t)
}
