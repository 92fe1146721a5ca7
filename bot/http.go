package bot

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"golang.org/x/time/rate"

	"nimbot/internal/metrics"
)

// Limits of the HTTP interactions endpoint.
const (
	// DefaultMaxBody caps a request body. An interaction is a few KiB; a
	// component click carries its whole message, still far below this.
	DefaultMaxBody = 1 << 20
	// MaxTimestampAge and MaxTimestampSkew bound X-Signature-Timestamp: a
	// captured request cannot be replayed later, and a clock running ahead
	// cannot pre-sign requests. discordgo.VerifyInteraction checks neither.
	MaxTimestampAge  = 5 * time.Minute
	MaxTimestampSkew = time.Minute
)

// HTTPConfig configures an HTTP interactions endpoint.
type HTTPConfig struct {
	Service Service
	// PublicKey is the application's public key (Developer Portal, General
	// Information) that Discord's signatures verify against. Check it with
	// CheckPublicKey: with a key that does not decode, every request is
	// refused.
	PublicKey ed25519.PublicKey
	// Session makes the REST calls an answer may need after the HTTP
	// response: fetching @original for BoardSent, finishing a deferral.
	Session *discordgo.Session
	// Health answers /healthz here, through its Public view: this listener
	// is the one Discord must reach, so anyone can. Nil: a Health of
	// Checks. Give the same Health to the operator's own listener
	// (HEALTH_ADDR) to see the errors there, from the same runs.
	Health *Health
	// Checks are what /healthz runs when Health is nil; none means always
	// healthy.
	Checks     []Check
	Now        func() time.Time // nil: time.Now
	MaxBody    int64            // 0: DefaultMaxBody
	Log        *slog.Logger
	DeferAfter time.Duration // 0: DefaultDeferAfter
	// MaxPending bounds the answers waiting on Discord's REST API in the
	// background (0: DefaultMaxPending).
	MaxPending int
	// FetchDelay is how long after an answer that posted a new message
	// its fetch waits (0: DefaultFetchDelay; negative: no wait, fetch at
	// once). Pass FetchDelayFor the shortest turn or challenge timeout.
	FetchDelay time.Duration
	// MaxDelayed bounds the fetches waiting for their delay (0:
	// DefaultMaxDelayed); past it they are made at once.
	MaxDelayed int
	// Metrics counts the interactions and the requests refused (nil:
	// none).
	Metrics *metrics.Metrics
	// Forget, when set, takes Discord's webhook events at EventsPath
	// (events.go): a user who removes nimbot is forgotten ForgetAfter
	// later (0: DefaultForgetAfter), unless they add it again first.
	Forget      Forgetter
	ForgetAfter time.Duration
	// Pages, when set, serves PagePaths: it returns page name ("privacy",
	// "terms") in the language acceptLanguage prefers, and that language.
	Pages func(name, acceptLanguage string) (page []byte, lang string, ok bool)
}

// HTTP is the http.Handler for Discord's Interactions Endpoint URL:
// POST /interactions, and GET /healthz for load balancers.
type HTTP struct {
	cfg HTTPConfig
	key ed25519.PublicKey // nil when unusable: every request is refused
	r   *responder
	mux *http.ServeMux
	// rejected spaces out the log lines of refused requests, which anyone
	// can cause: one a second at most, so a flood cannot fill the disk.
	// unlogged counts those left out since the last line.
	rejected *rate.Limiter
	unlogged atomic.Int64
}

// NewHTTP returns the handler for cfg.
func NewHTTP(cfg HTTPConfig) *HTTP {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	// A key that does not decode was refused by CheckPublicKey where the
	// configuration is read; here it refuses every request, as
	// crypto/ed25519 would (and it would panic on the wrong length).
	key := cfg.PublicKey
	if err := CheckPublicKey(key); err != nil {
		cfg.Log.Error("every interaction request will be refused: the public key is unusable", "err", err)
		key = nil
	}
	h := &HTTP{cfg: cfg, key: key, rejected: rate.NewLimiter(rate.Every(time.Second), 1), r: newResponder(cfg.Service, cfg.Session, cfg.Log, responderConfig{cfg.DeferAfter, cfg.MaxPending, cfg.FetchDelay, cfg.MaxDelayed, cfg.Metrics}), mux: http.NewServeMux()}
	h.mux.HandleFunc("/interactions", h.interactions)
	if cfg.Forget != nil {
		if h.cfg.ForgetAfter <= 0 {
			h.cfg.ForgetAfter = DefaultForgetAfter
		}
		h.mux.HandleFunc(EventsPath, h.events)
	}
	if cfg.Pages != nil {
		for _, p := range PagePaths {
			h.mux.HandleFunc(p, h.page(strings.TrimPrefix(p, "/")))
		}
	}
	health := cfg.Health
	if health == nil {
		health = &Health{Checks: cfg.Checks, Log: cfg.Log}
	}
	h.mux.Handle("/healthz", health.Public())
	return h
}

// ServeHTTP routes a request.
func (h *HTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// Wait blocks until the work answers left in the background (follow-ups,
// @original fetches) is done or ctx ends, then abandons the rest (see
// FollowupGrace). Call it after http.Server.Shutdown and before closing the
// store.
func (h *HTTP) Wait(ctx context.Context) error { return h.r.wait(ctx) }

// Dropped reports how many background answers were dropped because
// MaxPending were already waiting on Discord.
func (h *HTTP) Dropped() int64 { return h.r.droppedCount() }

func (h *HTTP) interactions(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	i, ok := h.read(w, r)
	if !ok {
		h.cfg.Metrics.Refused()
		return
	}
	if i.Type == discordgo.InteractionPing {
		pong := &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong}
		h.cfg.Metrics.Interaction(i, pong, 0)
		writeJSON(w, pong, nil)
		return
	}
	h.r.respond(i, w, deliver)
}

// deliver writes the first reply to an interaction as the HTTP response.
func deliver(w http.ResponseWriter, first reply, _ bool) {
	writeJSON(w, first.resp, first.encoded)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// read reads, checks and decodes r's interaction, or answers the refusal
// and reports false.
func (h *HTTP) read(w http.ResponseWriter, r *http.Request) (*discordgo.Interaction, bool) {
	body, ok := h.body(w, r)
	if !ok {
		return nil, false
	}
	// discordgo's own decoding, as the gateway's: the data by the
	// interaction's type, the clicked message whole.
	i := new(discordgo.Interaction)
	if err := json.Unmarshal(body, i); err != nil {
		http.Error(w, "malformed interaction", http.StatusBadRequest)
		return nil, false
	}
	return i, true
}

// body reads r's body and checks its signature, or answers the refusal
// and reports false: interactions and webhook events alike.
func (h *HTTP) body(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.cfg.MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return nil, false
		}
		http.Error(w, "reading request body", http.StatusBadRequest)
		return nil, false
	}
	if reason := h.verify(r, body); reason != "" {
		// Discord probes the endpoint with bad signatures and expects 401.
		// Anyone can send them, so they are logged one a second at most.
		if h.rejected.AllowN(h.cfg.Now(), 1) {
			h.cfg.Log.Warn("rejected request", "path", r.URL.Path, "reason", reason, "remote", r.RemoteAddr, "not_logged_before", h.unlogged.Swap(0))
		} else {
			h.unlogged.Add(1)
		}
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return nil, false
	}
	return body, true
}

// verify returns why r is not a genuine, fresh request from Discord, or "".
func (h *HTTP) verify(r *http.Request, body []byte) string {
	ts := r.Header.Get("X-Signature-Timestamp")
	if ts == "" || r.Header.Get("X-Signature-Ed25519") == "" {
		return "missing signature headers"
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return "malformed timestamp"
	}
	age := h.cfg.Now().Sub(time.Unix(sec, 0))
	if age > MaxTimestampAge {
		return "stale timestamp"
	}
	if age < -MaxTimestampSkew {
		return "timestamp in the future"
	}
	// What discordgo.VerifyInteraction checks, on the body already read:
	// Discord signs the timestamp followed by the body.
	sig, err := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
	if err != nil {
		return "bad signature"
	}
	if h.key == nil {
		return "unusable public key"
	}
	msg := make([]byte, 0, len(ts)+len(body))
	if !ed25519.Verify(h.key, append(append(msg, ts...), body...), sig) {
		return "bad signature"
	}
	return ""
}

// writeJSON writes resp as JSON: encoded, when the service had the bytes
// already, else resp encoded here. The Content-Length goes with it: the
// answer is flushed before the handler returns, and without a length
// net/http frames a flushed response in chunks, which costs a second write
// to the socket (the last chunk) for every request.
func writeJSON(w http.ResponseWriter, resp *discordgo.InteractionResponse, encoded []byte) {
	b := encoded
	if b == nil {
		var err error
		if b, err = json.Marshal(resp); err != nil {
			http.Error(w, "encoding response", http.StatusInternalServerError)
			return
		}
	}
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	w.Write(b)
}

// jsonContentType is every answer's Content-Type, set as it is (the key is
// canonical) rather than a new slice per answer. Its capacity is its
// length, so a Header.Add to it copies rather than writes into it;
// net/http only reads it (and copies the header when the answer starts).
var jsonContentType = []string{"application/json"}[:1:1]
