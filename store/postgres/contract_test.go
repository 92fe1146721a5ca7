package postgres

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"nimbot/internal/pgtest"
	"nimbot/internal/storetest"
	"nimbot/match"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// mustOpen opens the store on a fresh database of the test cluster and
// closes it when the test ends.
func mustOpen(t testing.TB, now func() time.Time) *DB {
	t.Helper()
	db, err := Open(context.Background(), Config{URL: pgtest.DB(t), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db
}

// TestContract runs the storage contract suite, the one the SQLite store
// passes, against PostgreSQL.
func TestContract(t *testing.T) {
	storetest.RunContract(t, func(t *testing.T, now func() time.Time) match.Storage {
		return mustOpen(t, now)
	})
}

var _ match.Storage = (*DB)(nil)

// TestPrivacy runs the contract's privacy suite against PostgreSQL, with a
// Finder that reads every column of every table information_schema lists
// in the database's schema.
func TestPrivacy(t *testing.T) {
	storetest.RunPrivacy(t, func(t *testing.T, now func() time.Time) (match.Storage, storetest.Database) {
		url := pgtest.DB(t)
		db, err := Open(context.Background(), Config{URL: url, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		look, err := pgx.Connect(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			look.Close(context.Background())
			if err := db.Close(); err != nil {
				t.Error(err)
			}
		})
		return db, storetest.Database{
			Find: func(ctx context.Context, needle string) ([]string, error) { return findPostgres(ctx, look, needle) },
			Tables: func(ctx context.Context) ([]string, error) {
				rows, err := look.Query(ctx, `SELECT table_name FROM information_schema.tables
					WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)
				if err != nil {
					return nil, err
				}
				return pgx.CollectRows(rows, pgx.RowTo[string])
			},
			Exec: func(ctx context.Context, query string) error {
				_, err := look.Exec(ctx, query)
				return err
			},
			Lock: func(ctx context.Context) (func(), error) {
				conn, err := pgx.Connect(ctx, url)
				if err != nil {
					return nil, err
				}
				tx, err := conn.Begin(ctx)
				if err == nil {
					_, err = tx.Exec(ctx, `LOCK TABLE interactions IN EXCLUSIVE MODE`)
				}
				if err != nil {
					conn.Close(ctx)
					return nil, err
				}
				return func() { tx.Rollback(context.Background()); conn.Close(context.Background()) }, nil
			},
		}
	})
}

// findPostgres lists the table.column of every value in the database's
// tables that contains needle, whatever the column's type (bytea as its
// bytes, anything else as its text).
func findPostgres(ctx context.Context, conn *pgx.Conn, needle string) ([]string, error) {
	rows, err := conn.Query(ctx, `SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
		JOIN information_schema.tables t USING (table_schema, table_name)
		WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'`)
	if err != nil {
		return nil, err
	}
	type column struct{ table, name, typ string }
	var cols []column
	for rows.Next() {
		var c column
		if err := rows.Scan(&c.table, &c.name, &c.typ); err != nil {
			rows.Close()
			return nil, err
		}
		cols = append(cols, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(cols) < 20 {
		return nil, fmt.Errorf("only columns %v: not nimbot's schema", cols)
	}
	var found []string
	for _, c := range cols {
		value := pgx.Identifier{c.name}.Sanitize() + "::text"
		if c.typ == "bytea" {
			value = "convert_from(" + pgx.Identifier{c.name}.Sanitize() + ", 'SQL_ASCII')"
		}
		var n int
		q := fmt.Sprintf(`SELECT count(*) FROM %s WHERE position($1 in %s) > 0`, pgx.Identifier{c.table}.Sanitize(), value)
		if err := conn.QueryRow(ctx, q, needle).Scan(&n); err != nil {
			return nil, fmt.Errorf("%s.%s: %w", c.table, c.name, err)
		}
		if n > 0 {
			found = append(found, fmt.Sprintf("%s.%s (%d rows)", c.table, c.name, n))
		}
	}
	return found, nil
}
