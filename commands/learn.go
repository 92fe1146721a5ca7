package commands

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
	"nimbot/engine"
	"nimbot/match"
)

// Lessons (/nim learn): one per idea, in the order of engine.Themes (the
// 21 game, residues, the nim-sum, misère Nim, Greedy Nim, Zeckendorf,
// Wythoff, Grundy values, Moore's Nim_k). A lesson is its idea in a few
// sentences (page 0), a worked example the engine draws and explains (page
// 1), and lessonExercises positions to win (pages 2 on), each a puzzle of
// the lesson's theme checked by the engine, each mistake explained.
// Progress (exercises solved, in order) is saved per user; /nim learn
// resumes where they stopped.

// subLearn is the lessons' subcommand.
const subLearn = "learn"

// lessonExercises is how many exercises each lesson has.
const lessonExercises = 3

// lessonPages is a lesson's pages: idea, example, exercises.
const lessonPages = 2 + lessonExercises

func learnSub() *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: subLearn,
		Description: "Lessons: the idea behind each game, then positions to win"}
}

// lessonExample is the worked example of lesson l: a small puzzle of its
// theme, the same for everyone.
func lessonExample(l int) (engine.Puzzle, error) {
	return engine.LessonPuzzle(engine.Themes()[l], 0)
}

// lessonExercise is exercise k of lesson l: levels 1, 2, 3 of its theme.
func lessonExercise(l, k int) (engine.Puzzle, error) {
	return engine.LessonPuzzle(engine.Themes()[l], k+1)
}

// LessonPageControl shows page Page of lesson Lesson: learn/{lesson}/{page}.
type LessonPageControl struct{ Lesson, Page int }

// LessonMenuControl is the menu of lessons: learnsel/0 (values: lesson
// indexes).
type LessonMenuControl struct{ Slot int }

// ExerciseControl is a control of exercise Exercise of lesson Lesson being
// played: lxplay (the move menu), lxtype (the type button), lxtyped (its
// modal), /{lesson}/{exercise}/{played}, played as in PuzzleControl.
type ExerciseControl struct {
	kind     string
	Lesson   int
	Exercise int
	Played   []int
}

func readLesson(f *segments) int {
	l := f.small("lesson")
	if l >= len(engine.Themes()) {
		f.fail("lesson")
	}
	return l
}

var (
	lessonPageKind = controlKind[LessonPageControl]{name: "learn", read: func(f *segments) LessonPageControl {
		c := LessonPageControl{Lesson: readLesson(f), Page: f.small("page")}
		if c.Page >= lessonPages {
			f.fail("page")
		}
		return c
	}}
	lessonMenuKind = controlKind[LessonMenuControl]{name: "learnsel", read: func(f *segments) LessonMenuControl {
		c := LessonMenuControl{Slot: f.small("slot")}
		if c.Slot != 0 {
			f.fail("slot")
		}
		return c
	}}
	exercisePlayKind  = controlKind[ExerciseControl]{name: "lxplay", read: readExercise("lxplay")}
	exerciseTypeKind  = controlKind[ExerciseControl]{name: "lxtype", read: readExercise("lxtype")}
	exerciseTypedKind = controlKind[ExerciseControl]{name: "lxtyped", read: readExercise("lxtyped")}
)

func readExercise(kind string) func(*segments) ExerciseControl {
	return func(f *segments) ExerciseControl {
		c := ExerciseControl{kind: kind, Lesson: readLesson(f), Exercise: f.small("exercise")}
		if c.Exercise >= lessonExercises {
			f.fail("exercise")
		}
		played := f.text()
		if !f.shaped {
			return c
		}
		c.Played = readPlayed(f, played)
		return c
	}
}

func init() {
	for _, k := range []anyKind{lessonPageKind, lessonMenuKind, exercisePlayKind, exerciseTypeKind, exerciseTypedKind} {
		controlKinds[k.kindName()] = k
	}
}

// CustomID is the control's custom_id.
func (c LessonPageControl) CustomID() string { return lessonPageKind.id(c.Lesson, c.Page) }

// Target is (0, -1): a lesson acts on no game.
func (c LessonPageControl) Target() (int64, int) { return 0, -1 }
func (LessonPageControl) kindName() string       { return lessonPageKind.name }

// CustomID is the control's custom_id.
func (c LessonMenuControl) CustomID() string { return lessonMenuKind.id(c.Slot) }

// Target is (0, -1): a lesson acts on no game.
func (c LessonMenuControl) Target() (int64, int) { return 0, -1 }
func (LessonMenuControl) kindName() string       { return lessonMenuKind.name }

// CustomID is the control's custom_id.
func (c ExerciseControl) CustomID() string {
	return controlKind[ExerciseControl]{name: c.kind}.id(c.Lesson, c.Exercise, writePlayed(c.Played))
}

// Target is (0, -1): a lesson acts on no game.
func (c ExerciseControl) Target() (int64, int) { return 0, -1 }
func (c ExerciseControl) kindName() string     { return c.kind }

func (c ExerciseControl) as(k controlKind[ExerciseControl]) ExerciseControl {
	c.kind = k.name
	return c
}

// learnCommand resumes the user's lessons: the first lesson not complete,
// at its idea if not started, else at the next exercise.
func (s *Service) learnCommand(r *request) (*discordgo.InteractionResponse, error) {
	progress, err := s.db.LessonProgress(r.ctx, r.userID())
	if err != nil {
		return nil, fmt.Errorf("lesson progress: %w", err)
	}
	for l, t := range engine.Themes() {
		if n := progress[string(t)]; n < lessonExercises {
			page := 0
			if n > 0 {
				page = 2 + n
			}
			return s.lessonPage(r, l, page, progress, discordgo.InteractionResponseChannelMessageWithSource)
		}
	}
	return s.lessonPage(r, len(engine.Themes())-1, 0, progress, discordgo.InteractionResponseChannelMessageWithSource)
}

// learnPage shows a page a Back or Next button names.
func (s *Service) learnPage(r *request, c LessonPageControl) (*answer, error) {
	progress, err := s.db.LessonProgress(r.ctx, r.userID())
	if err != nil {
		return nil, fmt.Errorf("lesson progress: %w", err)
	}
	resp, err := s.lessonPage(r, c.Lesson, c.Page, progress, discordgo.InteractionResponseUpdateMessage)
	if err != nil {
		return nil, err
	}
	return unchanged(resp), nil
}

// learnMenu shows the first page of the lesson picked in the menu.
func (s *Service) learnMenu(r *request, _ LessonMenuControl) (*answer, error) {
	values := r.i.MessageComponentData().Values
	if len(values) != 1 {
		return nil, userErr("control.err.bad", "Field", "values", "StatusCommand", subName(subStatus))
	}
	l, err := strconv.Atoi(values[0])
	if err != nil || l < 0 || l >= len(engine.Themes()) || strconv.Itoa(l) != values[0] {
		return nil, userErr("control.err.bad", "Field", "values", "StatusCommand", subName(subStatus))
	}
	return s.learnPage(r, LessonPageControl{Lesson: l})
}

// lessonTitle is a lesson's title, with its number and whether it is done.
func lessonTitle(lp *locale.Printer, l int, progress map[string]int) string {
	t := engine.Themes()[l]
	title := lp.T("learn.title", "Number", l+1, "Total", len(engine.Themes()), "Theme", themeName(lp, t))
	if progress[string(t)] >= lessonExercises {
		title += " ✅"
	}
	return title
}

// lessonNav is the row of Back and Next buttons of page of lesson l, and
// the menu of lessons.
func lessonNav(lp *locale.Printer, l, page int, progress map[string]int) []discordgo.MessageComponent {
	var btns []discordgo.MessageComponent
	if page > 0 {
		btns = append(btns, discordgo.Button{Label: lp.T("learn.back"), Style: discordgo.SecondaryButton, CustomID: LessonPageControl{Lesson: l, Page: page - 1}.CustomID()})
	}
	switch {
	case page+1 < lessonPages:
		btns = append(btns, discordgo.Button{Label: lp.T("learn.next"), Style: discordgo.PrimaryButton, CustomID: LessonPageControl{Lesson: l, Page: page + 1}.CustomID()})
	case l+1 < len(engine.Themes()):
		btns = append(btns, discordgo.Button{Label: lp.T("learn.next_lesson"), Style: discordgo.PrimaryButton, CustomID: LessonPageControl{Lesson: l + 1}.CustomID()})
	}
	menu := discordgo.SelectMenu{CustomID: LessonMenuControl{}.CustomID(), Placeholder: lp.T("learn.menu")}
	for i, t := range engine.Themes() {
		label := strconv.Itoa(i+1) + ". " + themeName(lp, t)
		if progress[string(t)] >= lessonExercises {
			label += " ✅"
		}
		menu.Options = append(menu.Options, discordgo.SelectMenuOption{Label: truncate(label, 100), Value: strconv.Itoa(i)})
	}
	rows := []discordgo.MessageComponent{}
	if len(btns) > 0 {
		rows = append(rows, discordgo.ActionsRow{Components: btns})
	}
	return append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{menu}})
}

// lessonPage draws page page of lesson l.
func (s *Service) lessonPage(r *request, l, page int, progress map[string]int, t discordgo.InteractionResponseType) (*discordgo.InteractionResponse, error) {
	lp := r.lang
	theme := engine.Themes()[l]
	if page >= 2 {
		k := page - 2
		z, err := lessonExercise(l, k)
		if err != nil {
			return nil, fmt.Errorf("lesson exercise: %w", err)
		}
		c := ExerciseControl{Lesson: l, Exercise: k}
		notes := []string{lp.T("learn.exercise", "Number", k+1, "Total", lessonExercises)}
		return runMessage(lp, match.StartPuzzle(z), c.as(exercisePlayKind).CustomID(), c.as(exerciseTypeKind).CustomID(), t, notes,
			lessonTitle(lp, l, progress), lessonNav(lp, l, page, progress)[:1]), nil
	}
	var d []string
	if page == 0 {
		d = append(d, lp.T("lesson."+string(theme)+".idea"))
		d = append(d, lp.T("learn.pages", "Count", lessonExercises))
	} else {
		z, err := lessonExample(l)
		if err != nil {
			return nil, fmt.Errorf("lesson example: %w", err)
		}
		d = append(d, lp.T("learn.example"))
		d = append(d, puzzleBoard(lp, match.StartPuzzle(z)))
		h, err := z.Rules.Hint(z.Start)
		if err != nil {
			return nil, fmt.Errorf("lesson example: %w", err)
		}
		d = append(d, explanation(h.Explanation, lp))
		w := z.Winning[0]
		d = append(d, lp.T("learn.example_move", "Move", z.Rules.FormatMove(z.Start, w), "Description", z.Rules.DescribeMove(z.Start, w)))
	}
	embed := &discordgo.MessageEmbed{Title: lessonTitle(lp, l, progress), Description: truncate(strings.Join(d, "\n\n"), 4096), Color: colourActive,
		Footer: &discordgo.MessageEmbedFooter{Text: lp.T("learn.footer", "Page", page+1, "Total", lessonPages)}}
	return &discordgo.InteractionResponse{Type: t, Data: &discordgo.InteractionResponseData{
		Embeds: []*discordgo.MessageEmbed{embed}, Components: lessonNav(lp, l, page, progress),
		Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions(),
	}}, nil
}

// exerciseRun rebuilds the run an exercise control was drawn for.
func exerciseRun(c ExerciseControl) (*match.PuzzleRun, error) {
	z, err := lessonExercise(c.Lesson, c.Exercise)
	if err != nil {
		return nil, err
	}
	run := match.StartPuzzle(z)
	for _, n := range c.Played {
		legal := z.Rules.Legal(run.Position)
		if n >= len(legal) || run.State != match.PuzzleSolving {
			return nil, userErr("control.err.bad", "Field", "played", "StatusCommand", subName(subStatus))
		}
		if err := run.Play(legal[n]); err != nil {
			return nil, err
		}
	}
	if run.State != match.PuzzleSolving {
		return nil, userErr("learn.err.over", "LearnCommand", subName(subLearn))
	}
	return run, nil
}

// exerciseMenu plays the move picked in an exercise's menu.
func (s *Service) exerciseMenu(r *request, c ExerciseControl) (*answer, error) {
	run, err := exerciseRun(c)
	if err != nil {
		return nil, err
	}
	legal := run.Puzzle.Rules.Legal(run.Position)
	n, err := pickedMove(r, len(legal))
	if err != nil {
		return nil, err
	}
	return s.exerciseMove(r, c, run, legal[n], n)
}

// exerciseAsk opens the typed-move modal.
func (s *Service) exerciseAsk(r *request, c ExerciseControl) (*answer, error) {
	run, err := exerciseRun(c)
	if err != nil {
		return nil, err
	}
	return typedMoveForm(r, c.as(exerciseTypedKind).CustomID(), run), nil
}

// exerciseTyped plays the move typed into the modal.
func (s *Service) exerciseTyped(r *request, c ExerciseControl) (*answer, error) {
	run, err := exerciseRun(c)
	if err != nil {
		return nil, err
	}
	m, n, err := typedMove(r, run)
	if err != nil {
		return nil, err
	}
	return s.exerciseMove(r, c, run, m, n)
}

// exerciseMove plays m in an exercise: the board again while it goes on;
// once solved, the progress saved (exercises count in order) and the way
// on; once failed, why, and Try again.
func (s *Service) exerciseMove(r *request, c ExerciseControl, run *match.PuzzleRun, m engine.Move, n int) (*answer, error) {
	before := run.Position
	if err := run.Play(m); err != nil {
		return nil, moveInputError(err, run.Puzzle.Rules.FormatMove(before, m))
	}
	c.Played = append(c.Played, n)
	user := r.userID()
	progress, err := s.db.LessonProgress(r.ctx, user)
	if err != nil {
		return nil, fmt.Errorf("lesson progress: %w", err)
	}
	lp := r.lang
	page := 2 + c.Exercise
	if run.State == match.PuzzleSolving {
		notes := []string{lp.T("learn.exercise", "Number", c.Exercise+1, "Total", lessonExercises)}
		return unchanged(runMessage(lp, run, c.as(exercisePlayKind).CustomID(), c.as(exerciseTypeKind).CustomID(), discordgo.InteractionResponseUpdateMessage,
			notes, lessonTitle(lp, c.Lesson, progress), lessonNav(lp, c.Lesson, page, progress)[:1])), nil
	}
	theme := string(run.Puzzle.Theme)
	d, colour := runOutcome(lp, run)
	var rows []discordgo.MessageComponent
	if run.State == match.PuzzleSolved {
		if progress[theme] >= c.Exercise {
			if err := s.db.AdvanceLesson(r.ctx, user, theme, c.Exercise+1); err != nil {
				return nil, fmt.Errorf("advance lesson: %w", err)
			}
			progress[theme] = max(progress[theme], c.Exercise+1)
		}
		if progress[theme] >= lessonExercises {
			d = append(d, lp.T("learn.complete"))
		}
		rows = lessonNav(lp, c.Lesson, page, progress)
	} else {
		rows = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: lp.T("learn.retry"), Style: discordgo.PrimaryButton, CustomID: LessonPageControl{Lesson: c.Lesson, Page: page}.CustomID()},
		}}}
	}
	embed := &discordgo.MessageEmbed{Title: lessonTitle(lp, c.Lesson, progress), Description: truncate(strings.Join(d, "\n\n"), 4096), Color: colour,
		Footer: puzzleFooter(lp, run.Puzzle)}
	return unchanged(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
		Embeds: []*discordgo.MessageEmbed{embed}, Components: rows,
		Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions(),
	}}), nil
}

// lessonStatsLine is /nim stats' line on lessons, none before the first.
func (s *Service) lessonStatsLine(r *request, user string) ([]string, error) {
	progress, err := s.db.LessonProgress(r.ctx, user)
	if err != nil {
		return nil, fmt.Errorf("lesson progress: %w", err)
	}
	if len(progress) == 0 {
		return nil, nil
	}
	done := 0
	for _, n := range progress {
		if n >= lessonExercises {
			done++
		}
	}
	return []string{r.t("learn.stats", "Done", done, "Total", len(engine.Themes()))}, nil
}
