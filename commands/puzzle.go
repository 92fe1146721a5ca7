package commands

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
	"nimbot/engine"
	"nimbot/match"
)

// Puzzles (/nim puzzle): a position from the engine's generator where the
// player to move wins, shown only to whoever asked. Any winning move
// counts; in a puzzle of two moves nimbot defends perfectly in between; a
// losing move fails it, and the answer says what would have won and why
// (the level-3 hint's reasoning). Nothing of a run is stored until it
// ends: the controls' custom_ids carry the puzzle id and the moves played
// (match.ReplayPuzzle rebuilds the rest), and the finished attempt is one
// Storage.RecordPuzzleAttempt, keyed by the /nim puzzle interaction that
// showed the puzzle, so a double click on the last move counts once.

// optTheme and optStreak are /nim puzzle's options; optPuzzles turns
// /nim leaderboard to the puzzles board.
const (
	optTheme   = "theme"
	optStreak  = "streak"
	optPuzzles = "puzzles"
)

// subPuzzle is the puzzle subcommand's name.
const subPuzzle = "puzzle"

// themeChoices offers every puzzle theme.
func themeChoices() []*discordgo.ApplicationCommandOptionChoice {
	var cs []*discordgo.ApplicationCommandOptionChoice
	for _, t := range engine.Themes() {
		cs = append(cs, &discordgo.ApplicationCommandOptionChoice{Name: themeEnglish[t], Value: string(t)})
	}
	return cs
}

// themeEnglish names the themes in the command's English choices (the
// catalog's choice.theme.* hold every language's).
var themeEnglish = map[engine.Theme]string{
	engine.ThemeTwentyOne: "the 21 game", engine.ThemeResidues: "residues", engine.ThemeNimSum: "nim-sum",
	engine.ThemeMisere: "misère endgame", engine.ThemeGreedy: "Greedy Nim", engine.ThemeZeckendorf: "Zeckendorf (Fibonacci Nim)",
	engine.ThemeWythoff: "Wythoff pairs", engine.ThemeGrundy: "Grundy values", engine.ThemeMoore: "Moore's Nim_k",
}

// themeName is a theme's name in lp's language.
func themeName(lp *locale.Printer, t engine.Theme) string { return lp.T("choice.theme." + string(t)) }

// puzzleSub is the /nim puzzle subcommand's definition.
func puzzleSub() *discordgo.ApplicationCommandOption {
	theme := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optTheme,
		Description: "Only this idea (default any)", Choices: themeChoices()}
	streak := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: optStreak,
		Description: "Puzzles of rising difficulty until your first mistake"}
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: subPuzzle,
		Description: "A puzzle near your rating: find the winning move", Options: []*discordgo.ApplicationCommandOption{theme, streak}}
}

// PuzzleControl is a control of a puzzle being solved, or finished:
//
//	pzplay/{puzzle}/{key}/{played}   the move menu (values: indexes into the legal moves)
//	pztype/{puzzle}/{key}/{played}   the button that opens the typed-move modal
//	pztyped/{puzzle}/{key}/{played}  that modal
//	pzshare/{puzzle}/{key}/{played}  post the finished run in the channel
//	pznext/{puzzle}/{key}/{played}   another puzzle of the same theme
//
// and, in a streak, a last segment: the puzzle's place in it, from 1
// (match.StreakPuzzle of the key's seed at that place less one).
//
// puzzle is an engine puzzle id, key the /nim puzzle interaction that
// showed it (the attempt's key), played the solver's moves so far as
// indexes into the legal moves of each position, joined by "." ("-" for
// none). It names no game: Target is (0, -1), and no board carries it.
type PuzzleControl struct {
	kind   string
	Puzzle string
	Key    string
	Played []int
	// Streak is the puzzle's place in a streak, from 1; 0 outside one.
	Streak int
}

// maxStreak bounds a streak's length (the ladder tops out long before).
const maxStreak = 10000

// maxPlayed bounds the moves a puzzle control carries (puzzles last at
// most two of the solver's moves).
const maxPlayed = 2

func readPuzzleControl(kind string) func(*segments) PuzzleControl {
	return func(f *segments) PuzzleControl {
		c := PuzzleControl{kind: kind, Puzzle: f.text()}
		key := f.number("key")
		c.Key = strconv.FormatInt(key, 10)
		played := f.text()
		if !f.shaped {
			return c
		}
		if _, err := engine.PuzzleByID(c.Puzzle); err != nil {
			f.fail("puzzle")
		}
		if f.more() {
			c.Streak = f.small("streak")
			if c.Streak < 1 || c.Streak > maxStreak {
				f.fail("streak")
			}
		}
		c.Played = readPlayed(f, played)
		return c
	}
}

var (
	puzzlePlayKind  = controlKind[PuzzleControl]{name: "pzplay", read: readPuzzleControl("pzplay")}
	puzzleTypeKind  = controlKind[PuzzleControl]{name: "pztype", read: readPuzzleControl("pztype")}
	puzzleTypedKind = controlKind[PuzzleControl]{name: "pztyped", read: readPuzzleControl("pztyped")}
	puzzleShareKind = controlKind[PuzzleControl]{name: "pzshare", read: readPuzzleControl("pzshare")}
	puzzleNextKind  = controlKind[PuzzleControl]{name: "pznext", read: readPuzzleControl("pznext")}
)

func init() {
	for _, k := range []anyKind{puzzlePlayKind, puzzleTypeKind, puzzleTypedKind, puzzleShareKind, puzzleNextKind} {
		controlKinds[k.kindName()] = k
	}
}

// CustomID is the control's custom_id.
func (c PuzzleControl) CustomID() string {
	played := writePlayed(c.Played)
	if c.Streak > 0 {
		return controlKind[PuzzleControl]{name: c.kind}.id(c.Puzzle, c.Key, played, c.Streak)
	}
	return controlKind[PuzzleControl]{name: c.kind}.id(c.Puzzle, c.Key, played)
}

// Target is (0, -1): a puzzle control acts on no game.
func (c PuzzleControl) Target() (int64, int) { return 0, -1 }
func (c PuzzleControl) kindName() string     { return c.kind }

// as is c as a control of kind k.
func (c PuzzleControl) as(k controlKind[PuzzleControl]) PuzzleControl {
	c.kind = k.name
	return c
}

// puzzleSeed is the random seed of the puzzle an interaction shows: its
// id, so a redelivery shows the same puzzle.
func puzzleSeed(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}

// puzzleCommand shows a puzzle near the user's rating (/nim puzzle).
func (s *Service) puzzleCommand(r *request) (*discordgo.InteractionResponse, error) {
	o := subOptions(r.i)
	if o.bool(optStreak) {
		z, err := match.StreakPuzzle(puzzleSeed(r.i.ID), 0)
		if err != nil {
			return nil, fmt.Errorf("streak puzzle: %w", err)
		}
		c := PuzzleControl{Puzzle: z.ID, Key: r.i.ID, Streak: 1}
		return puzzleMessage(r.lang, match.StartPuzzle(z), c, discordgo.InteractionResponseChannelMessageWithSource, ""), nil
	}
	theme := engine.Theme(o.str(optTheme))
	return s.showPuzzle(r, theme, r.i.ID, discordgo.InteractionResponseChannelMessageWithSource)
}

// showPuzzle draws the next puzzle of theme ("" any) for r's user from
// seed id, as a response of type t.
func (s *Service) showPuzzle(r *request, theme engine.Theme, id string, t discordgo.InteractionResponseType) (*discordgo.InteractionResponse, error) {
	user := r.userID()
	st, err := s.db.PuzzleStats(r.ctx, user)
	if err != nil {
		return nil, fmt.Errorf("puzzle stats: %w", err)
	}
	var seenErr error
	seen := func(pid string) bool {
		m, err := s.db.PuzzlesSeen(r.ctx, user, []string{pid})
		if err != nil {
			seenErr = err
		}
		return m[pid]
	}
	z, err := match.NextPuzzle(st.Rating.Rating, theme, seen, puzzleSeed(id))
	if err != nil {
		return nil, fmt.Errorf("next puzzle: %w", err)
	}
	if seenErr != nil {
		return nil, fmt.Errorf("puzzles seen: %w", seenErr)
	}
	return puzzleMessage(r.lang, match.StartPuzzle(z), PuzzleControl{Puzzle: z.ID, Key: id}, t, ""), nil
}

// puzzleRun rebuilds the run a control was drawn for, refusing a control
// whose moves do not replay (forged) or a run that has ended.
func puzzleRun(c PuzzleControl, wantSolving bool) (*match.PuzzleRun, error) {
	z, err := engine.PuzzleByID(c.Puzzle)
	if err != nil {
		return nil, userErr("control.err.bad", "Field", "puzzle", "StatusCommand", subName(subStatus))
	}
	if c.Streak > 0 {
		// A streak's puzzles are its seed's, in order: no other puzzle
		// takes a place in it.
		want, err := match.StreakPuzzle(puzzleSeed(c.Key), c.Streak-1)
		if err != nil {
			return nil, err
		}
		if want.ID != z.ID {
			return nil, userErr("control.err.bad", "Field", "streak", "StatusCommand", subName(subStatus))
		}
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
	if wantSolving && run.State != match.PuzzleSolving {
		return nil, userErr("puzzle.err.over", "PuzzleCommand", subName(subPuzzle))
	}
	return run, nil
}

// puzzleMenu plays the move chosen in the move menu.
func (s *Service) puzzleMenu(r *request, c PuzzleControl) (*answer, error) {
	run, err := puzzleRun(c, true)
	if err != nil {
		return nil, err
	}
	legal := run.Puzzle.Rules.Legal(run.Position)
	n, err := pickedMove(r, len(legal))
	if err != nil {
		return nil, err
	}
	return s.puzzleMove(r, c, run, legal[n], n)
}

// writePlayed writes a control's moves played so far as readPlayed reads
// them: "-" for none, else the indexes joined by ".".
func writePlayed(played []int) string {
	if len(played) == 0 {
		return "-"
	}
	s := make([]string, len(played))
	for i, n := range played {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ".")
}

// readPlayed reads a control's moves played so far: "-" for none, else
// indexes into each position's legal moves joined by "." (at most
// maxPlayed). Anything else fails f.
func readPlayed(f *segments, played string) []int {
	if played == "-" {
		return nil
	}
	parts := strings.Split(played, ".")
	if len(parts) > maxPlayed {
		f.fail("played")
		return nil
	}
	moves := make([]int, 0, len(parts))
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n >= engine.MaxLegalMoves || strconv.Itoa(n) != p {
			f.fail("played")
			return nil
		}
		moves = append(moves, n)
	}
	return moves
}

// pickedMove reads the one value of a move menu that lists a position's
// legal moves by index (puzzles and lessons): the index of one of moves
// legal moves, written as the menu wrote it, or a clear refusal.
func pickedMove(r *request, moves int) (int, error) {
	values := r.i.MessageComponentData().Values
	if len(values) != 1 {
		return 0, userErr("control.err.bad", "Field", "values", "StatusCommand", subName(subStatus))
	}
	n, err := strconv.Atoi(values[0])
	if err != nil || n < 0 || n >= moves || strconv.Itoa(n) != values[0] {
		return 0, userErr("control.err.bad", "Field", "values", "StatusCommand", subName(subStatus))
	}
	return n, nil
}

// puzzleAsk opens the typed-move modal.
func (s *Service) puzzleAsk(r *request, c PuzzleControl) (*answer, error) {
	run, err := puzzleRun(c, true)
	if err != nil {
		return nil, err
	}
	return typedMoveForm(r, c.as(puzzleTypedKind).CustomID(), run), nil
}

// puzzleTyped plays the move typed into the modal.
func (s *Service) puzzleTyped(r *request, c PuzzleControl) (*answer, error) {
	run, err := puzzleRun(c, true)
	if err != nil {
		return nil, err
	}
	m, n, err := typedMove(r, run)
	if err != nil {
		return nil, err
	}
	return s.puzzleMove(r, c, run, m, n)
}

// typedMove reads the move typed into a puzzle's or an exercise's modal:
// the legal move it names and its index among run's legal moves, or the
// engine's refusal of the text.
func typedMove(r *request, run *match.PuzzleRun) (engine.Move, int, error) {
	text := strings.TrimSpace(modalValue(r.i))
	m, err := run.Puzzle.Rules.ParseMove(run.Position, text)
	if err != nil {
		return engine.Move{}, 0, moveInputError(err, text)
	}
	for n, l := range run.Puzzle.Rules.Legal(run.Position) {
		if sameMove(l, m) {
			return l, n, nil
		}
	}
	// Legal lists every move of a puzzle's positions; a parsed move that is
	// not among them is refused as the engine refuses it.
	if err := run.Puzzle.Rules.Validate(run.Position, m); err != nil {
		return engine.Move{}, 0, moveInputError(err, text)
	}
	return engine.Move{}, 0, fmt.Errorf("puzzle %s: move %q parsed but not listed", run.Puzzle.ID, text)
}

// typedMoveForm is the modal a puzzle's or an exercise's ⌨️ button opens,
// answered at customID.
func typedMoveForm(r *request, customID string, run *match.PuzzleRun) *answer {
	return unchanged(modal(customID, r.t("play.modal.title"), r.t("play.modal.title"),
		r.lang.Phrase(notationExample(run.Puzzle.Rules)), 100))
}

// sameMove reports whether two moves are the same move.
func sameMove(x, y engine.Move) bool {
	return x.Kind == y.Kind && x.Heap == y.Heap && x.Take == y.Take && x.Parts == y.Parts && slices.Equal(x.Takes, y.Takes)
}

// puzzleMove plays m (the n-th legal move) in run: the board redrawn with
// nimbot's defence while the puzzle goes on, or the attempt recorded and
// its result shown once it ends.
func (s *Service) puzzleMove(r *request, c PuzzleControl, run *match.PuzzleRun, m engine.Move, n int) (*answer, error) {
	before := run.Position
	if err := run.Play(m); err != nil {
		return nil, moveInputError(err, run.Puzzle.Rules.FormatMove(before, m))
	}
	c.Played = append(c.Played, n)
	if run.State == match.PuzzleSolving {
		return unchanged(puzzleMessage(r.lang, run, c, discordgo.InteractionResponseUpdateMessage, "")), nil
	}
	if c.Streak > 0 {
		return s.streakMove(r, c, run)
	}
	z := run.Puzzle
	out, err := s.db.RecordPuzzleAttempt(r.ctx, match.PuzzleAttempt{
		AttemptKey: c.Key + "/" + r.userID(), UserID: r.userID(), Scope: match.Scope(r.i.GuildID, r.i.ChannelID),
		PuzzleID: z.ID, Theme: z.Theme, Initial: match.PuzzleGlicko(z), Solved: run.State == match.PuzzleSolved, Rated: true,
	})
	if err != nil && !match.IsDuplicateAttempt(err) {
		return nil, fmt.Errorf("record puzzle attempt: %w", err)
	}
	// A duplicate (a double click on the last move) shows the first
	// attempt's outcome: the result it counted.
	return unchanged(puzzleResult(r.lang, run, c, &out, discordgo.InteractionResponseUpdateMessage)), nil
}

// streakMove records the end of a streak's puzzle (casual: streaks are
// not rated) and shows the next puzzle of the ladder, or, after a mistake,
// what went wrong and how long the streak ran. A place past the first
// counts only if the user solved the place before it (its attempt is in
// the store), so a forged control cannot claim a streak never played.
func (s *Service) streakMove(r *request, c PuzzleControl, run *match.PuzzleRun) (*answer, error) {
	user := r.userID()
	streakKey := func(place int) string { return c.Key + "/" + user + "/" + strconv.Itoa(place) }
	if c.Streak > 1 {
		prev, err := s.db.PuzzleAttemptOutcome(r.ctx, streakKey(c.Streak-1))
		if errors.Is(err, match.ErrNotFound) || (err == nil && !prev.Solved) {
			return nil, userErr("puzzle.err.streak", "PuzzleCommand", subName(subPuzzle))
		}
		if err != nil {
			return nil, fmt.Errorf("streak: %w", err)
		}
	}
	solved := run.State == match.PuzzleSolved
	count := c.Streak - 1
	if solved {
		count = c.Streak
	}
	z := run.Puzzle
	_, err := s.db.RecordPuzzleAttempt(r.ctx, match.PuzzleAttempt{
		AttemptKey: streakKey(c.Streak), UserID: user, Scope: match.Scope(r.i.GuildID, r.i.ChannelID),
		PuzzleID: z.ID, Theme: z.Theme, Initial: match.PuzzleGlicko(z), Solved: solved, Streak: count,
	})
	if err != nil && !match.IsDuplicateAttempt(err) {
		return nil, fmt.Errorf("record streak attempt: %w", err)
	}
	if solved {
		next, err := match.StreakPuzzle(puzzleSeed(c.Key), c.Streak)
		if err != nil {
			return nil, fmt.Errorf("streak puzzle: %w", err)
		}
		nc := PuzzleControl{Puzzle: next.ID, Key: c.Key, Streak: c.Streak + 1}
		note := "✅ " + r.t("puzzle.solved") + " " + r.t("puzzle.streak", "Count", count)
		return unchanged(puzzleMessage(r.lang, match.StartPuzzle(next), nc, discordgo.InteractionResponseUpdateMessage, note)), nil
	}
	st, err := s.db.PuzzleStats(r.ctx, user)
	if err != nil {
		return nil, fmt.Errorf("puzzle stats: %w", err)
	}
	resp := puzzleResult(r.lang, run, c, nil, discordgo.InteractionResponseUpdateMessage)
	e := resp.Data.Embeds[0]
	e.Description = truncate(e.Description+"\n\n"+r.t("puzzle.streak.over", "Count", count, "Best", st.BestStreak), 4096)
	return unchanged(resp), nil
}

// puzzleShare posts the finished run in the channel, for everyone.
func (s *Service) puzzleShare(r *request, c PuzzleControl) (*answer, error) {
	run, err := puzzleRun(c, false)
	if err != nil {
		return nil, err
	}
	if run.State == match.PuzzleSolving {
		return nil, userErr("puzzle.err.unfinished")
	}
	resp := puzzleResult(r.lang, run, c, nil, discordgo.InteractionResponseChannelMessageWithSource)
	resp.Data.Flags = 0
	resp.Data.Components = []discordgo.MessageComponent{}
	resp.Data.Content = r.t("puzzle.shared", "User", "<@"+r.userID()+">")
	return unchanged(resp), nil
}

// puzzleNext shows another puzzle of the finished one's theme.
func (s *Service) puzzleNext(r *request, c PuzzleControl) (*answer, error) {
	z, err := engine.PuzzleByID(c.Puzzle)
	if err != nil {
		return nil, userErr("control.err.bad", "Field", "puzzle", "StatusCommand", subName(subStatus))
	}
	resp, err := s.showPuzzle(r, z.Theme, r.i.ID, discordgo.InteractionResponseChannelMessageWithSource)
	if err != nil {
		return nil, err
	}
	return unchanged(resp), nil
}

// puzzleFooter names the puzzle, so it can be found again.
func puzzleFooter(lp *locale.Printer, z engine.Puzzle) *discordgo.MessageEmbedFooter {
	return &discordgo.MessageEmbedFooter{Text: lp.T("puzzle.footer", "ID", z.ID, "Rating", z.Difficulty)}
}

// puzzleBoard is the puzzle's game and position, as the board draws them.
func puzzleBoard(lp *locale.Printer, run *match.PuzzleRun) string {
	z := run.Puzzle
	return "**" + lp.Phrase(z.Rules.NamePhrase()) + "**\n" + heapRows(lp, z.Rules, run.Position, 1500)
}

// puzzleMessage draws a run still being solved: the position, nimbot's
// last defence, what to find, and the move controls (a menu of every
// legal move when they fit one, and a button to type a move).
func puzzleMessage(lp *locale.Printer, run *match.PuzzleRun, c PuzzleControl, t discordgo.InteractionResponseType, note string) *discordgo.InteractionResponse {
	var notes []string
	if note != "" {
		notes = append(notes, note)
	}
	if c.Streak > 0 && note == "" {
		notes = append(notes, lp.T("puzzle.streak", "Count", c.Streak-1))
	}
	return runMessage(lp, run, c.as(puzzlePlayKind).CustomID(), c.as(puzzleTypeKind).CustomID(), t, notes, lp.T("puzzle.title", "Theme", themeName(lp, run.Puzzle.Theme)), nil)
}

// runMessage draws a run still being solved under title: notes, nimbot's
// last defence, the position, what to find, and the move controls (a menu
// of every legal move, menuID, when they fit one, and a button to type a
// move, typeID), then any extra rows.
func runMessage(lp *locale.Printer, run *match.PuzzleRun, menuID, typeID string, t discordgo.InteractionResponseType, notes []string, title string, extra []discordgo.MessageComponent) *discordgo.InteractionResponse {
	z := run.Puzzle
	d := append([]string(nil), notes...)
	if n := len(run.Replies); n > 0 {
		prev := z.Start
		for i, m := range run.Played[:n] {
			prev, _ = z.Rules.Apply(prev, m)
			if i < n-1 {
				prev, _ = z.Rules.Apply(prev, run.Replies[i])
			}
		}
		last := run.Replies[n-1]
		d = append(d, lp.T("puzzle.reply", "Move", z.Rules.FormatMove(prev, last), "Description", z.Rules.DescribeMove(prev, last)))
	}
	d = append(d, puzzleBoard(lp, run))
	d = append(d, lp.T("puzzle.task", "Count", run.MovesLeft()))
	embed := &discordgo.MessageEmbed{
		Title:       title,
		Description: truncate(strings.Join(d, "\n\n"), 4096),
		Color:       colourActive,
		Footer:      puzzleFooter(lp, z),
	}
	var comps []discordgo.MessageComponent
	if legal := z.Rules.Legal(run.Position); len(legal) <= 25 {
		menu := discordgo.SelectMenu{CustomID: menuID, Placeholder: lp.T("puzzle.menu")}
		for n, m := range legal {
			menu.Options = append(menu.Options, discordgo.SelectMenuOption{
				Label: truncate(z.Rules.FormatMove(run.Position, m)+" — "+lp.Phrase(z.Rules.DescribeMove(run.Position, m)), 100),
				Value: strconv.Itoa(n),
			})
		}
		comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{menu}})
	}
	comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: lp.T("puzzle.type"), Style: discordgo.SecondaryButton, CustomID: typeID},
	}})
	comps = append(comps, extra...)
	return &discordgo.InteractionResponse{Type: t, Data: &discordgo.InteractionResponseData{
		Embeds: []*discordgo.MessageEmbed{embed}, Components: comps,
		Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions(),
	}}
}

// puzzleResult draws a finished run: solved, or the losing move with what
// would have won and why; with out (the recorded outcome) the rating's
// change; Share and Next buttons.
func puzzleResult(lp *locale.Printer, run *match.PuzzleRun, c PuzzleControl, out *match.PuzzleOutcome, t discordgo.InteractionResponseType) *discordgo.InteractionResponse {
	z := run.Puzzle
	d, colour := runOutcome(lp, run)
	if out != nil {
		if out.Rated {
			d = append(d, lp.T("puzzle.rating", "Rating", int(math.Round(out.Player)), "Change", signed(out.PlayerChange)))
		} else {
			d = append(d, lp.T("puzzle.unrated", "Rating", int(math.Round(out.Player))))
		}
	}
	embed := &discordgo.MessageEmbed{
		Title:       lp.T("puzzle.title", "Theme", themeName(lp, z.Theme)),
		Description: truncate(strings.Join(d, "\n\n"), 4096),
		Color:       colour,
		Footer:      puzzleFooter(lp, z),
	}
	comps := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: lp.T("puzzle.share"), Style: discordgo.PrimaryButton, CustomID: c.as(puzzleShareKind).CustomID()},
		discordgo.Button{Label: lp.T("puzzle.next"), Style: discordgo.SecondaryButton, CustomID: c.as(puzzleNextKind).CustomID()},
	}}}
	return &discordgo.InteractionResponse{Type: t, Data: &discordgo.InteractionResponseData{
		Embeds: []*discordgo.MessageEmbed{embed}, Components: comps,
		Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions(),
	}}
}

// signed writes a rating change with its sign, rounded: "+12", "−7", "±0".
func signed(x float64) string {
	n := int(math.Round(x))
	switch {
	case n > 0:
		return "+" + strconv.Itoa(n)
	case n < 0:
		return "−" + strconv.Itoa(-n)
	}
	return "±0"
}

// puzzleStatsLine is /nim stats' line on puzzles: rating, solved of
// attempted, best streak; none for a user who never tried one.
func (s *Service) puzzleStatsLine(r *request, user string) ([]string, error) {
	st, err := s.db.PuzzleStats(r.ctx, user)
	if err != nil {
		return nil, fmt.Errorf("puzzle stats: %w", err)
	}
	lessons, err := s.lessonStatsLine(r, user)
	if err != nil {
		return nil, err
	}
	if st.Attempted == 0 {
		return lessons, nil
	}
	return append([]string{r.t("puzzle.stats", "Rating", int(math.Round(st.Rating.Rating)), "Solved", st.Solved,
		"Attempted", st.Attempted, "Best", st.BestStreak)}, lessons...), nil
}

// puzzleLeaderboard answers /nim leaderboard puzzles: the users who tried
// a puzzle here (this server, or this DM or group DM), by puzzle rating.
func (s *Service) puzzleLeaderboard(r *request) (*discordgo.InteractionResponse, error) {
	rows, err := s.db.PuzzleLeaderboard(r.ctx, match.Scope(r.i.GuildID, r.i.ChannelID), leaderboardSize)
	if err != nil {
		return nil, fmt.Errorf("puzzle leaderboard: %w", err)
	}
	var lines []string
	for k, st := range rows {
		lines = append(lines, r.t("puzzle.leaderboard.row", "Rank", fmt.Sprintf("%2d", k+1), "Player", name(st.UserID),
			"Rating", int(math.Round(st.Rating.Rating)), "Solved", st.Solved, "Attempted", st.Attempted, "Best", st.BestStreak))
	}
	if len(lines) == 0 {
		lines = append(lines, r.t("puzzle.leaderboard.empty", "PuzzleCommand", subName(subPuzzle)))
	}
	embed := &discordgo.MessageEmbed{Title: r.t("puzzle.leaderboard.title"), Description: strings.Join(lines, "\n"), Color: colourFinished}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
		Embeds: []*discordgo.MessageEmbed{embed}, AllowedMentions: noMentions(),
	}}, nil
}

// runOutcome says how a finished run ended: solved, with the final
// position; or the losing move, nimbot's answer to it, what would have won
// and why (the level-3 hint's reasoning). colour is the embed's.
func runOutcome(lp *locale.Printer, run *match.PuzzleRun) (d []string, colour int) {
	z := run.Puzzle
	if run.State == match.PuzzleSolved {
		return []string{"✅ " + lp.T("puzzle.solved"), puzzleBoard(lp, run)}, colourFinished
	}
	wrong := run.Played[len(run.Played)-1]
	d = append(d, "❌ "+lp.T("puzzle.failed", "Move", z.Rules.FormatMove(run.FailedAt, wrong), "Description", z.Rules.DescribeMove(run.FailedAt, wrong)))
	if !z.Rules.Over(run.Position) {
		d = append(d, lp.T("puzzle.refuted", "Move", z.Rules.FormatMove(run.Position, run.Refutation), "Description", z.Rules.DescribeMove(run.Position, run.Refutation)))
	}
	var better []string
	for i, m := range run.Better {
		if i == 5 {
			better = append(better, lp.T("puzzle.more", "Count", len(run.Better)-5))
			break
		}
		better = append(better, z.Rules.FormatMove(run.FailedAt, m)+" ("+lp.Phrase(z.Rules.DescribeMove(run.FailedAt, m))+")")
	}
	d = append(d, lp.T("puzzle.better", "Moves", strings.Join(better, ", ")))
	if h, err := z.Rules.Hint(run.FailedAt); err == nil {
		d = append(d, explanation(h.Explanation, lp))
	}
	return d, colourPending
}
