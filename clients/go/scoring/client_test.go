package scoring

import (
	"context"
	"reflect"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestATargetIsHostAndPortOrHasAScheme(t *testing.T) {
	for _, target := range []string{"127.0.0.1:50051", "localhost:1", "[::1]:65535", "dns:///scoring:50051", "unix:/run/shmj.sock"} {
		if err := CheckTarget(target); err != nil {
			t.Errorf("CheckTarget(%q) = %v, want nil", target, err)
		}
	}
	for _, target := range []string{"", "scoring", "127.0.0.1:", ":50051", "127.0.0.1:0", "127.0.0.1:65536", "::1:50051", "127.0.0.1:http"} {
		if CheckTarget(target) == nil {
			t.Errorf("CheckTarget(%q) = nil, want an error", target)
		}
	}
}

func TestCodesHaveTheirCanonicalNames(t *testing.T) {
	got := []string{CodeName(codes.OK), CodeName(codes.InvalidArgument), CodeName(codes.Unauthenticated), CodeName(codes.Code(99))}
	want := []string{"OK", "INVALID_ARGUMENT", "UNAUTHENTICATED", "CODE_99"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CodeName: got %v, want %v", got, want)
	}
}

// A client whose calls are the given function, with 1 ms backoff, recording each retry.
func fakeClient(attempts *[]int) *Client {
	options := Options{InitialBackoff: time.Millisecond, OnRetry: func(attempt int, err *Error) {
		*attempts = append(*attempts, attempt)
	}}
	return &Client{options: options.withDefaults()}
}

func TestUnavailableIsRetriedUntilTheCallSucceeds(t *testing.T) {
	var attempts []int
	calls := 0
	err := fakeClient(&attempts).retrying(context.Background(), func(context.Context) error {
		calls++
		if calls < 3 {
			return status.Error(codes.Unavailable, "connection refused")
		}
		return nil
	})
	if err != nil || calls != 3 || !reflect.DeepEqual(attempts, []int{1, 2}) {
		t.Errorf("got error %v after %d calls, retries %v; want nil after 3, retries [1 2]", err, calls, attempts)
	}
}

func TestAnyOtherCodeIsReturnedAtOnce(t *testing.T) {
	var attempts []int
	calls := 0
	err := fakeClient(&attempts).retrying(context.Background(), func(context.Context) error {
		calls++
		return status.Error(codes.InvalidArgument, "invalid request")
	})
	failure, ok := err.(*Error)
	if !ok || failure.Code != codes.InvalidArgument || failure.Message != "invalid request" || calls != 1 || attempts != nil {
		t.Errorf("got %#v after %d calls, retries %v; want INVALID_ARGUMENT after 1, no retry", err, calls, attempts)
	}
}

func TestNoRetryStartsPastTheDeadline(t *testing.T) {
	var attempts []int
	client := fakeClient(&attempts)
	client.options.InitialBackoff = time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	calls := 0
	err := client.retrying(ctx, func(context.Context) error {
		calls++
		return status.Error(codes.Unavailable, "connection refused")
	})
	if failure, ok := err.(*Error); !ok || failure.Code != codes.Unavailable || calls != 1 {
		t.Errorf("got %v after %d calls; want UNAVAILABLE after 1", err, calls)
	}
}

func TestACallWithoutADeadlineGetsTheClientsTimeout(t *testing.T) {
	var attempts []int
	client := fakeClient(&attempts)
	client.options.Timeout = 42 * time.Minute
	var deadline time.Time
	var hasDeadline bool
	start := time.Now()
	_ = client.retrying(context.Background(), func(ctx context.Context) error {
		deadline, hasDeadline = ctx.Deadline()
		return nil
	})
	if !hasDeadline || deadline.Before(start.Add(42*time.Minute)) || deadline.After(time.Now().Add(42*time.Minute)) {
		t.Errorf("the call's deadline: %v (set %v), want 42 minutes from its start", deadline, hasDeadline)
	}
}
