package store

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"nimbot/engine"
	"nimbot/match"
)

// TestBoardPackedMoves: Board reads the moves gathered into one JSON
// column (boardQuery) as Moves reads them row by row, whatever the players'
// ids hold (JSON's and the old packing's separators, digits, multibyte
// letters), for moves by neither of the game's players, spaced JSON and
// times before 1970 (rows another writer could have left).
func TestBoardPackedMoves(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	g := mustCreate(t, db, newGame("c1", [2]string{"1,2:3", "ü:{日本,"}, 1<<40))
	check := func() {
		t.Helper()
		b, err := db.Board(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		game, err := db.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		moves, err := db.Moves(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(b.Game, game) || len(b.Moves) != len(moves) || (len(moves) > 0 && !reflect.DeepEqual(b.Moves, moves)) {
			t.Fatalf("Board\n%+v\n%+v\nwant\n%+v\n%+v", b.Game, b.Moves, game, moves)
		}
	}
	check()
	for range 3 {
		g = play(t, db, g, take(0, 1))
		check()
	}
	for _, row := range []struct{ player, move string }{
		{"", `{ "heap" : 0, "take" : 2 }`},
		{"12:34,", `{"take":1,"heap":0}`},
	} {
		if _, err := db.writeConn.ExecContext(ctx, `INSERT INTO moves (game_id, ply, player, move, hinted, at)
			VALUES (?, (SELECT ply FROM games WHERE id = ?), ?, ?, 1, -1234)`, g.ID, g.ID, row.player, row.move); err != nil {
			t.Fatal(err)
		}
		check()
	}
	if b, err := db.Board(ctx, g.ID); err != nil || len(b.Moves) != 5 || b.Moves[3].Player != "" || !reflect.DeepEqual(b.Moves[4].Move, take(0, 1)) || !b.Moves[4].Hinted {
		t.Fatalf("Board: %+v, %v", b, err)
	}
}

// TestBoardMovesUnreadable: a moves column that does not parse is an
// error naming the game, never a panic or a partial list.
func TestBoardMovesUnreadable(t *testing.T) {
	g := &match.Game{ID: 7, Ply: 2, Players: [2]string{"a", "b"}}
	row := func(ply, hinted, at, player, move string) string {
		return `{"ply":` + ply + `,"hinted":` + hinted + `,"at":` + at + `,"player":` + player + `,"move":` + move + `}`
	}
	good := `[` + row("0", "0", "5", `"a"`, `{"heap":0,"take":1}`) + `]`
	if moves, err := boardMoves(g, []byte(good)); err != nil || len(moves) != 1 || moves[0].Player != "a" || moves[0].At.UnixMilli() != 5 {
		t.Fatalf("boardMoves(%q) = %+v, %v", good, moves, err)
	}
	// The column in another order than ply order (SQLite does not promise
	// json_group_array's without ORDER BY): the moves come back in ply order.
	g3 := &match.Game{ID: 7, Ply: 3, Players: [2]string{"a", "b"}}
	shuffled := `[` + row("2", "0", "7", `"a"`, `{"heap":2,"take":1}`) + `,` + row("0", "1", "5", `"a"`, `{"heap":0,"take":1}`) + `,` +
		row("1", "0", "6", `"xy"`, `{"heap":1,"take":3}`) + `]`
	moves, err := boardMoves(g3, []byte(shuffled))
	if err != nil || len(moves) != 3 {
		t.Fatalf("boardMoves(%q) = %+v, %v", shuffled, moves, err)
	}
	for i, want := range []struct {
		player string
		hinted bool
		at     int64
		move   engine.Move
	}{{"a", true, 5, take(0, 1)}, {"xy", false, 6, take(1, 3)}, {"a", false, 7, take(2, 1)}} {
		m := moves[i]
		if m.Ply != i || m.Player != want.player || m.Hinted != want.hinted || m.At.UnixMilli() != want.at || m.GameID != 7 || !reflect.DeepEqual(m.Move, want.move) {
			t.Errorf("boardMoves(%q)[%d] = %+v, want ply %d %+v", shuffled, i, m, i, want)
		}
	}
	for _, bad := range []string{
		good[:len(good)-1],               // cut short
		good[:len(good)-1] + `,{"ply":1`, // a second move cut short
		`[` + row("0", "2", "5", `"a"`, `{"heap":0,"take":1}`) + `]`, // hinted neither 0 nor 1
		`[` + row("2", "0", "5", `"a"`, `{"heap":0,"take":1}`) + `]`, // at or past the game's ply
		`[` + row("-1", "0", "5", `"a"`, `{"heap":0,"take":1}`) + `]`,
		`[` + row("0", "0", "5", `1`, `{"heap":0,"take":1}`) + `]`,
		`[` + row("0", "0", "1e30", `"a"`, `{"heap":0,"take":1}`) + `]`, // too large
		`[` + row("0", "0", `""`, `"a"`, `{"heap":0,"take":1}`) + `]`,
		`[` + row("0", "0", "5", `"a"`, `{"heap":0,"tak":1}`) + `]x`,
		`[` + row("0", "0", "5", `"a"`, `{"he`),
		`{}`,
	} {
		if moves, err := boardMoves(g, []byte(bad)); err == nil || !strings.Contains(err.Error(), "game 7") {
			t.Errorf("boardMoves(%q) = %+v, %v; want an error naming game 7", bad, moves, err)
		}
	}
}
