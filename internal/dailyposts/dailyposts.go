// Package dailyposts hands commands' daily puzzle posts, and the edits
// that keep their count of solves, to bot's scheduler: the one adapter
// between the two packages, which know nothing of each other. main wires
// it, and bot's tests drive the scheduler through it.
package dailyposts

import (
	"context"

	"nimbot/bot"
	"nimbot/commands"
)

// Posts is the scheduler's source of posts (bot.SchedulerConfig.Posts):
// the day's posts svc has claimed, each reporting back to svc once posted
// (Done) or once its channel is gone (Gone).
func Posts(svc *commands.Service) func(ctx context.Context) ([]bot.Post, error) {
	return func(ctx context.Context) ([]bot.Post, error) {
		ps, err := svc.DailyPosts(ctx)
		var out []bot.Post
		for _, p := range ps {
			out = append(out, bot.Post{ChannelID: p.ChannelID, GuildID: p.GuildID, Nonce: p.Nonce, Message: p.Message,
				Done: func(ctx context.Context, id string) error { return svc.DailyDone(ctx, p, id) },
				Gone: func(ctx context.Context) error { return svc.DailyGone(ctx, p.ChannelID) }})
		}
		return out, err
	}
}

// Edits is the scheduler's source of edits to the daily posts
// (bot.SchedulerConfig.PostEdits), each reporting back to svc once made
// (Done) or once the post is gone (Stop).
func Edits(svc *commands.Service) func(ctx context.Context) ([]bot.PostEdit, error) {
	return func(ctx context.Context) ([]bot.PostEdit, error) {
		es, err := svc.DailyEdits(ctx)
		var out []bot.PostEdit
		for _, e := range es {
			out = append(out, bot.PostEdit{Edit: e.Edit,
				Done: func(ctx context.Context) error { return svc.DailyEdited(ctx, e) },
				Stop: func(ctx context.Context) error { return svc.DailyEditGone(ctx, e) }})
		}
		return out, err
	}
}
