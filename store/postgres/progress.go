package postgres

import "context"

// GamesInProgress returns how many games are pending or active, of every
// instance sharing the database, for the operator's metrics. The count
// reads the partial index of live games (games_one_live_per_channel).
func (db *DB) GamesInProgress(ctx context.Context) (int64, error) {
	var n int64
	err := db.pool.QueryRow(ctx, `SELECT count(*) FROM games WHERE status IN ('pending', 'active')`).Scan(&n)
	return n, err
}
