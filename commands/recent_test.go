package commands

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/internal/pgtest"
	"nimbot/match"
)

// TestRecentBoards: a move click is decided on the board the game's last
// move here left (recentBoards), and answered exactly as an instance that
// reads the game afresh answers it, whatever another instance did to the
// game in between: a hint, a new board, a resignation, a move. Each case
// runs twice over a real store: once with the thing in between done by the
// same Service (which lets go of the board it kept), once by a second
// Service over the same store, as another instance would, leaving the first
// one's board out of date; the two answers and the games they leave must
// match. With nothing in between, the first run lets go of the board
// itself: a fresh read's answer against the kept board's.
func TestRecentBoards(t *testing.T) {
	move := func(g *match.Game, heap int) string {
		return MoveControl{Game: g.ID, Ply: g.Ply, Heap: heap, Take: 1}.CustomID()
	}
	for _, tc := range []struct {
		name    string
		between func(h *harness, g *match.Game) // nil: nothing
		check   func(t *testing.T, h *harness, g *match.Game, resp *discordgo.InteractionResponse)
	}{{
		name: "nothing",
		check: func(t *testing.T, h *harness, g *match.Game, resp *discordgo.InteractionResponse) {
			if got := h.game(); got.Ply != g.Ply+2 {
				t.Fatalf("the move was not played: ply %d", got.Ply)
			}
		},
	}, {
		name:    "hint",
		between: func(h *harness, g *match.Game) { h.command(alice, "hint") },
		check: func(t *testing.T, h *harness, g *match.Game, resp *discordgo.InteractionResponse) {
			if ms := h.moves(g.ID); len(ms) != g.Ply+2 || !ms[g.Ply].Hinted {
				t.Fatalf("the move after the hint is not marked hinted: %+v", ms)
			}
		},
	}, {
		name: "new board, old one clicked",
		between: func(h *harness, g *match.Game) {
			old := h.message
			h.command(alice, "status")
			if h.message == old {
				t.Fatal("/nim status posted no new board")
			}
			h.message = old
		},
		check: func(t *testing.T, h *harness, g *match.Game, resp *discordgo.InteractionResponse) {
			if got := h.game(); got.Ply != g.Ply {
				t.Fatalf("a click on a replaced board played: ply %d", got.Ply)
			}
		},
	}, {
		name:    "new board, new one clicked",
		between: func(h *harness, g *match.Game) { h.command(alice, "status") },
		check: func(t *testing.T, h *harness, g *match.Game, resp *discordgo.InteractionResponse) {
			if got := h.game(); got.Ply != g.Ply+2 || got.MessageID != h.message {
				t.Fatalf("after the click on the new board: %+v", got)
			}
		},
	}, {
		name:    "resigned",
		between: func(h *harness, g *match.Game) { h.command(alice, "resign") },
		check: func(t *testing.T, h *harness, g *match.Game, resp *discordgo.InteractionResponse) {
			if got := h.gameByID(g.ID); got.Status != match.Resigned || got.Ply != g.Ply {
				t.Fatalf("after a click on a resigned game: %+v", got)
			}
		},
	}, {
		name:    "moved",
		between: func(h *harness, g *match.Game) { h.click(alice, move(g, 0)) },
		check: func(t *testing.T, h *harness, g *match.Game, resp *discordgo.InteractionResponse) {
			// The click is out of date: answered with the board as it is
			// now, and not played.
			if got := h.game(); got.Ply != g.Ply+2 {
				t.Fatalf("a second move on the same board: %+v, %s", got, text(resp))
			}
		},
	}} {
		for _, st := range []struct {
			name string
			url  func(t *testing.T) string
		}{
			{"sqlite", func(*testing.T) string { return "" }},
			{"postgres", func(t *testing.T) string { return pgtest.DB(t) }},
		} {
			t.Run(st.name+"/"+tc.name, func(t *testing.T) {
				var seen [2]string
				for k, elsewhere := range []bool{false, true} {
					h := newHarnessOn(t, 7, "NORMAL", st.url(t))
					here := h.svc
					other := New(Config{DB: h.db, Now: h.clock, Rand: rand.New(rand.NewPCG(99, 1)),
						Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
					h.command(alice, "start", "first", "me", "heaps", "3 4 5")
					g := h.game()
					h.click(alice, move(g, 2)) // and nimbot's reply
					g = h.game()
					if _, ok := here.recent.at(g.ID, g.Ply, h.now); !ok {
						t.Fatalf("no board kept after the move to ply %d", g.Ply)
					}
					if elsewhere {
						h.svc = other
					}
					if tc.between != nil {
						tc.between(h, g)
					} else if !elsewhere {
						here.recent.drop(g.ID)
					}
					h.svc = here
					// Done here, the board kept is gone; done elsewhere,
					// it is out of date and this instance does not know.
					if _, kept := here.recent.at(g.ID, g.Ply, h.now); kept != elsewhere {
						t.Fatalf("done elsewhere: %v, yet a board kept at ply %d: %v", elsewhere, g.Ply, kept)
					}
					resp := h.click(alice, move(g, 1))
					tc.check(t, h, g, resp)
					b, _ := json.Marshal(resp)
					seen[k] = fmt.Sprintf("%s\n%+v\n%+v", b, h.gameByID(g.ID), h.moves(g.ID))
				}
				if seen[0] != seen[1] {
					t.Fatalf("with the change made here:\n%s\nmade elsewhere:\n%s", seen[0], seen[1])
				}
			})
		}
	}
}

// TestRecentBoardsBounded: the boards kept are at most recentBoardsMax,
// each for recentBoardsFor; a finished game's is dropped, and what at hands
// out is the caller's to change.
func TestRecentBoardsBounded(t *testing.T) {
	var k recentBoards
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for id := int64(1); id <= recentBoardsMax+10; id++ {
		k.keep(&match.Game{ID: id, Ply: 2, Status: match.Active}, nil, false, now)
	}
	if len(k.boards) != recentBoardsMax {
		t.Fatalf("%d boards kept, want %d", len(k.boards), recentBoardsMax)
	}
	last := int64(recentBoardsMax + 10)
	if _, ok := k.at(last, 2, now); !ok {
		t.Fatal("the board kept last is gone")
	}
	if _, ok := k.at(last, 3, now); ok {
		t.Fatal("a board kept at ply 2 was given for ply 3")
	}
	k.keep(&match.Game{ID: last, Ply: 3, Status: match.Won}, nil, false, now)
	if _, ok := k.at(last, 2, now); ok {
		t.Fatal("a finished game's board is still kept")
	}
	k.keep(&match.Game{ID: 1, Ply: 2, Status: match.Active}, nil, true, now)
	b, ok := k.at(1, 2, now)
	if !ok || !b.Hinted {
		t.Fatalf("kept hinted: %+v, %v", b, ok)
	}
	b.Game.Ply = 9
	if again, ok := k.at(1, 2, now); !ok || again.Game.Ply != 2 {
		t.Fatal("changing a board handed out changed the one kept")
	}
	later := now.Add(recentBoardsFor)
	if _, ok := k.at(1, 2, later); ok {
		t.Fatal("a board kept recentBoardsFor ago was handed out")
	}
	k.keep(&match.Game{ID: 2, Ply: 2, Status: match.Active}, nil, false, later)
	k.sweep(later)
	if _, ok := k.boards[1]; ok || len(k.boards) != 1 {
		t.Fatalf("after the sweep, %d boards kept, want only the one kept since", len(k.boards))
	}
	k.dropAll()
	if len(k.boards) != 0 {
		t.Fatal("dropAll kept boards")
	}
}
