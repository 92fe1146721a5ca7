package commands

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/store"
)

// Config wires a Service to its store, clock and randomness. Zero values take
// the defaults named on each field.
type Config struct {
	DB   *store.DB
	Now  func() time.Time // default time.Now
	Rand *rand.Rand       // the bot's choices, random heaps and first movers; default seeded from crypto/rand
	Log  *slog.Logger     // default slog.Default()

	BotTurn           time.Duration // time to move against the bot (default 1 h)
	PeopleTurn        time.Duration // time to move between people (default 24 h)
	ChallengeTTL      time.Duration // how long a challenge waits for an answer (default 10 min)
	ChallengeCooldown time.Duration // least time between two challenges by one user (default 1 min)
}

// Service answers interactions. It keeps no game state of its own: the store
// is the single source of truth.
type Service struct {
	cfg Config
}

// New returns a Service for cfg, filling in defaults.
func New(cfg Config) *Service {
	return &Service{cfg: cfg}
}

// Handle answers one interaction. It never returns nil: every error becomes
// an ephemeral message. (Skeleton: the real routing lands next.)
func (s *Service) Handle(ctx context.Context, i *discordgo.Interaction) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "nimbot is starting up.", Flags: discordgo.MessageFlagsEphemeral},
	}
}

// BoardSent records m as the board of its game when the response to i created
// a new board message; bot calls it after fetching @original.
func (s *Service) BoardSent(ctx context.Context, i *discordgo.Interaction, m *discordgo.Message) error {
	return nil
}

// Edit is a board edit for bot to send by REST.
type Edit struct {
	ChannelID, MessageID string
	Message              *discordgo.MessageEdit
}

// Expire ends every game whose deadline has passed and returns the edits that
// show the result on their boards.
func (s *Service) Expire(ctx context.Context) ([]Edit, error) {
	return nil, nil
}
