package store

import "context"

// GamesInProgress returns how many games are pending or active, for the
// operator's metrics. The count reads the partial index of live games
// (games_one_live_per_channel), not the whole table.
func (db *DB) GamesInProgress(ctx context.Context) (int64, error) {
	var n int64
	err := db.readers.QueryRowContext(ctx, `SELECT count(*) FROM games WHERE status IN ('pending', 'active')`).Scan(&n)
	return n, err
}
