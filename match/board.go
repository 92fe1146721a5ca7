package match

import "strconv"

// Snowflake returns the value of a Discord id, a snowflake: the decimal
// form of an unsigned 64-bit integer whose high bits are the time it was
// made, so of two ids the larger was made later. ok is false for anything
// else ("" included), as strconv.ParseUint decides it: ASCII digits only,
// leading zeros allowed, at most 18446744073709551615.
func Snowflake(id string) (n uint64, ok bool) {
	n, err := strconv.ParseUint(id, 10, 64)
	return n, err == nil
}

// SnowflakeAfter reports whether Discord id a was made after id b: both
// are snowflakes and a is the larger. Anything that is not a snowflake is
// after nothing, and nothing is after it.
func SnowflakeAfter(a, b string) bool {
	x, okA := Snowflake(a)
	y, okB := Snowflake(b)
	return okA && okB && x > y
}

// ReplacesBoard reports whether id, a board message just posted, replaces
// recorded as its game's board: the rule Storage.SetMessageID applies in
// its write. A board replaces only an older one, because the fetches that
// learn new boards' ids may finish in any order (a retried fetch, another
// instance) and the game's board must stay the newest: deadline edits go
// to it, and the game's end settles it.
//
// When both are snowflakes, id replaces recorded if it is later (larger);
// the same board, or one written with other digits (leading zeros), is
// not replaced. When either is not a snowflake, order cannot be told and
// id replaces recorded unless the two are equal: "" (no board yet) is
// always replaced, and a caller that records something other than a
// Discord id gets what it recorded, as before boards were ordered.
func ReplacesBoard(recorded, id string) bool {
	if id == recorded {
		return false
	}
	r, okR := Snowflake(recorded)
	n, okN := Snowflake(id)
	return !okR || !okN || n > r
}
