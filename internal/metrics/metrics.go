// Package metrics holds the series nimbot exports to Prometheus, for the
// operator's admin listener (ADMIN_ADDR) alone.
//
// main makes one Metrics and hands it to the transports (package bot), which
// count what crosses their edge: each interaction, its answer and how long
// it took, the REST calls to Discord, the deadlines the scheduler settled,
// the gateway shards' states. The database is counted by wrapping the
// match.Storage that main opens (Storage), so neither package commands nor
// the stores know Prometheus. A nil *Metrics counts nothing, so tests and
// tools build the transports without one.
package metrics

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Outcomes of an interaction, the values of nimbot_interactions_total's
// outcome label.
const (
	// OutcomeOK: a public answer (a board, a message, a modal, choices).
	OutcomeOK = "ok"
	// OutcomeEphemeral: an answer only its user sees, a refusal (an
	// illegal move, a stale board) or a private view (a hint).
	OutcomeEphemeral = "ephemeral"
	// OutcomeFailed: the service panicked or answered nothing; the user
	// got an apology.
	OutcomeFailed = "failed"
	// OutcomeRefused: the HTTP endpoint refused the request (a bad or
	// stale signature, a body that is no interaction) before routing it.
	OutcomeRefused = "refused"
)

// Routes that are not one of the service's: a ping, and an HTTP request
// refused before it was read as an interaction.
const (
	RoutePing       = "ping"
	RouteUnverified = "unverified"
)

// Config is what New needs.
type Config struct {
	// Route names an interaction's route for the labels, from a small
	// fixed set (commands.Route): a label never holds what a client
	// chose, or the series would grow with every custom_id sent. Nil:
	// every interaction is "other".
	Route func(*discordgo.Interaction) string
}

// Metrics is nimbot's series in one registry of their own (not
// Prometheus's global one, so two servers in one test process do not
// share counts).
type Metrics struct {
	cfg          Config
	reg          *prometheus.Registry
	interactions *prometheus.CounterVec
	latency      *prometheus.HistogramVec
	moves        prometheus.Counter
	deadlines    prometheus.Counter
	dbErrors     *prometheus.CounterVec
	rest         *prometheus.CounterVec
}

// New returns the series, registered with the Go runtime's and the
// process's collectors.
func New(cfg Config) *Metrics {
	m := &Metrics{cfg: cfg, reg: prometheus.NewRegistry()}
	m.interactions = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "nimbot_interactions_total", Help: "Interactions answered, by route and outcome.",
	}, []string{"route", "outcome"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "nimbot_interaction_duration_seconds", Help: "Time the service took to answer an interaction, by route.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2, 5},
	}, []string{"route"})
	m.moves = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "nimbot_moves_total", Help: "Moves committed, nimbot's replies included.",
	})
	m.deadlines = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "nimbot_deadlines_settled_total", Help: "Games the scheduler ended at their turn deadline.",
	})
	m.dbErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "nimbot_database_errors_total", Help: "Database calls that failed, by kind: timeout (the database did not answer in time) or error.",
	}, []string{"kind"})
	m.rest = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "nimbot_discord_rest_calls_total", Help: "REST calls to Discord's API, by outcome: the status class (2xx, 4xx, 5xx), 429, or error (no answer).",
	}, []string{"outcome"})
	// Every kind and outcome from the start, so a rate over them is never
	// of a series that appears with its first failure.
	for _, k := range []string{"timeout", "error"} {
		m.dbErrors.WithLabelValues(k)
	}
	for _, o := range []string{"2xx", "4xx", "429", "5xx", "error"} {
		m.rest.WithLabelValues(o)
	}
	m.reg.MustRegister(m.interactions, m.latency, m.moves, m.deadlines, m.dbErrors, m.rest,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the series in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Interaction counts one interaction answered and how long the service
// took.
func (m *Metrics) Interaction(i *discordgo.Interaction, resp *discordgo.InteractionResponse, took time.Duration) {
	if m == nil {
		return
	}
	route := "other"
	if i.Type == discordgo.InteractionPing {
		route = RoutePing
	} else if m.cfg.Route != nil {
		route = m.cfg.Route(i)
	}
	outcome := OutcomeOK
	switch {
	case resp == nil:
		outcome = OutcomeFailed
	case resp.Data != nil && resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0:
		outcome = OutcomeEphemeral
	}
	m.interactions.WithLabelValues(route, outcome).Inc()
	m.latency.WithLabelValues(route).Observe(took.Seconds())
}

// Refused counts an HTTP request refused before it was an interaction.
func (m *Metrics) Refused() {
	if m == nil {
		return
	}
	m.interactions.WithLabelValues(RouteUnverified, OutcomeRefused).Inc()
}

// Deadlines counts games the scheduler ended at their deadline.
func (m *Metrics) Deadlines(n int) {
	if m == nil || n <= 0 {
		return
	}
	m.deadlines.Add(float64(n))
}

// GamesInProgress exports the number of pending and active games, asked
// of count at each scrape (the database's, shared by every instance).
func (m *Metrics) GamesInProgress(count func(ctx context.Context) (int64, error)) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "nimbot_games_in_progress", Help: "Pending and active games in the database, of every instance sharing it.",
	}, func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		n, err := count(ctx)
		if err != nil {
			m.dbError(ctx, err)
			return -1
		}
		return float64(n)
	}))
}

// ShardStates are the gateway states a shard can be in, each exported
// (zero when no shard is in it, as in serve, which runs none).
var ShardStates = []string{"starting", "ok", "retrying", "failed"}

// Shards exports how many of this process's gateway shards are in each of
// ShardStates, asked of states (one state per shard) at each scrape.
func (m *Metrics) Shards(states func() []string) {
	m.reg.MustRegister(shardCollector{states: states, desc: prometheus.NewDesc("nimbot_gateway_shards",
		"Gateway shards of this process, by state.", []string{"state"}, nil)})
}

// shardCollector counts the shards by state at each scrape.
type shardCollector struct {
	states func() []string
	desc   *prometheus.Desc
}

func (c shardCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c shardCollector) Collect(ch chan<- prometheus.Metric) {
	n := map[string]int{}
	if c.states != nil {
		for _, s := range c.states() {
			n[s]++
		}
	}
	for _, s := range ShardStates {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n[s]), s)
	}
}

// Transport counts each REST call that next (nil: http.DefaultTransport)
// makes, by outcome. Give it a discordgo Session's Client: the gateway's
// websocket does not go through it, so it sees REST alone.
func (m *Metrics) Transport(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	if m == nil {
		return next
	}
	return roundTripper{m: m, next: next}
}

type roundTripper struct {
	m    *Metrics
	next http.RoundTripper
}

func (t roundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	outcome := "error"
	switch {
	case err != nil:
	case resp.StatusCode == http.StatusTooManyRequests:
		outcome = "429"
	case resp.StatusCode >= 500:
		outcome = "5xx"
	case resp.StatusCode >= 400:
		outcome = "4xx"
	default:
		outcome = "2xx"
	}
	t.m.rest.WithLabelValues(outcome).Inc()
	return resp, err
}

// dbError counts err, a database call's failure, as a timeout or an
// error. A call cancelled (shutdown, a client gone) is neither.
func (m *Metrics) dbError(ctx context.Context, err error) {
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded):
		m.dbErrors.WithLabelValues("timeout").Inc()
	case errors.Is(err, context.Canceled):
	default:
		m.dbErrors.WithLabelValues("error").Inc()
	}
}
