// Package commands is nimbot's product: the /nim slash command and its
// subcommands, the clickable board, challenges, hints and reviews.
//
// It speaks discordgo's data types (Interaction in, InteractionResponse out)
// and never touches the network: package bot moves interactions in and
// responses out, over the gateway or the HTTP interactions endpoint, and the
// terminal front end drives the same Service with typed commands.
//
// One interaction is one unit of work. Service.Handle routes it like an HTTP
// request (commands as "nim/start", component custom_ids as
// "move/{game}/{ply}/{heap}/{take}"), runs it against engine and store with
// at most one store transaction for the turn, and renders the reply. Every
// component names the game and the ply it was drawn for, so a stale board or
// a double click is refused by the store (store.ErrStale) and answered with an
// ephemeral note instead of a second move. Processed interaction ids are kept
// with their response, so a redelivered interaction gets the same answer.
//
// Errors are split in two: a user's mistake (a malformed heap list, an
// illegal move, not your turn) is answered ephemerally with what was wrong
// and what to do; anything else is logged with the interaction id and the
// user sees a short apology with a reference id.
package commands
