package commands

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
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
// buttons (which update that message, an ephemeral one). A level button
// on any other message, which only a forged custom_id puts there, gets
// its hint as a new ephemeral message too: an update would put the move
// in place of the public board, for everyone to see.
func (s *Service) hintButton(r *request, c HintControl) (*answer, error) {
	g, err := s.controlGame(r, c.Game)
	if err != nil {
		return nil, err
	}
	if g.Status == match.Active && g.Ply != c.Ply {
		return nil, userErr("hint.err.earlier_turn", "HintCommand", subName(subHint))
	}
	level, t := 1, discordgo.InteractionResponseChannelMessageWithSource
	if c.Level != 0 {
		level = c.Level
		if m := r.i.Message; m != nil && m.Flags&discordgo.MessageFlagsEphemeral != 0 {
			t = discordgo.InteractionResponseUpdateMessage
		}
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
		return nil, userErr("hint.err.level")
	case g.Status == match.Pending:
		return nil, userErr("hint.err.pending")
	case g.Status.Finished():
		return nil, userErr("hint.err.over")
	case user != g.Players[0] && user != g.Players[1]:
		return nil, errNotPlaying()
	case user != g.ToMove():
		return nil, userErr("hint.err.not_your_turn", "Player", name(g.ToMove()))
	case !hintsAllowed(g):
		return nil, userErr("hint.err.off")
	}
	h, err := g.Rules.Hint(g.Position)
	if err != nil {
		if errors.Is(err, engine.ErrGameOver) {
			return nil, errOver()
		}
		return nil, fmt.Errorf("hint for game %d: %w", g.ID, err)
	}
	var d []string
	d = append(d, "**"+r.lang.Phrase(h.Verdict)+"**")
	if level >= 2 {
		d = append(d, r.t("hint.try", "Move", g.Rules.FormatMove(g.Position, h.Move), "Description", g.Rules.DescribeMove(g.Position, h.Move)))
		if !h.MoverWins {
			d[len(d)-1] += " " + r.t(holdOutNote(h.HoldOut))
		}
	}
	if level >= 3 {
		d = append(d, explanation(h.Explanation, r.lang))
	}
	d = append(d, r.t("hint.log_note"))
	embed := &discordgo.MessageEmbed{
		Title:       r.t("hint.title", "Level", level),
		Description: truncate(strings.Join(d, "\n\n"), 4096),
		Color:       colourPending,
		Footer:      &discordgo.MessageEmbedFooter{Text: r.t("hint.footer", "Game", strconv.FormatInt(g.ID, 10), "Move", g.Ply+1)},
	}
	var btns []discordgo.MessageComponent
	if level < 2 {
		btns = append(btns, discordgo.Button{Label: r.t("hint.button.show"), Style: discordgo.PrimaryButton, CustomID: HintControl{Game: g.ID, Ply: g.Ply, Level: 2}.CustomID()})
	}
	if level < 3 {
		btns = append(btns, discordgo.Button{Label: r.t("hint.button.explain"), Style: discordgo.SecondaryButton, CustomID: HintControl{Game: g.ID, Ply: g.Ply, Level: 3}.CustomID()})
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
		// A board kept of the game shows no hint at this ply: let it go.
		s.recent.drop(g.ID)
		if err != nil {
			return false, fmt.Errorf("record hint: %w", err)
		}
		return recorded, nil
	})
}

// holdOutNote is the message for a lost position's hinted move: it claims
// what the engine's judging of the move backs, and no more ("holds out
// longest" only when the search measured every move).
func holdOutNote(h engine.HoldOut) string {
	switch h {
	case engine.HoldOutLongest:
		return "hint.holds_out"
	case engine.HoldOutFewestReplies:
		return "hint.fewest_replies"
	}
	return "hint.lost"
}

// explanation renders the engine's reasoning: the theory, the steps, and
// the table as a code block, in lp's language (the reader's).
func explanation(e engine.Explanation, lp *locale.Printer) string {
	render := lp.Phrase
	var b strings.Builder
	if theory := render(e.Theory); theory != "" {
		b.WriteString(lp.T("hint.why", "Theory", theory) + "\n")
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
	if g.ChannelID == r.origin.channel {
		// Clicked in its own channel: from the game's place, or forged.
		if err := atGame(r, g); err != nil {
			return nil, err
		}
	}
	if !mayReview(g, r) {
		// Game ids are sequential: without this, anyone could read every
		// server's games by counting.
		return nil, userErr("review.err.elsewhere")
	}
	if !g.Status.Finished() {
		return nil, userErr("review.err.unfinished")
	}
	moves, err := s.db.Moves(r.ctx, g.ID)
	if err != nil {
		return nil, fmt.Errorf("load moves of game %d: %w", g.ID, err)
	}
	if len(moves) == 0 {
		return nil, userErr("review.err.no_moves")
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
			d = append(d, r.t("review.start_first", "Player", name(g.Players[0])))
		} else {
			d = append(d, r.t("review.start_second", "Player", name(g.Players[1])))
		}
	}
	for seat := 0; seat < 2; seat++ {
		var lines []string
		for _, m := range mistakes {
			if m.Ply%2 != seat {
				continue
			}
			lines = append(lines, r.t("review.mistake", "Ply", m.Ply+1,
				"Played", g.Rules.DescribeMove(m.Before, m.Played), "Better", g.Rules.DescribeMove(m.Before, m.Better), "Move", g.Rules.FormatMove(m.Before, m.Better)))
		}
		head := fmt.Sprintf("**%s**", r.lang.Phrase(name(g.Players[seat])))
		if len(lines) == 0 {
			d = append(d, r.t("review.no_mistakes", "Player", head))
			continue
		}
		if len(lines) > 10 {
			lines = append(lines[:10], r.t("review.more", "Count", len(lines)-10))
		}
		d = append(d, r.t("review.mistakes", "Player", head, "Count", countSeat(mistakes, seat))+"\n"+strings.Join(lines, "\n"))
	}
	embed := &discordgo.MessageEmbed{
		Title:       truncate(r.t("review.title", "Game", g.Rules.NamePhrase()), 256),
		Description: truncate(strings.Join(d, "\n\n"), 4096),
		Color:       colourActive,
		Footer:      &discordgo.MessageEmbedFooter{Text: r.t("review.footer", "Game", strconv.FormatInt(g.ID, 10), "Result", result(r.lang, g))},
	}
	return unchanged(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
		Embeds: []*discordgo.MessageEmbed{embed}, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions(),
	}}), nil
}

// mayReview reports whether r may see g's review: anyone in the server g
// was played in, and for a game in DMs only its players.
func mayReview(g *match.Game, r *request) bool {
	if g.GuildID != "" {
		return r.origin.holds(g)
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
		return nil, userErr("analyze.err.no_position")
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
		d = append(d, r.t("analyze.over"))
	case a.MoverWins:
		d = append(d, r.t("analyze.wins"))
	default:
		d = append(d, r.t("analyze.loses"))
	}
	if len(a.Winning) > 0 {
		var lines []string
		for k, m := range a.Winning {
			if k == maxListedWinning {
				break
			}
			lines = append(lines, fmt.Sprintf("`%s` — %s", rules.FormatMove(pos, m), r.lang.Phrase(rules.DescribeMove(pos, m))))
		}
		head := r.t("analyze.winning", "Count", a.WinningCount)
		if more := a.WinningCount - int64(len(lines)); more > 0 {
			lines = append(lines, r.t("analyze.more", "Count", more))
		}
		d = append(d, head+"\n"+strings.Join(lines, "\n"))
	}
	if !over {
		if h, err := rules.Hint(pos); err == nil {
			d = append(d, explanation(h.Explanation, r.lang))
		}
	}
	embed := &discordgo.MessageEmbed{
		Title:       truncate(r.t("analyze.title", "Game", rules.NamePhrase(), "Position", engine.FormatGame(rules, pos)), 256),
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
