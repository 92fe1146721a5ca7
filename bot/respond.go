package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/internal/metrics"
)

// DefaultDeferAfter is how long Handle may run before bot answers with a
// deferral instead. Discord drops an interaction that has no answer within
// 3 s, and the answer still has to travel, so the budget stops well short.
const DefaultDeferAfter = 2 * time.Second

// workTimeout bounds Handle and everything that finishes an answer later:
// an interaction token, which every follow-up needs, lasts 15 minutes.
const workTimeout = 14 * time.Minute

// originalRetry are the waits between attempts to fetch @original. In
// gateway mode the message exists once the callback returned; in HTTP mode
// Discord creates it only after it read our HTTP response, so the first
// fetch may race it and get 404.
var originalRetry = []time.Duration{100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second}

// DefaultMaxPending bounds the answers waiting on Discord's REST API in the
// background (deferred answers to deliver, new boards to fetch). discordgo
// sends all of them through one rate-limit bucket, one at a time, so when
// the API hangs they pile up without a bound of their own. Past the
// bound, new ones are dropped and logged; a delayed fetch that comes due
// (see DefaultFetchDelay) waits for a slot instead. Nothing acknowledged
// is lost by a drop: every move is committed before its answer is
// rendered, so the game is in the store, and the next click or /nim status
// shows the board.
const DefaultMaxPending = 256

// FollowupGrace is how long shutdown waits for the background answers once
// the interactions in flight are answered; then the REST calls still waiting
// on Discord are abandoned (their moves are saved; only the board message
// update is lost), and so are the deferred answers whose interactions are
// still being handled (a change they commit stands; their users see the
// deferral).
const FollowupGrace = 5 * time.Second

// responder is the part both transports share: running Handle against
// Discord's deadline, finishing deferred answers, and reporting new messages
// with BoardSent. Everything it starts in the background is counted in wg so
// shutdown can wait for it, and bounded by pending.
type responder struct {
	svc        Service
	rest       *discordgo.Session
	log        *slog.Logger
	deferAfter time.Duration
	metrics    *metrics.Metrics // counts each Handle (nil: none)

	wg      sync.WaitGroup
	pending chan struct{} // a slot per background answer
	dropped atomic.Int64
	// handling counts the background answers among pending that wait for
	// Handle to return (a deferred answer's finish): nothing of theirs is
	// known to be committed yet, unlike the rest, so shutdown reports them
	// apart.
	handling atomic.Int64
	// base is the background work's context; wait cancels it when its own
	// time is up, so REST calls stuck on Discord end.
	base   context.Context
	cancel context.CancelFunc

	// later holds new public messages until their fetch is due (see
	// fetchLater).
	later delayedFetches
}

// reply is what Service.Handle answered: the response, its JSON when the
// service had it already (nil otherwise), and whether it is another
// delivery's saved answer.
type reply struct {
	resp     *discordgo.InteractionResponse
	encoded  []byte
	replayed bool
}

// responderConfig is what both transports' configurations say about the
// responder.
type responderConfig struct {
	deferAfter time.Duration // 0: DefaultDeferAfter
	maxPending int           // 0: DefaultMaxPending
	fetchDelay time.Duration // 0: DefaultFetchDelay; negative: none
	maxDelayed int           // 0: DefaultMaxDelayed
	metrics    *metrics.Metrics
}

func newResponder(svc Service, rest *discordgo.Session, log *slog.Logger, cfg responderConfig) *responder {
	if log == nil {
		log = slog.Default()
	}
	if cfg.deferAfter <= 0 {
		cfg.deferAfter = DefaultDeferAfter
	}
	if cfg.maxPending <= 0 {
		cfg.maxPending = DefaultMaxPending
	}
	if cfg.fetchDelay == 0 {
		cfg.fetchDelay = DefaultFetchDelay
	}
	if cfg.maxDelayed <= 0 {
		cfg.maxDelayed = DefaultMaxDelayed
	}
	base, cancel := context.WithCancel(context.Background())
	r := &responder{svc: svc, rest: rest, log: log, deferAfter: cfg.deferAfter, metrics: cfg.metrics,
		pending: make(chan struct{}, cfg.maxPending), base: base, cancel: cancel}
	r.later.init(cfg.fetchDelay, cfg.maxDelayed)
	return r
}

// answer runs Handle for i on a goroutine of its own and returns the reply
// to send now. When Handle has not finished within deferAfter, that reply
// is a deferral and late yields the real one; pass both to after once the
// first was delivered.
func (r *responder) answer(i *discordgo.Interaction) (first reply, late <-chan reply) {
	done := make(chan reply, 1)
	go func() { done <- r.handle(i) }()
	if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		// Autocomplete cannot be deferred: a late list is simply ignored.
		return <-done, nil
	}
	t := time.NewTimer(r.deferAfter)
	defer t.Stop()
	select {
	case rep := <-done:
		return rep, nil
	case <-t.C:
		r.log.Warn("deferring slow interaction", "interaction", i.ID, "after", r.deferAfter)
		return reply{resp: r.deferral(i)}, done
	}
}

// respond answers i as answer does, for the HTTP endpoint, and starts what
// follows the first reply (after) before deliver sends it to w: a client
// that has the reply finds the work counted for wait.
func (r *responder) respond(i *discordgo.Interaction, w http.ResponseWriter, deliver func(w http.ResponseWriter, first reply, deferred bool)) {
	first, late := r.answer(i)
	r.after(i, first.resp, late)
	deliver(w, first, late != nil)
}

// handle calls Service.Handle on its own context: the work must not stop
// because the request that delivered the interaction went away, and a panic
// must become an apology rather than a crash or a stack trace in a reply.
func (r *responder) handle(i *discordgo.Interaction) (rep reply) {
	ctx, cancel := context.WithTimeout(context.Background(), workTimeout)
	defer cancel()
	start, failed := time.Now(), true
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("handler panicked", "interaction", i.ID, "panic", fmt.Sprint(p))
			rep = reply{resp: apology(i)}
		}
		counted := rep.resp
		if failed {
			counted = nil
		}
		r.metrics.Interaction(i, counted, time.Since(start))
	}()
	rep.resp, rep.encoded, rep.replayed = r.svc.Handle(ctx, i)
	if rep.resp == nil {
		r.log.Error("handler returned no response", "interaction", i.ID)
		return reply{resp: apology(i)}
	}
	failed = false
	return rep
}

// after does what follows a delivered first response, in the background:
// finishing a deferred answer at once, or fetching the message a response
// created, FetchDelay later (see fetchLater) or at once when too many wait.
func (r *responder) after(i *discordgo.Interaction, first *discordgo.InteractionResponse, late <-chan reply) {
	switch {
	case late != nil:
		// Handle may still be running: what it changes is kept if it
		// commits, but nothing is known of it yet.
		r.handling.Add(1)
		if !r.background(i, false, "not delivering its deferred answer: the interaction is still being handled, and a change it commits stands, but the user sees the deferral until the next click or /nim status",
			func(ctx context.Context) {
				rep := <-late
				r.handling.Add(-1)
				r.finish(ctx, i, first, rep.resp)
			}) {
			r.handling.Add(-1)
		}
	case !createsMessage(first):
	case r.fetchLater(i, first):
	default:
		// Handle's answer was delivered: its change, if any, is committed.
		r.background(i, false, "not recording the board message its answer created (its move, if any, is saved; its deadline edits will be skipped)",
			func(ctx context.Context) { r.fetchBoard(ctx, i) })
	}
}

// background runs work in its own goroutine within the pending bound,
// counted in wg. When the bound is reached it drops the work and logs what
// is lost and what is not (dropped: only the caller knows whether Handle
// has finished), or, with wait, waits for a slot until shutdown gives up
// on the background work. It reports whether work was started.
func (r *responder) background(i *discordgo.Interaction, wait bool, dropped string, work func(ctx context.Context)) bool {
	if wait {
		select {
		case r.pending <- struct{}{}:
		case <-r.base.Done():
			return false
		}
	} else {
		select {
		case r.pending <- struct{}{}:
		default:
			n := r.dropped.Add(1)
			r.log.Error("too many answers waiting on Discord's API; dropping one, "+dropped,
				"interaction", i.ID, "waiting", cap(r.pending), "dropped_total", n)
			return false
		}
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer func() { <-r.pending }()
		ctx, cancel := context.WithTimeout(r.base, workTimeout)
		defer cancel()
		work(ctx)
	}()
	return true
}

// fetchBoard fetches the message the answer to i created and reports it
// with BoardSent.
func (r *responder) fetchBoard(ctx context.Context, i *discordgo.Interaction) {
	m, err := r.original(ctx, i)
	if err != nil {
		r.log.Error("fetching the new message", "interaction", i.ID, "err", safeErr(err))
		return
	}
	r.boardSent(ctx, i, m)
}

// wait blocks until the background work started by after is done or ctx
// ends; then it abandons what is left, cancelling the REST calls still
// waiting on Discord, and waits a moment for them to return. The fetches
// still waiting for their delay are due at once (hurry): the finished
// games among them cost a store read each, the live ones a fetch, within
// ctx like the rest.
func (r *responder) wait(ctx context.Context) error {
	r.later.hurry()
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
	}
	// A deferred answer still waiting for Handle has nothing committed
	// that anyone knows of: its move is not "saved", so it is counted
	// apart from the answers whose changes are.
	handling := min(r.handling.Load(), int64(len(r.pending)))
	left := len(r.pending) + r.later.len()
	r.cancel()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
	if saved := int64(left) - handling; saved > 0 {
		r.log.Warn("abandoned answers still waiting on Discord's API at shutdown; their moves are saved", "count", saved)
	}
	if handling > 0 {
		r.log.Warn("abandoned deferred answers whose interactions were still being handled at shutdown; a change they commit stands, but their users see the deferral until the next click or /nim status", "count", handling)
	}
	return fmt.Errorf("waiting for follow-ups (%d abandoned): %w", left, ctx.Err())
}

// droppedCount is how many background answers were dropped because
// DefaultMaxPending (or the configured bound) were already waiting.
func (r *responder) droppedCount() int64 { return r.dropped.Load() }

func (r *responder) boardSent(ctx context.Context, i *discordgo.Interaction, m *discordgo.Message) {
	if err := r.svc.BoardSent(ctx, i, m); err != nil {
		r.log.Error("recording the new message", "interaction", i.ID, "message", m.ID, "err", err)
	}
}

// original fetches the interaction's @original message, retrying while
// Discord has not created it yet.
func (r *responder) original(ctx context.Context, i *discordgo.Interaction) (*discordgo.Message, error) {
	for attempt := 0; ; attempt++ {
		m, err := r.rest.InteractionResponse(i, discordgo.WithContext(ctx))
		if err == nil {
			return m, nil
		}
		if !isNotFound(err) || attempt == len(originalRetry) {
			return nil, err
		}
		select {
		case <-time.After(originalRetry[attempt]):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// finish delivers a response that came after its deferral, through the
// interaction's webhook.
func (r *responder) finish(ctx context.Context, i *discordgo.Interaction, first, late *discordgo.InteractionResponse) {
	data := late.Data
	if data == nil {
		data = &discordgo.InteractionResponseData{}
	}
	var err error
	switch late.Type {
	case discordgo.InteractionResponseDeferredChannelMessageWithSource, discordgo.InteractionResponseDeferredMessageUpdate:
		// Handle itself asked for a deferral; it finishes the answer its own way.
	case discordgo.InteractionResponseUpdateMessage:
		// After a deferred update, @original is the message the component is on.
		_, err = r.rest.InteractionResponseEdit(i, webhookEdit(data), discordgo.WithContext(ctx))
	case discordgo.InteractionResponseChannelMessageWithSource:
		err = r.message(ctx, i, first, data)
	default:
		// A modal or choices cannot follow a deferral; say so instead of
		// leaving the user waiting.
		r.log.Warn("response type cannot follow a deferral", "interaction", i.ID, "type", int(late.Type))
		err = r.message(ctx, i, first, &discordgo.InteractionResponseData{
			Content: "That took longer than Discord allows. Please try again.",
			Flags:   discordgo.MessageFlagsEphemeral,
		})
	}
	if err != nil {
		r.log.Error("finishing a deferred interaction", "interaction", i.ID, "err", safeErr(err))
	}
}

// replacedLine is what a deferral's loading message says for the moment
// between its edit and its delete, when the answer comes as a message of its
// own (see message): no words, so it needs no translation, and nothing
// that pretends the answer is there.
const replacedLine = "↓"

// message delivers data, a new message that came after the deferral first,
// and reports it with BoardSent when it is public.
//
// After a deferred update there is no loading message: a follow-up is a
// new message. After a "thinking…" deferral the loading message becomes the
// answer (an edit of @original) only when it can be exactly that answer:
//   - Its ephemeral state is the deferral's and cannot change (Discord's
//     "Create Followup Message": "an existing message's ephemeral state
//     cannot be changed").
//   - An edit never notifies anyone its content mentions (editing "does
//     not actually produce any notifications", discord/discord-api-docs#1419),
//     so a challenge edited into place would never reach the player it
//     names.
//
// Otherwise the answer is a follow-up message, and the loading message is
// edited first: per "Create Followup Message", a follow-up sent directly
// after a deferral "will function as Edit Original Interaction Response":
// no new message, the loading message edited, "the ephemeral flag will be
// ignored": a hint would be shown to the whole channel, and then deleted
// with the placeholder before its user could read it. Once edited, the
// loading message is resolved, and a follow-up is a new message with its
// own flags and allowed mentions (a follow-up "without resolving the
// loading state" is what Discord takes for resolving it,
// discord/discord-api-docs#2742); then the placeholder goes, whether the
// follow-up succeeded or not. If that edit fails, nothing more is sent: the
// follow-up might still take the loading message's place, in public.
func (r *responder) message(ctx context.Context, i *discordgo.Interaction, first *discordgo.InteractionResponse, data *discordgo.InteractionResponseData) error {
	opt := discordgo.WithContext(ctx)
	ephemeral := isEphemeral(data)
	placeholder := first.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource
	if placeholder && isEphemeral(first.Data) == ephemeral && !notifies(data) {
		m, err := r.rest.InteractionResponseEdit(i, webhookEdit(data), opt)
		if err == nil && !ephemeral {
			r.boardSent(ctx, i, m)
		}
		return err
	}
	if placeholder {
		line := replacedLine
		if _, err := r.rest.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &line}, opt); err != nil {
			return err
		}
	}
	m, err := followupMessageCreate(r.rest, i, followup(data), opt)
	if err != nil {
		if placeholder {
			// The "↓" would point at nothing; or, when Discord answered
			// 502 after it made the follow-up, at a message that is there,
			// which a line saying it failed would deny. Either way it goes,
			// unless ctx has ended (shutdown past FollowupGrace, or the
			// work's timeout): then this delete fails too and the "↓"
			// stays.
			if derr := interactionResponseDelete(r.rest, i, opt); derr != nil {
				err = errors.Join(err, fmt.Errorf("deleting the placeholder: %w", derr))
			}
		}
		return err
	}
	if !ephemeral {
		r.boardSent(ctx, i, m)
	}
	if placeholder {
		return interactionResponseDelete(r.rest, i, opt)
	}
	return nil
}

// isEphemeral reports whether response data d makes an ephemeral message.
func isEphemeral(d *discordgo.InteractionResponseData) bool {
	return d != nil && d.Flags&discordgo.MessageFlagsEphemeral != 0
}

// mention is a mention in message content that can notify: a user (<@id>,
// <@!id>), a role (<@&id>), @everyone or @here.
var mention = regexp.MustCompile(`<@[!&]?[0-9]+>|@everyone|@here`)

// notifies reports whether a new message with d's content may notify
// someone it mentions: it has a mention, and d's allowed mentions let
// some mention through (none given: Discord's default for interactions
// parses users). It may say yes where Discord would notify nobody (a role
// allowed, a user mentioned); that costs a follow-up where an edit would
// have done, never a lost ping. Every message nimbot means to be silent
// allows no mention at all.
func notifies(d *discordgo.InteractionResponseData) bool {
	if !mention.MatchString(d.Content) {
		return false
	}
	am := d.AllowedMentions
	return am == nil || len(am.Parse) > 0 || len(am.Users) > 0 || len(am.Roles) > 0
}

// deferral is the immediate answer for a slow interaction: an update with no
// visible change for a click on a message, a "thinking…" message otherwise,
// ephemeral when every answer to i is (Service.Private), as then the answer
// can take its place (see message).
func (r *responder) deferral(i *discordgo.Interaction) *discordgo.InteractionResponse {
	if i.Type == discordgo.InteractionMessageComponent || (i.Type == discordgo.InteractionModalSubmit && i.Message != nil) {
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
	}
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
	if r.private(i) {
		resp.Data = &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}
	}
	return resp
}

// private asks Service.Private about i; a panic there is a "no", logged:
// a public deferral is still answered correctly, if less neatly (message).
func (r *responder) private(i *discordgo.Interaction) (private bool) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("Private panicked", "interaction", i.ID, "panic", fmt.Sprint(p))
			private = false
		}
	}()
	return r.svc.Private(i)
}

// apology answers when the product failed to: short, ephemeral, and with
// the interaction id the operator's log carries.
func apology(i *discordgo.Interaction) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{
			Content: "Sorry, something went wrong on our side (reference " + i.ID + ").",
			Flags:   discordgo.MessageFlagsEphemeral,
		},
	}
}

// createsMessage reports whether resp makes Discord post a new public
// message. Ephemeral messages are skipped: they cannot carry a board anyone
// else sees, and bot could not edit them by channel later anyway.
func createsMessage(resp *discordgo.InteractionResponse) bool {
	return resp != nil && resp.Type == discordgo.InteractionResponseChannelMessageWithSource &&
		(resp.Data == nil || resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0)
}

// webhookEdit turns response data into a complete replacement of the message:
// empty lists are sent as [] so that old buttons and embeds go away.
func webhookEdit(d *discordgo.InteractionResponseData) *discordgo.WebhookEdit {
	content := d.Content
	components := d.Components
	if components == nil {
		components = []discordgo.MessageComponent{}
	}
	embeds := d.Embeds
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	return &discordgo.WebhookEdit{Content: &content, Components: &components, Embeds: &embeds, AllowedMentions: d.AllowedMentions}
}

func followup(d *discordgo.InteractionResponseData) *discordgo.WebhookParams {
	return &discordgo.WebhookParams{
		Content: d.Content, Components: d.Components, Embeds: d.Embeds,
		AllowedMentions: d.AllowedMentions, Flags: d.Flags & discordgo.MessageFlagsEphemeral,
	}
}

func isNotFound(err error) bool {
	var re *discordgo.RESTError
	return errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusNotFound
}
