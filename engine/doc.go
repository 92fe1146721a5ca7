// Package engine is nimbot's game logic: the rules of Nim and its relatives,
// perfect play, hints at three levels, post-game review, and a short
// notation for games and moves. It imports only the standard library and
// does no I/O; randomness comes in as a *rand.Rand and there is no clock.
//
// # Games
//
// Rules names a Variant (Nim, Subtraction, TwentyOne, Greedy, Fibonacci,
// Wythoff, Moore, Lasker, Kayles), the convention (normal play: the last
// move wins; misère: it loses) and the variant's settings. A Position holds
// the heaps (rows of pins in Kayles; Target minus the count in the 21 game)
// and, in Fibonacci Nim, the most the player to move may take. Moves are
// values of Move, whose Kind says which fields matter.
//
// Every variant lives in its own file and registers itself in an internal
// table, so the generic code here (validation, analysis, the bot's choice,
// hints, review, notation) never switches on the variant.
//
// # Describing variants
//
// Describe and Descriptions publish each variant as data: its title,
// summary and rules text, its settings (name, kind, default, the bounds
// Normalize accepts and the range offered to players), the shape of its
// positions (how many heaps, default and random opening heaps, counting,
// a move limit, what a heap holds), the kinds of move it has and how a move
// is typed. Menus, slash-command options, the rules page, the terminal and
// the CLI read that table and never name a variant, so adding one touches
// this package alone: its constant in engine.go, one entry in describe.go's
// table, and its game in a file of its own that registers itself (plus
// notation.go for a new shape of move, or a Rules field and api.go's
// ruleFields for a new kind of setting).
//
// # Perfect play
//
// Rules.Analyze gives the verdict for the player to move and every winning
// move. It uses the closed forms of shared/NIM.md where they are proven
// (Bouton's nim-sum, residues mod k+1, Grundy values of subtraction sets
// with their period, largest-heap counts, Moore's bit counts mod k+1,
// Zeckendorf, Wythoff pairs, Lasker's and Kayles' Grundy values), and
// exhaustive memoized search where none exists (misère Kayles: its search
// wrote a table of every position within the limit, which the tests check
// bit for bit against the search, so play looks the answer up). Winning
// moves are derived from the rule, never sampled: a move wins exactly when
// it leads to a position lost for the opponent. With heaps of 10^12 the
// list is cut at MaxListedMoves while WinningCount counts them all.
//
// Misère subtraction games on sets other than 1..k rely on "misère Nim on
// the Grundy values", which is checked by exhaustive search in the tests
// but not proven; see subtraction.go.
//
// Rules.Limits publishes, per variant, the largest positions solved within
// 50 ms on one core; Start and Check refuse anything larger with
// ErrTooLarge instead of playing it with a guess. At those limits the bot
// chooses a move within 5 ms at every difficulty.
//
// # The bot
//
// Rules.Choose picks the bot's move. At Perfect it plays a winning move when
// there is one, preferring the one that wins soonest when the game tree is
// small enough to measure (remoteness by memoized search within a budget);
// in a lost position it holds out longest where that search measures every
// move, and leaves the fewest winning replies (Hint.HoldOut says which the
// move was judged by). Easy, Medium and Hard replace the move by a random legal one with
// a fixed probability drawn from the rng passed in. Rules.Hint gives the
// verdict in one line, the move, and an Explanation (steps and a table) in
// the variant's own theory; Rules.Review lists every move of a finished game
// that turned a won position into a lost one.
//
// # Puzzles
//
// NewPuzzle draws a puzzle of a Theme (the 21 game, residues, the nim-sum,
// misère Nim's endgame, Greedy Nim, Zeckendorf, Wythoff pairs, Grundy
// values, Moore's Nim_k) at a level of size from a seed: a position where
// the player to move wins and at most one legal move in three does, with
// every winning first move, how many moves the puzzle lasts against the
// engine's perfect defence, and a difficulty to seed its rating. Its id
// ("nimsum.3.42") names theme, level and seed, so the same id is the same
// puzzle everywhere without storing it; the tests check every claim against
// the engine's verdicts and, where the position is small enough, the brute
// force. LessonPuzzle fixes the lessons' example and exercises among them.
//
// # Notation
//
// ParseGame and FormatGame read and write games ("3 4 5", "nim misere
// 3-4-5", "subtraction set=1,3,4 7 9", "21 count=5", "fibonacci 20
// limit=4"); Rules.ParseMove and Rules.FormatMove read and write moves
// ("B3", "AB3", "A2 C1", "B=2+3", "B4-5", "+3"). Both round-trip exactly
// through the canonical form. Move also has a JSON form.
package engine
