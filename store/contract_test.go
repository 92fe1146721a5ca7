package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"nimbot/internal/storetest"
	"nimbot/match"
	"nimbot/store"
)

// TestContract runs the storage contract suite against SQLite; the
// PostgreSQL store runs the same suite in store/postgres.
func TestContract(t *testing.T) {
	storetest.RunContract(t, func(t *testing.T, now func() time.Time) match.Storage {
		db, err := store.Open(context.Background(), store.Config{Path: filepath.Join(t.TempDir(), "nimbot.db"), Now: now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := db.Close(); err != nil {
				t.Error(err)
			}
		})
		return db
	})
}

// TestPrivacy runs the contract's privacy suite against SQLite, with a
// Finder that reads every column of every table sqlite_master lists.
func TestPrivacy(t *testing.T) {
	storetest.RunPrivacy(t, func(t *testing.T, now func() time.Time) (match.Storage, storetest.Database) {
		path := filepath.Join(t.TempDir(), "nimbot.db")
		db, err := store.Open(context.Background(), store.Config{Path: path, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		look, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		other, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=5000")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			other.Close()
			look.Close()
			if err := db.Close(); err != nil {
				t.Error(err)
			}
		})
		return db, storetest.Database{
			Find:   func(ctx context.Context, needle string) ([]string, error) { return findSQLite(ctx, look, needle) },
			Tables: func(ctx context.Context) ([]string, error) { return sqliteTables(ctx, look) },
			Exec: func(ctx context.Context, query string) error {
				_, err := other.ExecContext(ctx, query)
				return err
			},
			Lock: func(ctx context.Context) (func(), error) {
				conn, err := other.Conn(ctx)
				if err != nil {
					return nil, err
				}
				if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
					conn.Close()
					return nil, err
				}
				return func() { conn.ExecContext(context.Background(), "ROLLBACK"); conn.Close() }, nil
			},
		}
	})
}

// findSQLite lists the table.column of every value in the database that
// contains needle, whatever the column's type.
func findSQLite(ctx context.Context, db *sql.DB, needle string) ([]string, error) {
	tables, err := sqliteTables(ctx, db)
	if err != nil {
		return nil, err
	}
	if len(tables) < 5 {
		return nil, fmt.Errorf("only tables %v: not nimbot's schema", tables)
	}
	var found []string
	for _, table := range tables {
		cols, err := db.QueryContext(ctx, `SELECT name FROM pragma_table_info(?)`, table)
		if err != nil {
			return nil, err
		}
		var names []string
		for cols.Next() {
			var name string
			if err := cols.Scan(&name); err != nil {
				cols.Close()
				return nil, err
			}
			names = append(names, name)
		}
		if err := cols.Close(); err != nil {
			return nil, err
		}
		for _, col := range names {
			var n int
			q := fmt.Sprintf(`SELECT count(*) FROM %q WHERE instr(CAST(%q AS BLOB), CAST(? AS BLOB)) > 0`, table, col)
			if err := db.QueryRowContext(ctx, q, needle).Scan(&n); err != nil {
				return nil, err
			}
			if n > 0 {
				found = append(found, fmt.Sprintf("%s.%s (%d rows)", table, col, n))
			}
		}
	}
	return found, nil
}

// TestForgetKeepsIDs: a game id is never handed out again, even after the
// game with the largest id was deleted by forgetting and the store opened
// again, so an old board's buttons can never name a new game.
func TestForgetKeepsIDs(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "nimbot.db")
	open := func() *store.DB {
		db, err := store.Open(ctx, store.Config{Path: path})
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	db := open()
	const user, guild = "800000000000000001", "900000000000000001"
	var last int64
	for i := range 3 {
		g := storetest.NewGame(fmt.Sprint("c", i), [2]string{user, match.BotID}, 3)
		g.GuildID = guild
		storetest.MustCreate(t, db, g)
		last = g.ID
	}
	if f, err := db.ForgetUser(ctx, user); err != nil || f.Deleted != 3 {
		t.Fatalf("ForgetUser: %+v, %v", f, err)
	}
	if _, err := db.ForgetGuild(ctx, guild); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db = open()
	defer db.Close()
	g := storetest.MustCreate(t, db, storetest.NewGame("c0", [2]string{"800000000000000002", match.BotID}, 3))
	if g.ID <= last {
		t.Errorf("a new game got id %d, after games up to %d were deleted", g.ID, last)
	}
}

// sqliteTables lists the database's tables, SQLite's own left out.
func sqliteTables(ctx context.Context, db *sql.DB) ([]string, error) {
	var tables []string
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		tables = append(tables, name)
	}
	return tables, rows.Err()
}
