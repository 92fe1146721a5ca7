package postgres

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"nimbot/engine"
	"nimbot/match"
)

// gameColumns lists games' columns in the order scanGame reads them.
const gameColumns = `id, guild_id, channel_id, rules, start, position, player0, player1, ply, status,
	winner, difficulty, hints, locale, interaction_only, message_id, turn_timeout, deadline, created_by, created_at, updated_at`

// querier is the pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// scanGame reads one games row; pgx decodes the jsonb columns into the
// engine's types itself.
// extra are the columns a query selects after gameColumns.
func scanGame(row pgx.Row, extra ...any) (*match.Game, error) {
	var (
		g                    match.Game
		status, difficulty   string
		turnTimeout          int64
		deadline             *int64
		createdAt, updatedAt int64
	)
	err := row.Scan(append([]any{&g.ID, &g.GuildID, &g.ChannelID, &g.Rules, &g.Start, &g.Position, &g.Players[0], &g.Players[1],
		&g.Ply, &status, &g.Winner, &difficulty, &g.Hints, &g.Locale, &g.InteractionOnly, &g.MessageID, &turnTimeout, &deadline,
		&g.CreatedBy, &createdAt, &updatedAt}, extra...)...)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, match.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	g.Status = match.Status(status)
	g.Difficulty = engine.Difficulty(difficulty)
	g.TurnTimeout = time.Duration(turnTimeout) * time.Millisecond
	g.Deadline = fromNullMillis(deadline)
	g.CreatedAt = fromMillis(createdAt)
	g.UpdatedAt = fromMillis(updatedAt)
	return &g, nil
}

func getGame(ctx context.Context, q querier, id int64) (*match.Game, error) {
	return scanGame(q.QueryRow(ctx, `SELECT `+gameColumns+` FROM games WHERE id = $1`, id))
}

func channelGame(ctx context.Context, q querier, channelID string) (*match.Game, error) {
	return scanGame(q.QueryRow(ctx,
		`SELECT `+gameColumns+` FROM games WHERE channel_id = $1 AND status IN ('pending', 'active')`, channelID))
}

func queryGames(ctx context.Context, q querier, sql string, args ...any) ([]*match.Game, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var games []*match.Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
	return games, rows.Err()
}

// CreateGame inserts g, as store.DB.CreateGame does: g must be Pending or
// Active at ply 0; a zero g.Position means g.Start; match.FirstTurn and
// match.Respond are honoured in the same transaction. If the channel already
// has a pending or active game, the error is a *match.BusyError carrying it:
// the partial unique index games_one_live_per_channel decides, across every
// instance.
//
// The game's id is taken from its sequence before the transaction
// (gameIDs: never handed out twice, on any instance, and never reused,
// whether or not the game is created), so that every statement of the
// transaction can name it and all of them go out in one batch with BEGIN:
// the cooldown's check, the insert, the first turn, the interaction and its
// answer; COMMIT follows once their results have been read. With Respond,
// the game as it will be committed, first turn included, is built and its
// answer rendered before the transaction too, so the transaction holds its
// locks for its SQL alone. Should the game the transaction returns differ
// from the one rendered, the answer is rendered again, from the game
// committed, and saved with COMMIT.
func (db *DB) CreateGame(ctx context.Context, g *match.Game, opts ...match.CreateOption) error {
	o := match.ReadCreateOptions(opts...)
	if err := g.CheckNew(); err != nil {
		return err
	}
	var turn match.Change
	if o.FirstTurn != nil {
		turn = *o.FirstTurn
		turn.Ply, turn.From = 0, g.Status
		if err := check(turn); err != nil {
			return err
		}
	}
	now := db.now()
	id, err := db.ids.next(ctx, db.pool)
	if err != nil {
		return fmt.Errorf("postgres: the next game id: %w", classify(err))
	}
	turn.GameID = id
	var (
		ahead    match.Game
		response []byte
	)
	if o.Render != nil {
		if ahead, err = committed(g, id, now, o.FirstTurn != nil, turn); err != nil {
			return err
		}
		rendered := ahead // render gets a copy: what it does to it is not committed
		if response, err = o.Render(&rendered); err != nil {
			return fmt.Errorf("game %d: rendering the answer: %w", id, err)
		}
	}
	// The game in the way may end between the insert and the read of it;
	// then the channel is free and the insert is worth another try.
	for range 3 {
		var created match.Game
		err := db.inTx(ctx, func(t *tx) error {
			b := &pgx.Batch{}
			if !o.CooldownSince.IsZero() {
				// One user's challenges sent at once take turns here, and
				// each statement after the lock sees those committed before
				// it.
				b.Queue(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, "nimbot cooldown/"+g.GuildID+"/"+g.CreatedBy)
				queueLastChallenge(b, g.GuildID, g.CreatedBy, o.CooldownSince)
			}
			queueInsertGame(b, id, g, now)
			var played func(pgx.BatchResults) (*match.Game, error)
			if o.FirstTurn != nil {
				played = queueTurn(b, turn, now)
			}
			claimed := queueClaim(b, o.InteractionID, id, response, now)
			br := t.begin(ctx, b)
			err := readCreation(br, g, id, now, &o, played, claimed, &created)
			if cerr := br.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
			var end *pgx.Batch
			if o.Render != nil && !reflect.DeepEqual(ahead, created) {
				rendered := created
				stored, err := o.Render(&rendered)
				if err != nil {
					return fmt.Errorf("game %d: rendering the answer: %w", id, err)
				}
				if o.InteractionID != "" {
					end = &pgx.Batch{}
					end.Queue(`UPDATE interactions SET response = $1 WHERE id = $2`, stored, o.InteractionID)
				}
			}
			return db.finish(ctx, t, &created, end)
		})
		if !errors.Is(err, errChannelTaken) {
			if err == nil {
				*g = created
			}
			return err
		}
		existing, err := channelGame(ctx, db.pool, g.ChannelID)
		if err == nil {
			return &match.BusyError{Game: existing}
		}
		if !errors.Is(err, match.ErrNotFound) {
			return fmt.Errorf("channel %s: %w", g.ChannelID, classify(err))
		}
	}
	return fmt.Errorf("channel %s: %w", g.ChannelID, match.ErrChannelBusy)
}

// errChannelTaken is CreateGame's insert finding a live game in the
// channel: the transaction rolls back, and the game is read after.
var errChannelTaken = errors.New("the channel has a live game")

// readCreation reads the results of CreateGame's batch, in order, into
// created, and returns the first of its refusals: the interaction answered
// already, the cooldown, the channel taken, the first turn's.
func readCreation(br pgx.BatchResults, g *match.Game, id int64, now time.Time, o *match.Creation,
	played func(pgx.BatchResults) (*match.Game, error), claimed func(pgx.BatchResults) error, created *match.Game) error {
	var cooldown error
	if !o.CooldownSince.IsZero() {
		if _, err := br.Exec(); err != nil {
			return err
		}
		last, err := scanGame(br.QueryRow())
		switch {
		case err == nil:
			cooldown = &match.CooldownError{Last: last}
		case !errors.Is(err, match.ErrNotFound):
			return err
		}
	}
	var got int64
	inserted := br.QueryRow().Scan(&got)
	if inserted != nil && !errors.Is(inserted, pgx.ErrNoRows) {
		return inserted
	}
	*created = g.Created(id, now)
	var turnErr error
	if played != nil {
		var after *match.Game
		if after, turnErr = played(br); turnErr == nil {
			*created = *after
		}
	}
	// A redelivery waited for its first delivery at the insert, and finds
	// its interaction answered.
	if err := claimed(br); err != nil {
		return err
	}
	switch {
	case cooldown != nil:
		return cooldown
	case inserted != nil:
		return errChannelTaken
	case turnErr != nil:
		return fmt.Errorf("first turn: %w", turnErr)
	}
	return nil
}

// committed is g as CreateGame will commit it as id at now, after turn if
// firstTurn, built in Go as the transaction's statements will leave its
// row and scanGame read it back: the jsonb values as pgx decodes them
// (encoding/json both ways), times to the millisecond.
func committed(g *match.Game, id int64, now time.Time, firstTurn bool, turn match.Change) (match.Game, error) {
	created := g.Created(id, now)
	if !firstTurn {
		return created, nil
	}
	if err := roundTrip(&created.Rules, &created.Start, &created.Position); err != nil {
		return match.Game{}, fmt.Errorf("game %d: %w", id, err)
	}
	turn.GameID = id
	players, err := turn.Fit(&created)
	if err != nil {
		return match.Game{}, fmt.Errorf("first turn: %w", err)
	}
	return turned(created, turn, players, now)
}

// turned is g, as scanGame read it, after the turn c with players seated
// (c.Fit's) at now, as queueTurn's statements leave its row and scanGame
// would read it back.
func turned(g match.Game, c match.Change, players [2]string, now time.Time) (match.Game, error) {
	g.Players = players
	g.Ply = c.Ply + len(c.Moves)
	if len(c.Moves) > 0 || c.Position.Heaps != nil {
		g.Position = c.Position
		if err := roundTrip(&g.Position); err != nil {
			return match.Game{}, fmt.Errorf("game %d: %w", g.ID, err)
		}
	}
	g.Status, g.Winner = c.Status, c.Winner
	g.Deadline = match.Millis(c.Deadline)
	g.UpdatedAt = match.Millis(now)
	return g, nil
}

// roundTrip replaces each of vs by its value as a jsonb column gives it
// back (json.Marshal, then json.Unmarshal into a zero value).
func roundTrip(vs ...any) error {
	for _, v := range vs {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		p := reflect.New(reflect.TypeOf(v).Elem())
		if err := json.Unmarshal(b, p.Interface()); err != nil {
			return err
		}
		reflect.ValueOf(v).Elem().Set(p.Elem())
	}
	return nil
}

// queueInsertGame queues the insert of g's row as id. ON CONFLICT … DO
// NOTHING rather than the unique violation: expected outcomes are not
// errors in a batch (tx). A conflicting insert still in flight elsewhere
// is waited for.
func queueInsertGame(b *pgx.Batch, id int64, g *match.Game, now time.Time) {
	b.Queue(`INSERT INTO games (id, guild_id, channel_id, variant, misere, rules, start, position,
			player0, player1, status, difficulty, hints, locale, interaction_only, turn_timeout, deadline, created_by, created_at, updated_at)
		OVERRIDING SYSTEM VALUE
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $19)
		ON CONFLICT (channel_id) WHERE status IN ('pending', 'active') DO NOTHING RETURNING id`,
		id, g.GuildID, g.ChannelID, string(g.Rules.Variant), g.Rules.Misere, g.Rules, g.Start, g.Position,
		g.Players[0], g.Players[1], string(g.Status), string(g.Difficulty), g.Hints, g.Locale, g.InteractionOnly,
		g.TurnTimeout.Milliseconds(), toNullMillis(g.Deadline), g.CreatedBy, toMillis(now))
}

// Game returns the game with the given id, or match.ErrNotFound.
func (db *DB) Game(ctx context.Context, id int64) (*match.Game, error) {
	g, err := getGame(ctx, db.pool, id)
	return g, classify(err)
}

// ChannelGame returns the channel's pending or active game, or
// match.ErrNotFound.
func (db *DB) ChannelGame(ctx context.Context, channelID string) (*match.Game, error) {
	g, err := channelGame(ctx, db.pool, channelID)
	return g, classify(err)
}

// Moves returns the game's moves in order (none for an unknown game).
func (db *DB) Moves(ctx context.Context, gameID int64) ([]match.Move, error) {
	moves, err := queryMoves(ctx, db.pool, 0,
		`SELECT game_id, ply, player, move, hinted, at FROM moves WHERE game_id = $1 ORDER BY ply`, gameID)
	return moves, classify(err)
}

// Board returns the game with the given id, its moves before its ply and
// whether its player to move recorded a hint at its ply (match.Storage),
// in one statement (boardQuery), as store.DB.Board does.
func (db *DB) Board(ctx context.Context, id int64) (*match.Board, error) {
	var (
		b       match.Board
		plies   []int
		players []string
		moves   []engine.Move
		hinted  []bool
		ats     []int64
	)
	g, err := scanGame(db.pool.QueryRow(ctx, boardQuery, id), &b.Hinted, &plies, &players, &moves, &hinted, &ats)
	if err != nil {
		return nil, classify(err)
	}
	b.Game = g
	n := len(plies)
	if len(players) != n || len(moves) != n || len(hinted) != n || len(ats) != n {
		return nil, fmt.Errorf("game %d: moves: %d plies, %d players, %d moves, %d marks, %d times",
			id, n, len(players), len(moves), len(hinted), len(ats))
	}
	if n > 0 {
		b.Moves = make([]match.Move, n)
		for i := range b.Moves {
			b.Moves[i] = match.Move{GameID: id, Ply: plies[i], Player: players[i], Move: moves[i], Hinted: hinted[i], At: fromMillis(ats[i])}
		}
	}
	return &b, nil
}

// boardQuery reads a board in one statement and one round trip: the game,
// the hint mark and its moves before its ply, as one array per column
// (NULL when there are none), in ply order.
const boardQuery = `SELECT ` + gameColumns + `,
	EXISTS (SELECT 1 FROM hints WHERE game_id = games.id AND ply = games.ply
		AND user_id = CASE games.ply % 2 WHEN 0 THEN games.player0 ELSE games.player1 END),
	m.plies, m.players, m.moves, m.hinted, m.ats
	FROM games CROSS JOIN LATERAL (SELECT array_agg(ply ORDER BY ply) AS plies, array_agg(player ORDER BY ply) AS players,
			array_agg(move ORDER BY ply) AS moves, array_agg(hinted ORDER BY ply) AS hinted, array_agg(at ORDER BY ply) AS ats
		FROM moves WHERE moves.game_id = games.id AND moves.ply < games.ply) m
	WHERE games.id = $1`

// queryMoves runs sql, which selects moves' columns, into room for n.
func queryMoves(ctx context.Context, q querier, n int, sql string, args ...any) ([]match.Move, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var moves []match.Move
	if n > 0 {
		moves = make([]match.Move, 0, n)
	}
	for rows.Next() {
		var (
			m  match.Move
			at int64
		)
		if err := rows.Scan(&m.GameID, &m.Ply, &m.Player, &m.Move, &m.Hinted, &at); err != nil {
			return nil, err
		}
		m.At = fromMillis(at)
		moves = append(moves, m)
	}
	return moves, rows.Err()
}

// LastGameBy returns the newest game the user created in the guild (for the
// challenge cooldown), or match.ErrNotFound.
func (db *DB) LastGameBy(ctx context.Context, guildID, userID string) (*match.Game, error) {
	g, err := scanGame(db.pool.QueryRow(ctx, `SELECT `+gameColumns+` FROM games
		WHERE guild_id = $1 AND created_by = $2 ORDER BY created_at DESC, id DESC LIMIT 1`, guildID, userID))
	return g, classify(err)
}

// LastChallengeBy returns the newest game between people the user created
// in the guild at or after since (for the challenge cooldown: games against
// nimbot in between must not reset it), or match.ErrNotFound.
func (db *DB) LastChallengeBy(ctx context.Context, guildID, userID string, since time.Time) (*match.Game, error) {
	g, err := lastChallengeBy(ctx, db.pool, guildID, userID, since)
	return g, classify(err)
}

// lastChallengeQuery is LastChallengeBy's: CreateGame's Cooldown asks it
// inside its transaction.
const lastChallengeQuery = `SELECT ` + gameColumns + ` FROM games
	WHERE guild_id = $1 AND created_by = $2 AND created_at >= $3 AND player0 <> $4 AND player1 <> $4
	ORDER BY created_at DESC, id DESC LIMIT 1`

func lastChallengeBy(ctx context.Context, q querier, guildID, userID string, since time.Time) (*match.Game, error) {
	return scanGame(q.QueryRow(ctx, lastChallengeQuery, guildID, userID, toMillis(since), match.BotID))
}

func queueLastChallenge(b *pgx.Batch, guildID, userID string, since time.Time) {
	b.Queue(lastChallengeQuery, guildID, userID, toMillis(since), match.BotID)
}

// Due returns up to limit pending or active games whose deadline is at or
// before now, the most overdue first. Games another transaction holds (a
// move being committed, another instance's expiry) are skipped rather than
// waited for (FOR UPDATE SKIP LOCKED), so instances polling at once do not
// queue behind each other. Ending a due game is a Commit at the ply Due
// returned: if another instance got there first, that Commit is
// match.ErrStale, so a deadline fires once across all instances.
func (db *DB) Due(ctx context.Context, now time.Time, limit int) ([]*match.Game, error) {
	games, err := queryGames(ctx, db.pool, `SELECT `+gameColumns+` FROM games
		WHERE status IN ('pending', 'active') AND deadline IS NOT NULL AND deadline <= $1
		ORDER BY deadline, id LIMIT $2 FOR UPDATE SKIP LOCKED`, toMillis(now), limit)
	return games, classify(err)
}

// ClaimDue is Due for several instances polling one database: it returns up
// to limit due games, the most overdue first, and leases them to the caller
// until now+lease (games.claimed_until, in the same statement). Until the
// lease passes, no other ClaimDue returns them, so two instances never work
// on the same game; a Commit to the game ends its lease. An instance that
// dies holding a lease delays its games until the first ClaimDue after the
// lease has passed: by at most lease plus the interval at which the others
// poll. The lease saves work, it does not decide: firing a deadline is still
// a Commit at the ply returned, so it happens once even if a lease runs out
// mid-way.
func (db *DB) ClaimDue(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*match.Game, error) {
	if lease <= 0 || limit <= 0 {
		return nil, fmt.Errorf("%w: ClaimDue needs a positive lease and limit", match.ErrInvalid)
	}
	games, err := queryGames(ctx, db.pool, `UPDATE games SET claimed_until = $3 WHERE id IN (
			SELECT id FROM games
			WHERE status IN ('pending', 'active') AND deadline IS NOT NULL AND deadline <= $1
				AND (claimed_until IS NULL OR claimed_until <= $1)
			ORDER BY deadline, id LIMIT $2 FOR UPDATE SKIP LOCKED)
		RETURNING `+gameColumns, toMillis(now), limit, toMillis(now.Add(lease)))
	if err != nil {
		return nil, classify(err)
	}
	// RETURNING keeps no order.
	slices.SortFunc(games, func(a, b *match.Game) int {
		if c := a.Deadline.Compare(b.Deadline); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return games, nil
}

// SetMessageID records the game's board message if it replaces the one
// recorded (match.ReplacesBoard), or returns match.ErrNotFound. The
// recorded one is read FOR UPDATE: concurrent records of one game take
// turns, each deciding on what the one before it wrote.
func (db *DB) SetMessageID(ctx context.Context, gameID int64, messageID string) error {
	return db.inTx(ctx, func(t *tx) error {
		b := &pgx.Batch{}
		b.Queue(`SELECT message_id FROM games WHERE id = $1 FOR UPDATE`, gameID)
		br := t.begin(ctx, b)
		var recorded *string
		err := br.QueryRow().Scan(&recorded)
		if cerr := br.Close(); err == nil || errors.Is(err, pgx.ErrNoRows) && cerr != nil {
			err = cerr
		}
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("game %d: %w", gameID, match.ErrNotFound)
		}
		if err != nil {
			return err
		}
		old := ""
		if recorded != nil {
			old = *recorded
		}
		end := &pgx.Batch{}
		if match.ReplacesBoard(old, messageID) {
			end.Queue(`UPDATE games SET message_id = $1, updated_at = $2 WHERE id = $3`, messageID, toMillis(t.now), gameID)
		}
		return t.commit(ctx, end)
	})
}

// gameIDs hands out game ids reserved from the games' sequence (nextval)
// in blocks of idBlock, so that starting a game costs no round trip of
// its own for its id. A reserved id is never handed out twice, by this or
// any other instance; those unused when the process ends are skipped, as
// the ids of games that were refused are.
type gameIDs struct {
	lock chan struct{} // held while the block is refilled
	free []int64       // reserved, ascending
}

// idBlock is how many ids one refill reserves.
const idBlock = 32

func newGameIDs() *gameIDs {
	return &gameIDs{lock: make(chan struct{}, 1)}
}

// next returns the next reserved id, reserving a block first if none is
// left.
func (ids *gameIDs) next(ctx context.Context, q querier) (int64, error) {
	select {
	case ids.lock <- struct{}{}:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	defer func() { <-ids.lock }()
	if len(ids.free) == 0 {
		var block []int64
		if err := q.QueryRow(ctx, `SELECT array_agg(nextval(pg_get_serial_sequence('games', 'id')))
			FROM generate_series(1, $1)`, idBlock).Scan(&block); err != nil {
			return 0, err
		}
		slices.Sort(block)
		ids.free = block
	}
	id := ids.free[0]
	ids.free = ids.free[1:]
	return id, nil
}
