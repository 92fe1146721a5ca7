package bot_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
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

	mu           sync.Mutex
	calls        []restCall
	messages     map[string]*discordgo.Message // by message id
	original     map[string]string             // interaction token → @original message id
	interactions map[string]json.RawMessage    // interaction token → the payload sent
	nextID       int64
	commands     []*discordgo.ApplicationCommand
	identify     *identifyPayload
	heartbeats   int
	conn         *websocket.Conn
	connMu       sync.Mutex // serialises writes on conn
	seq          int64
	waiters      map[string]chan *discordgo.InteractionResponse // interaction id → its callback
	helloSent    chan struct{}
	ready        chan struct{}
	heartbeat    chan struct{}
	// failEdits makes channel message edits answer 404 Unknown Message.
	failEdits bool
	// refuseGateway and refuseCommands are how many GET /gateway and
	// command overwrites to answer 503, as Discord does in an outage.
	refuseGateway, refuseCommands int
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
}

type identifyPayload struct {
	Token      string          `json:"token"`
	Intents    int             `json:"intents"`
	Properties json.RawMessage `json:"properties"`
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
		nextID:       1180000000000000000,
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
			fd.calls = append(fd.calls, restCall{Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization"), Body: body})
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

// getGateway answers GET /gateway with the loopback websocket URL.
func (fd *fakeDiscord) getGateway(w http.ResponseWriter, r *http.Request) {
	if fd.refuse(w, &fd.refuseGateway) {
		return
	}
	u := "ws" + strings.TrimPrefix(fd.srv.URL, "http") + "/ws"
	writeJSONBody(w, http.StatusOK, map[string]any{
		"url": u, "shards": 1,
		"session_start_limit": map[string]int{"total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1},
	})
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
	up := websocket.Upgrader{}
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	fd.connMu.Lock()
	fd.conn = conn
	fd.connMu.Unlock()
	// Hello: the interval is Discord's usual one; discordgo heartbeats once
	// at once and then on that interval.
	fd.write(gatewayPayload{Op: 10, D: json.RawMessage(`{"heartbeat_interval":41250}`)})
	signal(fd.helloSent)
	for {
		var p gatewayPayload
		if err := conn.ReadJSON(&p); err != nil {
			return
		}
		switch p.Op {
		case 1: // Heartbeat → Heartbeat ACK
			fd.mu.Lock()
			fd.heartbeats++
			fd.mu.Unlock()
			fd.write(gatewayPayload{Op: 11})
			signal(fd.heartbeat)
		case 2: // Identify → Ready
			var id identifyPayload
			if err := json.Unmarshal(p.D, &id); err != nil {
				conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(4002, "Decode error"))
				return
			}
			if id.Token != "Bot "+fd.token && id.Token != fd.token {
				conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(4004, "Authentication failed."))
				return
			}
			fd.mu.Lock()
			fd.identify = &id
			fd.mu.Unlock()
			ready := map[string]any{
				"v":                  9,
				"user":               map[string]any{"id": "1170000000000000002", "username": "nimbot", "discriminator": "0", "global_name": nil, "avatar": nil, "bot": true},
				"guilds":             []map[string]any{{"id": "1190000000000000001", "unavailable": true}},
				"session_id":         "fake-session-1",
				"resume_gateway_url": "ws" + strings.TrimPrefix(fd.srv.URL, "http") + "/ws",
				"application":        map[string]any{"id": fd.appID, "flags": 0},
			}
			fd.dispatch("READY", ready)
			signal(fd.ready)
		}
	}
}

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

func (fd *fakeDiscord) write(p gatewayPayload) {
	fd.connMu.Lock()
	defer fd.connMu.Unlock()
	if fd.conn == nil {
		fd.t.Error("fake gateway: no connection to write to")
		return
	}
	if err := fd.conn.WriteJSON(p); err != nil {
		fd.t.Errorf("fake gateway: write: %v", err)
	}
}

// dispatch sends an op 0 event with the next sequence number.
func (fd *fakeDiscord) dispatch(event string, d any) {
	raw, ok := d.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(d); err != nil {
			fd.t.Fatal(err)
		}
	}
	fd.mu.Lock()
	fd.seq++
	s := fd.seq
	fd.mu.Unlock()
	fd.write(gatewayPayload{Op: 0, D: raw, S: &s, T: &event})
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

// callback is POST /interactions/{id}/{token}/callback.
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
	fd.mu.Unlock()
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
			Choices  []*discordgo.ApplicationCommandOptionChoice `json:"choices"`
			CustomID string                                      `json:"custom_id"`
			Title    string                                      `json:"title"`
		}
		if err := json.Unmarshal(raw.Data, &extra); err != nil {
			return nil, err
		}
		resp.Data = &discordgo.InteractionResponseData{
			Content: m.Content, Embeds: m.Embeds, Components: m.Components, Flags: m.Flags,
			Choices: extra.Choices, CustomID: extra.CustomID, Title: extra.Title,
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
// body names change.
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
	return nil
}

// apply does to the stored messages what Discord does with a response.
func (fd *fakeDiscord) apply(token string, resp *discordgo.InteractionResponse) {
	channelID, messageID, _ := fd.interactionOf(token)
	switch resp.Type {
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseDeferredChannelMessageWithSource:
		m := &discordgo.Message{ID: fd.newID(), ChannelID: channelID, Author: &discordgo.User{ID: "1170000000000000002", Username: "nimbot", Bot: true}}
		if resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
			m.Content = "nimbot is thinking..."
		}
		if d := resp.Data; d != nil && resp.Type == discordgo.InteractionResponseChannelMessageWithSource {
			m.Content, m.Embeds, m.Components, m.Flags = d.Content, d.Embeds, d.Components, d.Flags
		}
		fd.mu.Lock()
		fd.messages[m.ID] = m
		fd.original[token] = m.ID
		fd.mu.Unlock()
	case discordgo.InteractionResponseUpdateMessage, discordgo.InteractionResponseDeferredMessageUpdate:
		fd.mu.Lock()
		defer fd.mu.Unlock()
		fd.original[token] = messageID
		if m := fd.messages[messageID]; m != nil && resp.Type == discordgo.InteractionResponseUpdateMessage && resp.Data != nil {
			m.Content, m.Embeds, m.Components = resp.Data.Content, resp.Data.Embeds, resp.Data.Components
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
		writeJSONBody(w, http.StatusOK, m)
	}
}

// followup is POST /webhooks/{app}/{token}: a follow-up message.
func (fd *fakeDiscord) followup(w http.ResponseWriter, r *http.Request) {
	channelID, _, ok := fd.interactionOf(r.PathValue("token"))
	if r.PathValue("app") != fd.appID || !ok {
		writeDiscordError(w, http.StatusNotFound, 10015, "Unknown Webhook")
		return
	}
	b, _ := io.ReadAll(r.Body)
	m, err := decodeMessage(b)
	if err != nil {
		writeDiscordError(w, http.StatusBadRequest, 50035, "Invalid Form Body")
		return
	}
	m.ID, m.ChannelID = fd.newID(), channelID
	fd.mu.Lock()
	fd.messages[m.ID] = m
	fd.mu.Unlock()
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
