package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands"
	"nimbot/internal/pgtest"
	"nimbot/match"
	"nimbot/store/postgres"
)

// partition forwards TCP to a test PostgreSQL's unix socket until frozen;
// frozen, it forwards nothing and closes nothing, as a network partition
// or a primary lost in a failover does: the client's connections stay open
// and its queries get no answer.
type partition struct {
	url string // a connection string through the proxy

	mu     sync.Mutex
	open   chan struct{} // closed while forwarding
	conns  []net.Conn
	closed bool
}

// newPartition starts a proxy to the database at url (pgtest.DB's
// key=value form), stopped when the test ends.
func newPartition(t *testing.T, url string) *partition {
	t.Helper()
	m := regexp.MustCompile(`host=(\S+) port=(\d+) user=(\S+) dbname=(\S+)`).FindStringSubmatch(url)
	if m == nil {
		t.Fatalf("unexpected test database URL %q", url)
	}
	sock := fmt.Sprintf("%s/.s.PGSQL.%s", m[1], m[2])
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &partition{open: make(chan struct{})}
	close(p.open)
	p.url = fmt.Sprintf("host=127.0.0.1 port=%d user=%s dbname=%s sslmode=disable", ln.Addr().(*net.TCPAddr).Port, m[3], m[4])
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u, err := net.Dial("unix", sock)
			if err != nil {
				c.Close()
				continue
			}
			if !p.track(c, u) {
				return
			}
			go p.pipe(u, c)
			go p.pipe(c, u)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		p.heal()
		p.mu.Lock()
		p.closed = true
		for _, c := range p.conns {
			c.Close()
		}
		p.mu.Unlock()
	})
	return p
}

func (p *partition) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		for _, c := range cs {
			c.Close()
		}
		return false
	}
	p.conns = append(p.conns, cs...)
	return true
}

func (p *partition) gate() chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.open
}

// freeze stops forwarding; heal resumes it.
func (p *partition) freeze() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.open = make(chan struct{})
}

func (p *partition) heal() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.open:
	default:
		close(p.open)
	}
}

// pipe copies src to dst, holding what it read while frozen; when either
// side ends, both are closed, as the end of a TCP connection would.
func (p *partition) pipe(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		<-p.gate()
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// TestPartitionedDatabaseAnswersInTime: PostgreSQL stops answering without
// closing the connection (a partition, a failover). Each interaction is
// answered within the Service's database timeout (commands'
// DefaultDatabaseTimeout, 10 s), not as late as its caller's context allows
// (bot gives Handle the 14 minutes of an interaction token: the user would
// see "thinking…" that long, and the goroutines would pile up), and the
// answer says what is wrong: the database is not answering, try again.
// Nothing is half-written: once the network heals, the channel has no
// game, and the same command starts one.
func TestPartitionedDatabaseAnswersInTime(t *testing.T) {
	t.Parallel()
	p := newPartition(t, pgtest.DB(t))
	ctx := context.Background()
	db, err := postgres.Open(ctx, postgres.Config{URL: p.url})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := commands.New(commands.Config{DB: db, Rand: rand.New(rand.NewPCG(1, 2)), Log: quietLog(t)})
	payloads := newPayloads(t, testChannel)
	start := func() (time.Duration, *discordgo.InteractionResponse) {
		var i discordgo.Interaction
		if err := json.Unmarshal(payloads.command(alice, "start", opt{"heaps", "3 4 5"}), &i); err != nil {
			t.Fatal(err)
		}
		// As long as bot's own bound: only the Service's may end it sooner.
		ctx, cancel := context.WithTimeout(ctx, 14*time.Minute)
		defer cancel()
		began := time.Now()
		resp, _, _ := svc.Handle(ctx, &i)
		return time.Since(began), resp
	}

	p.freeze()
	took, resp := start()
	if took > commands.DefaultDatabaseTimeout+5*time.Second {
		t.Errorf("Handle answered after %v against a database that does not answer; want about %v", took.Round(time.Second), commands.DefaultDatabaseTimeout)
	}
	const want = "nimbot's database is not answering right now"
	if resp == nil || resp.Data == nil || !strings.HasPrefix(resp.Data.Content, want) || resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Errorf("answer while the database does not answer = %s, want an ephemeral %q…", describe(resp), want)
	}

	p.heal()
	if _, err := db.ChannelGame(ctx, testChannel); !isNotFound(err) {
		t.Errorf("after the partition healed, the channel's game: %v; want none (nothing half-written)", err)
	}
	if _, resp := start(); resp == nil || resp.Data == nil || resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0 {
		t.Errorf("after the partition healed, /nim start answered %s, want the new board", describe(resp))
	}
	if g, err := db.ChannelGame(ctx, testChannel); err != nil || g.Status != match.Active {
		t.Errorf("after the partition healed, /nim start left game %+v, %v; want an active game", g, err)
	}
}
