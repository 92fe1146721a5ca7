package match

import (
	"time"

	"nimbot/engine"
)

// BotID is the player id nimbot itself plays under.
const BotID = "bot"

// Status is where a game stands. Pending and Active are live; every other
// status is final.
type Status string

// The statuses a game goes through.
const (
	// Pending: a challenge waiting to be accepted.
	Pending Status = "pending"
	// Active: being played.
	Active Status = "active"
	// Won: a player made the winning move (in misère play, the other player
	// made the last move); Winner says who.
	Won Status = "won"
	// Resigned: a player resigned; Winner is the other one.
	Resigned Status = "resigned"
	// Timeout: the player to move ran out of time; Winner is the other one.
	Timeout Status = "timeout"
	// Abandoned: the game cannot go on (its channel or a player went away);
	// no winner.
	Abandoned Status = "abandoned"
	// Ended: stopped by a moderator or by the players; no winner.
	Ended Status = "ended"
	// Declined: the challenge was declined; no winner.
	Declined Status = "declined"
	// Expired: the challenge was not accepted in time; no winner.
	Expired Status = "expired"
)

// Finished reports whether s is final.
func (s Status) Finished() bool { return s != Pending && s != Active }

// Valid reports whether s is one of the statuses above.
func (s Status) Valid() bool {
	switch s {
	case Pending, Active, Won, Resigned, Timeout, Abandoned, Ended, Declined, Expired:
		return true
	}
	return false
}

// Decided reports whether a game ending with s has a winner and a loser.
func (s Status) Decided() bool { return s == Won || s == Resigned || s == Timeout }

// Game is one game, from the challenge to the result.
type Game struct {
	ID        int64
	GuildID   string // "" in direct messages
	ChannelID string
	Rules     engine.Rules
	// Start is the position before the first move; Position the current one.
	Start, Position engine.Position
	// Players are user ids or BotID. Players[0] moves first; Players[Ply%2]
	// is to move. A challenge may leave a seat "" until it is accepted.
	Players [2]string
	// Ply is the number of moves played.
	Ply    int
	Status Status
	// Winner is "" until the game is Won, Resigned or Timeout, and stays ""
	// for the other final statuses.
	Winner string
	// Difficulty is the bot's level; "" between people.
	Difficulty engine.Difficulty
	// Hints says whether players may ask for hints.
	Hints bool
	// Locale is the language the game's public messages (its board, what is
	// posted about it) speak: the challenger's Discord locale at /nim start
	// ("de", "pt-BR"); "" is English. Of a locale's shape (ValidLocale).
	Locale string
	// InteractionOnly says nimbot is no member of the game's channel (it is
	// installed to a user's account and used in a group DM or a DM between
	// people, or in a server that has not installed it): the board can be
	// changed only in answer to an interaction, never by a REST edit, so a
	// passed deadline shows on the board at the next click.
	InteractionOnly bool
	// MessageID is the board message, once sent.
	MessageID string
	// TurnTimeout is the time each turn may take; Deadline when the player to
	// move (or the challenge) runs out. Zero: none. Stored to the millisecond.
	TurnTimeout time.Duration
	Deadline    time.Time
	CreatedBy   string
	// CreatedAt and UpdatedAt are set by the storage from its clock, to the
	// millisecond.
	CreatedAt, UpdatedAt time.Time
}

// MaxLocale bounds Game.Locale: Discord's locales are at most 6 bytes
// ("es-419"), but the value comes from the client, so it is bounded before
// it is stored.
const MaxLocale = 16

// ValidLocale reports whether l may be a Game's Locale: "" or at most
// MaxLocale ASCII letters, digits and hyphens, the shape of every locale
// Discord has ("de", "pt-BR", "es-419"). The value comes from the client;
// a byte outside that set (a NUL, which PostgreSQL's text refuses while
// SQLite stores it) would make the stores disagree.
func ValidLocale(l string) bool {
	if len(l) > MaxLocale {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// ToMove returns the player whose turn it is.
func (g *Game) ToMove() string { return g.Players[g.Ply%2] }

// Move is one move as played.
type Move struct {
	GameID int64
	Ply    int // 0 for the first move
	Player string
	Move   engine.Move
	// Hinted reports that the player asked for a hint at this ply before
	// moving.
	Hinted bool
	At     time.Time
}
