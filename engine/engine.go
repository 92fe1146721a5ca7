package engine

import "errors"

// Variant names one of the games the engine plays.
type Variant string

// The variants the engine offers. Each is played in normal play (the last
// move wins) or misère play (the last move loses), as Rules.Misere says.
const (
	// Nim: take one or more from one heap.
	Nim Variant = "nim"
	// Subtraction: take 1..K from one heap, or any amount in Rules.Set.
	Subtraction Variant = "subtraction"
	// TwentyOne: the players count up by 1..K towards Rules.Target. It is a
	// one-heap subtraction game on Target minus the count; whoever says the
	// target makes the last move (and so loses in the classic misère game).
	TwentyOne Variant = "21"
	// Greedy: take one or more, but only from a largest heap.
	Greedy Variant = "greedy"
	// Fibonacci: one heap; the first move may not take everything, each later
	// move takes at most twice the previous one.
	Fibonacci Variant = "fibonacci"
	// Wythoff: two heaps; take from one, or the same amount from both.
	Wythoff Variant = "wythoff"
	// Moore: Moore's Nim_k, take from one up to K heaps at once.
	Moore Variant = "moore"
	// Lasker: take from one heap, or split a heap into two non-empty heaps.
	Lasker Variant = "lasker"
	// Kayles: rows of pins; knock down 1 or 2 adjacent pins, splitting the row.
	Kayles Variant = "kayles"
)

// Variants lists every variant the engine offers, in the order menus show them.
func Variants() []Variant {
	vs := make([]Variant, len(descriptions))
	for i, d := range descriptions {
		vs[i] = d.Variant
	}
	return vs
}

// Rules says which game is played. The zero value of every optional field
// means "the variant's default" and is filled in by Rules.Normalize.
type Rules struct {
	Variant Variant `json:"variant"`
	Misere  bool    `json:"misere"`
	// K is the most that may be taken in one move in Subtraction S(1..K) and
	// TwentyOne, and the most heaps one move may touch in Moore.
	K int `json:"k,omitempty"`
	// Set is Subtraction's subtraction set (e.g. {1,3,4}); when non-empty it
	// replaces S(1..K).
	Set []int `json:"set,omitempty"`
	// Target is the number whose saying ends TwentyOne (21 by default).
	Target int `json:"target,omitempty"`
}

// Position is the state of a game between moves.
//
// Heaps holds the heap sizes (rows of pins in Kayles). TwentyOne keeps one
// heap: Target minus the count said so far. Fibonacci keeps one heap and
// Limit, the most the player to move may take now.
type Position struct {
	Heaps []int64 `json:"heaps"`
	Limit int64   `json:"limit,omitempty"`
}

// MoveKind tells the shapes of move apart.
type MoveKind uint8

// The kinds of move.
const (
	// Take removes Take from heap Heap (every variant but Kayles; TwentyOne's
	// "say Take more").
	Take MoveKind = iota
	// Diagonal removes Take from both of Wythoff's heaps.
	Diagonal
	// Multi removes Takes[i] from heap i for every i, touching 1..K heaps
	// (Moore).
	Multi
	// Split replaces heap Heap by the two non-empty heaps Parts (Lasker).
	Split
	// Knock knocks Take (1 or 2) adjacent pins out of row Heap, leaving rows
	// Parts[0] and Parts[1] on either side (Kayles).
	Knock
)

// Move is one player's move. Which fields matter depends on Kind.
//
// Applying a Split or a Knock puts Parts[0] in place of heap Heap and, when
// Parts[1] > 0, inserts Parts[1] right after it, so the heaps keep their
// left-to-right order on the board.
type Move struct {
	Kind  MoveKind
	Heap  int
	Take  int64
	Takes []int64
	Parts [2]int64
}

// Difficulty is how well the bot plays.
type Difficulty string

// The difficulty levels. Only Perfect never lets a won position go.
const (
	Easy    Difficulty = "easy"
	Medium  Difficulty = "medium"
	Hard    Difficulty = "hard"
	Perfect Difficulty = "perfect"
)

// Difficulties lists the levels from weakest to strongest.
func Difficulties() []Difficulty { return []Difficulty{Easy, Medium, Hard, Perfect} }

// Errors callers tell apart with errors.Is.
var (
	// ErrGameOver: the position has no legal move.
	ErrGameOver = errors.New("the game is over")
	// ErrTooLarge: the position is beyond what the engine guarantees to solve
	// within its published Limits; it is refused rather than played with a guess.
	ErrTooLarge = errors.New("position too large to solve perfectly")
	// ErrInvalid: rules, a position or a notation that do not make sense.
	ErrInvalid = errors.New("invalid")
	// ErrAmbiguous: heaps written in a way that reads two ways, as one
	// number with its digits grouped ("2,500", "1 000") or as separate
	// heaps, or with a leading zero ("05") that only such a number has.
	// It is refused rather than guessed, and also matches ErrInvalid; the
	// refusal says how to write either reading.
	ErrAmbiguous = errors.New("ambiguous")
)

// MoveError says why a move is illegal, in words a player can act on
// ("heap C has 3, you asked for 5"; "Greedy Nim: take from a largest heap, A or D").
type MoveError struct {
	Move   Move
	Reason string // in English
	phrase Phrase // Reason as a phrase
}

// Error is Reason, in English: what logs and the terminal show.
func (e *MoveError) Error() string { return e.Reason }

// Phrase is Reason in any language (PhraseError).
func (e *MoveError) Phrase() Phrase {
	if e.phrase.ID == "" && e.phrase.Text == "" {
		return Lit(e.Reason)
	}
	return e.phrase
}

// Limits are the largest positions the engine guarantees to solve perfectly
// within 50 ms on one core, for one variant and convention.
type Limits struct {
	MaxHeaps int   // most heaps (rows) in a position
	MaxHeap  int64 // largest single heap
	MaxTotal int64 // largest sum of all heaps (0: no bound beyond MaxHeaps*MaxHeap)
}

// Analysis is the engine's verdict on a position.
type Analysis struct {
	// MoverWins reports whether the player to move wins with perfect play.
	MoverWins bool
	// Winning lists every winning move in canonical order (heap by heap,
	// smaller takes first), at most MaxListedMoves of them.
	Winning []Move
	// WinningCount is how many winning moves there are in all; it exceeds
	// len(Winning) only when the list was cut at MaxListedMoves.
	WinningCount int64
}

// MaxListedMoves caps Analysis.Winning: with heaps of 10^12, Greedy Nim can
// have 10^12 winning moves, which no reader wants listed.
const MaxListedMoves = 1000

// Hint is what a player may ask for mid-game, at three levels.
type Hint struct {
	// Verdict is level 1: winning or losing, and why, in one line.
	Verdict Phrase
	// MoverWins is the verdict as a bool.
	MoverWins bool
	// Move is level 2: the move the engine would make (in a lost position,
	// the best hold-out it could find; HoldOut says how it was judged).
	Move Move
	// HoldOut says, in a lost position, what backs Move as a hold-out, so
	// a hint claims no more than the engine knows.
	HoldOut HoldOut
	// Explanation is level 3: the reasoning in the variant's own theory.
	Explanation Explanation
}

// HoldOut is how the move of a lost position was judged against the others.
// A remoteness search that runs out of its budget leaves the engine with
// weaker evidence than "it holds out longest", and a hint says only what
// it has.
type HoldOut uint8

// The ways a hold-out is judged.
const (
	// HoldOutUnjudged: nothing compares the move with every other (a won
	// position, or a lost one too large to judge every move, so only a
	// sample of moves was compared).
	HoldOutUnjudged HoldOut = iota
	// HoldOutLongest: a finished remoteness search measured every move
	// (or there was only one): none delays the loss longer.
	HoldOutLongest
	// HoldOutFewestReplies: the search could not measure every move, so
	// they were compared by their opponent's winning replies: none leaves
	// fewer.
	HoldOutFewestReplies
)

// Explanation is the reasoning behind a verdict, as data for a renderer:
// a titled sequence of steps with an optional table (the binary nim-sum
// table, residues, Grundy values, Zeckendorf terms, Wythoff pairs…).
type Explanation struct {
	Theory Phrase   // the theory used: "nim-sum", "misère nim", "residues mod k+1", "Grundy values", "Zeckendorf", …; zero when none
	Steps  []Phrase // one sentence each, in order
	Table  *Table   // optional
}

// Table is a small grid of text: a header row, body rows, and an optional
// total row drawn under a rule (the nim-sum line). Each cell is a Phrase:
// headings are words a renderer translates, numbers and binary digits are
// literals (Lit) so the columns line up in every language.
type Table struct {
	Header []Phrase
	Rows   [][]Phrase
	Total  []Phrase
}

// Mistake is a move in a finished game that turned a won position into a lost one.
type Mistake struct {
	Ply    int      // 0-based index of the move in the game
	Played Move     // what was played
	Better Move     // a winning alternative
	Before Position // the position the move was played in
}
