package engine

// game is one variant's rules and theory under one convention. Each variant
// lives in its own file and registers its constructor in variants, so the
// generic code (notation, hints, the bot's choice, review) never switches on
// the variant.
type game interface {
	// check validates the shape and bounds of p (not the solve limit).
	check(p Position) error
	// limits publishes the largest positions solved within 50 ms on one core.
	limits() Limits
	// legal lists every legal move in canonical order. It is called only on
	// positions within limits.
	legal(p Position) []Move
	// validate says why m is illegal in p, as a *MoveError, or returns nil.
	validate(p Position, m Move) error
	// apply returns the position after m; m has passed validate.
	apply(p Position, m Move) Position
	// moverWins is the perfect-play verdict for the player to move.
	moverWins(p Position) bool
	// winning lists the winning moves in canonical order, at most max of
	// them, and how many there are in all.
	winning(p Position, max int) ([]Move, int64)
	// explain gives the reasoning behind the verdict in the variant's theory.
	// a is p's analysis (analyze): the winning moves it cites are a's
	// first ones, never listed again.
	explain(p Position, a Analysis) Explanation
}

// A game may also implement these optional interfaces, which the generic
// code checks for with a type assertion:
//
//   - overer (api.go): tell a finished position without listing moves;
//     without it, Over lists the legal moves, which huge heaps cannot afford.
//   - starter (api.go): build the opening position from what a player typed.
//   - verdicter (play.go): Hint's one-line verdict in the variant's theory.
//   - coster (play.go): how much one winning() call costs, when that is more
//     than a pass over the heaps, so the bot judges fewer hold-out moves.
//   - legalTester (play.go): judge many moves of one position in O(1) each,
//     when validate scans the position (Greedy).
//   - grower (api.go): bound how many heaps a game can come to hold, for
//     variants whose moves add heaps (Lasker's splits, Kayles' knocks).

// variants maps each Variant to the constructor of its game; the rules passed
// in are already normalized and validated. Each variant's file adds itself
// from an init function.
var variants = map[Variant]func(Rules) game{}
