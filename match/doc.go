// Package match is the game between two sides, apart from any database or
// transport: a Game and its Status, whose turn it is, the Moves played,
// players' Stats and the rating policy, and Storage, the contract a
// database must honour to keep games (with its errors and the Change a turn
// writes).
//
// It imports engine (the positions and moves a game is made of) and the
// standard library only, and does no I/O: no SQL, no Discord, no clock.
package match
