package bot_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"nimbot/bot"
)

// fakeDiscord is a loopback stand-in for Discord: the gateway protocol as
// documented (Hello, Identify, Ready, heartbeat ACKs, dispatch) over a real
// websocket, and the REST routes nimbot uses, recording every call. It keeps
// the messages that responses create so that components can be clicked on
// them, as on Discord.
type fakeDiscord struct {
	t     *testing.T
	srv   *httptest.Server
	token string // the bot token; REST routes outside webhooks require it
	appID string

	mu       sync.Mutex
	calls    []restCall
	messages map[string]*discordgo.Message // by message id
	original map[string]string             // interaction token → @original message id
	// shown is every version of every message anyone was shown, in order:
	// as created, and after each edit.
	shown []shownMessage
	// pings is everyone a message notified. Only a message's creation
	// notifies; an edit never does.
	pings        []ping
	interactions map[string]json.RawMessage // interaction token → the payload sent
	nextID       int64
	commands     []*discordgo.ApplicationCommand
	identify     *identifyPayload // the last one accepted
	heartbeats   int
	waiters      map[string]chan *discordgo.InteractionResponse // interaction id → its callback
	acked        map[string]bool                                // interaction ids whose callback was taken

	// The gateway: every identified session, and Discord's limits on
	// starting them, enforced as documented (see identifyCheck).
	conns        []*gatewayConn
	limits       gatewayLimits
	remaining    int
	resetAt      time.Time
	lastIdentify map[int]time.Time // rate-limit key → last accepted Identify
	identifies   [][2]int          // the shard of each accepted Identify, in order
	refused      []string          // each Identify Discord would have refused, and why
	// gatewayDown makes the websocket endpoint answer 503, as in an outage.
	gatewayDown bool
	resumes     int
	helloSent   chan struct{}
	ready       chan struct{}
	heartbeat   chan struct{}
	// failEdits makes channel message edits answer 404 Unknown Message.
	failEdits bool
	// refuseGateway and refuseCommands are how many GET /gateway and
	// command overwrites to answer 503, as Discord does in an outage.
	refuseGateway, refuseCommands int
	// failFollowups is how many follow-ups to answer 502 without making
	// them; lostFollowups, how many to make and then answer 502, as
	// Discord's edge may when the message was made behind it.
	failFollowups, lostFollowups int
	// hang, when not nil, holds every webhook and callback request until it
	// is closed or the client gives up: an API that accepts connections and
	// never answers.
	hang chan struct{}
}

// refuse reports whether to answer this request 503, counting down n.
func (fd *fakeDiscord) refuse(w http.ResponseWriter, n *int) bool {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	if *n <= 0 {
		return false
	}
	*n--
	writeDiscordError(w, http.StatusServiceUnavailable, 0, "upstream connect error")
	return true
}

type restCall struct {
	Method, Path string
	Auth         string
	Body         []byte
	At           time.Time // when the stand-in received it
}

// shownMessage is one version of a message: its id, its flags (ephemeral:
// its user alone saw it) and the message as Discord sent it.
type shownMessage struct {
	ID    string
	Flags discordgo.MessageFlags
	JSON  json.RawMessage
}

// ping is one user notified by a new message.
type ping struct {
	MessageID, UserID string
}

type identifyPayload struct {
	Token      string          `json:"token"`
	Intents    int             `json:"intents"`
	Properties json.RawMessage `json:"properties"`
	Shard      *[2]int         `json:"shard"`
}

// gatewayLimits is what GET /gateway/bot reports and the gateway enforces.
type gatewayLimits struct {
	Shards         int           // the recommended shard count
	MaxConcurrency int           // identifies per Window and rate-limit key
	Total          int           // session starts per ResetAfter
	ResetAfter     time.Duration // until the session starts are counted afresh
	Window         time.Duration // Discord's 5 s, shortened by tests
}

// gatewayConn is one session on the stand-in's gateway.
type gatewayConn struct {
	ws    *websocket.Conn
	mu    sync.Mutex // serialises writes
	shard [2]int     // [shard_id, num_shards], once identified
	seq   int64
	// dropped: the test cut this connection, so writes may fail.
	dropped bool
}

const (
	fakeToken = "test-bot-token.not-a-secret"
	fakeAppID = "1170000000000000001"
)

func newFakeDiscord(t *testing.T) *fakeDiscord {
	t.Helper()
	fd := &fakeDiscord{
		t: t, token: fakeToken, appID: fakeAppID,
		messages:     map[string]*discordgo.Message{},
		original:     map[string]string{},
		interactions: map[string]json.RawMessage{},
		waiters:      map[string]chan *discordgo.InteractionResponse{},
		acked:        map[string]bool{},
		nextID:       1180000000000000000,
		limits:       gatewayLimits{Shards: 1, MaxConcurrency: 1, Total: 1000, ResetAfter: 4 * time.Hour, Window: bot.IdentifyInterval},
		lastIdentify: map[int]time.Time{},
		helloSent:    make(chan struct{}, 1),
		ready:        make(chan struct{}, 1),
		heartbeat:    make(chan struct{}, 1),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v9/gateway", fd.getGateway)
	mux.HandleFunc("GET /api/v9/gateway/bot", fd.getGateway)
	mux.HandleFunc("GET /ws/", fd.websocket)
	mux.HandleFunc("POST /api/v9/interactions/{id}/{token}/callback", fd.callback)
	mux.HandleFunc("GET /api/v9/webhooks/{app}/{token}/messages/{msg}", fd.webhookMessage)
	mux.HandleFunc("PATCH /api/v9/webhooks/{app}/{token}/messages/{msg}", fd.webhookMessage)
	mux.HandleFunc("DELETE /api/v9/webhooks/{app}/{token}/messages/{msg}", fd.webhookMessage)
	mux.HandleFunc("POST /api/v9/webhooks/{app}/{token}", fd.followup)
	mux.HandleFunc("PUT /api/v9/applications/{app}/commands", fd.bulkOverwrite)
	mux.HandleFunc("PUT /api/v9/applications/{app}/guilds/{guild}/commands", fd.bulkOverwrite)
	mux.HandleFunc("PATCH /api/v9/channels/{channel}/messages/{msg}", fd.editChannelMessage)
	fd.remaining, fd.resetAt = fd.limits.Total, time.Now().Add(fd.limits.ResetAfter)
	fd.srv = httptest.NewServer(fd.record(mux))
	t.Cleanup(fd.srv.Close)
	return fd
}

// session returns a discordgo Session whose REST and gateway traffic reaches
// the stand-in: its Client rewrites https://discord.com to the loopback
// server, and the gateway URL the stand-in hands out is a ws:// loopback one.
func (fd *fakeDiscord) session(t *testing.T) *discordgo.Session {
	t.Helper()
	s, err := bot.NewSession(fd.token)
	if err != nil {
		t.Fatal(err)
	}
	target, _ := url.Parse(fd.srv.URL)
	s.Client = &http.Client{Timeout: 10 * time.Second, Transport: redirect{target: target}}
	return s
}

// redirect sends every request to target instead of the host it names.
type redirect struct{ target *url.URL }

func (r redirect) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host = r.target.Scheme, r.target.Host
	req.Host = r.target.Host
	return http.DefaultTransport.RoundTrip(req)
}

func (fd *fakeDiscord) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ws/" {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(strings.NewReader(string(body)))
			fd.mu.Lock()
			fd.calls = append(fd.calls, restCall{Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization"), Body: body, At: time.Now()})
			hang := fd.hang
			fd.mu.Unlock()
			if hang != nil && (strings.Contains(r.URL.Path, "/webhooks/") || strings.Contains(r.URL.Path, "/callback")) {
				select {
				case <-hang:
				case <-r.Context().Done():
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// Calls returns the REST calls recorded so far whose path contains substr.
func (fd *fakeDiscord) Calls(method, substr string) []restCall {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	var out []restCall
	for _, c := range fd.calls {
		if c.Method == method && strings.Contains(c.Path, substr) {
			out = append(out, c)
		}
	}
	return out
}

func (fd *fakeDiscord) newID() string {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	fd.nextID++
	return strconv.FormatInt(fd.nextID, 10)
}

func (fd *fakeDiscord) botAuth(w http.ResponseWriter, r *http.Request) bool {
	if r.Header.Get("Authorization") != "Bot "+fd.token {
		writeDiscordError(w, http.StatusUnauthorized, 0, "401: Unauthorized")
		return false
	}
	return true
}

func writeDiscordError(w http.ResponseWriter, status, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"message": msg, "code": code})
}

func writeJSONBody(w http.ResponseWriter, status int, v any) {
	if m, ok := v.(*discordgo.Message); ok {
		v, _ = messageJSON(m)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// setLimits sets what GET /gateway/bot reports and the gateway enforces,
// with every session start available.
func (fd *fakeDiscord) setLimits(l gatewayLimits) {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	fd.limits = l
	fd.remaining, fd.resetAt = l.Total, time.Now().Add(l.ResetAfter)
}

// countStarts renews the session starts once reset_after has passed, under
// fd.mu.
func (fd *fakeDiscord) countStarts(now time.Time) {
	if !now.Before(fd.resetAt) {
		fd.remaining, fd.resetAt = fd.limits.Total, now.Add(fd.limits.ResetAfter)
	}
}

// getGateway answers GET /gateway with the loopback websocket URL, and GET
// /gateway/bot with it and the shard count and session start limit too.
func (fd *fakeDiscord) getGateway(w http.ResponseWriter, r *http.Request) {
	if fd.refuse(w, &fd.refuseGateway) {
		return
	}
	u := "ws" + strings.TrimPrefix(fd.srv.URL, "http") + "/ws"
	if !strings.HasSuffix(r.URL.Path, "/bot") {
		writeJSONBody(w, http.StatusOK, map[string]any{"url": u})
		return
	}
	if !fd.botAuth(w, r) {
		return
	}
	fd.mu.Lock()
	now := time.Now()
	fd.countStarts(now)
	body := map[string]any{
		"url": u, "shards": fd.limits.Shards,
		"session_start_limit": map[string]int{
			"total": fd.limits.Total, "remaining": fd.remaining,
			"reset_after":     int(fd.resetAt.Sub(now).Milliseconds()),
			"max_concurrency": fd.limits.MaxConcurrency,
		},
	}
	fd.mu.Unlock()
	writeJSONBody(w, http.StatusOK, body)
}

// gatewayPayload is the documented envelope of every gateway message.
type gatewayPayload struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int64          `json:"s"`
	T  *string         `json:"t"`
}

func (fd *fakeDiscord) websocket(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("v") != "9" || r.URL.Query().Get("encoding") != "json" {
		http.Error(w, "want ?v=9&encoding=json", http.StatusBadRequest)
		return
	}
	fd.mu.Lock()
	down := fd.gatewayDown
	fd.mu.Unlock()
	if down {
		http.Error(w, "upstream connect error", http.StatusServiceUnavailable)
		return
	}
	up := websocket.Upgrader{}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &gatewayConn{ws: ws}
	defer func() {
		fd.mu.Lock()
		for i, o := range fd.conns {
			if o == c {
				fd.conns = append(fd.conns[:i], fd.conns[i+1:]...)
				break
			}
		}
		fd.mu.Unlock()
		ws.Close()
	}()
	// Hello: the interval is Discord's usual one; discordgo heartbeats once
	// at once and then on that interval.
	fd.write(c, gatewayPayload{Op: 10, D: json.RawMessage(`{"heartbeat_interval":41250}`)})
	signal(fd.helloSent)
	for {
		var p gatewayPayload
		if err := ws.ReadJSON(&p); err != nil {
			return
		}
		switch p.Op {
		case 1: // Heartbeat → Heartbeat ACK
			fd.mu.Lock()
			fd.heartbeats++
			fd.mu.Unlock()
			fd.write(c, gatewayPayload{Op: 11})
			signal(fd.heartbeat)
		case 2: // Identify → Ready
			var id identifyPayload
			if err := json.Unmarshal(p.D, &id); err != nil {
				fd.closeWith(c, 4002, "Decode error")
				return
			}
			if id.Token != "Bot "+fd.token && id.Token != fd.token {
				fd.closeWith(c, 4004, "Authentication failed.")
				return
			}
			shard := [2]int{0, 1}
			if id.Shard != nil {
				shard = *id.Shard
			}
			if shard[1] < 1 || shard[0] < 0 || shard[0] >= shard[1] {
				fd.refusal(fmt.Sprintf("shard %v is invalid", shard))
				fd.closeWith(c, 4010, "Invalid shard.")
				return
			}
			switch verdict := fd.identifyCheck(shard, time.Now()); verdict {
			case "":
			case "too early":
				// Discord answers Invalid Session, not resumable.
				fd.write(c, gatewayPayload{Op: 9, D: json.RawMessage("false")})
				continue
			default:
				// Past the session start limit Discord resets the token
				// and ends every session.
				fd.closeWith(c, 4004, "Authentication failed.")
				return
			}
			fd.mu.Lock()
			fd.identify = &id
			c.shard = shard
			fd.conns = append(fd.conns, c)
			fd.mu.Unlock()
			ready := map[string]any{
				"v":                  9,
				"user":               map[string]any{"id": "1170000000000000002", "username": "nimbot", "discriminator": "0", "global_name": nil, "avatar": nil, "bot": true},
				"guilds":             []map[string]any{{"id": "1190000000000000001", "unavailable": true}},
				"session_id":         fmt.Sprintf("fake-session-%d-%d", shard[0], shard[1]),
				"resume_gateway_url": "ws" + strings.TrimPrefix(fd.srv.URL, "http") + "/ws",
				"application":        map[string]any{"id": fd.appID, "flags": 0},
			}
			if id.Shard != nil {
				ready["shard"] = shard
			}
			fd.dispatchOn(c, "READY", ready)
			signal(fd.ready)
		case 6: // Resume → (the events missed: none here) RESUMED
			var res struct {
				Token     string `json:"token"`
				SessionID string `json:"session_id"`
				Seq       int64  `json:"seq"`
			}
			var shard [2]int
			if err := json.Unmarshal(p.D, &res); err != nil {
				fd.closeWith(c, 4002, "Decode error")
				return
			}
			if _, err := fmt.Sscanf(res.SessionID, "fake-session-%d-%d", &shard[0], &shard[1]); err != nil || res.Token != "Bot "+fd.token {
				// Not resumable: the client must identify anew.
				fd.write(c, gatewayPayload{Op: 9, D: json.RawMessage("false")})
				continue
			}
			fd.mu.Lock()
			c.shard, c.seq = shard, res.Seq
			fd.conns = append(fd.conns, c)
			fd.resumes++
			fd.mu.Unlock()
			fd.dispatchOn(c, "RESUMED", map[string]any{})
		}
	}
}

// identifyCheck applies Discord's limits on starting sessions to an
// Identify of shard at now: "" when Discord would accept it, "too early"
// when its rate-limit key (shard_id % max_concurrency) identified within
// the window, or why Discord would end every session. It counts the
// session start and records a refusal.
func (fd *fakeDiscord) identifyCheck(shard [2]int, now time.Time) string {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	key := shard[0] % max(fd.limits.MaxConcurrency, 1)
	if last, ok := fd.lastIdentify[key]; ok && now.Sub(last) < fd.limits.Window {
		fd.refused = append(fd.refused, fmt.Sprintf("shard %v identified %v after another of key %d, within %v", shard, now.Sub(last), key, fd.limits.Window))
		return "too early"
	}
	fd.countStarts(now)
	if fd.remaining <= 0 {
		fd.refused = append(fd.refused, fmt.Sprintf("shard %v identified past the session start limit of %d", shard, fd.limits.Total))
		return "session start limit"
	}
	fd.remaining--
	fd.lastIdentify[key] = now
	fd.identifies = append(fd.identifies, shard)
	return ""
}

func (fd *fakeDiscord) refusal(why string) {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	fd.refused = append(fd.refused, why)
}

// Refused returns each Identify Discord would have refused.
func (fd *fakeDiscord) Refused() []string {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	return append([]string(nil), fd.refused...)
}

// Identifies returns the shard of each accepted Identify, in order.
func (fd *fakeDiscord) Identifies() [][2]int {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	return append([][2]int(nil), fd.identifies...)
}

func (fd *fakeDiscord) closeWith(c *gatewayConn, code int, text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(code, text))
}

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

func (fd *fakeDiscord) write(c *gatewayConn, p gatewayPayload) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.ws.WriteJSON(p); err != nil && !c.dropped {
		fd.t.Errorf("fake gateway: write: %v", err)
	}
}

// dispatchOn sends an op 0 event on c with c's next sequence number.
func (fd *fakeDiscord) dispatchOn(c *gatewayConn, event string, d any) {
	raw, ok := d.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(d); err != nil {
			fd.t.Fatal(err)
		}
	}
	c.mu.Lock()
	c.seq++
	s := c.seq
	c.mu.Unlock()
	fd.write(c, gatewayPayload{Op: 0, D: raw, S: &s, T: &event})
}

// dispatch sends an event with a guild_id to the session of the shard that
// guild belongs to, by Discord's formula shard_id = (guild_id >> 22) %
// num_shards; events without one go to shard 0.
func (fd *fakeDiscord) dispatch(event string, d json.RawMessage) {
	var hdr struct {
		GuildID string `json:"guild_id"`
	}
	json.Unmarshal(d, &hdr)
	guild, _ := strconv.ParseUint(hdr.GuildID, 10, 64)
	fd.mu.Lock()
	var to *gatewayConn
	for _, c := range fd.conns {
		if c.shard[0] == int((guild>>22)%uint64(c.shard[1])) {
			to = c
			break
		}
	}
	fd.mu.Unlock()
	if to == nil {
		fd.t.Errorf("fake gateway: no session for guild %q's shard", hdr.GuildID)
		return
	}
	fd.dispatchOn(to, event, d)
}

// dropShard ends the session of shard as a network failure would: the
// connection closes without a close frame.
func (fd *fakeDiscord) dropShard(t *testing.T, shard int) {
	t.Helper()
	fd.mu.Lock()
	defer fd.mu.Unlock()
	for _, c := range fd.conns {
		if c.shard[0] == shard {
			c.mu.Lock()
			c.dropped = true
			c.mu.Unlock()
			c.ws.UnderlyingConn().Close()
			return
		}
	}
	t.Fatalf("no session for shard %d", shard)
}

func (fd *fakeDiscord) setGatewayDown(down bool) {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	fd.gatewayDown = down
}

// shardOf returns the shard of count that guild belongs to.
func shardOf(guild string, count int) int {
	g, _ := strconv.ParseUint(guild, 10, 64)
	return int((g >> 22) % uint64(count))
}

// sendInteraction dispatches INTERACTION_CREATE and returns the callback the
// bot answers it with.
func (fd *fakeDiscord) sendInteraction(t *testing.T, payload json.RawMessage) *discordgo.InteractionResponse {
	t.Helper()
	var hdr struct{ ID, Token string }
	if err := json.Unmarshal(payload, &hdr); err != nil {
		t.Fatal(err)
	}
	wait := fd.expect(hdr.ID, hdr.Token, payload)
	fd.dispatch("INTERACTION_CREATE", payload)
	select {
	case resp := <-wait:
		return resp
	case <-time.After(20 * time.Second):
		t.Fatalf("no callback for interaction %s", hdr.ID)
		return nil
	}
}

// expect registers an interaction Discord is about to deliver, so that its
// callback and webhook calls can be matched to it.
func (fd *fakeDiscord) expect(id, token string, payload json.RawMessage) chan *discordgo.InteractionResponse {
	c := make(chan *discordgo.InteractionResponse, 1)
	fd.mu.Lock()
	fd.waiters[id] = c
	fd.interactions[token] = payload
	fd.mu.Unlock()
	return c
}

// interactionOf returns the channel and message of a delivered interaction.
func (fd *fakeDiscord) interactionOf(token string) (channelID, messageID string, ok bool) {
	fd.mu.Lock()
	raw, ok := fd.interactions[token]
	fd.mu.Unlock()
	if !ok {
		return "", "", false
	}
	var i struct {
		ChannelID string `json:"channel_id"`
		Message   *struct {
			ID string `json:"id"`
		} `json:"message"`
	}
	json.Unmarshal(raw, &i)
	if i.Message != nil {
		messageID = i.Message.ID
	}
	return i.ChannelID, messageID, true
}

// callback is POST /interactions/{id}/{token}/callback. As on Discord, an
// interaction takes one callback: a second one is refused 400 with code
// 40060, and one for an interaction never delivered (or whose 3 s passed)
// 404 with code 10062.
func (fd *fakeDiscord) callback(w http.ResponseWriter, r *http.Request) {
	id, token := r.PathValue("id"), r.PathValue("token")
	body, _ := io.ReadAll(r.Body)
	resp, err := decodeResponse(body)
	if err != nil {
		writeDiscordError(w, http.StatusBadRequest, 50035, "Invalid Form Body")
		return
	}
	fd.mu.Lock()
	wait, known := fd.waiters[id]
	delete(fd.waiters, id)
	acked := fd.acked[id]
	if known {
		fd.acked[id] = true
	}
	fd.mu.Unlock()
	if acked {
		writeDiscordError(w, http.StatusBadRequest, 40060, "Interaction has already been acknowledged.")
		return
	}
	if !known {
		writeDiscordError(w, http.StatusNotFound, 10062, "Unknown interaction")
		return
	}
	fd.apply(token, resp)
	w.WriteHeader(http.StatusNoContent)
	wait <- resp
}

// decodeResponse parses an interaction response as Discord does.
// discordgo's InteractionResponse cannot be unmarshalled directly (its
// components are interfaces); discordgo.Message knows how.
func decodeResponse(body []byte) (*discordgo.InteractionResponse, error) {
	var raw struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data json.RawMessage                   `json:"data"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, err
	}
	if raw.Type == 0 {
		return nil, fmt.Errorf("no response type")
	}
	resp := &discordgo.InteractionResponse{Type: raw.Type}
	if len(raw.Data) > 0 && string(raw.Data) != "null" {
		m, err := decodeMessage(raw.Data)
		if err != nil {
			return nil, err
		}
		var extra struct {
			Choices         []*discordgo.ApplicationCommandOptionChoice `json:"choices"`
			CustomID        string                                      `json:"custom_id"`
			Title           string                                      `json:"title"`
			AllowedMentions *discordgo.MessageAllowedMentions           `json:"allowed_mentions"`
		}
		if err := json.Unmarshal(raw.Data, &extra); err != nil {
			return nil, err
		}
		resp.Data = &discordgo.InteractionResponseData{
			Content: m.Content, Embeds: m.Embeds, Components: m.Components, Flags: m.Flags,
			Choices: extra.Choices, CustomID: extra.CustomID, Title: extra.Title,
			AllowedMentions: extra.AllowedMentions,
		}
	}
	return resp, nil
}

func decodeMessage(b []byte) (*discordgo.Message, error) {
	var m discordgo.Message
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// editMessage applies a message edit body (PATCH) to m: only the fields the
// body names change. An edit resolves a deferral's loading state; the
// ephemeral flag, as every flag of an existing message, stays as it was.
func editMessage(m *discordgo.Message, body io.Reader) error {
	b, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	var present map[string]json.RawMessage
	if err := json.Unmarshal(b, &present); err != nil {
		return err
	}
	e, err := decodeMessage(b)
	if err != nil {
		return err
	}
	if _, ok := present["content"]; ok {
		m.Content = e.Content
	}
	if _, ok := present["embeds"]; ok {
		m.Embeds = e.Embeds
	}
	if _, ok := present["components"]; ok {
		m.Components = e.Components
	}
	m.Flags &^= discordgo.MessageFlagsLoading
	return nil
}

// userMention is a user mention in message content: <@id>, or <@!id> as
// older clients write it.
var userMention = regexp.MustCompile(`<@!?([0-9]+)>`)

// notified is who a new message with content notifies under allowed, as
// Discord's Allowed Mentions Object documents it: each user mentioned in
// the content whom allowed lets through, by "users" in parse or by id in
// users. Without allowed, interactions and webhooks parse user mentions.
// (nimbot sends no role or @everyone mention, so they are not followed.)
func notified(content string, allowed *discordgo.MessageAllowedMentions) []string {
	parseUsers := allowed == nil || slices.Contains(allowed.Parse, discordgo.AllowedMentionTypeUsers)
	var users []string
	for _, sm := range userMention.FindAllStringSubmatch(content, -1) {
		if id := sm[1]; (parseUsers || slices.Contains(allowed.Users, id)) && !slices.Contains(users, id) {
			users = append(users, id)
		}
	}
	return users
}

// showLocked records m as it is now among the versions anyone was shown.
// fd.mu is held.
func (fd *fakeDiscord) showLocked(m *discordgo.Message) {
	b, err := messageJSON(m)
	if err != nil {
		fd.t.Errorf("fake discord: message %s: %v", m.ID, err)
		return
	}
	fd.shown = append(fd.shown, shownMessage{ID: m.ID, Flags: m.Flags, JSON: b})
}

// createdLocked stores a new message m, shows it, and notifies the users
// its content mentions that allowed lets through: only a message's creation
// notifies, an edit never does. fd.mu is held.
func (fd *fakeDiscord) createdLocked(m *discordgo.Message, allowed *discordgo.MessageAllowedMentions) {
	fd.messages[m.ID] = m
	fd.showLocked(m)
	for _, u := range notified(m.Content, allowed) {
		fd.pings = append(fd.pings, ping{MessageID: m.ID, UserID: u})
	}
}

// Shown returns every version of every message anyone was shown, in order.
func (fd *fakeDiscord) Shown() []shownMessage {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	return append([]shownMessage(nil), fd.shown...)
}

// Pings returns everyone a new message notified, in order.
func (fd *fakeDiscord) Pings() []ping {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	return append([]ping(nil), fd.pings...)
}

// apply does to the stored messages what Discord does with a response.
func (fd *fakeDiscord) apply(token string, resp *discordgo.InteractionResponse) {
	channelID, messageID, _ := fd.interactionOf(token)
	switch resp.Type {
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseDeferredChannelMessageWithSource:
		m := &discordgo.Message{ID: fd.newID(), ChannelID: channelID, Author: &discordgo.User{ID: "1170000000000000002", Username: "nimbot", Bot: true}}
		d := resp.Data
		if d == nil {
			d = &discordgo.InteractionResponseData{}
		}
		fd.mu.Lock()
		defer fd.mu.Unlock()
		fd.original[token] = m.ID
		if resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
			// The loading message: "nimbot is thinking…", flagged LOADING,
			// ephemeral if the deferral said so (the only flag it may set);
			// it says nothing, so it notifies nobody.
			m.Flags = discordgo.MessageFlagsLoading | d.Flags&discordgo.MessageFlagsEphemeral
			fd.messages[m.ID] = m
			fd.showLocked(m)
			return
		}
		m.Content, m.Embeds, m.Components, m.Flags = d.Content, d.Embeds, d.Components, d.Flags
		fd.createdLocked(m, d.AllowedMentions)
	case discordgo.InteractionResponseUpdateMessage, discordgo.InteractionResponseDeferredMessageUpdate:
		fd.mu.Lock()
		defer fd.mu.Unlock()
		fd.original[token] = messageID
		if m := fd.messages[messageID]; m != nil && resp.Type == discordgo.InteractionResponseUpdateMessage && resp.Data != nil {
			m.Content, m.Embeds, m.Components = resp.Data.Content, resp.Data.Embeds, resp.Data.Components
			fd.showLocked(m)
		}
	}
}

// Message returns a copy of a stored message as Discord would send it.
func (fd *fakeDiscord) Message(t *testing.T, id string) json.RawMessage {
	t.Helper()
	fd.mu.Lock()
	defer fd.mu.Unlock()
	m, ok := fd.messages[id]
	if !ok {
		t.Fatalf("no message %s", id)
	}
	b, err := messageJSON(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// messageJSON is m as Discord sends it. discordgo.Message leaves its
// components out when marshalled (json:"-"), Discord does not.
func messageJSON(m *discordgo.Message) (json.RawMessage, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, err
	}
	components := m.Components
	if components == nil {
		components = []discordgo.MessageComponent{}
	}
	if fields["components"], err = json.Marshal(components); err != nil {
		return nil, err
	}
	return json.Marshal(fields)
}

// Exists reports whether message id is there still (not deleted).
func (fd *fakeDiscord) Exists(id string) bool {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	_, ok := fd.messages[id]
	return ok
}

// Original returns the id of an interaction's @original message.
func (fd *fakeDiscord) Original(token string) string {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	return fd.original[token]
}

// webhookMessage serves GET, PATCH and DELETE of /webhooks/{app}/{token}/messages/{msg}.
func (fd *fakeDiscord) webhookMessage(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("app") != fd.appID {
		writeDiscordError(w, http.StatusNotFound, 10015, "Unknown Webhook")
		return
	}
	token, id := r.PathValue("token"), r.PathValue("msg")
	fd.mu.Lock()
	defer fd.mu.Unlock()
	if id == "@original" {
		id = fd.original[token]
	}
	m, ok := fd.messages[id]
	if !ok {
		writeDiscordError(w, http.StatusNotFound, 10008, "Unknown Message")
		return
	}
	switch r.Method {
	case http.MethodGet:
		writeJSONBody(w, http.StatusOK, m)
	case http.MethodDelete:
		delete(fd.messages, id)
		w.WriteHeader(http.StatusNoContent)
	case http.MethodPatch:
		if err := editMessage(m, r.Body); err != nil {
			writeDiscordError(w, http.StatusBadRequest, 50035, "Invalid Form Body")
			return
		}
		fd.showLocked(m)
		writeJSONBody(w, http.StatusOK, m)
	}
}

// followup is POST /webhooks/{app}/{token}: a follow-up message. As
// Discord documents it (Create Followup Message), a follow-up sent while
// @original is still a deferral's loading message creates nothing: it
// edits the loading message, whose ephemeral state (the deferral's) stays
// whatever flags the follow-up asks for, and an edit notifies nobody.
// Later follow-ups are new messages.
func (fd *fakeDiscord) followup(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	channelID, _, ok := fd.interactionOf(token)
	if r.PathValue("app") != fd.appID || !ok {
		writeDiscordError(w, http.StatusNotFound, 10015, "Unknown Webhook")
		return
	}
	b, _ := io.ReadAll(r.Body)
	m, err := decodeMessage(b)
	var params struct {
		AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	}
	if err == nil {
		err = json.Unmarshal(b, &params)
	}
	if err != nil {
		writeDiscordError(w, http.StatusBadRequest, 50035, "Invalid Form Body")
		return
	}
	id := fd.newID()
	fd.mu.Lock()
	defer fd.mu.Unlock()
	if fd.failFollowups > 0 {
		fd.failFollowups--
		writeDiscordError(w, http.StatusBadGateway, 0, "bad gateway")
		return
	}
	if orig := fd.messages[fd.original[token]]; orig != nil && orig.Flags&discordgo.MessageFlagsLoading != 0 {
		// Its flags stay the deferral's: editMessage changes no flag but
		// LOADING.
		if err := editMessage(orig, bytes.NewReader(b)); err != nil {
			writeDiscordError(w, http.StatusBadRequest, 50035, "Invalid Form Body")
			return
		}
		fd.showLocked(orig)
		m = orig
	} else {
		m.ID, m.ChannelID = id, channelID
		fd.createdLocked(m, params.AllowedMentions)
	}
	if fd.lostFollowups > 0 {
		fd.lostFollowups--
		writeDiscordError(w, http.StatusBadGateway, 0, "bad gateway")
		return
	}
	if r.URL.Query().Get("wait") == "true" {
		writeJSONBody(w, http.StatusOK, m)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (fd *fakeDiscord) bulkOverwrite(w http.ResponseWriter, r *http.Request) {
	if !fd.botAuth(w, r) || fd.refuse(w, &fd.refuseCommands) {
		return
	}
	if r.PathValue("app") != fd.appID {
		writeDiscordError(w, http.StatusForbidden, 50001, "Missing Access")
		return
	}
	var cmds []*discordgo.ApplicationCommand
	if err := json.NewDecoder(r.Body).Decode(&cmds); err != nil {
		writeDiscordError(w, http.StatusBadRequest, 50035, "Invalid Form Body")
		return
	}
	for _, c := range cmds {
		c.ID, c.ApplicationID, c.Version = fd.newID(), fd.appID, "1"
		if g := r.PathValue("guild"); g != "" {
			c.GuildID = g
		}
	}
	fd.mu.Lock()
	fd.commands = cmds
	fd.mu.Unlock()
	writeJSONBody(w, http.StatusOK, cmds)
}

func (fd *fakeDiscord) editChannelMessage(w http.ResponseWriter, r *http.Request) {
	if !fd.botAuth(w, r) {
		return
	}
	fd.mu.Lock()
	defer fd.mu.Unlock()
	m, ok := fd.messages[r.PathValue("msg")]
	if !ok || m.ChannelID != r.PathValue("channel") || fd.failEdits {
		writeDiscordError(w, http.StatusNotFound, 10008, "Unknown Message")
		return
	}
	if err := editMessage(m, r.Body); err != nil {
		writeDiscordError(w, http.StatusBadRequest, 50035, "Invalid Form Body")
		return
	}
	fd.showLocked(m)
	writeJSONBody(w, http.StatusOK, m)
}

// delivered records an interaction answered inline over HTTP, and does with
// its response what Discord would: in HTTP mode the stand-in sees the
// response only through the test, which plays Discord's part.
func (fd *fakeDiscord) delivered(token string, payload json.RawMessage, resp *discordgo.InteractionResponse) {
	fd.mu.Lock()
	fd.interactions[token] = payload
	fd.mu.Unlock()
	fd.apply(token, resp)
}

// fixture reads testdata/name.
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
