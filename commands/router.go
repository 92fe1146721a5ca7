package commands

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// request is one interaction on its way through the router: the interaction,
// the path it was routed by and the parameters the route's pattern captured.
type request struct {
	ctx    context.Context
	i      *discordgo.Interaction
	path   string
	params map[string]string
	now    time.Time
}

// handler answers one routed interaction. A returned error goes to the one
// error handler, which tells the user's mistakes from ours.
type handler func(*request) (*answer, error)

// userID is the id of whoever caused the interaction: Member.User in a
// guild, User in a DM.
func (r *request) userID() string {
	if r.i.Member != nil && r.i.Member.User != nil {
		return r.i.Member.User.ID
	}
	if r.i.User != nil {
		return r.i.User.ID
	}
	return ""
}

// param returns a captured path parameter.
func (r *request) param(name string) string { return r.params[name] }

// intParam returns a captured parameter as an integer. The custom_ids are
// ours, so a malformed one means a forged or corrupted id: a user error that
// changes nothing.
func (r *request) intParam(name string) (int64, error) {
	n, err := strconv.ParseInt(r.params[name], 10, 64)
	if err != nil || n < 0 {
		return 0, userErrorf("That control is not one nimbot understands (bad %s). Use /nim status for a fresh board.", name)
	}
	return n, nil
}

// route is one pattern: literal segments and {name} captures.
type route struct {
	segs []string
	h    handler
}

// router dispatches interaction paths like an HTTP mux: "nim/start",
// "autocomplete/nim/move", "move/{game}/{ply}/{heap}/{take}".
type router struct {
	routes []route
}

func (rt *router) add(pattern string, h handler) {
	rt.routes = append(rt.routes, route{segs: strings.Split(pattern, "/"), h: h})
}

func (rt *router) match(path string) (handler, map[string]string) {
	segs := strings.Split(path, "/")
next:
	for _, r := range rt.routes {
		if len(r.segs) != len(segs) {
			continue
		}
		var params map[string]string
		for k, s := range r.segs {
			if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
				if segs[k] == "" {
					continue next
				}
				if params == nil {
					params = map[string]string{}
				}
				params[s[1:len(s)-1]] = segs[k]
				continue
			}
			if s != segs[k] {
				continue next
			}
		}
		return r.h, params
	}
	return nil, nil
}

// serve routes r and runs the matched handler.
func (rt *router) serve(r *request) (*answer, error) {
	h, params := rt.match(r.path)
	if h == nil {
		return nil, userErrorf("nimbot does not know that control any more (it may come from an older version). Use /nim status for a fresh board.")
	}
	r.params = params
	return h(r)
}

// mux holds one routing table per interaction type. An interaction is routed
// by its type first: a custom_id that names a route of another type (a
// modal's "typed/..." on a button, "nim/start" on a select menu) would reach
// a handler that reads data its interaction does not carry.
type mux map[discordgo.InteractionType]*router

// serve routes r by its type, then by its path.
func (m mux) serve(r *request) (*answer, error) {
	rt := m[r.i.Type]
	if rt == nil {
		return nil, userErrorf("nimbot does not handle this kind of interaction (type %d), so nothing was done.", int(r.i.Type))
	}
	if h, _ := rt.match(r.path); h == nil {
		for t, other := range m {
			if t == r.i.Type {
				continue
			}
			if h, _ := other.match(r.path); h != nil {
				return nil, userErrorf("Bad request: %q belongs to a %s, not to a %s, so nothing was done. Use /nim status for a fresh board.",
					quote(r.path, 100), interactionKind(t), interactionKind(r.i.Type))
			}
		}
	}
	return rt.serve(r)
}

// interactionKind names an interaction type for a user.
func interactionKind(t discordgo.InteractionType) string {
	switch t {
	case discordgo.InteractionApplicationCommand:
		return "slash command"
	case discordgo.InteractionApplicationCommandAutocomplete:
		return "slash command's suggestions"
	case discordgo.InteractionMessageComponent:
		return "button or menu"
	case discordgo.InteractionModalSubmit:
		return "form (modal)"
	}
	return fmt.Sprintf("interaction of type %d", int(t))
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
		p := d.Name
		for _, o := range d.Options {
			if o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
				p += "/" + o.Name
			}
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

// userError is a mistake the user can fix; its message is shown as is.
type userError struct{ msg string }

func (e *userError) Error() string { return e.msg }

func userErrorf(format string, args ...any) error {
	return &userError{msg: fmt.Sprintf(format, args...)}
}

// isUserError reports whether err is the user's to fix, and the message to
// show them.
func isUserError(err error) (string, bool) {
	var ue *userError
	if errors.As(err, &ue) {
		return ue.msg, true
	}
	return "", false
}
