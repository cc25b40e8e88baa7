// Command shmj-go-example calls the scoring service through the Go client and prints how each
// kind of answer reads: a legal win with its seat deltas, an illegal one with its reasons, a win
// under the knock with a dragon flower (RULES.md section 14), a malformed request with the field paths of its google.rpc.BadRequest, a deadline that has
// passed, and (with -late-target) a call retried on UNAVAILABLE until a late server is up.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc/codes"

	"shmj/clients/go/scoring"
	v1 "shmj/gen/go/mahjong/shanghai/v1"
)

func main() {
	target := flag.String("target", "127.0.0.1:50051", "the scoring service, host:port")
	lateTarget := flag.String("late-target", "", "a server that is not up yet: settle there, retrying UNAVAILABLE")
	flag.Parse()
	if flag.NArg() > 0 {
		refuse(fmt.Errorf("unexpected argument %q", flag.Arg(0)))
	}
	if err := scoring.CheckTarget(*lateTarget); err != nil && *lateTarget != "" {
		refuse(err) // now, not after the other calls
	}

	client, err := scoring.Dial(*target, scoring.Options{})
	if err != nil {
		refuse(err)
	}
	defer client.Close()
	ok := legalWin(client) && illegalWin(client) && knockedWin(client) && malformedRequest(client) &&
		passedDeadline(client)
	if ok && *lateTarget != "" {
		ok = retryUntilUp(*lateTarget)
	}
	if !ok {
		os.Exit(1)
	}
}

// refuse ends the program on a mistake in its command line, in one line.
func refuse(err error) {
	fmt.Fprintln(os.Stderr, "shmj-go-example:", err)
	os.Exit(2)
}

// RULES.md worked example 1: seat 0 self-draws 111m 555m 999p EEE 77s with two flowers.
func workedExample1() *v1.SettleRequest {
	m1, m5, p9, e, s7 := v1.Tile_TILE_M1, v1.Tile_TILE_M5, v1.Tile_TILE_P9, v1.Tile_TILE_EAST, v1.Tile_TILE_S7
	return &v1.SettleRequest{
		Profile: "classic",
		Outcome: v1.Outcome_OUTCOME_SELF_DRAW,
		Winners: []*v1.Winner{{
			Seat: 0,
			Hand: &v1.Hand{
				Concealed:   []v1.Tile{m1, m1, m1, m5, m5, m5, p9, p9, p9, e, e, e, s7, s7},
				WinningTile: s7,
				Flowers:     []v1.Flower{v1.Flower_FLOWER_SPRING, v1.Flower_FLOWER_PLUM},
			},
		}},
	}
}

func legalWin(client *scoring.Client) bool {
	return settledWin(client, "legal", workedExample1())
}

// settledWin settles a request and prints its first winner's legality, patterns and value.
func settledWin(client *scoring.Client, step string, request *v1.SettleRequest) bool {
	response, err := settle(client, request, 2*time.Second)
	if err != nil {
		return failed(step, err)
	}
	winner := response.GetWinners()[0]
	fmt.Printf("%s: seat %d %s %s, value %s; seat deltas %s\n", step, winner.GetSeat(), legality(winner),
		patterns(winner), number(winner.GetValue()), deltas(response))
	return true
}

// Seat 1 wins on seat 3's East with 456p 789s 234s EE and a chow of 123m from seat 0: a
// complete hand, but no pattern of the classic profile.
func illegalWin(client *scoring.Client) bool {
	e := v1.Tile_TILE_EAST
	request := &v1.SettleRequest{
		Profile:       "classic",
		Outcome:       v1.Outcome_OUTCOME_DISCARD,
		DiscarderSeat: 3,
		Winners: []*v1.Winner{{
			Seat: 1,
			Hand: &v1.Hand{
				Concealed: []v1.Tile{v1.Tile_TILE_P4, v1.Tile_TILE_P5, v1.Tile_TILE_P6, v1.Tile_TILE_S7,
					v1.Tile_TILE_S8, v1.Tile_TILE_S9, v1.Tile_TILE_S2, v1.Tile_TILE_S3, v1.Tile_TILE_S4, e, e},
				WinningTile: e,
				Melds: []*v1.Meld{{
					Kind:     v1.MeldKind_MELD_KIND_CHOW,
					Tiles:    []v1.Tile{v1.Tile_TILE_M1, v1.Tile_TILE_M2, v1.Tile_TILE_M3},
					FromSeat: 0,
				}},
			},
		}},
	}
	response, err := settle(client, request, 2*time.Second)
	if err != nil {
		return failed("illegal", err)
	}
	winner := response.GetWinners()[0]
	reasons := make([]string, 0, len(winner.GetIllegalReasons()))
	for _, reason := range winner.GetIllegalReasons() {
		reasons = append(reasons, reason.String())
	}
	fmt.Printf("illegal: seat %d %s %s; seat deltas %s\n", winner.GetSeat(), legality(winner),
		strings.Join(reasons, " "), deltas(response))
	return true
}

// Worked example 1 with 红中 held as a flower, by a seat that has knocked (敲), under the built-in
// qiaoma profile (敲麻, RULES.md 14.10), asked for by name as a backend running a 敲麻 room would:
// (1 + 4 花) × 2^2 番 = 20 a share.
func knockedWin(client *scoring.Client) bool {
	request := workedExample1()
	request.Profile = "qiaoma"
	request.Winners[0].Hand.DragonFlowers = []v1.Tile{v1.Tile_TILE_RED}
	request.DeclaredSeats = []int32{0}
	return settledWin(client, "knock", request)
}

// Worked example 1 one tile short, won by a fifth seat: refused with a BadRequest.
func malformedRequest(client *scoring.Client) bool {
	request := workedExample1()
	winner := request.Winners[0]
	winner.Seat = 5
	winner.Hand.Concealed = winner.Hand.Concealed[:13]
	_, err := settle(client, request, 2*time.Second)
	failure, refused := err.(*scoring.Error)
	if !refused || failure.Code != codes.InvalidArgument {
		return failed("malformed", fmt.Errorf("expected INVALID_ARGUMENT, got %v", err))
	}
	fmt.Printf("malformed: %s, %d field violations\n", scoring.CodeName(failure.Code), len(failure.Violations))
	for _, v := range failure.Violations {
		fmt.Printf("  %s: %s\n", v.Field, v.Description)
	}
	return true
}

// A thousand hands in one batch take the server far longer than a millisecond.
func passedDeadline(client *scoring.Client) bool {
	requests := make([]*v1.SettleRequest, 1000)
	for i := range requests {
		requests[i] = workedExample1()
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	_, err := client.SettleBatch(ctx, requests)
	failure, failedAsExpected := err.(*scoring.Error)
	if !failedAsExpected || failure.Code != codes.DeadlineExceeded {
		return failed("deadline", fmt.Errorf("expected DEADLINE_EXCEEDED, got %v", err))
	}
	fmt.Printf("deadline: %s after 1 ms, %d hands in one batch\n", scoring.CodeName(failure.Code), len(requests))
	return true
}

func retryUntilUp(target string) bool {
	options := scoring.Options{OnRetry: func(attempt int, err *scoring.Error) {
		if attempt == 1 {
			fmt.Printf("retry: %s from %s, retrying with backoff\n", scoring.CodeName(err.Code), target)
		}
	}}
	client, err := scoring.Dial(target, options)
	if err != nil {
		return failed("retry", err)
	}
	defer client.Close()
	response, err := settle(client, workedExample1(), 60*time.Second)
	if err != nil {
		return failed("retry", err)
	}
	fmt.Printf("retry: seat deltas %s\n", deltas(response))
	return true
}

// settle calls Settle with a deadline timeout from now.
func settle(client *scoring.Client, request *v1.SettleRequest, timeout time.Duration) (*v1.SettleResponse, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return client.Settle(ctx, request)
}

func failed(step string, err error) bool {
	fmt.Printf("%s: failed: %v\n", step, err)
	return false
}

func legality(winner *v1.WinnerResult) string {
	if winner.GetLegal() {
		return "LEGAL"
	}
	return "NOT LEGAL"
}

func patterns(winner *v1.WinnerResult) string {
	names := make([]string, 0, len(winner.GetPatterns()))
	for _, pattern := range winner.GetPatterns() {
		names = append(names, pattern.String())
	}
	return strings.Join(names, " ")
}

func deltas(response *v1.SettleResponse) string {
	values := make([]string, 0, 4)
	for _, delta := range response.GetSeatDeltas() {
		values = append(values, number(delta))
	}
	return strings.Join(values, " ")
}

func number(value float64) string { return strconv.FormatFloat(value, 'g', -1, 64) }
