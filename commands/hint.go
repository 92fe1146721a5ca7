package commands

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"nimbot/engine"
	"nimbot/match"
)

// hintCommand answers /nim hint level:N.
func (s *Service) hintCommand(r *request) (*answer, error) {
	g, err := s.channelGame(r)
	if err != nil {
		return nil, err
	}
	level := int(subOptions(r.i).int(optLevel))
	if level == 0 {
		level = 2
	}
	return s.hint(r, g, level, discordgo.InteractionResponseChannelMessageWithSource)
}

// hintButton answers the board's 💡 button (level 1, as a new ephemeral
// message) and the hint message's own "show the move" and "explain"
// buttons (which update that message).
func (s *Service) hintButton(r *request, c HintControl) (*answer, error) {
	g, err := s.controlGame(r, c.Game)
	if err != nil {
		return nil, err
	}
	if g.Status == match.Active && g.Ply != c.Ply {
		return nil, userErrorf("That hint was for an earlier turn; the game has moved on. Ask again with 💡 on the newest board or /nim hint.")
	}
	level, t := 1, discordgo.InteractionResponseChannelMessageWithSource
	if c.Level != 0 {
		level, t = c.Level, discordgo.InteractionResponseUpdateMessage
	}
	return s.hint(r, g, level, t)
}

// hint shows the player to move a hint at level 1 (who is winning), 2 (the
// move) or 3 (the move and the reasoning), and records it so the move log
// marks the move made after it.
func (s *Service) hint(r *request, g *match.Game, level int, t discordgo.InteractionResponseType) (*answer, error) {
	user := r.userID()
	switch {
	case level < 1 || level > 3:
		return nil, userErrorf("Hint levels are 1 (who is winning), 2 (the move) and 3 (the move and why).")
	case g.Status == match.Pending:
		return nil, userErrorf("The game has not started yet: the challenge is waiting for an answer.")
	case g.Status.Finished():
		return nil, userErrorf("This game is over, so there is nothing to hint. Click Review on the board to see the mistakes.")
	case user != g.Players[0] && user != g.Players[1]:
		return nil, userErr(msgNotPlaying)
	case user != g.ToMove():
		return nil, userErrorf("Hints are for the player whose turn it is, and it is %s's turn. Ask again on your turn.", name(g.ToMove()))
	case !hintsAllowed(g):
		return nil, userErrorf("Hints are off in this game: the challenger turned them off. Play it out on your own!")
	}
	h, err := g.Rules.Hint(g.Position)
	if err != nil {
		if errors.Is(err, engine.ErrGameOver) {
			return nil, userErr(msgOver)
		}
		return nil, fmt.Errorf("hint for game %d: %w", g.ID, err)
	}
	var d []string
	d = append(d, "**"+r.lang.Phrase(h.Verdict)+"**")
	if level >= 2 {
		d = append(d, fmt.Sprintf("Try **`%s`**: it %s.", g.Rules.FormatMove(g.Position, h.Move), r.lang.Phrase(g.Rules.DescribeMove(g.Position, h.Move))))
		if !h.MoverWins {
			d[len(d)-1] += " It holds out longest; with perfect play from here your opponent wins."
		}
	}
	if level >= 3 {
		d = append(d, explanation(h.Explanation, r.lang.Phrase))
	}
	d = append(d, "-# Hints used show in the move log with 💡.")
	embed := &discordgo.MessageEmbed{
		Title:       fmt.Sprintf("💡 Hint — level %d", level),
		Description: truncate(strings.Join(d, "\n\n"), 4096),
		Color:       colourPending,
		Footer:      &discordgo.MessageEmbedFooter{Text: fmt.Sprintf("Game #%d · move %d", g.ID, g.Ply+1)},
	}
	var btns []discordgo.MessageComponent
	if level < 2 {
		btns = append(btns, discordgo.Button{Label: "Show the move", Style: discordgo.PrimaryButton, CustomID: HintControl{Game: g.ID, Ply: g.Ply, Level: 2}.CustomID()})
	}
	if level < 3 {
		btns = append(btns, discordgo.Button{Label: "Explain why", Style: discordgo.SecondaryButton, CustomID: HintControl{Game: g.ID, Ply: g.Ply, Level: 3}.CustomID()})
	}
	comps := []discordgo.MessageComponent{}
	if len(btns) > 0 {
		comps = append(comps, discordgo.ActionsRow{Components: btns})
	}
	resp := &discordgo.InteractionResponse{Type: t, Data: &discordgo.InteractionResponseData{
		Embeds: []*discordgo.MessageEmbed{embed}, Components: comps,
		Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions(),
	}}
	// The hint is recorded with its answer; a hint already recorded at this
	// ply (a second look, the level 2 and 3 buttons) changes nothing.
	return s.answers.commit(r, g.ID, func(interactionID string, keep func(*discordgo.InteractionResponse) ([]byte, error)) (bool, error) {
		b, err := keep(resp)
		if err != nil {
			return false, err
		}
		recorded, err := s.db.RecordHint(r.ctx, match.Hint{GameID: g.ID, Ply: g.Ply, UserID: user, InteractionID: interactionID, Response: b})
		if err != nil {
			return false, fmt.Errorf("record hint: %w", err)
		}
		return recorded, nil
	})
}

// explanation renders the engine's reasoning: the theory, the steps, and
// the table as a code block, each phrase rendered by render (the reader's
// language).
func explanation(e engine.Explanation, render func(engine.Phrase) string) string {
	var b strings.Builder
	if theory := render(e.Theory); theory != "" {
		fmt.Fprintf(&b, "**Why** (%s):\n", theory)
	}
	for _, s := range e.Steps {
		fmt.Fprintf(&b, "• %s\n", render(s))
	}
	if e.Table != nil {
		b.WriteString(renderTable(e.Table, render))
	}
	return strings.TrimRight(b.String(), "\n")
}

// renderTable draws a Table in a code block, so Discord keeps its columns
// (the binary digits of a nim-sum) aligned.
func renderTable(t *engine.Table, render func(engine.Phrase) string) string {
	return "```\n" + strings.Join(t.Lines(render), "\n") + "\n```"
}

// review shows, only to whoever asks, each side's mistakes in a finished
// game: moves that turned a won position into a lost one.
func (s *Service) review(r *request, c ReviewControl) (*answer, error) {
	g, err := s.anyGame(r, c.Game)
	if err != nil {
		return nil, err
	}
	if !mayReview(g, r) {
		// Game ids are sequential: without this, anyone could read every
		// server's games by counting.
		return nil, userErrorf("That game was played elsewhere: a review is shown only in the server it was played in (or, for a game in DMs, to its players).")
	}
	if !g.Status.Finished() {
		return nil, userErrorf("The review opens when the game is over — no peeking mid-game. Ask for a 💡 hint instead.")
	}
	moves, err := s.db.Moves(r.ctx, g.ID)
	if err != nil {
		return nil, fmt.Errorf("load moves of game %d: %w", g.ID, err)
	}
	if len(moves) == 0 {
		return nil, userErrorf("No moves were played in this game, so there is nothing to review.")
	}
	played := make([]engine.Move, len(moves))
	for k, m := range moves {
		played[k] = m.Move
	}
	mistakes, err := g.Rules.Review(g.Start, played)
	if err != nil {
		return nil, fmt.Errorf("review game %d: %w", g.ID, err)
	}
	var d []string
	opening, err := g.Rules.Analyze(g.Start)
	if err == nil {
		if opening.MoverWins {
			d = append(d, fmt.Sprintf("From the start, %s (moving first) could force a win.", name(g.Players[0])))
		} else {
			d = append(d, fmt.Sprintf("From the start, %s (moving second) could force a win.", name(g.Players[1])))
		}
	}
	for seat := 0; seat < 2; seat++ {
		var lines []string
		for _, m := range mistakes {
			if m.Ply%2 != seat {
				continue
			}
			lines = append(lines, fmt.Sprintf("`%d.` %s — better: %s (`%s`)", m.Ply+1,
				r.lang.Phrase(g.Rules.DescribeMove(m.Before, m.Played)), r.lang.Phrase(g.Rules.DescribeMove(m.Before, m.Better)), g.Rules.FormatMove(m.Before, m.Better)))
		}
		head := fmt.Sprintf("**%s**", name(g.Players[seat]))
		if len(lines) == 0 {
			d = append(d, head+": no mistakes — never let a won position go.")
			continue
		}
		if len(lines) > 10 {
			lines = append(lines[:10], fmt.Sprintf("…and %d more", len(lines)-10))
		}
		d = append(d, fmt.Sprintf("%s: %d mistake(s)\n%s", head, countSeat(mistakes, seat), strings.Join(lines, "\n")))
	}
	embed := &discordgo.MessageEmbed{
		Title:       "🔎 Review — " + g.Rules.Name(),
		Description: truncate(strings.Join(d, "\n\n"), 4096),
		Color:       colourActive,
		Footer:      &discordgo.MessageEmbedFooter{Text: fmt.Sprintf("Game #%d · %s", g.ID, result(r.lang, g))},
	}
	return unchanged(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
		Embeds: []*discordgo.MessageEmbed{embed}, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions(),
	}}), nil
}

// mayReview reports whether r may see g's review: anyone in the server g
// was played in, and for a game in DMs only its players.
func mayReview(g *match.Game, r *request) bool {
	if g.GuildID != "" {
		return g.GuildID == r.i.GuildID
	}
	user := r.userID()
	return user == g.Players[0] || user == g.Players[1]
}

func countSeat(ms []engine.Mistake, seat int) int {
	n := 0
	for _, m := range ms {
		if m.Ply%2 == seat {
			n++
		}
	}
	return n
}

// maxListedWinning caps the winning moves /nim analyze lists.
const maxListedWinning = 30

// analyze answers /nim analyze: any position, no game needed.
func (s *Service) analyze(r *request) (*discordgo.InteractionResponse, error) {
	o := subOptions(r.i)
	text := strings.TrimSpace(o.str(optPosition))
	if text == "" {
		return nil, userErrorf(`Give a position, like "3 4 5", "nim misere 3-4-5", "wythoff 3 5" or "kayles 5 8".`)
	}
	rules, pos, err := engine.ParseGame(text)
	if err != nil {
		if errors.Is(err, engine.ErrTooLarge) {
			return nil, userErr("refusal.position.too_large", "Reason", engineReason(err))
		}
		return nil, userErr("refusal.position.unreadable", "Position", fmt.Sprintf("%q", quote(text, 60)), "Reason", engineReason(err))
	}
	a, err := rules.Analyze(pos)
	switch {
	case errors.Is(err, engine.ErrTooLarge):
		return nil, userErr("refusal.position.too_large_smaller", "Reason", engineReason(err))
	case errors.Is(err, engine.ErrInvalid):
		return nil, userErr("refusal.position.invalid", "Reason", engineReason(err))
	case err != nil:
		return nil, fmt.Errorf("analyze %q: %w", text, err)
	}
	var d []string
	if len(pos.Heaps) <= maxBoardHeaps && maxHeap(pos) <= maxBoardHeap {
		d = append(d, heapRows(r.lang, rules, pos, descLimit/2))
	}
	d = append(d, convention(r.lang, rules))
	over := rules.Over(pos)
	switch {
	case over:
		d = append(d, "**No move is left: the game is over.**")
	case a.MoverWins:
		d = append(d, "**The player to move wins** with perfect play.")
	default:
		d = append(d, "**The player to move loses** against perfect play: every move leads to a winning position for the opponent.")
	}
	if len(a.Winning) > 0 {
		var lines []string
		for k, m := range a.Winning {
			if k == maxListedWinning {
				break
			}
			lines = append(lines, fmt.Sprintf("`%s` — %s", rules.FormatMove(pos, m), r.lang.Phrase(rules.DescribeMove(pos, m))))
		}
		head := fmt.Sprintf("**Winning moves (%d):**", a.WinningCount)
		if a.WinningCount == 1 {
			head = "**The only winning move:**"
		}
		if more := a.WinningCount - int64(len(lines)); more > 0 {
			lines = append(lines, fmt.Sprintf("…and %d more", more))
		}
		d = append(d, head+"\n"+strings.Join(lines, "\n"))
	}
	if !over {
		if h, err := rules.Hint(pos); err == nil {
			d = append(d, explanation(h.Explanation, r.lang.Phrase))
		}
	}
	embed := &discordgo.MessageEmbed{
		Title:       truncate("🧮 "+rules.Name()+": "+engine.FormatGame(rules, pos), 256),
		Description: truncate(strings.Join(d, "\n\n"), 4096),
		Color:       colourActive,
	}
	data := &discordgo.InteractionResponseData{Embeds: []*discordgo.MessageEmbed{embed}, AllowedMentions: noMentions()}
	if !o.bool(optPublic) {
		data.Flags = discordgo.MessageFlagsEphemeral
	}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: data}, nil
}

func maxHeap(p engine.Position) int64 {
	var m int64
	for _, h := range p.Heaps {
		m = max(m, h)
	}
	return m
}
