package bot

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// sleepyService answers every interaction with a deferred update that
// names it, after a pause its id sets: some under respond's deferAfter (1 ms),
// some just at it, some over.
type sleepyService struct{}

func (sleepyService) Handle(_ context.Context, i *discordgo.Interaction) (*discordgo.InteractionResponse, []byte) {
	n, _ := strconv.Atoi(i.ID)
	time.Sleep(time.Duration(n%3) * 1000 * time.Microsecond)
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseDeferredMessageUpdate,
		Data: &discordgo.InteractionResponseData{Content: i.ID},
	}, nil
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

// TestRespondPooledState: respond's pooled state (answering) never carries
// one request's interaction or writer into another's delivery. Many clicks
// at once, Handle overrunning deferAfter for a third of them and racing it
// for another: every writer gets exactly one first reply, an undeferred
// one its own interaction's answer and a deferred one the deferral, and
// nothing more arrives later.
func TestRespondPooledState(t *testing.T) {
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
