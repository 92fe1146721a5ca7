package postgres

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"

	"nimbot/internal/answerzip"
	"nimbot/internal/storetest"
	"nimbot/match"
)

// TestSavedAnswersCompressed: the interactions table holds a saved board
// compressed (answerzip's stored form), and Response reads it back byte for
// byte; rows holding plain JSON, as written before, read back as they are;
// a damaged row is an error, not a panic or other bytes. As store's test of
// the same name, on PostgreSQL.
func TestSavedAnswersCompressed(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, fixed)
	board, err := os.ReadFile("../testdata/board.json")
	if err != nil {
		t.Fatal(err)
	}
	g := mustCreate(t, db, newGame("c1", [2]string{"alice", match.BotID}, 3, 4, 5))
	c, err := storetest.Change(g, take(0, 1), take(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	c.InteractionID, c.Response = "move", board
	if _, err := db.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveResponse(ctx, "saved", board); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateGame(ctx, newGame("c2", [2]string{"alice", match.BotID}, 3), match.Respond("created", func(*match.Game) ([]byte, error) { return board, nil })); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"move", "saved", "created"} {
		var stored []byte
		if err := db.pool.QueryRow(ctx, `SELECT response FROM interactions WHERE id = $1`, id).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if len(stored)*5 > len(board) || stored[0] != 0x01 {
			t.Errorf("%s: a board of %d bytes is stored in %d, starting %#x", id, len(board), len(stored), stored[0])
		}
		if got, err := db.Response(ctx, id); err != nil || !bytes.Equal(got, board) {
			t.Errorf("%s reads back as %q, %v", id, got, err)
		}
	}
	for id, stored := range map[string][]byte{"legacy": board, "legacy-text": []byte("hint"), "damaged": {0x01, 0xff, 0x10, 0x00}} {
		if _, err := db.pool.Exec(ctx, `INSERT INTO interactions (id, response, at) VALUES ($1, $2, 0)`, id, stored); err != nil {
			t.Fatal(err)
		}
		got, err := db.Response(ctx, id)
		switch {
		case id == "damaged":
			if !errors.Is(err, answerzip.ErrCorrupt) {
				t.Errorf("a damaged row reads back as %q, %v", got, err)
			}
		case err != nil || !bytes.Equal(got, stored):
			t.Errorf("%s: plain row %q reads back as %q, %v", id, stored, got, err)
		}
	}
}
