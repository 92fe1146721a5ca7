package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mattn/go-sqlite3"

	"nimbot/engine"
	"nimbot/match"
)

// gameColumns lists games' columns in the order scanGame reads them.
const gameColumns = `id, guild_id, channel_id, rules, start, position, player0, player1, ply, status,
	winner, difficulty, hints, locale, interaction_only, message_id, turn_timeout, deadline, created_by, created_at, updated_at`

// scanGame reads one games row, gameColumns and then extra (the columns a
// query selects after them).
func scanGame(s rowScanner, extra ...any) (*match.Game, error) {
	var (
		g                      = new(match.Game)
		rules, start, position string
		status, difficulty     string
		turnTimeout            int64
		deadline               sql.NullInt64
		createdAt, updatedAt   int64
	)
	dest := []any{&g.ID, &g.GuildID, &g.ChannelID, &rules, &start, &position, &g.Players[0], &g.Players[1],
		&g.Ply, &status, &g.Winner, &difficulty, &g.Hints, &g.Locale, &g.InteractionOnly, &g.MessageID, &turnTimeout, &deadline,
		&g.CreatedBy, &createdAt, &updatedAt}
	err := s.Scan(append(dest, extra...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, match.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if g.Rules, err = unmarshal[engine.Rules](rules); err != nil {
		return nil, fmt.Errorf("game %d: rules: %w", g.ID, err)
	}
	if g.Start, err = unmarshal[engine.Position](start); err != nil {
		return nil, fmt.Errorf("game %d: start: %w", g.ID, err)
	}
	if g.Position, err = unmarshal[engine.Position](position); err != nil {
		return nil, fmt.Errorf("game %d: position: %w", g.ID, err)
	}
	g.Status = match.Status(status)
	g.Difficulty = engine.Difficulty(difficulty)
	g.TurnTimeout = time.Duration(turnTimeout) * time.Millisecond
	g.Deadline = fromNullMillis(deadline)
	g.CreatedAt = fromMillis(createdAt)
	g.UpdatedAt = fromMillis(updatedAt)
	return g, nil
}

// The games' statements.
const (
	gameByIDSQL    = `SELECT ` + gameColumns + ` FROM games WHERE id = ?`
	channelGameSQL = `SELECT ` + gameColumns + ` FROM games WHERE channel_id = ? AND status IN ('pending', 'active')`
	lastGameBySQL  = `SELECT ` + gameColumns + ` FROM games
		WHERE guild_id = ? AND created_by = ? ORDER BY created_at DESC, id DESC LIMIT 1`
	lastChallengeBySQL = `SELECT ` + gameColumns + ` FROM games
		WHERE guild_id = ? AND created_by = ? AND created_at >= ? AND player0 != ? AND player1 != ?
		ORDER BY created_at DESC, id DESC LIMIT 1`
	dueSQL = `SELECT ` + gameColumns + ` FROM games
		WHERE status IN ('pending', 'active') AND deadline IS NOT NULL AND deadline <= ?
		ORDER BY deadline, id LIMIT ?`
	movesSQL        = `SELECT game_id, ply, player, move, hinted, at FROM moves WHERE game_id = ? ORDER BY ply`
	messageIDSQL    = `SELECT message_id FROM games WHERE id = ?`
	setMessageIDSQL = `UPDATE games SET message_id = ?, updated_at = ? WHERE id = ?`
	insertGameSQL   = `INSERT INTO games (id, guild_id, channel_id, variant, misere, rules, start, position,
			player0, player1, status, difficulty, hints, locale, interaction_only, turn_timeout, deadline, created_by, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
)

func getGame(ctx context.Context, q queries, id int64) (*match.Game, error) {
	return scanGame(q.QueryRowContext(ctx, gameByIDSQL, id))
}

func channelGame(ctx context.Context, q queries, channelID string) (*match.Game, error) {
	return scanGame(q.QueryRowContext(ctx, channelGameSQL, channelID))
}

func queryGames(ctx context.Context, q queries, query string, args ...any) ([]*match.Game, error) {
	rows, err := q.QueryContext(ctx, query, args...)
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

// Times are stored as Unix milliseconds: exact, sortable, and readable in
// the sqlite3 shell with datetime(x / 1000, 'unixepoch').
func toMillis(t time.Time) int64 { return t.UnixMilli() }

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

func toNullMillis(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMilli(), Valid: true}
}

func fromNullMillis(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return fromMillis(n.Int64)
}

// marshal is v's JSON as the store keeps it: a string, since a []byte
// would bind as a BLOB.
func marshal(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// unmarshal decodes the JSON s into a fresh T.
func unmarshal[T any](s string) (T, error) {
	var v T
	err := json.Unmarshal([]byte(s), &v)
	return v, err
}

// CreateGame inserts g, which must be Pending or Active with no moves yet
// (Ply 0), and sets g.ID, g.CreatedAt and g.UpdatedAt. A zero g.Position
// means g.Start. If the channel already has a pending or active game, the
// error is a *BusyError (wrapping ErrChannelBusy) carrying that game: the
// partial unique index games_one_live_per_channel decides, so two people
// starting a game at once cannot both succeed.
//
// With FirstTurn, the turn is played in the same transaction and *g becomes
// the game after it; with Respond, the interaction is recorded with it
// (ErrDuplicate, and nothing written, if it already was).
//
// Only SQL runs in the writer every write queues for. The game's id is
// reserved first (gameIDs) and its time read, so the game as it will be
// committed, first turn included, is built in Go and Respond's answer
// rendered before the transaction; the transaction inserts the game under
// that id, plays the turn on the row it has just written (no read back:
// nothing else can have touched it) and saves the answer, whose primary key
// is the duplicate check: an interaction answered already fails there and
// takes the game with it (and, when its own game holds the channel, is told
// from a busy channel by a look at interactions on that path alone). Only if another
// process sharing the file took the id meanwhile does SQLite pick another,
// and the game and its answer are built again inside, for that id. An
// answer rendered for a game that is then not created (the channel busy,
// the interaction a duplicate) is dropped.
func (db *DB) CreateGame(ctx context.Context, g *match.Game, opts ...match.CreateOption) error {
	o := match.ReadCreateOptions(opts...)
	if err := g.CheckNew(); err != nil {
		return err
	}
	nc := creation{g: g, o: o, now: db.now()}
	var err error
	if nc.rules, err = marshal(g.Rules); err != nil {
		return err
	}
	if nc.start, err = marshal(g.Start); err != nil {
		return err
	}
	if nc.position, err = marshal(g.Position); err != nil {
		return err
	}
	if o.FirstTurn != nil {
		c := *o.FirstTurn
		c.Ply, c.From = 0, g.Status
		if nc.turn, err = prepare(c); err != nil {
			return err
		}
	}
	id := db.ids.reserve()
	var created match.Game
	defer func() {
		if created.ID != id {
			db.ids.release(id)
		}
	}()
	ahead, err := nc.build(id)
	if err != nil {
		return err
	}
	var committed match.Game
	err = db.withTx(ctx, func(ctx context.Context, tx queries, _ time.Time) error {
		now := nc.now
		if o.InteractionID != "" && o.Render == nil {
			// Nothing is saved below whose key would find a duplicate.
			if err := checkNew(ctx, tx, o.InteractionID); err != nil {
				return err
			}
		}
		if !o.CooldownSince.IsZero() {
			last, err := lastChallengeBy(ctx, tx, g.GuildID, g.CreatedBy, o.CooldownSince)
			switch {
			case err == nil && o.InteractionID != "":
				// A redelivered challenge finds its own game: it is
				// answered as the first delivery was.
				if err := checkNew(ctx, tx, o.InteractionID); err != nil {
					return err
				}
				return &match.CooldownError{Last: last}
			case err == nil:
				return &match.CooldownError{Last: last}
			case !errors.Is(err, match.ErrNotFound):
				return err
			}
		}
		gameID, err := insertGame(ctx, tx, id, g, nc.rules, nc.start, nc.position, now)
		var busy *match.BusyError
		if errors.As(err, &busy) && o.InteractionID != "" {
			// A redelivered start finds its own game holding the channel:
			// it is answered as the first delivery was, not as busy.
			if err := checkNew(ctx, tx, o.InteractionID); err != nil {
				return err
			}
		}
		if err != nil {
			return err
		}
		b := ahead
		if gameID != id {
			db.ids.seen(gameID)
			if b, err = nc.build(gameID); err != nil {
				return err
			}
		}
		if o.FirstTurn != nil {
			turn := nc.turn
			turn.GameID = gameID
			if turn.InteractionID != "" {
				if err := saveResponse(ctx, tx, turn.InteractionID, gameID, turn.Response, now); err != nil {
					return fmt.Errorf("first turn: %w", err)
				}
			}
			if err := writeChange(ctx, tx, now, turn, b.inserted, &b.created); err != nil {
				return fmt.Errorf("first turn: %w", err)
			}
		}
		if o.Render != nil && o.InteractionID != "" {
			if err := saveResponse(ctx, tx, o.InteractionID, gameID, b.response, now); err != nil {
				return err
			}
		}
		committed = b.created
		return nil
	})
	if err != nil {
		return err
	}
	created = committed
	*g = created
	return nil
}

// creation is what CreateGame inserts, checked and encoded, ready to build
// the game under an id.
type creation struct {
	g                      *match.Game
	o                      match.Creation
	turn                   prepared // the first turn, if o.FirstTurn
	rules, start, position string   // g's, as stored
	now                    time.Time
}

// built is a creation under one id: the game as its INSERT leaves the row
// (with a first turn), the game as committed, and Respond's answer for it.
type built struct {
	inserted *match.Game
	created  match.Game
	response []byte
}

// build makes the game a creation commits as id, and renders its answer:
// all of it Go, no SQL, so CreateGame does it before its transaction.
func (nc *creation) build(id int64) (built, error) {
	b := built{created: nc.g.Created(id, nc.now)}
	if nc.o.FirstTurn != nil {
		// The row as getGame would read it back: the JSON written, decoded.
		read := b.created
		var err error
		if read.Rules, err = unmarshal[engine.Rules](nc.rules); err != nil {
			return built{}, fmt.Errorf("game %d: rules: %w", id, err)
		}
		if read.Start, err = unmarshal[engine.Position](nc.start); err != nil {
			return built{}, fmt.Errorf("game %d: start: %w", id, err)
		}
		if read.Position, err = unmarshal[engine.Position](nc.position); err != nil {
			return built{}, fmt.Errorf("game %d: position: %w", id, err)
		}
		turn := nc.turn
		turn.GameID = id
		players, err := turn.Fit(&read)
		if err != nil {
			return built{}, fmt.Errorf("first turn: %w", err)
		}
		b.inserted = &read
		b.created = *applied(&read, players, nc.now, turn)
	}
	if nc.o.Render != nil {
		created := b.created // render gets a copy: what it does to it is not committed
		response, err := nc.o.Render(&created)
		if err != nil {
			return built{}, fmt.Errorf("game %d: rendering the answer: %w", id, err)
		}
		if nc.o.InteractionID != "" {
			b.response = response
		}
	}
	return b, nil
}

// insertGame inserts g's row under id and returns the id it got: id, or,
// if another process sharing the file took id first, the one SQLite picks.
// A unique violation of the channel's index is a *BusyError.
func insertGame(ctx context.Context, tx queries, id int64, g *match.Game, rules, start, position string, now time.Time) (int64, error) {
	args := []any{id, g.GuildID, g.ChannelID, string(g.Rules.Variant), g.Rules.Misere, rules, start, position,
		g.Players[0], g.Players[1], string(g.Status), string(g.Difficulty), g.Hints, g.Locale, g.InteractionOnly,
		g.TurnTimeout.Milliseconds(), toNullMillis(g.Deadline), g.CreatedBy, toMillis(now), toMillis(now)}
	_, err := tx.ExecContext(ctx, insertGameSQL, args...)
	if isConstraint(err, sqlite3.ErrConstraintPrimaryKey) {
		args[0] = nil // NULL: SQLite picks the largest id plus one
		var res sql.Result
		if res, err = tx.ExecContext(ctx, insertGameSQL, args...); err == nil {
			id, err = res.LastInsertId()
		}
	}
	if isConstraint(err, sqlite3.ErrConstraintUnique) {
		existing, err := channelGame(ctx, tx, g.ChannelID)
		if err != nil {
			return 0, fmt.Errorf("channel %s: %w", g.ChannelID, err)
		}
		return 0, &match.BusyError{Game: existing}
	}
	if err != nil {
		return 0, err
	}
	return id, nil
}

// gameIDs hands out the ids of games about to be created, so that
// everything but the SQL of a create is done before its transaction
// (CreateGame). They go on from the largest id in the file when it was
// opened, as SQLite's own choice (the largest plus one) does; an id
// reserved for a game that was not created is handed out again if none was
// reserved after it, so within one process ids stay dense and in order.
// Ids are never reused once a game has them: a restart reads the largest
// again, and forgetting notes the largest before it deletes any game
// (privacy.go, the game_ids table). Another process sharing the file may
// take an id first: insertGame then lets SQLite choose, and seen moves the
// next id past it.
type gameIDs struct {
	mu   sync.Mutex
	next int64
}

// reserve returns an id no other game of this process has or will get
// unless it is released.
func (x *gameIDs) reserve() int64 {
	x.mu.Lock()
	defer x.mu.Unlock()
	id := x.next
	x.next++
	return id
}

// release gives back id, reserved and not used, if no later id was
// reserved; otherwise it stays unused.
func (x *gameIDs) release(id int64) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.next == id+1 {
		x.next = id
	}
}

// seen notes that a game was created as id by SQLite's choice.
func (x *gameIDs) seen(id int64) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.next = max(x.next, id+1)
}

// Game returns the game with the given id, or ErrNotFound.
func (db *DB) Game(ctx context.Context, id int64) (*match.Game, error) {
	return getGame(ctx, db.reads, id)
}

// ChannelGame returns the channel's pending or active game, or ErrNotFound.
func (db *DB) ChannelGame(ctx context.Context, channelID string) (*match.Game, error) {
	return channelGame(ctx, db.reads, channelID)
}

// Moves returns the game's moves in order (none for an unknown game).
func (db *DB) Moves(ctx context.Context, gameID int64) ([]match.Move, error) {
	return queryMoves(ctx, db.reads, movesSQL, gameID)
}

// Board returns the game with the given id, its moves before its ply and
// whether its player to move recorded a hint at its ply (match.Storage),
// in one statement (boardQuery).
func (db *DB) Board(ctx context.Context, id int64) (*match.Board, error) {
	var (
		b     match.Board
		moves []byte
	)
	g, err := scanGame(db.reads.QueryRowContext(ctx, boardQuery, id), &b.Hinted, &moves)
	if err != nil {
		return nil, err
	}
	b.Game = g
	if b.Moves, err = boardMoves(g, moves); err != nil {
		return nil, err
	}
	return &b, nil
}

// boardQuery reads a board in one statement: the game, the hint mark and
// its moves before its ply as one JSON array (json_group_array), so that a
// click's board is one read transaction rather than two.
//
// The moves come in the order the subquery reads them, which is ply order:
// it walks moves' primary key (game_id, ply) from the game's first. The
// aggregate has no ORDER BY ply, though SQLite does not promise that order
// without one: with it, SQLite copied every move into a temporary B-tree
// to sort rows already in order. boardMoves checks the order instead, and
// sorts the moves itself should a later SQLite read them otherwise.
const boardQuery = `SELECT ` + gameColumns + `,
	EXISTS (SELECT 1 FROM hints WHERE game_id = games.id AND ply = games.ply
		AND user_id = CASE games.ply % 2 WHEN 0 THEN games.player0 ELSE games.player1 END),
	(SELECT json_group_array(json_object('ply', ply, 'hinted', hinted, 'at', at, 'player', player, 'move', json(move)))
		FROM moves WHERE game_id = games.id AND ply < games.ply)
	FROM games WHERE id = ?`

// boardMove is one move in boardQuery's moves column.
type boardMove struct {
	Ply    int         `json:"ply"`
	Hinted int         `json:"hinted"`
	At     int64       `json:"at"`
	Player string      `json:"player"`
	Move   engine.Move `json:"move"`
}

// boardMoves reads boardQuery's moves column for g, and returns the moves
// in ply order whatever order the column has them in.
func boardMoves(g *match.Game, b []byte) ([]match.Move, error) {
	if len(b) == 0 {
		return nil, nil
	}
	var rows []boardMove
	if err := json.Unmarshal(b, &rows); err != nil {
		return nil, fmt.Errorf("game %d: moves: %w", g.ID, err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	moves := make([]match.Move, 0, len(rows))
	for _, r := range rows {
		if (r.Hinted != 0 && r.Hinted != 1) || r.Ply < 0 || r.Ply >= g.Ply {
			return nil, fmt.Errorf("game %d: moves: unreadable after %d moves", g.ID, len(moves))
		}
		moves = append(moves, match.Move{GameID: g.ID, Ply: r.Ply, Player: r.Player, Move: r.Move, Hinted: r.Hinted == 1, At: fromMillis(r.At)})
	}
	slices.SortStableFunc(moves, func(a, b match.Move) int { return cmp.Compare(a.Ply, b.Ply) })
	return moves, nil
}

// queryMoves runs query, which selects moves' columns.
func queryMoves(ctx context.Context, q queries, query string, args ...any) ([]match.Move, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var moves []match.Move
	var text sql.RawBytes // reused row to row: the move is decoded at once
	for rows.Next() {
		var (
			m  match.Move
			at int64
		)
		if err := rows.Scan(&m.GameID, &m.Ply, &m.Player, &text, &m.Hinted, &at); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(text, &m.Move); err != nil {
			return nil, fmt.Errorf("game %d ply %d: move: %w", m.GameID, m.Ply, err)
		}
		m.At = fromMillis(at)
		moves = append(moves, m)
	}
	return moves, rows.Err()
}

// LastGameBy returns the newest game the user created in the guild (for the
// challenge cooldown), or ErrNotFound.
func (db *DB) LastGameBy(ctx context.Context, guildID, userID string) (*match.Game, error) {
	return scanGame(db.reads.QueryRowContext(ctx, lastGameBySQL, guildID, userID))
}

// LastChallengeBy returns the newest game between people the user created
// in the guild at or after since (for the challenge cooldown: games against
// nimbot in between must not reset it), or ErrNotFound.
func (db *DB) LastChallengeBy(ctx context.Context, guildID, userID string, since time.Time) (*match.Game, error) {
	return lastChallengeBy(ctx, db.reads, guildID, userID, since)
}

// lastChallengeBy is LastChallengeBy on q: CreateGame's Cooldown asks it
// inside its transaction.
func lastChallengeBy(ctx context.Context, q queries, guildID, userID string, since time.Time) (*match.Game, error) {
	return scanGame(q.QueryRowContext(ctx, lastChallengeBySQL, guildID, userID, toMillis(since), match.BotID, match.BotID))
}

// Due returns up to limit pending or active games whose deadline is at or
// before now, the most overdue first.
func (db *DB) Due(ctx context.Context, now time.Time, limit int) ([]*match.Game, error) {
	return queryGames(ctx, db.reads, dueSQL, toMillis(now), limit)
}

// SetMessageID records the game's board message if it replaces the one
// recorded (match.ReplacesBoard), or returns ErrNotFound. The read and the
// write are one transaction of the store's one writer, so no other write
// comes between them.
func (db *DB) SetMessageID(ctx context.Context, gameID int64, messageID string) error {
	return db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
		var recorded sql.NullString
		err := tx.QueryRowContext(ctx, messageIDSQL, gameID).Scan(&recorded)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("game %d: %w", gameID, match.ErrNotFound)
		}
		if err != nil || !match.ReplacesBoard(recorded.String, messageID) {
			return err
		}
		_, err = tx.ExecContext(ctx, setMessageIDSQL, messageID, toMillis(now), gameID)
		return err
	})
}
