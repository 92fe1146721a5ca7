package bot

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/bwmarrin/discordgo"
)

// Post is a message the scheduler posts in a channel by REST, with no
// interaction to answer: the daily puzzle. Done records it as posted,
// with the id Discord gave the message (for PostEdit); Gone
// drops the channel when nimbot can no longer post there (or it is not the
// server's it was subscribed for).
type Post struct {
	ChannelID string
	// GuildID is the server the channel must belong to: checked before
	// posting, so a channel id from elsewhere is never posted in.
	GuildID string
	// Nonce makes the post idempotent: Discord creates one message per
	// nonce (enforce_nonce) for a few minutes, so an instance that dies
	// between posting and Done, and another that posts again after the
	// claim lapses, leave one message.
	Nonce   string
	Message *discordgo.MessageSend
	Done    func(ctx context.Context, messageID string) error
	Gone    func(ctx context.Context) error
}

// PostEdit is an edit of a message the scheduler posted: the daily
// puzzle's running count of solves. Done records it as sent; Stop ends the
// edits of a message Discord will not let nimbot edit (deleted, or the
// channel or access gone).
type PostEdit struct {
	Edit *discordgo.MessageEdit
	Done func(ctx context.Context) error
	Stop func(ctx context.Context) error
}

// postBody is a message with the nonce fields discordgo's MessageSend
// lacks.
type postBody struct {
	*discordgo.MessageSend
	Nonce        string `json:"nonce,omitempty"`
	EnforceNonce bool   `json:"enforce_nonce,omitempty"`
}

// sendPosts posts every post the scheduler's Posts returns, and reports
// each as done, or its channel as gone. It returns how many were posted.
func (s *Scheduler) sendPosts(ctx context.Context, log *slog.Logger) int {
	if s.cfg.Posts == nil {
		return 0
	}
	posts, err := s.cfg.Posts(ctx)
	if err != nil {
		log.Error("claiming posts", "err", err)
		return 0
	}
	limiter := discordgo.NewRatelimiter()
	sent := 0
	for _, p := range posts {
		id, err := s.post(ctx, limiter, p)
		if err != nil {
			if gone(err) {
				log.Warn("a subscribed channel can no longer be posted in; unsubscribed", "channel", p.ChannelID, "err", safeErr(err))
				if err := p.Gone(ctx); err != nil {
					log.Error("unsubscribing a channel", "channel", p.ChannelID, "err", err)
				}
				continue
			}
			// Not recorded: the claim lapses and a later tick posts again,
			// with the same nonce.
			log.Error("posting in a subscribed channel", "channel", p.ChannelID, "err", safeErr(err))
			continue
		}
		if err := p.Done(ctx, id); err != nil {
			log.Error("recording a post", "channel", p.ChannelID, "err", err)
			continue
		}
		sent++
	}
	if len(posts) > 0 {
		log.Info("daily posts", "claimed", len(posts), "sent", sent)
	}
	return sent
}

// sendPostEdits sends every edit the scheduler's PostEdits returns, and
// reports each as done, or its message as not to be edited any more. It
// returns how many Discord accepted. A failed edit is not retried before
// the post's next turn.
func (s *Scheduler) sendPostEdits(ctx context.Context, log *slog.Logger) int {
	if s.cfg.PostEdits == nil {
		return 0
	}
	edits, err := s.cfg.PostEdits(ctx)
	if err != nil {
		log.Error("claiming post edits", "err", err)
		return 0
	}
	limiter := discordgo.NewRatelimiter()
	sent := 0
	for _, e := range edits {
		if _, err := channelMessageEdit(s.cfg.Session, limiter, e.Edit, discordgo.WithContext(ctx)); err != nil {
			if gone(err) {
				log.Warn("a posted message can no longer be edited; its edits stop", "channel", e.Edit.Channel, "message", e.Edit.ID, "err", safeErr(err))
				if err := e.Stop(ctx); err != nil {
					log.Error("stopping a post's edits", "channel", e.Edit.Channel, "err", err)
				}
				continue
			}
			log.Error("editing a post", "channel", e.Edit.Channel, "message", e.Edit.ID, "err", safeErr(err))
			continue
		}
		if err := e.Done(ctx); err != nil {
			log.Error("recording a post's edit", "channel", e.Edit.Channel, "err", err)
			continue
		}
		sent++
	}
	if len(edits) > 0 {
		log.Info("daily post edits", "claimed", len(edits), "sent", sent)
	}
	return sent
}

// errOtherGuild is a subscribed channel that is not in its server.
var errOtherGuild = errors.New("the channel is not in the server it was subscribed in")

// post checks that the channel is in p's server, posts p there and
// returns the message's id.
func (s *Scheduler) post(ctx context.Context, rl *discordgo.RateLimiter, p Post) (string, error) {
	body, err := request(s.cfg.Session, rl, "GET", discordgo.EndpointChannel(p.ChannelID), discordgo.EndpointChannel(p.ChannelID), nil, nil, discordgo.WithContext(ctx))
	if err != nil {
		return "", err
	}
	var ch discordgo.Channel
	if err := discordgo.Unmarshal(body, &ch); err != nil {
		return "", err
	}
	if ch.GuildID != p.GuildID {
		return "", errOtherGuild
	}
	for _, e := range p.Message.Embeds {
		if e.Type == "" {
			e.Type = discordgo.EmbedTypeRich
		}
	}
	body, err = request(s.cfg.Session, rl, "POST", discordgo.EndpointChannelMessages(p.ChannelID), discordgo.EndpointChannelMessages(p.ChannelID),
		postBody{MessageSend: p.Message, Nonce: p.Nonce, EnforceNonce: p.Nonce != ""}, nil, discordgo.WithContext(ctx))
	if err != nil {
		return "", err
	}
	var msg discordgo.Message
	if err := discordgo.Unmarshal(body, &msg); err != nil {
		return "", err
	}
	return msg.ID, nil
}

// gone reports whether err says nimbot can never post in the channel (or
// edit the message): it is unknown (10003, 10008), nimbot lacks access or
// permission (50001, 50013), or it is another server's.
func gone(err error) bool {
	if errors.Is(err, errOtherGuild) {
		return true
	}
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil {
		switch re.Response.StatusCode {
		case http.StatusNotFound, http.StatusForbidden:
			return true
		}
	}
	return false
}
