package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"nimbot/match"
)

// Commit is the one write path for a turn, as store.DB.Commit: in one
// transaction it claims c.InteractionID (match.ErrDuplicate if it was
// already answered, on any instance), locks the game's row and checks it is
// still at c.Ply with status c.From and live (match.ErrStale otherwise,
// match.ErrNotFound for an unknown game), inserts c.Moves (marked hinted
// where their player asked for a hint at that ply), sets the new position,
// status, winner, deadline and players, records the result and statistics
// when the game ends, and saves the response. Either all of it lands or
// none does. It returns the game as committed.
//
// A turn that leaves the game live is one round trip: BEGIN, every
// statement (queueTurn) and COMMIT in one batch. Its writes are guarded so
// that they change nothing unless match's rules, checked in Go on the row
// the batch locked, pass it. A turn that ends the game is two: the result
// and statistics follow, with COMMIT, once the turn is known to apply.
func (db *DB) Commit(ctx context.Context, c match.Change) (*match.Game, error) {
	if err := check(c); err != nil {
		return nil, err
	}
	// A turn that leaves the game live (most of them) commits in the same
	// batch: should match's rules refuse it, its guarded writes have
	// changed nothing, and COMMIT commits nothing. A turn that ends the
	// game commits once its result is written.
	oneTrip := !c.From.Finished() && !c.Status.Finished()
	var out *match.Game
	err := db.inTx(ctx, func(t *tx) error {
		b := &pgx.Batch{}
		applied := queueTurn(b, c, t.now)
		if oneTrip {
			b.Queue("COMMIT")
		}
		br := t.begin(ctx, b)
		g, err := applied(br)
		if cerr := br.Close(); err == nil {
			err = cerr
		}
		if err != nil && !errors.Is(err, match.ErrDuplicate) && c.InteractionID != "" &&
			t.conn.Conn().PgConn().TxStatus() != 'E' && !t.conn.Conn().IsClosed() {
			// A redelivery waited for its first delivery at the lock and
			// finds the game moved on (or never there), but what it is
			// told is that its interaction was answered.
			var answered bool
			if qerr := t.conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM interactions WHERE id = $1)`, c.InteractionID).Scan(&answered); qerr != nil {
				return qerr
			}
			if answered {
				return fmt.Errorf("interaction %s: %w", c.InteractionID, match.ErrDuplicate)
			}
		}
		out = g
		if err != nil || oneTrip {
			return err
		}
		return db.finish(ctx, t, g, nil)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// check refuses a Change no game could take, before any transaction.
func check(c match.Change) error {
	return c.Check()
}

// finish commits the transaction t that left the game g, with the
// statements in end (nil for none): with the result and statistics first
// if g has just ended.
func (db *DB) finish(ctx context.Context, t *tx, g *match.Game, end *pgx.Batch) error {
	if end == nil {
		end = &pgx.Batch{}
	}
	if g.Status.Finished() {
		if err := recordResult(ctx, t, g, end); err != nil {
			return fmt.Errorf("game %d: recording the result: %w", g.ID, err)
		}
	}
	return t.commit(ctx, end)
}

// queueClaim queues the claim of interaction id (if not "") with its
// response, and returns the reader of its result: match.ErrDuplicate if it
// was already answered. A delivery of the same interaction in flight on
// another connection holds the row: this one waits for it, and then either
// finds it answered or, if it rolled back, takes the claim. The game is
// recorded only if it exists, so an unknown game is not a foreign key's
// error.
func queueClaim(b *pgx.Batch, id string, gameID int64, response []byte, now time.Time) func(pgx.BatchResults) error {
	if id == "" {
		return func(pgx.BatchResults) error { return nil }
	}
	if response == nil {
		response = []byte{} // the column is NOT NULL; nil would bind as NULL
	}
	b.Queue(`INSERT INTO interactions (id, game_id, response, at)
		VALUES ($1, (SELECT id FROM games WHERE id = $2), $3, $4) ON CONFLICT (id) DO NOTHING`,
		id, gameID, response, toMillis(now))
	return func(br pgx.BatchResults) error {
		tag, err := br.Exec()
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("interaction %s: %w", id, match.ErrDuplicate)
		}
		return nil
	}
}

// queueTurn queues c's statements, for one round trip with others, and
// returns the reader of their results, which returns the game as c leaves
// it. The first statement locks the game's row: it orders every writer of
// this game, on every instance, so the second of two clicks reads the ply
// the first left. The writes after it are guarded by c.Ply and c.From, so
// on a game that has moved on they change nothing (the trigger on moves
// would refuse a stale move with an error); the reader then checks the
// locked row by match's rules (Change.Fit) and returns their error, for
// the transaction to roll back. The game as c leaves it is the locked row
// with c applied in Go (turned), not read back: the update returns only
// whether it applied.
func queueTurn(b *pgx.Batch, c match.Change, now time.Time) func(pgx.BatchResults) (*match.Game, error) {
	b.Queue(`SELECT `+gameColumns+` FROM games WHERE id = $1 FOR UPDATE`, c.GameID)
	if c.Players != nil {
		b.Queue(`UPDATE games SET player0 = $1, player1 = $2 WHERE id = $3 AND ply = $4 AND status = $5`,
			c.Players[0], c.Players[1], c.GameID, c.Ply, string(c.From))
	}
	if len(c.Moves) > 0 {
		// One statement for the human's move and nimbot's reply, in ply
		// order. Each is played by the seat whose turn it is, after any new
		// seating above, and marked hinted if that player asked for a hint
		// at its ply; the trigger on moves checks each ply again and
		// advances games.ply.
		insert := `INSERT INTO moves (game_id, ply, player, move, hinted, at)
			SELECT g.id, p.ply, p.player, m.move,
				EXISTS (SELECT 1 FROM hints h WHERE h.game_id = g.id AND h.ply = p.ply AND h.user_id = p.player), $5
			FROM games g
				CROSS JOIN unnest($4::jsonb[]) WITH ORDINALITY AS m (move, n)
				CROSS JOIN LATERAL (SELECT g.ply + m.n::integer - 1 AS ply,
					CASE (g.ply + m.n::integer - 1) % 2 WHEN 0 THEN g.player0 ELSE g.player1 END AS player) p
			WHERE g.id = $1 AND g.ply = $2 AND g.status = $3`
		args := []any{c.GameID, c.Ply, string(c.From), c.Moves, toMillis(now)}
		if c.Seen != nil {
			// The board the change was decided on came from an earlier
			// commit: it holds only if the game's board message and the
			// first mover's hint at the ply are still as it says.
			insert += ` AND g.message_id = $6 AND EXISTS (SELECT 1 FROM hints h WHERE h.game_id = g.id AND h.ply = g.ply
				AND h.user_id = CASE g.ply % 2 WHEN 0 THEN g.player0 ELSE g.player1 END) = $7`
			args = append(args, c.Seen.MessageID, c.Seen.Hinted)
		}
		b.Queue(insert+`
			ORDER BY m.n`, args...)
	}
	after := c.Ply + len(c.Moves)
	// With moves, the game at the ply after them must be this
	// transaction's doing (the trigger's update of games.ply): the row's
	// version written by this transaction, not a game another click moved
	// there.
	moved := ""
	if len(c.Moves) > 0 {
		moved = ` AND xmin = pg_current_xact_id()::xid`
	}
	var update string
	var args []any
	if len(c.Moves) == 0 && c.Position.Heaps == nil {
		update = `UPDATE games SET status = $1, winner = $2, deadline = $3, updated_at = $4, claimed_until = NULL
			WHERE id = $5 AND ply = $6 AND status = $7 RETURNING id`
		args = []any{string(c.Status), c.Winner, toNullMillis(c.Deadline), toMillis(now), c.GameID, after, string(c.From)}
	} else {
		update = `UPDATE games SET position = $1, status = $2, winner = $3, deadline = $4, updated_at = $5, claimed_until = NULL
			WHERE id = $6 AND ply = $7 AND status = $8` + moved + ` RETURNING id`
		args = []any{c.Position, string(c.Status), c.Winner, toNullMillis(c.Deadline), toMillis(now), c.GameID, after, string(c.From)}
	}
	if c.InteractionID != "" {
		// The interaction is recorded, with its answer, only if the game
		// was updated, in the same statement; one answered already is a
		// unique violation, and the statement changes nothing.
		response := c.Response
		if response == nil {
			response = []byte{} // the column is NOT NULL; nil would bind as NULL
		}
		n := len(args)
		update = fmt.Sprintf(`WITH u AS (%s),
			i AS (INSERT INTO interactions (id, game_id, response, at) SELECT $%d, id, $%d, $%d FROM u)
			SELECT id FROM u`, update, n+1, n+2, n+3)
		args = append(args, c.InteractionID, response, toMillis(now))
	}
	b.Queue(update, args...)
	return func(br pgx.BatchResults) (*match.Game, error) {
		// Every result is read before any is judged, so that the results
		// queued after these are read in their turn.
		g, err := scanGame(br.QueryRow())
		var written error
		if c.Players != nil {
			_, written = br.Exec()
		}
		var inserted int64
		if len(c.Moves) > 0 {
			tag, err := br.Exec()
			if written == nil && err != nil {
				written = fmt.Errorf("ply %d: %w", c.Ply, staleMove(err))
			}
			inserted = tag.RowsAffected()
		}
		var id int64
		updated := br.QueryRow().Scan(&id)
		if errors.Is(updated, pgx.ErrNoRows) {
			updated = match.ErrNotFound
		}
		if isUnique(updated, "interactions_pkey") {
			return nil, fmt.Errorf("interaction %s: %w", c.InteractionID, match.ErrDuplicate)
		}
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", c.GameID, err)
		}
		players, err := c.Fit(g)
		if err != nil {
			return nil, err
		}
		if written != nil {
			return nil, fmt.Errorf("game %d: %w", c.GameID, written)
		}
		if c.Seen != nil && inserted == 0 {
			// Fit found the ply, status and board message as seen: the
			// hint is what changed.
			return nil, match.SeenHintStale(g)
		}
		if inserted != int64(len(c.Moves)) {
			return nil, fmt.Errorf("game %d: %d of %d moves inserted", g.ID, inserted, len(c.Moves))
		}
		if updated != nil {
			return nil, fmt.Errorf("game %d: updating it: %w", g.ID, updated)
		}
		out, err := turned(*g, c, players, now)
		if err != nil {
			return nil, err
		}
		return &out, nil
	}
}

// staleMove reports the trigger's refusal of a move as match.ErrStale.
func staleMove(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23514" && pgErr.Where != "" {
		return fmt.Errorf("%w: %s", match.ErrStale, pgErr.Message)
	}
	return err
}

// recordHint records a hint, and the interaction that asked for it, in one
// statement: the game's row is locked as a move locks it (so a hint and the
// move at its ply take turns, and a hint waiting for a move finds the ply
// moved on), and the hint is inserted only at the game's current ply while
// it is live. An interaction answered already is a unique violation ($5 is
// not "") and the statement writes nothing. It returns the rows inserted
// into hints: 0 for a hint recorded already or a game that has moved on.
const recordHint = `WITH g AS (
		SELECT id, ply FROM games WHERE id = $1 AND ply = $2 AND status IN ('pending', 'active') FOR UPDATE),
	h AS (
		INSERT INTO hints (game_id, ply, user_id, at) SELECT id, ply, $3, $4 FROM g
		ON CONFLICT DO NOTHING RETURNING game_id),
	i AS (
		INSERT INTO interactions (id, game_id, response, at) SELECT $5, game_id, $6, $4 FROM h WHERE $5 <> ''
		RETURNING id)
	SELECT (SELECT count(*) FROM h), (SELECT count(*) FROM i)`

// RecordHint notes that h.UserID asked for a hint at ply h.Ply and reports
// whether the hint is new, as store.DB.RecordHint: only a new hint writes
// anything, its interaction with it. match.ErrStale if the game is past
// that ply or over, match.ErrNotFound if unknown, match.ErrDuplicate if the
// interaction was already answered.
//
// A new hint is one round trip, one statement (recordHint); anything else
// is told apart afterwards by a read.
func (db *DB) RecordHint(ctx context.Context, h match.Hint) (bool, error) {
	response := h.Response
	if response == nil {
		response = []byte{}
	}
	var hints, answered int
	err := db.pool.QueryRow(ctx, recordHint, h.GameID, h.Ply, h.UserID, toMillis(db.now()), h.InteractionID, response).
		Scan(&hints, &answered)
	switch {
	case isUnique(err, "interactions_pkey"):
		return false, fmt.Errorf("interaction %s: %w", h.InteractionID, match.ErrDuplicate)
	case err != nil:
		return false, classify(err)
	case hints == 1:
		return true, nil
	}
	// Nothing was written: say why.
	var (
		ply    int
		status string
		used   bool
	)
	err = db.pool.QueryRow(ctx, `SELECT ply, status,
		EXISTS (SELECT 1 FROM hints WHERE game_id = games.id AND ply = $1 AND user_id = $2) FROM games WHERE id = $3`,
		h.Ply, h.UserID, h.GameID).Scan(&ply, &status, &used)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return false, fmt.Errorf("game %d: %w", h.GameID, match.ErrNotFound)
	case err != nil:
		return false, classify(err)
	case ply != h.Ply || match.Status(status).Finished():
		return false, fmt.Errorf("%w (game %d is at ply %d, %s; the hint was for ply %d)", match.ErrStale, h.GameID, ply, status, h.Ply)
	case used:
		return false, nil
	}
	// The game was at h.Ply and live when read, and the hint not there: a
	// move or a hint in between. The caller asks again.
	return false, fmt.Errorf("%w (game %d changed while its hint was recorded)", match.ErrStale, h.GameID)
}

// HintUsed reports whether userID recorded a hint for the game at ply.
func (db *DB) HintUsed(ctx context.Context, gameID int64, ply int, userID string) (bool, error) {
	var used bool
	err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM hints WHERE game_id = $1 AND ply = $2 AND user_id = $3)`,
		gameID, ply, userID).Scan(&used)
	return used, classify(err)
}

// Response returns the response saved for an interaction, or
// match.ErrNotFound.
func (db *DB) Response(ctx context.Context, interactionID string) ([]byte, error) {
	var resp []byte
	err := db.pool.QueryRow(ctx, `SELECT response FROM interactions WHERE id = $1`, interactionID).Scan(&resp)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("interaction %s: %w", interactionID, match.ErrNotFound)
	}
	if resp == nil && err == nil {
		resp = []byte{}
	}
	return resp, classify(err)
}

// SaveResponse records the response to an interaction that committed
// nothing else. match.ErrDuplicate if the interaction already has one; the
// first stays.
func (db *DB) SaveResponse(ctx context.Context, interactionID string, response []byte) error {
	return classify(saveResponse(ctx, db.pool, interactionID, response, db.now()))
}

// saveResponse records response for interactionID through q: the pool, or
// the connection of a transaction that saves its answer with its writes.
func saveResponse(ctx context.Context, q execer, interactionID string, response []byte, now time.Time) error {
	if response == nil {
		response = []byte{} // the column is NOT NULL; nil would bind as NULL
	}
	tag, err := q.Exec(ctx, `INSERT INTO interactions (id, response, at) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO NOTHING`, interactionID, response, toMillis(now))
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("interaction %s: %w", interactionID, match.ErrDuplicate)
	}
	return nil
}

// pruneLock is the advisory lock key PruneInteractions holds: any value
// unique to nimbot in the database.
const pruneLock = 0x6e696d626f74 // "nimbot"

// PruneInteractions forgets interactions answered before before and returns
// how many, as store.DB.PruneInteractions: in statements of at most
// match.PruneBatch rows, oldest first, each its own transaction, so no
// statement holds locks for long; an error or ctx ending keeps the batches
// already deleted.
//
// One instance prunes at a time: each batch first takes a transaction
// advisory lock without waiting (pg_try_advisory_xact_lock), and an
// instance that finds it taken stops there rather than delete alongside
// another. The lock lives only as long as the batch's statement, so no
// session state is left behind by a connection that breaks, or by a pooler
// in transaction mode (PgBouncer) that hands each statement to another
// server connection.
func (db *DB) PruneInteractions(ctx context.Context, before time.Time) (int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		var got bool
		var n int64
		err := db.pool.QueryRow(ctx, `WITH l AS (SELECT pg_try_advisory_xact_lock($3) AS got),
			d AS (DELETE FROM interactions WHERE (SELECT got FROM l) AND id IN
				(SELECT id FROM interactions WHERE at < $1 ORDER BY at LIMIT $2 FOR UPDATE SKIP LOCKED)
				RETURNING 1)
			SELECT (SELECT got FROM l), (SELECT count(*) FROM d)`,
			toMillis(before), match.PruneBatch, int64(pruneLock)).Scan(&got, &n)
		if err != nil {
			return total, classify(err)
		}
		total += n
		if !got || n < match.PruneBatch {
			return total, nil
		}
	}
}
