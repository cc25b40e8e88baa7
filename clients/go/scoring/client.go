// Package scoring is a small typed client for mahjong.shanghai.v1.ScoringService over the
// code protoc-gen-go and protoc-gen-go-grpc generate from proto/ (`make client-go`).
//
// Every call has a deadline: its context's, or Options.Timeout from the call's start when the
// context has none. A call that fails UNAVAILABLE (no server yet, a restart, a draining
// server) is tried again with exponential backoff until that deadline; any other failure is
// returned at once as an *Error, with the field violations of the server's google.rpc.BadRequest.
package scoring

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/codes"

	shanghaiv1 "shmj/gen/go/mahjong/shanghai/v1"
)

// Options of a Client. A zero field takes its default.
type Options struct {
	// The deadline of a call whose context has none (default 10 s, as the Python client's).
	Timeout time.Duration
	// The wait after the first UNAVAILABLE (default 100 ms), doubled after each further one
	// up to MaxBackoff (default 2 s): the numbers of the Python client's retry policy.
	InitialBackoff time.Duration
	MaxBackoff     time.Duration
	// OnRetry, when set, is told of each UNAVAILABLE attempt (1, 2, ...) before the wait.
	OnRetry func(attempt int, err *Error)
}

// Client calls one ScoringService target over one connection.
type Client struct {
	conn    *grpc.ClientConn
	service shanghaiv1.ScoringServiceClient
	options Options
}

// Dial opens a plaintext connection to target (host:port, or a gRPC target such as
// dns:///scoring:50051); a target that is neither is refused (CheckTarget). It connects in
// the background: a server that is not up yet makes calls fail UNAVAILABLE, which Settle retries.
//
// gRPC's own retry policy (a service config's retryPolicy) is not used: the grpc-go of
// Debian 12 (1.33) applies it only with GRPC_GO_RETRY=on, and it gives up after at most
// five attempts whatever the deadline.
func Dial(target string, options Options) (*Client, error) {
	if err := CheckTarget(target); err != nil {
		return nil, err
	}
	options = options.withDefaults()
	// Reconnecting no more than MaxBackoff apart (gRPC's default grows to 120 s), so that a
	// server back up is found by the next retry rather than minutes later.
	reconnect := grpc.ConnectParams{Backoff: backoff.DefaultConfig, MinConnectTimeout: 20 * time.Second}
	reconnect.Backoff.BaseDelay, reconnect.Backoff.MaxDelay = options.InitialBackoff, options.MaxBackoff
	conn, err := grpc.Dial(target, grpc.WithInsecure(), grpc.WithConnectParams(reconnect))
	if err != nil {
		return nil, err
	}
	return &Client{conn: conn, service: shanghaiv1.NewScoringServiceClient(conn), options: options}, nil
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.InitialBackoff <= 0 {
		o.InitialBackoff = 100 * time.Millisecond
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 2 * time.Second
	}
	return o
}

// CheckTarget says what is wrong with a target that is neither host:port (a port 1-65535)
// nor a gRPC target with a scheme (dns:///host:port, unix:/path); nil when it is one.
func CheckTarget(target string) error {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "unix:") {
		return nil
	}
	host, port, err := net.SplitHostPort(target)
	number, notNumber := strconv.Atoi(port)
	if err != nil || host == "" || notNumber != nil || number < 1 || number > 65535 {
		return fmt.Errorf("target %q is neither HOST:PORT (a port 1-65535) nor a gRPC target such as dns:///HOST:PORT", target)
	}
	return nil
}

// Close closes the connection.
func (c *Client) Close() error { return c.conn.Close() }

// Service is the generated stub, for the rpcs this client does not wrap.
func (c *Client) Service() shanghaiv1.ScoringServiceClient { return c.service }

// Settle judges and settles one hand. An illegal win is an answer (WinnerResult.Legal false,
// with its IllegalReasons), not an error; a malformed request is an *Error with Code
// codes.InvalidArgument and its Violations.
func (c *Client) Settle(ctx context.Context, request *shanghaiv1.SettleRequest) (*shanghaiv1.SettleResponse, error) {
	var response *shanghaiv1.SettleResponse
	err := c.retrying(ctx, func(ctx context.Context) (err error) {
		response, err = c.service.Settle(ctx, request)
		return err
	})
	return response, err
}

// SettleBatch settles many hands in one call, the results in request order. A malformed
// request does not fail the call: its result holds a SettleError in place of the response.
func (c *Client) SettleBatch(ctx context.Context, requests []*shanghaiv1.SettleRequest) ([]*shanghaiv1.SettleBatchResult, error) {
	var response *shanghaiv1.SettleBatchResponse
	err := c.retrying(ctx, func(ctx context.Context) (err error) {
		response, err = c.service.SettleBatch(ctx, &shanghaiv1.SettleBatchRequest{Requests: requests})
		return err
	})
	return response.GetResults(), err
}

// retrying runs call until it succeeds, fails with a code other than UNAVAILABLE, or the
// next attempt would start past the deadline; the error returned is an *Error.
func (c *Client) retrying(ctx context.Context, call func(ctx context.Context) error) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.options.Timeout)
		defer cancel()
	}
	backoff := c.options.InitialBackoff
	for attempt := 1; ; attempt++ {
		err := call(ctx)
		if err == nil {
			return nil
		}
		failure := errorOf(err)
		if failure.Code != codes.Unavailable {
			return failure
		}
		if c.options.OnRetry != nil {
			c.options.OnRetry(attempt, failure)
		}
		if deadline, _ := ctx.Deadline(); time.Until(deadline) <= backoff {
			return failure // the next attempt would start past the deadline
		}
		wait := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			wait.Stop()
			return failure
		case <-wait.C:
		}
		backoff *= 2
		if backoff > c.options.MaxBackoff {
			backoff = c.options.MaxBackoff
		}
	}
}
