package commands

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Control is one of nimbot's board controls (a button, a select menu, a
// modal), as its custom_id says. Each kind is defined once, below: its type,
// the CustomID that draws it and the reader that parses it, side by side.
// Boards draw their controls with CustomID, the router routes them by kind
// (routes, in router.go) and hands the handler the parsed Control, and
// BoardSent recognises a board by its controls; clients that drive nimbot
// (the load generator, tests) read what they click with ParseControl.
//
// A custom_id is a path, "{kind}/{game}/{ply}/…": the game the control acts
// on and, for controls that act on a turn, the ply the board was drawn at,
// so a stale board or a double click can never move twice. Boards already
// posted keep these ids for as long as they are on screen: the format must
// not change, and each id stays within Discord's 100 characters (the
// longest, a MoveControl of four 19-digit numbers, is 84).
type Control interface {
	// CustomID is the control's custom_id.
	CustomID() string
	// Target is the game the control acts on and the ply it was drawn for;
	// -1 for a control that does not depend on the turn (accept, decline,
	// rematch, review).
	Target() (game int64, ply int)
	kindName() string
}

// ParseControl reads a custom_id nimbot drew. It reports an error for
// anything else: an unknown kind, a malformed id, a number out of range.
func ParseControl(customID string) (Control, error) {
	name, _, _ := strings.Cut(customID, "/")
	k, ok := controlKinds[name]
	if !ok {
		return nil, fmt.Errorf("custom_id %q: no control of kind %q", customID, name)
	}
	c, ok, err := k.parse(customID)
	switch {
	case !ok:
		return nil, fmt.Errorf("custom_id %q: not the shape of a %s control", customID, name)
	case err != nil:
		return nil, fmt.Errorf("custom_id %q: %w", customID, err)
	}
	return c, nil
}

// AcceptControl is the challenged player's Accept button: accept/{game}.
type AcceptControl struct{ Game int64 }

var acceptKind = controlKind[AcceptControl]{name: "accept", onBoard: true, read: func(f *segments) AcceptControl {
	return AcceptControl{Game: f.game()}
}}

// CustomID is the control's custom_id.
func (c AcceptControl) CustomID() string { return acceptKind.id(c.Game) }

// Target is the game the control acts on (at any ply).
func (c AcceptControl) Target() (int64, int) { return c.Game, -1 }
func (AcceptControl) kindName() string       { return acceptKind.name }

// DeclineControl is the challenged player's Decline button:
// decline/{game}.
type DeclineControl struct{ Game int64 }

var declineKind = controlKind[DeclineControl]{name: "decline", onBoard: true, read: func(f *segments) DeclineControl {
	return DeclineControl{Game: f.game()}
}}

// CustomID is the control's custom_id.
func (c DeclineControl) CustomID() string { return declineKind.id(c.Game) }

// Target is the game the control acts on (at any ply).
func (c DeclineControl) Target() (int64, int) { return c.Game, -1 }
func (DeclineControl) kindName() string       { return declineKind.name }

// HeapControl is a heap button, which picks the heap to take from (the
// board is redrawn with its amounts): heap/{game}/{ply}/{heap}.
type HeapControl struct {
	Game int64
	Ply  int
	Heap int
}

var heapKind = controlKind[HeapControl]{name: "heap", onBoard: true, read: func(f *segments) HeapControl {
	return HeapControl{Game: f.game(), Ply: f.ply(), Heap: f.small("heap")}
}}

// CustomID is the control's custom_id.
func (c HeapControl) CustomID() string { return heapKind.id(c.Game, c.Ply, c.Heap) }

// Target is the game the control acts on and the ply it was drawn for.
func (c HeapControl) Target() (int64, int) { return c.Game, c.Ply }
func (HeapControl) kindName() string       { return heapKind.name }

// HeapMenuControl is the heap select menu of a board with more heaps than
// buttons hold: heapsel/{game}/{ply}. Its values are heap indexes, or
// "page:N" to turn the menu's page.
type HeapMenuControl struct {
	Game int64
	Ply  int
}

var heapMenuKind = controlKind[HeapMenuControl]{name: "heapsel", onBoard: true, read: func(f *segments) HeapMenuControl {
	return HeapMenuControl{Game: f.game(), Ply: f.ply()}
}}

// CustomID is the control's custom_id.
func (c HeapMenuControl) CustomID() string { return heapMenuKind.id(c.Game, c.Ply) }

// Target is the game the control acts on and the ply it was drawn for.
func (c HeapMenuControl) Target() (int64, int) { return c.Game, c.Ply }
func (HeapMenuControl) kindName() string       { return heapMenuKind.name }

// MoveControl is a "Take n" button: move/{game}/{ply}/{heap}/{take}.
type MoveControl struct {
	Game int64
	Ply  int
	Heap int
	Take int64
}

var moveKind = controlKind[MoveControl]{name: "move", onBoard: true, read: func(f *segments) MoveControl {
	return MoveControl{Game: f.game(), Ply: f.ply(), Heap: f.small("heap"), Take: f.number("take")}
}}

// CustomID is the control's custom_id.
func (c MoveControl) CustomID() string { return moveKind.id(c.Game, c.Ply, c.Heap, c.Take) }

// Target is the game the control acts on and the ply it was drawn for.
func (c MoveControl) Target() (int64, int) { return c.Game, c.Ply }
func (MoveControl) kindName() string       { return moveKind.name }

// MoveMenuControl is a select menu of moves, whose values are moves in the
// engine's notation: play/{game}/{ply}/{slot}. Slot tells a board's menus
// apart ("a": the picked heap's amounts, "x": the variant's other moves,
// "all": every legal move when they fit one menu, one click per move).
type MoveMenuControl struct {
	Game int64
	Ply  int
	Slot string
}

var moveMenuKind = controlKind[MoveMenuControl]{name: "play", onBoard: true, read: func(f *segments) MoveMenuControl {
	return MoveMenuControl{Game: f.game(), Ply: f.ply(), Slot: f.text()}
}}

// CustomID is the control's custom_id.
func (c MoveMenuControl) CustomID() string { return moveMenuKind.id(c.Game, c.Ply, c.Slot) }

// Target is the game the control acts on and the ply it was drawn for.
func (c MoveMenuControl) Target() (int64, int) { return c.Game, c.Ply }
func (MoveMenuControl) kindName() string       { return moveMenuKind.name }

// AskControl is the button that opens the amount modal for a heap too large
// for a menu: ask/{game}/{ply}/{heap}.
type AskControl struct {
	Game int64
	Ply  int
	Heap int
}

var askKind = controlKind[AskControl]{name: "ask", onBoard: true, read: func(f *segments) AskControl {
	return AskControl{Game: f.game(), Ply: f.ply(), Heap: f.small("heap")}
}}

// CustomID is the control's custom_id.
func (c AskControl) CustomID() string { return askKind.id(c.Game, c.Ply, c.Heap) }

// Target is the game the control acts on and the ply it was drawn for.
func (c AskControl) Target() (int64, int) { return c.Game, c.Ply }
func (AskControl) kindName() string       { return askKind.name }

// AmountModal is the modal AskControl opens, where the amount is typed:
// amount/{game}/{ply}/{heap}.
type AmountModal struct {
	Game int64
	Ply  int
	Heap int
}

var amountKind = controlKind[AmountModal]{name: "amount", read: func(f *segments) AmountModal {
	return AmountModal{Game: f.game(), Ply: f.ply(), Heap: f.small("heap")}
}}

// CustomID is the control's custom_id.
func (c AmountModal) CustomID() string { return amountKind.id(c.Game, c.Ply, c.Heap) }

// Target is the game the control acts on and the ply it was drawn for.
func (c AmountModal) Target() (int64, int) { return c.Game, c.Ply }
func (AmountModal) kindName() string       { return amountKind.name }

// TypeControl is a button that opens the typed-move modal:
// type/{game}/{ply}, or type/{game}/{ply}/{slot} for a variant's own
// "Take from both heaps…" button (slot "x").
type TypeControl struct {
	Game int64
	Ply  int
	Slot string // "" for the board's ⌨️ button
}

var typeKind = controlKind[TypeControl]{name: "type", onBoard: true, read: func(f *segments) TypeControl {
	c := TypeControl{Game: f.game(), Ply: f.ply()}
	if f.more() {
		c.Slot = f.text()
	}
	return c
}}

// CustomID is the control's custom_id.
func (c TypeControl) CustomID() string {
	if c.Slot == "" {
		return typeKind.id(c.Game, c.Ply)
	}
	return typeKind.id(c.Game, c.Ply, c.Slot)
}

// Target is the game the control acts on and the ply it was drawn for.
func (c TypeControl) Target() (int64, int) { return c.Game, c.Ply }
func (TypeControl) kindName() string       { return typeKind.name }

// TypedModal is the modal TypeControl opens, where a move is typed in the
// engine's notation: typed/{game}/{ply}.
type TypedModal struct {
	Game int64
	Ply  int
}

var typedKind = controlKind[TypedModal]{name: "typed", read: func(f *segments) TypedModal {
	return TypedModal{Game: f.game(), Ply: f.ply()}
}}

// CustomID is the control's custom_id.
func (c TypedModal) CustomID() string { return typedKind.id(c.Game, c.Ply) }

// Target is the game the control acts on and the ply it was drawn for.
func (c TypedModal) Target() (int64, int) { return c.Game, c.Ply }
func (TypedModal) kindName() string       { return typedKind.name }

// HintControl is the board's 💡 button, hint/{game}/{ply} (a level 1 hint
// as a new message), or a hint message's "Show the move" and "Explain why"
// buttons, hint/{game}/{ply}/{level}. Hint messages carry it too, so it does
// not mark a message as the board.
type HintControl struct {
	Game  int64
	Ply   int
	Level int // 0 for the board's button
}

var hintKind = controlKind[HintControl]{name: "hint", read: func(f *segments) HintControl {
	c := HintControl{Game: f.game(), Ply: f.ply()}
	if f.more() {
		c.Level = f.small("level")
		if c.Level == 0 {
			f.fail("level")
		}
	}
	return c
}}

// CustomID is the control's custom_id.
func (c HintControl) CustomID() string {
	if c.Level == 0 {
		return hintKind.id(c.Game, c.Ply)
	}
	return hintKind.id(c.Game, c.Ply, c.Level)
}

// Target is the game the control acts on and the ply it was drawn for.
func (c HintControl) Target() (int64, int) { return c.Game, c.Ply }
func (HintControl) kindName() string       { return hintKind.name }

// ResignControl is the board's Resign button: resign/{game}/{ply}.
type ResignControl struct {
	Game int64
	Ply  int
}

var resignKind = controlKind[ResignControl]{name: "resign", onBoard: true, read: func(f *segments) ResignControl {
	return ResignControl{Game: f.game(), Ply: f.ply()}
}}

// CustomID is the control's custom_id.
func (c ResignControl) CustomID() string { return resignKind.id(c.Game, c.Ply) }

// Target is the game the control acts on and the ply it was drawn for.
func (c ResignControl) Target() (int64, int) { return c.Game, c.Ply }
func (ResignControl) kindName() string       { return resignKind.name }

// RematchControl is a finished board's Rematch button: rematch/{game}.
type RematchControl struct{ Game int64 }

var rematchKind = controlKind[RematchControl]{name: "rematch", onBoard: true, read: func(f *segments) RematchControl {
	return RematchControl{Game: f.game()}
}}

// CustomID is the control's custom_id.
func (c RematchControl) CustomID() string { return rematchKind.id(c.Game) }

// Target is the game the control acts on (at any ply).
func (c RematchControl) Target() (int64, int) { return c.Game, -1 }
func (RematchControl) kindName() string       { return rematchKind.name }

// ReviewControl is a finished board's Review button: review/{game}. Review
// messages carry it too, so it does not mark a message as the board.
type ReviewControl struct{ Game int64 }

var reviewKind = controlKind[ReviewControl]{name: "review", read: func(f *segments) ReviewControl {
	return ReviewControl{Game: f.game()}
}}

// CustomID is the control's custom_id.
func (c ReviewControl) CustomID() string { return reviewKind.id(c.Game) }

// Target is the game the control acts on (at any ply).
func (c ReviewControl) Target() (int64, int) { return c.Game, -1 }
func (ReviewControl) kindName() string       { return reviewKind.name }

// controlKinds are the kinds above by name, for ParseControl and BoardSent.
var controlKinds = map[string]anyKind{}

func init() {
	for _, k := range []anyKind{acceptKind, declineKind, heapKind, heapMenuKind, moveKind, moveMenuKind,
		askKind, amountKind, typeKind, typedKind, hintKind, resignKind, rematchKind, reviewKind} {
		controlKinds[k.kindName()] = k
	}
}

// anyKind is a controlKind of any control type.
type anyKind interface {
	kindName() string
	marksBoard() bool
	parse(customID string) (Control, bool, error)
}

// controlKind is one kind of control: the first segment of its custom_ids,
// whether only a board message carries it (so that it marks a message as
// a game's board), and how the segments after the name read.
type controlKind[C Control] struct {
	name    string
	onBoard bool
	read    func(*segments) C
}

func (k controlKind[C]) kindName() string { return k.name }
func (k controlKind[C]) marksBoard() bool { return k.onBoard }

// id builds a custom_id of this kind from its fields (numbers and strings).
func (k controlKind[C]) id(fields ...any) string {
	parts := []string{k.name}
	for _, f := range fields {
		parts = append(parts, fmt.Sprint(f))
	}
	return strings.Join(parts, "/")
}

// readID parses a custom_id of this kind. ok is false when the id does not
// have the kind's shape (another name, segments missing, empty or left
// over): it is not this kind's at all. err is the user's error when it has
// the shape but a field does not read (a forged or corrupted id).
func (k controlKind[C]) readID(customID string) (c C, ok bool, err error) {
	segs := strings.Split(customID, "/")
	if segs[0] != k.name {
		return c, false, nil
	}
	f := &segments{segs: segs[1:], shaped: true}
	c = k.read(f)
	if !f.shaped || len(f.segs) > 0 {
		return c, false, nil
	}
	if f.bad != "" {
		return c, true, userErr("control.err.bad", "Field", f.bad, "StatusCommand", subName(subStatus))
	}
	return c, true, nil
}

func (k controlKind[C]) parse(customID string) (Control, bool, error) {
	c, ok, err := k.readID(customID)
	if !ok || err != nil {
		return nil, ok, err
	}
	return c, true, nil
}

// segments reads the segments of a custom_id after its kind's name, in order.
// shaped turns false when a segment is missing or empty; bad names the first
// field that does not read.
type segments struct {
	segs   []string
	shaped bool
	bad    string
}

func (f *segments) next() string {
	if len(f.segs) == 0 || f.segs[0] == "" {
		f.shaped = false
		return ""
	}
	s := f.segs[0]
	f.segs = f.segs[1:]
	return s
}

// more reports whether an optional last segment follows.
func (f *segments) more() bool { return len(f.segs) > 0 }

func (f *segments) fail(name string) {
	if f.bad == "" {
		f.bad = name
	}
}

// number reads a non-negative decimal written as CustomID writes it (no
// sign, no leading zeros), so that each control has one custom_id.
func (f *segments) number(name string) int64 {
	s := f.next()
	if !f.shaped {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || strconv.FormatInt(n, 10) != s {
		f.fail(name)
		return 0
	}
	return n
}

// small reads a number that fits an int of any platform.
func (f *segments) small(name string) int {
	n := f.number(name)
	if n > math.MaxInt32 {
		f.fail(name)
		return 0
	}
	return int(n)
}

func (f *segments) game() int64  { return f.number("game") }
func (f *segments) ply() int     { return f.small("ply") }
func (f *segments) text() string { return f.next() }
