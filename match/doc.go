// Package match is a game of nimbot's between two sides, apart from any
// database or transport: the domain the product (commands) plays by and the
// stores (store, store/postgres) keep.
//
// What it owns:
//
//   - the game: Game, its Status (Pending, Active, and the final statuses),
//     whose turn it is (Game.ToMove), the Moves played, BotID (nimbot's
//     seat);
//   - the transitions, each a pure function from one game to the next:
//     Game.Play (a move, settling a win by the variant's convention and the
//     next deadline), Game.Resign, Game.End, Game.Expire (what a passed
//     deadline means: a challenge expires, a game against nimbot is
//     abandoned, between people the player to move loses on time),
//     Game.Accept, Game.Decline, Game.Rematch; Timing says how long turns
//     and challenges last. A transition the state does not allow returns
//     ErrOver, ErrNotStarted, ErrStarted, ErrNotPlayer, ErrNotOver or
//     ErrNeverStarted, which commands turns into words;
//   - the results: which count (Game.Result: only a decided game between
//     two different sides; ratings only between people), and the rating
//     policy (InitialRating, RatingK, EloDelta), read back as Stats;
//   - puzzle ratings: Glicko-2 (Glicko, Glicko.Update, as in Glickman's
//     worked example) and the puzzle policy (RatePuzzleAttempt: both the
//     player's and the puzzle's rating move, the puzzle's less), and a
//     puzzle being solved (PuzzleRun: any winning move counts, the engine
//     defends perfectly in between, a losing move fails it and says what
//     would have won), the choice of the next puzzle near a rating
//     (NextPuzzle), the streak's ladder and the day's puzzle;
//   - the storage contract: Storage, the Change one turn writes (Check and
//     Fit are the checks every implementation makes before and inside its
//     transaction), Hint, CreateOption, and the errors every implementation
//     returns (ErrNotFound, ErrStale, ErrDuplicate, ErrChannelBusy with
//     *BusyError, ErrInvalid), and its Privacy part: what is held about a
//     user (Holding) and forgetting users and servers (Forgotten,
//     Tombstone).
//
// What it must not do: no I/O of any kind — no SQL, no Discord, no files, no
// logging; no clock (now is passed in) and no randomness (nimbot's moves are
// chosen by the caller through engine). It imports engine, for positions
// and moves, and the standard library, nothing else: everything else in
// nimbot imports match, never the other way. What a move may be and who
// wins a position are engine's; what people see (messages, boards, who may
// end a game) is commands'; how a Change is made durable and atomic is each
// store's.
package match
