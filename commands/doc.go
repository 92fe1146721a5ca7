// Package commands is nimbot's product: the /nim slash command and its
// subcommands, the clickable board, challenges, hints and reviews.
//
// It speaks discordgo's data types (Interaction in, InteractionResponse out)
// and never touches the network: package bot moves interactions in and
// responses out, over the gateway or the HTTP interactions endpoint, and
// package terminal, a sibling transport, drives the same Service with typed
// commands. What each variant is (its settings and bounds, heaps, moves,
// notation, rules) is read from engine.Describe, never written here.
//
// # Languages
//
// Definitions adds every name and description of /nim in the languages of
// the message catalog, package commands/locale, keyed by where each text
// is shown (localize.go lists the ids); the base names stay English, which
// is what Discord sends back and what the handlers route on. Every answer
// is rendered from the same catalog: a game's public messages (its board,
// its deadline's edit) in the game's language, the challenger's at /nim
// start, and what only one user sees (hints, reviews, refusals, rules) in
// that user's. Messages name subcommands and options as Discord shows them
// to their reader (subName, optionName).
//
// # Routing
//
// Service.Handle routes an interaction like an HTTP request: slash commands
// by name ("nim/start"), autocomplete under "autocomplete/nim/start", and
// components and modals by their custom_id, which is a path naming the game
// and the ply the control was drawn for. Each kind of control is defined
// once, in controls.go (a Control type, its CustomID and its reader side by
// side, readable by clients with ParseControl), and the routing table
// (routes, beside the router in router.go) hands each handler its control
// parsed:
//
//	heap/{game}/{ply}/{heap}          pick a heap (redraws the board with its amounts)
//	heapsel/{game}/{ply}              the same, from a select menu (more than 5 heaps)
//	move/{game}/{ply}/{heap}/{take}   take from a heap
//	play/{game}/{ply}/{slot}          a select menu whose values are moves in engine notation
//	                                  (slot "all": every legal move, when they fit one menu — one click per move)
//	ask/{game}/{ply}/{heap}           open the number modal (heaps over 25) → amount/{game}/{ply}/{heap}
//	type/{game}/{ply}[/{slot}]        open the typed-move modal → typed/{game}/{ply}
//	hint/{game}/{ply}[/{level}]       a hint, only to the player to move
//	resign/{game}/{ply}
//	accept/{game}, decline/{game}     answer a challenge (only the challenged player)
//	rematch/{game}, review/{game}     on a finished board
//	forget/ask, forget/yes/{issued},  /nim privacy's Delete my data…, its confirmation
//	forget/no                         (good 15 minutes) and Cancel: they act on their
//	                                  own user's data only, never on an id they carry
//
// Puzzles, the daily puzzle and lessons (puzzle.go, daily.go, learn.go)
// act on no game: their controls carry the puzzle (or lesson) and the moves
// played, and are rebuilt by replaying them:
//
//	pzplay|pztype|pztyped|pzshare|pznext/{puzzle}/{key}/{played}[/{streak}]
//	learn/{lesson}/{page}, learnsel/0
//	lxplay|lxtype|lxtyped/{lesson}/{exercise}/{played}
//
// Each interaction type has its own routing table, and an interaction is
// routed by its type first: a custom_id naming another type's route (a
// command's path on a button, a modal's on a menu) is a bad request. A route
// whose every answer is ephemeral (/nim hint, /nim rules, /nim analyze
// unless public) is marked private in the table, and Service.Private tells
// a transport so: one too slow to answer in time defers it ephemerally, as
// Discord keeps a deferral's ephemeral state for its answer.
//
// Before routing, Handle checks the fields Discord always sends, since a
// validly signed request may omit or forge any of them: a snowflake
// interaction id, the data of its type, a user (never nimbot's own seat), a
// channel, and options of the types, bounds and choices Definitions
// declares. Then one place decides where the interaction comes from
// (origin.go: a server's channel, a DM with nimbot, or a group DM or DM
// between users) from its context, guild_id, member or user, install and
// clicked message, and refuses the combinations Discord never sends (a
// guild id in context 1 or 2, a member outside a server, a server's
// payload without one). Every route that reads or changes a game asks it:
// a game acts only for a request from its own place (a guild id that is
// not the game's is refused), a board control only in its channel, a
// moderator's permission counts only in the game's own server, and a
// review is shown only in its game's server (for a game in DMs, to its
// players).
//
// Handlers are wrapped by middleware (func(next) next): recovery from panics
// around the whole router, and around each route one of the two policies of
// answers (answers.go), the one home of idempotency: once (every answer
// saved) or replay (answers that change nothing answered afresh); both look
// a saved answer up only once the handler has run. A handler changes the
// store only through answers.commit, which writes the answer in the same
// transaction and tells a duplicate delivery and a stale game apart. Every
// error ends in one error handler.
//
// # One interaction, one unit of work
//
// A turn is one Storage.Commit: the player's move, nimbot's reply (chosen with
// the configured random source), the new status, deadline and result, and the
// rendered response saved under the interaction id. A stale board or a double
// click fails the commit's ply check (match.ErrStale) and is answered with an
// ephemeral note; what holds at any ply (/nim end, /nim resign, Accept,
// Decline) is tried again on the game as it then is, a bounded number of
// times (retryStale). A redelivered interaction gets its saved response back
// and never moves twice; Handle reports it replayed, and the gateway sends
// no second answer. A start is one Storage.CreateGame with its answer (and
// nimbot's opening move), a first hint one Storage.RecordHint with its answer.
// Answers that change nothing on a board control pinned to its ply (a heap
// pick, a stale click) or on a read-only view are not saved: a redelivery is
// answered afresh and can change nothing either. The database is the only
// state of record. A process keeps, for each live game it created or
// committed a turn of lately, the board that left (recentBoards, recent.go),
// and decides the next move click on it without reading the game; the
// commit checks everything that board stood for (ply, status, board message,
// the mover's hint: match.Change.Seen), and whatever else happens is decided
// again on the game read afresh. So a restart, or several processes over one
// database, change nothing.
//
// # One board per game
//
// A game's board is the message BoardSent recorded last: the newest, as
// /nim status and /nim move post the board again, unless play went on
// elsewhere before its id was fetched (then the board in use stays). Play
// and the deadline's edit stay on it. A click on an older board of a live
// game, or a form submitted from one, changes nothing and turns that board
// into a link to the newest (supersededBoard), judged by the clicked
// message's own components, which Discord fills in, never by the custom_id
// alone. A click on the board of a
// game that ended without that board being edited (by /nim end or /nim
// resign sent as commands, or at the deadline of a game where nimbot may
// not edit messages) redraws it with the result (settledBoard).
//
// # Errors
//
// A user's mistake (a malformed heap list, an illegal move with the engine's
// reason, not your turn, no game here, a stale board) is answered
// ephemerally with what was wrong and what to do. Anything else is logged
// with the interaction id and a reference, and the user sees a short apology
// with that reference; never a stack trace or a token.
package commands
