package bot

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// sleepyService answers every interaction with a deferred update that
// names it, after a pause its id sets: some under respond's deferAfter (1 ms),
// some just at it, some over.
type sleepyService struct{}

func (sleepyService) Handle(_ context.Context, i *discordgo.Interaction) (*discordgo.InteractionResponse, []byte, bool) {
	n, _ := strconv.Atoi(i.ID)
	time.Sleep(time.Duration(n%3) * 1000 * time.Microsecond)
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseDeferredMessageUpdate,
		Data: &discordgo.InteractionResponseData{Content: i.ID},
	}, nil, false
}

func (sleepyService) Private(*discordgo.Interaction) bool { return false }

func (sleepyService) BoardWanted(context.Context, *discordgo.Interaction, *discordgo.InteractionResponse) (bool, error) {
	return false, nil
}

func (sleepyService) BoardSent(context.Context, *discordgo.Interaction, *discordgo.Message) error {
	return nil
}

func (sleepyService) Expire(context.Context) ([]*discordgo.MessageEdit, error) { return nil, nil }

// probe is one request's response writer: what respond delivered to it.
type probe struct {
	http.ResponseWriter
	mu       sync.Mutex
	n        int
	first    reply
	deferred bool
}

// TestRespondOneReplyEach: respond never carries one request's
// interaction or writer into another's delivery. Many clicks at once, Handle overrunning deferAfter for a third of them and racing it
// for another: every writer gets exactly one first reply, an undeferred
// one its own interaction's answer and a deferred one the deferral, and
// nothing more arrives later.
func TestRespondOneReplyEach(t *testing.T) {
	r := newResponder(sleepyService{}, nil, slog.New(slog.DiscardHandler), responderConfig{deferAfter: time.Millisecond, fetchDelay: -1})
	deliver := func(w http.ResponseWriter, first reply, deferred bool) {
		p := w.(*probe)
		p.mu.Lock()
		defer p.mu.Unlock()
		p.n++
		p.first, p.deferred = first, deferred
	}
	const workers, each = 8, 150
	probes := make([]*probe, workers*each)
	var wg sync.WaitGroup
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range each {
				n := g*each + k
				p := &probe{ResponseWriter: httptest.NewRecorder()}
				probes[n] = p
				r.respond(&discordgo.Interaction{ID: strconv.Itoa(n), Type: discordgo.InteractionMessageComponent}, p, deliver)
			}
		}()
	}
	wg.Wait()
	// A deferral delivered twice, or to the wrong request, leaves its
	// background finish waiting for a reply that never comes.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.wait(ctx); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // a stray deferral would come by now
	var deferred, answered int
	for n, p := range probes {
		p.mu.Lock()
		switch {
		case p.n != 1:
			t.Errorf("interaction %d: %d first replies", n, p.n)
		case p.deferred:
			deferred++
			if p.first.resp.Type != discordgo.InteractionResponseDeferredMessageUpdate || p.first.resp.Data != nil {
				t.Errorf("interaction %d: deferred with %+v", n, p.first.resp)
			}
		default:
			answered++
			if p.first.resp.Data == nil || p.first.resp.Data.Content != strconv.Itoa(n) {
				t.Errorf("interaction %d: answered with %+v", n, p.first.resp)
			}
		}
		p.mu.Unlock()
	}
	if deferred == 0 || answered == 0 {
		t.Errorf("%d deferred, %d answered: the test needs both", deferred, answered)
	}
	t.Logf("%d deferred, %d answered at once", deferred, answered)
}

// heldService answers a click at once with a new public board, and a
// command only once release is closed: a command is still being handled
// when its deferral goes out.
type heldService struct {
	sleepyService
	release chan struct{}
}

func (s heldService) Handle(_ context.Context, i *discordgo.Interaction) (*discordgo.InteractionResponse, []byte, bool) {
	if i.Type == discordgo.InteractionApplicationCommand {
		<-s.release
	}
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "board"},
	}, nil, false
}

// logBuffer is a log destination goroutines can share.
type logBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestShutdownLogSaysWhatIsSaved: a shutdown that gives up on the
// background answers says their moves are saved only of those whose
// interaction was handled (here a board fetch stuck on Discord's API), not
// of a deferred answer whose interaction is still being handled: nothing of
// it is committed yet.
func TestShutdownLogSaysWhatIsSaved(t *testing.T) {
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
		http.Error(w, "gone", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	defer close(hang)
	var logs logBuffer
	svc := heldService{release: make(chan struct{})}
	r := newResponder(svc, testSession(t, srv), slog.New(slog.NewTextHandler(&logs, nil)),
		responderConfig{deferAfter: 50 * time.Millisecond, fetchDelay: -1})
	delivered := make(chan bool, 2)
	deliver := func(_ http.ResponseWriter, _ reply, deferred bool) { delivered <- deferred }
	click := &discordgo.Interaction{ID: "1", AppID: "2", Token: "t1", ChannelID: "3", Type: discordgo.InteractionMessageComponent}
	command := &discordgo.Interaction{ID: "4", AppID: "2", Token: "t4", ChannelID: "3", Type: discordgo.InteractionApplicationCommand}
	// The click's board is answered at once; its fetch hangs on the API.
	r.respond(click, httptest.NewRecorder(), deliver)
	if <-delivered {
		t.Fatal("the click was deferred")
	}
	// The command's deferral goes out while Handle still runs.
	handled := make(chan struct{})
	go func() {
		defer close(handled)
		r.respond(command, httptest.NewRecorder(), deliver)
	}()
	if !<-delivered {
		t.Fatal("the held command was not deferred")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := r.wait(ctx); err == nil {
		t.Fatal("wait reported nothing abandoned")
	}
	out := logs.String()
	for _, want := range []string{
		`msg="abandoned answers still waiting on Discord's API at shutdown; their moves are saved" count=1`,
		`msg="abandoned deferred answers whose interactions were still being handled at shutdown; a change they commit stands, but their users see the deferral until the next click or /nim status" count=1`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the log has no %s:\n%s", want, out)
		}
	}
	// Let the held command end, and its finish with it, within the test.
	close(svc.release)
	<-handled
	r.wg.Wait()
}
