package bot

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"nimbot/match"
)

// Discord's webhook events (an app's "Webhook Events URL", Developer
// Portal → Webhooks) are POSTed to their own path, signed like
// interactions. nimbot listens for two: APPLICATION_DEAUTHORIZED, a user
// removing nimbot from their account, after which their data is forgotten
// once a grace period passes (the Scheduler's ForgetDue) unless they play
// on in a server meanwhile; and APPLICATION_AUTHORIZED, which cancels that
// if they come back first. Discord may deliver an event late (it retries
// one it thinks went unanswered), so each is applied by its own timestamp:
// a deauthorization older than an authorization already applied changes
// nothing.

// EventsPath is where HTTP accepts webhook events when HTTPConfig.Forget is
// set.
const EventsPath = "/events"

// DefaultForgetAfter is HTTPConfig.ForgetAfter's default: a month to change
// one's mind, then the data goes.
const DefaultForgetAfter = 30 * 24 * time.Hour

// Forgetter is what the webhook events endpoint asks of the store
// (match.Privacy's ScheduleForget and CancelForget).
type Forgetter interface {
	// ScheduleForget arranges for userID to be forgotten at at, for a
	// deauthorization sent at event.
	ScheduleForget(ctx context.Context, userID string, event, at time.Time) error
	// CancelForget drops a forgetting scheduled for userID, for an
	// authorization sent at event.
	CancelForget(ctx context.Context, userID string, event time.Time) error
}

// Webhook event payload types and event types (Discord's "Webhook Events").
const (
	webhookPing  = 0
	webhookEvent = 1

	eventAuthorized   = "APPLICATION_AUTHORIZED"
	eventDeauthorized = "APPLICATION_DEAUTHORIZED"
)

// webhookPayload is the outer payload of a webhook event, with what nimbot
// reads of APPLICATION_(DE)AUTHORIZED's data.
type webhookPayload struct {
	Version       int    `json:"version"`
	ApplicationID string `json:"application_id"`
	Type          *int   `json:"type"`
	Event         *struct {
		Type      string `json:"type"`
		Timestamp string `json:"timestamp"`
		Data      *struct {
			User *struct {
				ID string `json:"id"`
			} `json:"user"`
		} `json:"data"`
	} `json:"event"`
}

// events answers a webhook event: 401 for a bad signature (as /interactions
// does), 204 with no body for a PING and for every event it takes or does
// not listen for, 400 for a payload that is not one, and 500 when the store
// fails (Discord then retries, for up to 10 minutes).
func (h *HTTP) events(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	body, ok := h.body(w, r)
	if !ok {
		return
	}
	var p webhookPayload
	if err := json.Unmarshal(body, &p); err != nil || p.Type == nil {
		http.Error(w, "malformed webhook event", http.StatusBadRequest)
		return
	}
	switch *p.Type {
	case webhookPing:
		noContent(w)
		return
	case webhookEvent:
	default:
		http.Error(w, "unknown webhook type", http.StatusBadRequest)
		return
	}
	if p.Event == nil {
		http.Error(w, "webhook event without its event", http.StatusBadRequest)
		return
	}
	if p.Event.Type != eventAuthorized && p.Event.Type != eventDeauthorized {
		// Subscribed by the operator, not read by nimbot.
		noContent(w)
		return
	}
	user := ""
	if d := p.Event.Data; d != nil && d.User != nil {
		user = d.User.ID
	}
	if !match.IsSnowflake(user) {
		http.Error(w, "event without a user's id", http.StatusBadRequest)
		return
	}
	now := h.cfg.Now()
	sent, ok := eventTime(p.Event.Timestamp)
	if !ok {
		http.Error(w, "event without a valid timestamp", http.StatusBadRequest)
		return
	}
	if sent.After(now) {
		// A clock ahead of ours: an event from the future would make
		// every later one look old.
		sent = now
	}
	ctx := r.Context()
	var err error
	if p.Event.Type == eventDeauthorized {
		err = h.cfg.Forget.ScheduleForget(ctx, user, sent, now.Add(h.cfg.ForgetAfter))
		if err == nil {
			h.cfg.Log.Info("a user removed nimbot: their data will be forgotten after the grace period, unless they add it again", "grace", h.cfg.ForgetAfter.String())
		}
	} else {
		err = h.cfg.Forget.CancelForget(ctx, user, sent)
	}
	if err != nil {
		h.cfg.Log.Error("webhook event not recorded; Discord will send it again", "event", p.Event.Type, "err", err)
		http.Error(w, "not recorded, try again", http.StatusInternalServerError)
		return
	}
	noContent(w)
}

// eventTime reads a webhook event's timestamp: ISO 8601, as Discord's
// documented example writes it without a zone (UTC), or with one.
func eventTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// noContent acknowledges a webhook event as Discord asks: 204, no body,
// with a Content-Type.
func noContent(w http.ResponseWriter) {
	w.Header()["Content-Type"] = jsonContentType
	w.WriteHeader(http.StatusNoContent)
}

// PagePaths are the public pages HTTP serves when HTTPConfig.Pages is set:
// the privacy policy and terms of service whose URLs the operator gives
// Discord (Developer Portal, General Information).
var PagePaths = []string{"/privacy", "/terms"}

// page serves one of PagePaths: plain HTML in the language the reader's
// Accept-Language prefers, with a policy that lets no script run.
func (h *HTTP) page(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		body, lang, ok := h.cfg.Pages(name, r.Header.Get("Accept-Language"))
		if !ok {
			http.NotFound(w, r)
			return
		}
		hdr := w.Header()
		hdr.Set("Content-Type", "text/html; charset=utf-8")
		hdr.Set("Content-Language", lang)
		hdr.Set("Vary", "Accept-Language")
		hdr.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
		hdr.Set("X-Content-Type-Options", "nosniff")
		hdr.Set("Content-Length", strconv.Itoa(len(body)))
		if r.Method == http.MethodHead {
			return
		}
		w.Write(body)
	}
}
