package commands

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
	"nimbot/engine"
	"nimbot/match"
)

// request is one interaction on its way through the router: the interaction
// and the path it is routed by (a command's name, a control's custom_id).
type request struct {
	ctx  context.Context
	i    *discordgo.Interaction
	path string
	now  time.Time
	// lang speaks the user's language (the interaction's locale): every
	// text only they see. A game's public board speaks the game's.
	lang *locale.Printer
	// key is AnswerKey(i), made at its first use (answerKey).
	key string
	// origin is where i comes from (originOf), decided before routing.
	origin origin
	// tryKept, set by fromRecent for a move handler's first attempt, lets
	// turnBoard take the board kept from the game's last commit here
	// (Service.recent); kept is the board it took.
	tryKept bool
	kept    *match.Board
}

// t renders catalog message id in the user's language (locale.Printer.T).
func (r *request) t(id string, nameValues ...any) string { return r.lang.T(id, nameValues...) }

// handler answers one routed interaction. A returned error goes to the one
// error handler, which tells the user's mistakes from ours.
type handler func(*request) (*answer, error)

// userID is the id of whoever caused the interaction: Member.User in a
// guild, User in a DM.
func (r *request) userID() string { return userID(r.i) }

func userID(i *discordgo.Interaction) string {
	if i.Member != nil && i.Member.User != nil {
		return i.Member.User.ID
	}
	if i.User != nil {
		return i.User.ID
	}
	return ""
}

// answerKey is what r's answer is saved under (AnswerKey), made once: a
// request may look its answer up, save it, and look it up again.
func (r *request) answerKey() string {
	if r.key == "" {
		r.key = AnswerKey(r.i)
	}
	return r.key
}

// AnswerKey is the key an interaction's answer is saved under in the store
// (the interaction id of match.Storage): its id, bound to who sent it,
// from which channel, as which type. Discord redelivers an interaction with
// all four the same, so a redelivery finds the first answer; a request that
// reuses another interaction's id (only a forged one can) is another key,
// answered afresh, and never gets someone else's answer, board or hint.
func AnswerKey(i *discordgo.Interaction) string {
	return i.ID + "/" + userID(i) + "/" + i.ChannelID + "/" + strconv.Itoa(int(i.Type))
}

// routes is the whole product's routing table, one table per interaction
// type: slash commands and autocomplete by path, board controls by their kind
// (controls.go). Each route also says how its answers are kept (answers.go):
// once, or replay for board controls pinned to their ply and for read-only
// views. Autocomplete suggestions are never kept. A route whose every answer
// is ephemeral says so (private; see Service.Private).
func (s *Service) routes() mux {
	once, replay := s.answers.once, s.answers.replay
	return mux{
		discordgo.InteractionApplicationCommand: {
			command("nim/start", once(s.start)),
			command("nim/move", once(s.moveCommand)),
			command("nim/hint", once(s.hintCommand)).private(always),
			command("nim/resign", once(s.resignCommand)),
			command("nim/status", once(s.status)),
			command("nim/rules", replay(view(s.rules))).private(always),
			command("nim/analyze", replay(view(s.analyze))).private(unlessPublic),
			command("nim/stats", replay(view(s.stats))),
			command("nim/leaderboard", replay(view(s.leaderboard))),
			command("nim/end", once(s.end)),
			command("nim/privacy", replay(view(s.privacy))).private(always),
			command("nim/puzzle", replay(view(s.puzzleCommand))).private(always),
			command("nim/daily", once(s.dailyCommand)).private(always),
			command("nim/learn", replay(view(s.learnCommand))).private(always),
		},
		discordgo.InteractionApplicationCommandAutocomplete: {
			command("autocomplete/nim/start", view(s.autocompleteStart)),
			command("autocomplete/nim/move", view(s.autocompleteMove)),
			command("autocomplete/nim/analyze", view(s.autocompleteAnalyze)),
		},
		discordgo.InteractionMessageComponent: {
			on(acceptKind, once, s.accept),
			on(declineKind, once, s.decline),
			on(heapKind, replay, s.pickHeap),
			on(heapMenuKind, replay, s.pickHeapMenu),
			on(moveKind, replay, fromRecent(s, s.moveButton)),
			on(moveMenuKind, replay, fromRecent(s, s.moveSelect)),
			on(askKind, replay, s.askAmount),
			on(typeKind, replay, s.askMove),
			on(hintKind, replay, s.hintButton),
			on(resignKind, replay, s.resignButton),
			on(rematchKind, once, s.rematch),
			on(reviewKind, replay, s.review),
			on(forgetKind, replay, s.forgetButton),
			on(puzzlePlayKind, replay, s.puzzleMenu),
			on(puzzleTypeKind, replay, s.puzzleAsk),
			on(puzzleShareKind, replay, s.puzzleShare),
			on(puzzleNextKind, replay, s.puzzleNext),
			on(lessonPageKind, replay, s.learnPage),
			on(lessonMenuKind, replay, s.learnMenu),
			on(exercisePlayKind, replay, s.exerciseMenu),
			on(exerciseTypeKind, replay, s.exerciseAsk),
		},
		discordgo.InteractionModalSubmit: {
			on(amountKind, replay, fromRecent(s, s.amountSubmit)),
			on(typedKind, replay, fromRecent(s, s.typedSubmit)),
			on(puzzleTypedKind, replay, s.puzzleTyped),
			on(exerciseTypedKind, replay, s.exerciseTyped),
		},
	}
}

// route matches a path, and gives the handler for it.
type route struct {
	match func(path string) (handler, bool)
	// answeredPrivately reports whether every answer to i, an interaction
	// the route matched, is ephemeral; nil when some may not be.
	answeredPrivately func(i *discordgo.Interaction) bool
}

// private marks the route's answers as all ephemeral for the interactions
// for which only reports true: its refusals are anyway (renderError), so
// only reports what the route's handler answers.
func (rt route) private(only func(i *discordgo.Interaction) bool) route {
	rt.answeredPrivately = only
	return rt
}

// always is private's mark for a route whose every answer is ephemeral.
func always(*discordgo.Interaction) bool { return true }

// unlessPublic is private's mark for /nim analyze: ephemeral unless its
// public option asks for the channel to see it.
func unlessPublic(i *discordgo.Interaction) bool { return !subOptions(i).bool(optPublic) }

// router is one interaction type's routes.
type router []route

// command routes the slash command (or autocomplete) path to h.
func command(path string, h handler) route {
	return route{match: func(p string) (handler, bool) { return h, p == path }}
}

// on routes the custom_ids of kind k to h, which gets the control parsed,
// under the policy keep (answers.once or answers.replay). An id of the
// kind's shape whose fields do not read (a forged or corrupted id) is the
// user's error, answered under the same policy.
func on[C Control](k controlKind[C], keep func(handler) handler, h func(*request, C) (*answer, error)) route {
	return route{match: func(p string) (handler, bool) {
		c, ok, err := k.readID(p)
		if !ok {
			return nil, false
		}
		return keep(func(r *request) (*answer, error) {
			if err != nil {
				return nil, err
			}
			return h(r, c)
		}), true
	}}
}

// match returns the handler of the route that matches path, nil if none
// does.
func (rt router) match(path string) handler {
	for _, r := range rt {
		if h, ok := r.match(path); ok {
			return h
		}
	}
	return nil
}

// route returns the route that matches path.
func (rt router) route(path string) (route, bool) {
	for _, r := range rt {
		if _, ok := r.match(path); ok {
			return r, true
		}
	}
	return route{}, false
}

// mux holds one routing table per interaction type. An interaction is routed
// by its type first: a custom_id that names a route of another type (a
// modal's "typed/..." on a button, "nim/start" on a select menu) would reach
// a handler that reads data its interaction does not carry.
type mux map[discordgo.InteractionType]router

// serve routes r by its type, then by its path.
func (m mux) serve(r *request) (*answer, error) {
	rt := m[r.i.Type]
	if rt == nil {
		return nil, userErr("play.err.kind_unknown", "Type", int(r.i.Type))
	}
	h := rt.match(r.path)
	if h == nil {
		for t, other := range m {
			if t == r.i.Type {
				continue
			}
			if other.match(r.path) != nil {
				return nil, userErr("play.err.wrong_kind", "Path", quote(r.path, 100), "Owner", interactionKind(t), "Kind", interactionKind(r.i.Type), "StatusCommand", subName(subStatus))
			}
		}
		if r.i.Type == discordgo.InteractionApplicationCommand {
			// A command nimbot dropped or renamed: clients keep the old
			// list of commands for a while after an update.
			return nil, userErr("play.err.unknown_command")
		}
		return nil, userErr("play.err.unknown_control", "StatusCommand", subName(subStatus))
	}
	return h(r)
}

// interactionKind names an interaction type for a user, as an argument of
// another message (with its article where the language has one).
func interactionKind(t discordgo.InteractionType) engine.Phrase {
	switch t {
	case discordgo.InteractionApplicationCommand:
		return msg("play.kind.command")
	case discordgo.InteractionApplicationCommandAutocomplete:
		return msg("play.kind.autocomplete")
	case discordgo.InteractionMessageComponent:
		return msg("play.kind.component")
	case discordgo.InteractionModalSubmit:
		return msg("play.kind.modal")
	}
	return msg("play.kind.other", "Type", int(t))
}

// isSubcommand reports whether o is a subcommand or a group of them.
func isSubcommand(o *discordgo.ApplicationCommandInteractionDataOption) bool {
	return o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup
}

// interactionPath names an interaction for the router: slash commands by
// command and subcommand, autocomplete under "autocomplete/", components and
// modals by their custom_id.
//
// It never panics on a payload whose data does not match its type (the
// accessors of discordgo do): such an interaction routes nowhere.
func interactionPath(i *discordgo.Interaction) string {
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		d, ok := i.Data.(discordgo.ApplicationCommandInteractionData)
		if !ok {
			return ""
		}
		// Only the shape Discord sends names a subcommand: one option, a
		// group or subcommand, inside another when a group. Another shape
		// names just the command (validate refuses it for nimbot's own).
		p := d.Name
		for opts := d.Options; len(opts) == 1 && opts[0] != nil && isSubcommand(opts[0]); opts = opts[0].Options {
			p += "/" + opts[0].Name
		}
		if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
			p = "autocomplete/" + p
		}
		return p
	case discordgo.InteractionMessageComponent:
		if d, ok := i.Data.(discordgo.MessageComponentInteractionData); ok {
			return d.CustomID
		}
	case discordgo.InteractionModalSubmit:
		if d, ok := i.Data.(discordgo.ModalSubmitInteractionData); ok {
			return d.CustomID
		}
	}
	return ""
}

// userError is a mistake the user can fix, shown in their language: a
// catalog message id and its arguments. Error is the English, for logs.
type userError struct {
	id   string
	args []any
}

func (e *userError) Error() string { return locale.For(locale.English).T(e.id, e.args...) }

// userErr is the user's error, catalog message id with its arguments as
// name, value pairs (locale.Printer.T).
func userErr(id string, nameValues ...any) error {
	return &userError{id: id, args: nameValues}
}

// msg is catalog message id with its arguments, as an argument of another
// message: rendered in the same language as the message it is part of
// (locale.Printer renders an engine.Phrase argument first).
func msg(id string, nameValues ...any) engine.Phrase { return engine.P(id, nameValues...) }

// isUserError reports whether err is the user's to fix (one of ours, or
// the engine refusing their move or position), and the message to show
// them in lang.
func isUserError(err error, lang *locale.Printer) (string, bool) {
	var ue *userError
	if errors.As(err, &ue) {
		return lang.T(ue.id, ue.args...), true
	}
	return "", false
}
