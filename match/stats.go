package match

import (
	"math"

	"nimbot/engine"
)

// Rating constants: the usual Elo starting point and K-factor. Ratings
// count games between people only.
const (
	// InitialRating is everyone's rating before their first game against a person.
	InitialRating = 1200
	// RatingK is the most a rating moves in one game.
	RatingK = 32
)

// Stats is a user's record in one guild, for one variant or ("" Variant)
// all of them.
type Stats struct {
	UserID  string
	Variant engine.Variant // "" = all variants
	// Wins and Losses count decided games (won, resigned, timed out)
	// against anyone, the bot included.
	Wins, Losses int
	// Streak is the number of wins in a row up to now (0 after a loss);
	// BestStreak the longest such run.
	Streak, BestStreak int
	// Rating is an Elo rating (start InitialRating, K = RatingK) from games
	// between people only.
	Rating int
	// VsBot is the record against the bot per difficulty: [wins, losses].
	// Never nil.
	VsBot map[engine.Difficulty][2]int
}

// EloDelta is what the winner of a rated game gains and the loser loses,
// given their ratings before it.
func EloDelta(winner, loser int) int {
	expected := 1 / (1 + math.Pow(10, float64(loser-winner)/400))
	return int(math.Round(RatingK * (1 - expected)))
}

// Scope names the table a game's results, ratings and records count in,
// which /nim stats and /nim leaderboard read: its server, or outside any
// server its channel (a DM, or a group DM: "dm:" and the channel id, never
// a server's snowflake). A table per private channel rather than one for
// all of them: a global table would show people from other private
// conversations to strangers, while a group DM's table is its friends'.
func Scope(guildID, channelID string) string {
	if guildID != "" {
		return guildID
	}
	return "dm:" + channelID
}

// Scope is the table g's result counts in (see Scope).
func (g *Game) Scope() string { return Scope(g.GuildID, g.ChannelID) }
