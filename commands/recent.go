package commands

import (
	"errors"
	"sync"
	"time"

	"nimbot/match"
)

// A move click is decided on its game's board. Reading that board costs a
// round trip to the store on every click, though in most games the board is
// the one this process's last commit of the game left. So recentBoards
// keeps, for each live game this process created or committed a turn of
// lately, the board that left, and a move click at that board's ply is
// decided on it without a read. Nothing is trusted that the commit does not check:
// the store applies the move only if the game is still at that ply and
// status, its board message is the one kept, and the mover's hint at the
// ply is as kept (match.Change.Seen), whatever instance changed it since.
// Any attempt on a kept board that ends in anything but a committed move
// is run again on the game read afresh (fromRecent), so every refusal,
// redraw and pointer is said from the store as it is.

// recentBoardsMax bounds the boards kept: a few kilobytes each, for the
// live games played in the last moments; a game past it is read as before.
const recentBoardsMax = 4096

// recentBoardsFor is how long a board is kept: the pause between two moves
// of a game in play, well within. A move after a longer pause reads its
// game; Expire's sweep lets the board go from memory.
const recentBoardsFor = 10 * time.Minute

// recentBoards is the board each live game's last commit here left, by game
// id.
type recentBoards struct {
	mu     sync.Mutex
	boards map[int64]keptBoard
}

// keptBoard is a board kept, and when.
type keptBoard struct {
	b  *match.Board
	at time.Time
}

// at returns game id's kept board if it is at ply and was kept within
// recentBoardsFor of now, for the caller to use and change: its game is a
// copy, its moves shared and never written.
func (k *recentBoards) at(id int64, ply int, now time.Time) (*match.Board, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	kb, ok := k.boards[id]
	if !ok || kb.b.Game.Ply != ply || now.Sub(kb.at) >= recentBoardsFor {
		return nil, false
	}
	g := *kb.b.Game
	return &match.Board{Game: &g, Moves: kb.b.Moves, Hinted: kb.b.Hinted}, true
}

// keep notes the board a commit left at now: g as the store returned it,
// moves all of its moves, hinted whether its mover has asked for a hint at
// its ply. A finished game is dropped instead.
func (k *recentBoards) keep(g *match.Game, moves []match.Move, hinted bool, now time.Time) {
	if g.Status != match.Active {
		k.drop(g.ID)
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.boards == nil {
		k.boards = map[int64]keptBoard{}
	}
	if _, ok := k.boards[g.ID]; !ok && len(k.boards) >= recentBoardsMax {
		for id := range k.boards { // an arbitrary one: map order
			delete(k.boards, id)
			break
		}
	}
	k.boards[g.ID] = keptBoard{b: &match.Board{Game: g, Moves: moves, Hinted: hinted}, at: now}
}

// sweep lets go of the boards kept recentBoardsFor or longer before now,
// so that a quiet process holds none for long.
func (k *recentBoards) sweep(now time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for id, kb := range k.boards {
		if now.Sub(kb.at) >= recentBoardsFor {
			delete(k.boards, id)
		}
	}
}

// drop forgets game id's board: something other than a commit changed the
// game here (a hint, a board posted), or a commit failed.
func (k *recentBoards) drop(id int64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.boards, id)
}

// dropAll forgets every board kept.
func (k *recentBoards) dropAll() {
	k.mu.Lock()
	defer k.mu.Unlock()
	clear(k.boards)
}

// errNotFromRecent stops an attempt on a kept board that would commit a
// change without moves (an expired turn), which Seen cannot check: it is
// made on the game read afresh.
var errNotFromRecent = errors.New("a change without moves is made on the game read afresh")

// fromRecent lets move handler h decide on its game's kept board
// (turnBoard), and runs it once more on the game read afresh should that
// attempt end in anything but an answer.
func fromRecent[C Control](s *Service, h func(*request, C) (*answer, error)) func(*request, C) (*answer, error) {
	return func(r *request, c C) (*answer, error) {
		r.tryKept = true
		ans, err := h(r, c)
		kept := r.kept
		r.tryKept, r.kept = false, nil
		if err == nil || kept == nil {
			return ans, err
		}
		s.recent.drop(kept.Game.ID)
		return h(r, c)
	}
}
