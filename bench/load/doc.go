// Command load measures nimbot's HTTP interactions mode under load, beside
// the limits of the machine it runs on, and checks that it survives faults.
//
// Usage, from the repository root:
//
//	go run ./bench/load                       # in-process: the figures BENCHMARKS.md quotes
//	go run ./bench/load -games-stored 100000  # the same with 100,000 finished games in the store
//	go run ./bench/load -faults               # kill -9, SIGTERM and a locked database against the real binary
//	go run ./bench/load -keygen               # a key pair for -addr
//	go run ./bench/load -addr 127.0.0.1:8080 -key SEED  # against a running `nimbot serve`
//	go run ./bench/load -addr 127.0.0.1:8081,127.0.0.1:8082 -key SEED  # channels spread across instances (scripts/bench-instances)
//	go run ./bench/load -addr 127.0.0.1:8080 -key SEED -server-pid PID  # … and read its CPU
//	go run ./bench/load -spawn                # build nimbot, run `nimbot serve` as a child, measure it alone
//	go run ./bench/load -spawn -server-env "GOGC=200 GOMEMLIMIT=200MiB"
//	go run ./bench/load -spawn -server-bin /tmp/nimbot-before   # a binary built elsewhere, e.g. of another commit
//	go run ./bench/load -spawn -latency-log /tmp/latency.tsv    # … and every request's time sent and latency
//
// With -spawn (or -addr with -server-pid) the server is another process,
// and the report adds its own CPU, from /proc/<pid>/stat (utime+stime, all
// threads) read at the start and end of each pass's window: µs per request,
// µs per move, requests per move. Beside it the report gives this tool's
// own CPU over the same window (/proc/self/stat), and the two together per
// move: on one machine the load generator's CPU is taken from the server's.
// In process, the CPU figure is the process's, load generator included.
// Peak RSS is then the server's VmHWM.
// A serve not built in this process keeps its default challenge cooldown,
// so there each game between people has two new users and no rematch.
//
// In-process mode starts exactly what `nimbot serve` starts (a real store
// file, commands.Service, bot.HTTP behind a net/http server with serve's
// timeouts, the deadline scheduler) on a loopback port, with a fresh Ed25519
// key pair. Discord's REST API, which bot calls after a response that posts a
// new message (to fetch @original and record the board's message id), is a
// loopback stand-in that answers with the message the client "posted".
//
// Each of -channels channels is one goroutine that plays like a Discord
// client: it sends a signed APPLICATION_COMMAND (/nim start), then clicks the
// controls of the board the server returned (MESSAGE_COMPONENT with the
// custom_id read from the board and the board message attached, as Discord
// sends it), until the game ends, and then starts the next one (Rematch or
// /nim start). A -people share of the channels hosts games between two
// people (challenge, accept, alternate turns) instead of games against
// nimbot. A channel sends its next interaction only after the answer to the
// previous one, as a person would.
//
// The load generator shares the machine with the server, so it keeps its
// own work small: each channel posts on its own keep-alive connection from
// its own goroutine (no Transport goroutines between), payloads are
// appended as bytes in the form encoding/json gave them (the board message
// spliced from the answer as received) in one reused buffer per channel,
// answers are read by a small HTTP/1.1 reader (status, length or chunks,
// Connection) and then in one pass for the few fields the client uses, the
// socket is read and written by raw system calls that leave the runtime's
// monitor thread asleep (conn.go), and the signature covers the timestamp
// and body in one buffer. The tool
// keeps Go's default collector: with these few allocations a higher GOGC
// saved nothing measurable (BENCHMARKS.md). The tests hold payloads and
// the reading of answers to the encoding/json construction. What is left
// of the tool's CPU per request is mostly the Ed25519 signature (two
// SHA-512 passes over the ~3 KiB click, a base-point multiplication and
// its encoding: the key is expanded once, and the multiplication reads a
// table of base-point multiples in variable time, half the work of
// crypto/ed25519's constant-time one, with the same signature; sign.go)
// and the system calls of the exchange.
//
// Figures:
//
//   - moves/s: signed clicks that played a move (in a game against nimbot the
//     same request also commits nimbot's reply; that reply is not counted).
//     Picking a heap first is a separate, non-committing click, counted in
//     requests/s.
//   - latency: from the request's first byte to the response's last, at the
//     client, for every request (and for move clicks alone).
//   - errors: transport errors, non-2xx answers, and ephemeral error answers
//     where the flow expected a board.
//   - peak RSS: VmHWM of this process, reset (clear_refs) after set-up and the
//     pre-fill, so it is the peak while serving the load; in-process it also
//     holds the load generator, so it is an upper bound. Unknown with -addr.
//   - limits: Ed25519 verifications per second of a real signed request
//     through discordgo.VerifyInteraction (one goroutine, and one per CPU),
//     and durable move transactions per second through store.Commit
//     (synchronous=FULL, the store's one writer connection). nimbot's
//     throughput is printed as a ratio of the smaller.
//   - disk floor: after the passes, the latency a writer doing nothing else
//     gets from the disk at the paced pass's request rate: each request's
//     log bytes (11 pages' worth) written and fsynced, batched as they
//     queue, with no SQLite, store or HTTP. The paced pass's p99 is printed
//     as a multiple of it. It runs for -limits-for, on the disk the
//     database is on.
//
// The first pass runs at -rate moves/s (0: as fast as the channels go); a
// second pass at -fixed-rate (default 1,000 moves/s) reports the latency
// there. Each pass discards a short warm-up. -latency-log writes every
// request a pass measured to a file, one line each in the order sent (the
// pass, the time sent in Unix nanoseconds, the latency in nanoseconds, what
// it was): sorted so, a stall of the server shows as a run of requests
// that all end at the same moment, the shape of BENCHMARKS.md's "Load: where
// the p99 at 1,000 moves/s goes".
//
// -faults builds the real binary (go build of the repository root), runs
// `nimbot serve` as a child process with a fake bot token and REST calls
// routed to a closed port, and reports one line per scenario: SIGKILL under
// load again and again (no acknowledged move lost, no game corrupted),
// SIGTERM under load (every request the server accepted is answered), and a
// database locked by another process (serve exits with a clear error).
package main
