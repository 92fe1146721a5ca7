package postgres

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"nimbot/engine"
	"nimbot/match"
)

// TestBenchReplicas: bench/pgbench's replicas of a board read and of a
// click's commit, which scripts/bench-statements runs, are the store's own
// statements with values in place of their parameters, so that what the
// script measures is what the store sends. A change to those statements
// fails here until the replicas follow it.
func TestBenchReplicas(t *testing.T) {
	c := match.Change{GameID: 1, Ply: 4, From: match.Active, Status: match.Active,
		Moves: []engine.Move{take(0, 1), take(1, 1)}, Position: engine.Position{Heaps: []int64{3, 4, 5}},
		InteractionID: "i", Response: []byte("r")}
	b := &pgx.Batch{}
	queueTurn(b, c, epoch)
	turn := []string{"BEGIN"}
	for _, q := range b.QueuedQueries {
		turn = append(turn, q.SQL)
	}
	turn = append(turn, "COMMIT")
	for _, tt := range []struct {
		file string
		want []string
	}{
		{"board.sql", []string{boardQuery}},
		{"turn.sql", turn},
	} {
		got := replicaStatements(t, "../../bench/pgbench/"+tt.file)
		if len(got) != len(tt.want) {
			t.Fatalf("%s: %d statements, want %d", tt.file, len(got), len(tt.want))
		}
		for i, want := range tt.want {
			if !asReplica(want).MatchString(got[i]) {
				t.Errorf("%s, statement %d:\n%s\nis not the store's\n%s", tt.file, i+1, got[i], oneLine(want))
			}
		}
	}
}

// replicaStatements reads a pgbench script's SQL statements, each on one
// line, without its comments and its meta-commands (\set, \startpipeline).
func replicaStatements(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sql []string
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "--") && !strings.HasPrefix(line, `\`) {
			sql = append(sql, line)
		}
	}
	var out []string
	for _, s := range strings.Split(strings.Join(sql, "\n"), ";\n") {
		if s = oneLine(strings.TrimSuffix(strings.TrimSpace(s), ";")); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// asReplica matches sql with any value in place of each parameter ($1…).
func asReplica(sql string) *regexp.Regexp {
	quoted := regexp.QuoteMeta(oneLine(sql))
	return regexp.MustCompile(`^` + regexp.MustCompile(`\\\$\d+`).ReplaceAllString(quoted, `.+?`) + `$`)
}

// oneLine is sql with each run of white space one space.
func oneLine(sql string) string {
	return strings.Join(strings.Fields(sql), " ")
}
