package scoring

import (
	"fmt"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// FieldViolation names a wrong field of the request by its path (winners[0].hand.melds[1],
// dice.first, profile) and says what is wrong with it.
type FieldViolation struct {
	Field       string
	Description string
}

// Error is a failed call: its status code, the server's message and, for INVALID_ARGUMENT,
// the field violations of the google.rpc.BadRequest in the status details.
type Error struct {
	Code       codes.Code
	Message    string
	Violations []FieldViolation
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", CodeName(e.Code), e.Message) }

// errorOf reads a gRPC error, and the BadRequest details it carries, into an *Error.
func errorOf(err error) *Error {
	st := status.Convert(err)
	failure := &Error{Code: st.Code(), Message: st.Message()}
	for _, detail := range st.Details() {
		if badRequest, ok := detail.(*errdetails.BadRequest); ok {
			for _, v := range badRequest.GetFieldViolations() {
				failure.Violations = append(failure.Violations, FieldViolation{v.GetField(), v.GetDescription()})
			}
		}
	}
	return failure
}

// The canonical names of the status codes (codes.Code's String says InvalidArgument).
var codeNames = [...]string{
	"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
	"ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
	"ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
	"UNAUTHENTICATED",
}

// CodeName is a status code's name as the gRPC status codes document spells it: INVALID_ARGUMENT.
func CodeName(code codes.Code) string {
	if int(code) < len(codeNames) {
		return codeNames[code]
	}
	return fmt.Sprintf("CODE_%d", uint32(code))
}
