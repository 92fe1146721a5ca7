package commands

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

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
		return nil, userErrorf("There is no game %q. Choose one of: %s.", quote(string(v), 20), strings.Join(names, ", "))
	}
	title := d.Title
	if n, err := (engine.Rules{Variant: v}).Normalize(); err == nil {
		title = n.Name()
	}
	text := d.Rules
	if d.Has(engine.Split) || d.Has(engine.Knock) {
		// Splits and knocks in mid-row add heaps as the game goes.
		text += "\n\n" + manyHeapsNote(r.lang)
	}
	text += "\n\n**How to play here:** `/nim start variant:" + string(v) + "` against nimbot, or add `opponent:` to challenge someone. " +
		"Click a heap, then an amount, or type any move (" + d.Notation + ") with ⌨️ Type a move or `/nim move notation:`; 💡 Hint explains the winning idea. Any variant can be played misère (`misere:True`)."
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
	st, err := s.db.Stats(r.ctx, match.Scope(r.i.GuildID, r.i.ChannelID), user, v)
	if err != nil {
		return nil, fmt.Errorf("stats: %w", err)
	}
	scope := "all games"
	if v != "" {
		scope = variantTitle(v)
	}
	var d []string
	d = append(d, fmt.Sprintf("%s · %s", name(user), scope))
	if st.Wins+st.Losses == 0 {
		d = append(d, "No finished games yet. Start one with /nim start!")
	} else {
		d = append(d, fmt.Sprintf("**%d** wins · **%d** losses · rating **%d**", st.Wins, st.Losses, st.Rating))
		d = append(d, fmt.Sprintf("Current streak **%d** · best streak **%d**", st.Streak, st.BestStreak))
		var bot []string
		for _, diff := range engine.Difficulties() {
			if wl, ok := st.VsBot[diff]; ok && wl[0]+wl[1] > 0 {
				bot = append(bot, fmt.Sprintf("%s %d–%d", diff, wl[0], wl[1]))
			}
		}
		if len(bot) > 0 {
			d = append(d, "Against nimbot: "+strings.Join(bot, " · "))
		}
	}
	embed := &discordgo.MessageEmbed{Title: "📊 Stats", Description: strings.Join(d, "\n"), Color: colourActive}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
		Embeds: []*discordgo.MessageEmbed{embed}, AllowedMentions: noMentions(),
	}}, nil
}

// leaderboardSize is how many players /nim leaderboard lists.
const leaderboardSize = 10

// leaderboard answers /nim leaderboard [variant] for this server.
func (s *Service) leaderboard(r *request) (*discordgo.InteractionResponse, error) {
	v := engine.Variant(subOptions(r.i).str(optVariant))
	rows, err := s.db.Leaderboard(r.ctx, match.Scope(r.i.GuildID, r.i.ChannelID), v, leaderboardSize)
	if err != nil {
		return nil, fmt.Errorf("leaderboard: %w", err)
	}
	scope := "all games"
	if v != "" {
		scope = variantTitle(v)
	}
	var lines []string
	for k, st := range rows {
		lines = append(lines, fmt.Sprintf("`%2d.` %s — rating **%d** (%d–%d, best streak %d)", k+1, name(st.UserID), st.Rating, st.Wins, st.Losses, st.BestStreak))
	}
	if len(lines) == 0 {
		lines = append(lines, "Nobody has finished a game here yet. Be the first: /nim start!")
	}
	embed := &discordgo.MessageEmbed{Title: "🏆 Leaderboard · " + scope, Description: strings.Join(lines, "\n"), Color: colourFinished}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
		Embeds: []*discordgo.MessageEmbed{embed}, AllowedMentions: noMentions(),
	}}, nil
}

// variantTitle is a variant's display name without parameters.
func variantTitle(v engine.Variant) string {
	if d, ok := engine.Describe(v); ok {
		return d.Title
	}
	return string(v)
}
