package postgres

import (
	"context"
	"testing"

	"nimbot/internal/pgtest"
	"nimbot/internal/storetest"
	"nimbot/match"
)

// TestStatementsPlannedOnce: the statements of a board click (the board's
// read, the turn's batch) are planned once per connection, not again on
// every execution. The store's one connection plays a game of many turns;
// PostgreSQL's own count of that connection's custom plans
// (pg_prepared_statements) must stay at zero.
func TestStatementsPlannedOnce(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, Config{URL: pgtest.DB(t), Now: fixed, MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g := mustCreate(t, db, newGame("c1", [2]string{"alice", match.BotID}, 1<<40))
	for range 12 {
		if _, err := db.Board(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
		// The human's move and nimbot's reply, in one statement.
		c, err := storetest.Change(g, take(0, 1), take(0, 1))
		if err != nil {
			t.Fatal(err)
		}
		if g, err = db.Commit(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := db.pool.Query(ctx, `SELECT statement, custom_plans FROM pg_prepared_statements WHERE custom_plans > 0`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			sql    string
			custom int64
		)
		if err := rows.Scan(&sql, &custom); err != nil {
			t.Fatal(err)
		}
		t.Errorf("planned again on %d executions: %s", custom, sql)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}
