package match

import (
	"context"
	"time"

	"nimbot/engine"
)

// Storage is what the product needs from a database: the storage contract.
// The SQLite store (store) and the PostgreSQL store (store/postgres)
// implement it and pass one contract suite (internal/storetest), so the
// product behaves the same on either.
//
// Every method is safe for concurrent use, also from several processes
// sharing one database. Every write is one transaction: either all of it
// lands or none does. Errors callers tell apart: ErrNotFound, ErrStale,
// ErrDuplicate, ErrChannelBusy (a *BusyError) and ErrInvalid.
type Storage interface {
	// CreateGame inserts g, which must be Pending or Active with no moves
	// yet (Ply 0), and sets g.ID, g.CreatedAt and g.UpdatedAt. A zero
	// g.Position means g.Start. If the channel already has a pending or
	// active game, the error is a *BusyError carrying it; of two games
	// started at once in one channel, only one is created.
	//
	// With FirstTurn, the turn is played in the same transaction and *g
	// becomes the game after it; with Respond, the interaction is recorded
	// with it (ErrDuplicate, and nothing written, if it already was).
	CreateGame(ctx context.Context, g *Game, opts ...CreateOption) error
	// Game returns the game with the given id, or ErrNotFound.
	Game(ctx context.Context, id int64) (*Game, error)
	// ChannelGame returns the channel's pending or active game, or
	// ErrNotFound.
	ChannelGame(ctx context.Context, channelID string) (*Game, error)
	// Moves returns the game's moves in order (none for an unknown game).
	Moves(ctx context.Context, gameID int64) ([]Move, error)
	// Board returns the game with the given id as Game does, with what
	// drawing its board and playing its next move need: its moves before
	// its ply, in order, and whether its player to move recorded a hint at
	// its ply. One call instead of Game, Moves and HintUsed. ErrNotFound for
	// an unknown game.
	Board(ctx context.Context, id int64) (*Board, error)
	// LastGameBy returns the newest game the user created in the guild, or
	// ErrNotFound.
	LastGameBy(ctx context.Context, guildID, userID string) (*Game, error)
	// LastChallengeBy returns the newest game between people the user
	// created in the guild at or after since (the challenge cooldown's
	// rule, which CreateGame's Cooldown applies: games against nimbot in
	// between must not reset it), or ErrNotFound.
	LastChallengeBy(ctx context.Context, guildID, userID string, since time.Time) (*Game, error)
	// Due returns up to limit pending or active games whose deadline is at
	// or before now, the most overdue first.
	Due(ctx context.Context, now time.Time, limit int) ([]*Game, error)
	// SetMessageID records messageID as the game's board message if it
	// replaces the one recorded (ReplacesBoard: a later snowflake, or
	// either not a snowflake), and otherwise leaves the game as it is,
	// updated time included, returning nil. The check and the write are
	// one atomic step, so of several snowflakes recorded at once, in any
	// order, the game ends with the largest. ErrNotFound for an unknown
	// game.
	SetMessageID(ctx context.Context, gameID int64, messageID string) error
	// Commit is the one write path for a turn (see Change). In one
	// transaction it refuses an InteractionID already processed
	// (ErrDuplicate); checks that the game is still at c.Ply with status
	// c.From, and live (else ErrStale; ErrNotFound for an unknown game);
	// inserts c.Moves, each marked hinted if its player recorded a hint for
	// that ply; sets the new position, status, winner, deadline (and
	// players); when the status becomes final, records the result and
	// updates the players' statistics; and saves (InteractionID, Response).
	// It returns the game as committed.
	Commit(ctx context.Context, c Change) (*Game, error)
	// RecordHint notes that h.UserID asked for a hint at the game's ply
	// h.Ply, so the move played at that ply is marked hinted, and reports
	// whether the hint is new. Only a new hint writes anything (its
	// interaction with it). ErrStale if the game is past that ply or over,
	// ErrNotFound if unknown, ErrDuplicate if the interaction was already
	// answered.
	RecordHint(ctx context.Context, h Hint) (bool, error)
	// HintUsed reports whether userID recorded a hint for the game at ply.
	HintUsed(ctx context.Context, gameID int64, ply int, userID string) (bool, error)
	// Response returns the response saved for an interaction, or
	// ErrNotFound.
	Response(ctx context.Context, interactionID string) ([]byte, error)
	// SaveResponse records the response to an interaction that committed
	// nothing else. ErrDuplicate if the interaction already has one; the
	// first stays.
	SaveResponse(ctx context.Context, interactionID string, response []byte) error
	// PruneInteractions forgets interactions answered before before, in
	// transactions of at most PruneBatch rows, and returns how many.
	PruneInteractions(ctx context.Context, before time.Time) (int64, error)
	// Stats returns the user's record in scope (a server, or a DM's or
	// group DM's channel: see Scope; a game's result counts in its Scope)
	// for variant ("" = all variants). A user with no games gets zero counts and InitialRating.
	Stats(ctx context.Context, scope, userID string, variant engine.Variant) (Stats, error)
	// Leaderboard returns up to limit users of scope (see Scope) with at
	// least one decided game in variant ("" = all variants), best first: by rating,
	// then wins, then fewest losses.
	Leaderboard(ctx context.Context, scope string, variant engine.Variant, limit int) ([]Stats, error)
	// PuzzleStorage keeps puzzle attempts and ratings.
	PuzzleStorage
	// DailyStorage keeps the daily puzzle's channels.
	DailyStorage
	// LessonStorage keeps progress through the lessons.
	LessonStorage
	// Ping checks that the database answers.
	Ping(ctx context.Context) error
	// Close releases the database.
	Close() error
	// Privacy: what nimbot holds about a user, and forgetting users and
	// servers (privacy.go).
	Privacy
}

// Board is a game as a board click finds it (Storage.Board).
type Board struct {
	Game *Game
	// Moves are the game's moves before Game.Ply, in order.
	Moves []Move
	// Hinted reports whether Game.ToMove() recorded a hint at Game.Ply, so
	// the move they make now is marked hinted.
	Hinted bool
}

// PruneBatch bounds the saved answers one pruning transaction deletes, so
// pruning never holds a write lock for long: a batch of 1,000 rows is a few
// milliseconds, and the moves queued meanwhile run between batches.
const PruneBatch = 1000

// Change is one turn's worth of changes to a game, as Storage.Commit
// applies it.
type Change struct {
	// GameID, Ply and From are the game as the caller saw it: Commit applies
	// the change only if the game is still at that ply and status.
	GameID int64
	Ply    int
	From   Status
	// Moves are 0, 1 (a human move) or 2 (the human's move and the bot's
	// reply) moves, played in order from Ply by the players whose turn it is.
	Moves []engine.Move
	// Position is the position after Moves. With no Moves, a zero Position
	// keeps the current one (a resignation, a timeout, an accepted challenge).
	Position engine.Position
	// Status, Winner and Deadline are the game's new values. Winner must be a
	// player when Status is Won, Resigned or Timeout, and "" otherwise; a zero
	// Deadline means none.
	Status   Status
	Winner   string
	Deadline time.Time
	// Players, when not nil, replaces the players (accepting a challenge
	// fills the empty seat or decides who moves first). The moves in Moves
	// are attributed under the new seating.
	Players *[2]string
	// InteractionID and Response, when InteractionID is not "", record the
	// interaction as answered in the same transaction, so a redelivery gets
	// Response back and never plays twice.
	InteractionID string
	Response      []byte
	// Seen, when not nil, is what the change was decided on beside the ply
	// and status, taken from an earlier commit rather than read afresh
	// (commands keeps the board of each live game's last turn it
	// committed). Commit then also requires the game's board message to be
	// Seen.MessageID, and whether the first move's player asked for a hint
	// at Ply to be Seen.Hinted, and is ErrStale otherwise: a board posted
	// or a hint asked through another instance since is not overlooked.
	// Only a change with Moves carries it.
	Seen *Seen
}

// Seen is what a Change's caller saw of its game beside the ply and status
// (Change.Seen).
type Seen struct {
	MessageID string
	Hinted    bool
}

// Hint is a hint asked for, as Storage.RecordHint records it.
type Hint struct {
	GameID int64
	Ply    int
	UserID string
	// InteractionID and Response, when InteractionID is not "", record the
	// interaction as answered with the hint, in the same transaction.
	InteractionID string
	Response      []byte
}

// CreateOption adds to what Storage.CreateGame writes in its one
// transaction.
type CreateOption func(*Creation)

// Creation is what a list of CreateOptions asks CreateGame to do, spelled
// out for the implementations (ReadCreateOptions).
type Creation struct {
	// InteractionID and Render are Respond's arguments (Render nil without
	// Respond).
	InteractionID string
	Render        func(*Game) ([]byte, error)
	// FirstTurn is FirstTurn's Change, or nil.
	FirstTurn *Change
	// CooldownSince is Cooldown's since, zero without it.
	CooldownSince time.Time
}

// ReadCreateOptions returns what opts ask for.
func ReadCreateOptions(opts ...CreateOption) Creation {
	var c Creation
	for _, opt := range opts {
		opt(&c)
	}
	return c
}

// Respond records the interaction that asked for the game as answered, in
// CreateGame's transaction, so a crash leaves both the game and its answer
// or neither, and a redelivery gets the answer back instead of finding its
// own game in the way. render gets the game as committed (its ID set, after
// any FirstTurn) and returns the response to save; if it fails, nothing is
// written. With interactionID "" render still runs but nothing is recorded.
//
// A storage may call render before its transaction, with the game as it
// will commit it (so that drawing the answer keeps out of its writes), and
// again inside if what it commits turns out different (another instance
// took the game's id); the answer saved is always the one rendered from the
// game committed. An answer rendered for a game that is then not created
// (ErrChannelBusy, ErrDuplicate) is dropped, so render must have no effect
// beyond its result.
func Respond(interactionID string, render func(g *Game) ([]byte, error)) CreateOption {
	return func(c *Creation) { c.InteractionID, c.Render = interactionID, render }
}

// Cooldown makes CreateGame refuse the game, with a *CooldownError, if its
// creator made a game between people in the same guild at or after since
// (LastChallengeBy), deciding in its transaction: of challenges one user
// sends at once in several channels, only the first is created. A
// redelivery of the interaction that created that game (Respond) is
// ErrDuplicate, not refused.
func Cooldown(since time.Time) CreateOption {
	return func(c *Creation) { c.CooldownSince = since }
}

// FirstTurn plays a first turn in the new game within CreateGame's
// transaction (nimbot's opening move), applied as Commit applies a Change.
// CreateGame fills in its GameID, Ply and From; record the interaction with
// Respond rather than the Change's InteractionID.
func FirstTurn(c Change) CreateOption {
	return func(o *Creation) { o.FirstTurn = &c }
}
