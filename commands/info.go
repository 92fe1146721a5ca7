package commands

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"nimbot/engine"
)

// rulesText explains each variant to a new player.
var rulesText = map[engine.Variant]string{
	engine.Nim: "There are a few heaps of stones. On your turn, take any number of stones (at least one) from **one** heap. " +
		"In normal play whoever takes the last stone wins; in misère play whoever takes the last stone loses.\n\n" +
		"The secret: write the heaps in binary and XOR them (the *nim-sum*). If it is 0, the player to move loses against perfect play.",
	engine.Subtraction: "Like Nim, but a move takes only 1 to k stones (k is 3 by default), or, with a subtraction set like {1,3,4}, exactly one of those amounts.\n\n" +
		"With S(1..k), only each heap's remainder mod k+1 matters.",
	engine.TwentyOne: "Two players count up together from 0. On your turn, say 1, 2 or 3 more numbers (up to k). Whoever is forced to say 21 loses.\n\n" +
		"The trick: always finish on a multiple of 4 — 4, 8, 12, 16, 20.",
	engine.Greedy: "Like Nim, but you may only take from a **largest** heap (any of them, if several tie).",
	engine.Fibonacci: "One heap. The first player may take any number but not all. After that, each move takes at least one and at most **twice** what the opponent just took. Whoever takes the last stone wins.\n\n" +
		"The theory uses Zeckendorf's theorem: every number is a sum of non-consecutive Fibonacci numbers.",
	engine.Wythoff: "Two heaps. On your turn take any number from one heap, **or the same number from both**. Whoever takes the last stone wins.\n\n" +
		"The losing positions are the pairs (⌊kφ⌋, ⌊kφ²⌋): (0,0), (1,2), (3,5), (4,7), (6,10)…",
	engine.Moore: "Moore's Nim_k: like Nim, but one move may take from up to **k** heaps at once (any amounts, at least one stone in all). With k=1 it is Nim.\n\n" +
		"Type multi-heap moves like `A2 C1` with ⌨️ Type a move, or /nim move notation:A2 C1.",
	engine.Lasker: "Like Nim, but instead of taking you may **split** a heap into two non-empty heaps.\n\n" +
		"Its Grundy values follow a pattern of period 4: 4m+3 and 4m+4 swap.",
	engine.Kayles: "Rows of pins. On your turn knock down **one pin or two adjacent pins** from one row; a knock in the middle splits the row in two. Whoever knocks down the last pin wins.\n\n" +
		"Pins are counted from 1 at the left: `B4` knocks pin 4 of row B, `B4-5` pins 4 and 5.",
}

// rules answers /nim rules [variant].
func (s *Service) rules(r *request) (*discordgo.InteractionResponse, error) {
	v := engine.Variant(subOptions(r.i).str(optVariant))
	if v == "" {
		v = engine.Nim
	}
	text, ok := rulesText[v]
	if !ok {
		var names []string
		for _, x := range engine.Variants() {
			names = append(names, string(x))
		}
		return nil, userErrorf("There is no game %q. Choose one of: %s.", truncate(string(v), 20), strings.Join(names, ", "))
	}
	rules := engine.Rules{Variant: v}
	title := string(v)
	if n, err := rules.Normalize(); err == nil {
		title = n.Name()
	}
	text += "\n\n**How to play here:** `/nim start variant:" + string(v) + "` against nimbot, or add `opponent:` to challenge someone. " +
		"Click a heap, then an amount; 💡 Hint explains the winning idea. Any variant can be played misère (`misere:True`)."
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
	st, err := s.db.Stats(r.ctx, r.i.GuildID, user, v)
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
	rows, err := s.db.Leaderboard(r.ctx, r.i.GuildID, v, leaderboardSize)
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
	n, err := (engine.Rules{Variant: v, Misere: v == engine.TwentyOne}).Normalize()
	if err != nil {
		return string(v)
	}
	name := n.Name()
	// Drop the default parameters Name adds: "Subtraction S(1..3)", "Moore's Nim (k=2)".
	for _, cut := range []string{" S(", " {", " (", ", "} {
		if i := strings.Index(name, cut); i > 0 {
			name = name[:i]
		}
	}
	return name
}
