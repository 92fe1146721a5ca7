// Package terminal is nimbot without Discord: Play drives the very same
// commands.Service that answers Discord, from typed slash commands on a
// terminal, and Analyze answers questions about any position straight from
// the engine.
//
// Play turns each typed line ("/nim start vs:bot heaps:3 4 5") into a real
// *discordgo.Interaction, built as the JSON Discord sends and decoded by
// discordgo itself, so the service cannot tell the terminal from a guild:
// options are checked against commands.Definitions the way Discord's client
// checks them (required options, choices, bounds), and the board's buttons
// and menus are listed by number and pressed by typing the number. Responses
// are printed as text: the embed, the stones, the components, with ephemeral
// answers marked. Games live wherever the service main hands Play keeps them
// (the same store as the bot's), so quitting and starting again continues
// the channel's game.
//
// The terminal's own lines (prompts, help, refusals of a mistyped line)
// are catalog messages too, read through commands.ClientText in the
// player's language, and help names commands and options as that
// language's Discord shows them.
//
// terminal is a transport, a sibling of bot: it owns the typed line and the
// printed board, and nothing of the product. It never opens the store or
// reads game rows (Service.Turn says whose keyboard it is), and it makes no
// network call.
//
// Analyze is the `analyze` subcommand: who wins a position of any variant,
// every winning move and the engine's explanation, as aligned text or as one
// JSON object for scripts. It talks to the engine alone: no store, no
// service; which flags a variant takes comes from engine.Describe.
package terminal
