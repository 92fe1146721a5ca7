package bot

import (
	"context"
	"errors"
	"net/url"

	"github.com/bwmarrin/discordgo"
)

// Service is what bot needs from the product. *commands.Service implements it;
// bot declares only these five methods so that the transports depend on the
// shape of the product, not on its internals.
type Service interface {
	// Handle answers one interaction. It never returns a nil resp and
	// renders every error itself, so bot only delivers what it gets. encoded
	// is resp in JSON, or nil when the service has none: the HTTP endpoint
	// writes it as it is rather than encode resp a second time. replayed
	// says resp is the answer another delivery of i saved, which that
	// delivery sends: the gateway sends nothing (Discord takes one
	// callback per interaction), the HTTP endpoint, which Discord waits
	// on, sends resp again.
	Handle(ctx context.Context, i *discordgo.Interaction) (resp *discordgo.InteractionResponse, encoded []byte, replayed bool)
	// Private reports whether every answer to i is ephemeral, so its
	// deferral can be: Discord keeps a deferral's ephemeral state for the
	// message that replaces its loading message (see responder.finish).
	// bot asks it only when Handle is slow, on another goroutine while
	// Handle runs.
	Private(i *discordgo.Interaction) bool
	// BoardWanted reports whether the public message that resp, the
	// answer to i, created is still worth fetching from Discord and
	// reporting with BoardSent. bot asks it FetchDelay after the answer
	// (see responder.after); i then carries only its ID, AppID, Token,
	// Type, ChannelID and GuildID, and resp its Type, flags and action
	// rows, whose buttons and select menus carry only their custom ids.
	// On an error bot fetches anyway.
	BoardWanted(ctx context.Context, i *discordgo.Interaction, resp *discordgo.InteractionResponse) (bool, error)
	// BoardSent reports the message that a response to i created, fetched
	// from Discord (@original), so a board's message id can be recorded.
	// Fetches may finish in any order; the newest board is kept.
	BoardSent(ctx context.Context, i *discordgo.Interaction, m *discordgo.Message) error
	// Expire ends the games whose turn deadline passed and returns the board
	// edits that say so, each addressed by its Channel and ID, to send by
	// REST with no interaction to answer.
	Expire(ctx context.Context) ([]*discordgo.MessageEdit, error)
}

// safeErr returns err without the request URL a *url.Error carries: webhook
// URLs hold interaction tokens, and tokens never go to a log.
func safeErr(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return errors.New(ue.Op + " request: " + ue.Err.Error())
	}
	var rl *discordgo.RateLimitError
	if errors.As(err, &rl) {
		return errors.New("rate limited, retry after " + rl.RetryAfter.String())
	}
	return err
}
