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

// rules answers /nim rules [variant].
func (s *Service) rules(r *request) (*discordgo.InteractionResponse, error) {
	v := engine.Variant(subOptions(r.i).str(optVariant))
	if v == "" {
		v = defaultVariant
	}
	d, ok := engine.Describe(v)
	if !ok {
		var names []string
		for _, x := range engine.Variants() {
			names = append(names, string(x))
		}
		return nil, userErr("info.err.no_game", "Variant", quote(string(v), 20), "Variants", strings.Join(names, ", "))
	}
	// The game as /nim start plays it without options: the variant's own
	// convention (the 21 game is misère), so the title names what the
	// rules below describe, with its default parameters
	// ("Subtraction S(1..3)").
	title := variantTitle(r.lang, v)
	if n, err := (engine.Rules{Variant: v, Misere: d.Misere}).Normalize(); err == nil {
		title = r.lang.Phrase(n.NamePhrase())
	}
	text := r.lang.Phrase(d.RulesPhrase())
	if d.Has(engine.Split) || d.Has(engine.Knock) {
		// Splits and knocks in mid-row add heaps as the game goes.
		text += "\n\n" + manyHeapsNote(r.lang)
	}
	text += "\n\n" + r.t("info.rules.how", "Variant", string(v), "Notation", r.lang.Phrase(d.NotationPhrase()),
		"TypeButton", r.t("control.type"), "HintButton", r.t("control.hint"),
		"StartCommand", subName(subStart), "MoveCommand", subName(subMove), "VariantOption", optionName(optVariant),
		"OpponentOption", optionName(optOpponent), "NotationOption", optionName(optNotation), "MisereOption", optionName(optMisere))
	embed := &discordgo.MessageEmbed{Title: "📜 " + title, Description: truncate(text, 4096), Color: colourActive}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
		Embeds: []*discordgo.MessageEmbed{embed}, Flags: discordgo.MessageFlagsEphemeral,
	}}, nil
}

// stats answers /nim stats [user] [variant] for this server.
func (s *Service) stats(r *request) (*discordgo.InteractionResponse, error) {
	o := subOptions(r.i)
	user := o.str(optUser)
	if user == "" {
		user = r.userID()
	}
	v := engine.Variant(o.str(optVariant))
	table, err := s.scope(r)
	if err != nil {
		return nil, err
	}
	st, err := s.db.Stats(r.ctx, table, user, v)
	if err != nil {
		return nil, fmt.Errorf("stats: %w", err)
	}
	scope := r.t("info.scope.all")
	if v != "" {
		scope = variantTitle(r.lang, v)
	}
	var d []string
	d = append(d, fmt.Sprintf("%s · %s", r.lang.Phrase(name(user)), scope))
	if st.Wins+st.Losses == 0 {
		d = append(d, r.t("info.stats.none", "StartCommand", subName(subStart)))
	} else {
		d = append(d, r.t("info.stats.wins", "Count", st.Wins)+" · "+r.t("info.stats.losses", "Count", st.Losses)+" · "+r.t("info.stats.rating", "Rating", strconv.Itoa(st.Rating)))
		d = append(d, r.t("info.stats.streak", "Streak", st.Streak, "Best", st.BestStreak))
		var bot []string
		for _, diff := range engine.Difficulties() {
			if wl, ok := st.VsBot[diff]; ok && wl[0]+wl[1] > 0 {
				bot = append(bot, fmt.Sprintf("%s %s–%s", r.t("choice.difficulty."+string(diff)), r.lang.Number(int64(wl[0])), r.lang.Number(int64(wl[1]))))
			}
		}
		if len(bot) > 0 {
			d = append(d, r.t("info.stats.vs_bot", "Record", strings.Join(bot, " · ")))
		}
	}
	pd, err := s.puzzleStatsLine(r, user)
	if err != nil {
		return nil, err
	}
	d = append(d, pd...)
	embed := &discordgo.MessageEmbed{Title: r.t("info.stats.title"), Description: strings.Join(d, "\n"), Color: colourActive}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
		Embeds: []*discordgo.MessageEmbed{embed}, AllowedMentions: noMentions(),
	}}, nil
}

// scope is the table of results /nim stats and /nim leaderboard read for r
// (match.Scope): its server's, or outside servers its channel's. The
// channel's game, if one is live, must be played where r comes from
// (atGame): a request naming another server for a channel whose game
// says otherwise is not shown that server's table.
func (s *Service) scope(r *request) (string, error) {
	g, err := s.db.ChannelGame(r.ctx, r.origin.channel)
	switch {
	case errors.Is(err, match.ErrNotFound):
	case err != nil:
		return "", fmt.Errorf("load channel game: %w", err)
	default:
		if err := atGame(r, g); err != nil {
			return "", err
		}
	}
	return match.Scope(r.origin.guild, r.origin.channel), nil
}

// leaderboardSize is how many players /nim leaderboard lists.
const leaderboardSize = 10

// leaderboard answers /nim leaderboard [variant] for this server.
func (s *Service) leaderboard(r *request) (*discordgo.InteractionResponse, error) {
	if subOptions(r.i).bool(optPuzzles) {
		return s.puzzleLeaderboard(r)
	}
	v := engine.Variant(subOptions(r.i).str(optVariant))
	table, err := s.scope(r)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.Leaderboard(r.ctx, table, v, leaderboardSize)
	if err != nil {
		return nil, fmt.Errorf("leaderboard: %w", err)
	}
	scope := r.t("info.scope.all")
	if v != "" {
		scope = variantTitle(r.lang, v)
	}
	var lines []string
	for k, st := range rows {
		lines = append(lines, r.t("info.leaderboard.row", "Rank", fmt.Sprintf("%2d", k+1), "Player", name(st.UserID),
			"Rating", strconv.Itoa(st.Rating), "Wins", st.Wins, "Losses", st.Losses, "Best", st.BestStreak))
	}
	if len(lines) == 0 {
		lines = append(lines, r.t("info.leaderboard.empty", "StartCommand", subName(subStart)))
	}
	embed := &discordgo.MessageEmbed{Title: r.t("info.leaderboard.title", "Scope", scope), Description: strings.Join(lines, "\n"), Color: colourFinished}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
		Embeds: []*discordgo.MessageEmbed{embed}, AllowedMentions: noMentions(),
	}}, nil
}

// variantTitle is a variant's display name without parameters, in p's
// language.
func variantTitle(p *locale.Printer, v engine.Variant) string {
	if d, ok := engine.Describe(v); ok {
		return p.Phrase(d.TitlePhrase())
	}
	return string(v)
}
