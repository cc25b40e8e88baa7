// A small typed client for mahjong.shanghai.v1.ScoringService over the code protoc and
// grpc_cpp_plugin generate from proto/ (`make client-cpp`).
//
// Every call has a deadline. A call that fails UNAVAILABLE (no server yet, a restart, a
// draining server) is tried again with exponential backoff until that deadline; any other
// failure is returned at once, with the field violations of the server's google.rpc.BadRequest.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "mahjong/shanghai/v1/scoring_service.grpc.pb.h"

namespace shmj {

// A wrong field of the request by its path (winners[0].hand.melds[1], dice.first, profile),
// and what is wrong with it.
struct FieldViolation {
  std::string field;
  std::string description;
};

// How a call ended: OK, or its status code, the server's message and, for INVALID_ARGUMENT,
// the field violations of the google.rpc.BadRequest in the status details.
struct Status {
  grpc::StatusCode code = grpc::StatusCode::OK;
  std::string message;
  std::vector<FieldViolation> violations;

  bool ok() const { return code == grpc::StatusCode::OK; }
};

// A status code's name as the gRPC status codes document spells it: "INVALID_ARGUMENT".
std::string CodeName(grpc::StatusCode code);

// A gRPC status, and the BadRequest its details carry, read into a Status.
Status StatusOf(const grpc::Status& status);

// What is wrong with a target that is neither host:port (a port 1-65535) nor a gRPC target
// with a scheme (dns:///host:port, unix:/path); empty when it is one.
std::string TargetError(const std::string& target);

struct Options {
  // The wait after the first UNAVAILABLE, doubled after each further one up to max_backoff:
  // the numbers of the Python client's retry policy.
  std::chrono::milliseconds initial_backoff{100};
  std::chrono::milliseconds max_backoff{2000};
  // When set, told of each UNAVAILABLE attempt (1, 2, ...) before the wait.
  std::function<void(int attempt, const Status& status)> on_retry;
};

class ScoringClient {
 public:
  using Clock = std::chrono::system_clock;

  // A plaintext channel to target (host:port, or a gRPC target such as
  // dns:///scoring:50051); a target that is neither throws std::invalid_argument with its
  // TargetError. It connects in the background: a server that is not up yet makes calls fail
  // UNAVAILABLE, which Settle retries.
  explicit ScoringClient(const std::string& target, Options options = {});

  // Judges and settles one hand. An illegal win is an answer (WinnerResult.legal false, with
  // its illegal_reasons), not an error; a malformed request is INVALID_ARGUMENT with violations.
  Status Settle(const mahjong::shanghai::v1::SettleRequest& request, Clock::time_point deadline,
                mahjong::shanghai::v1::SettleResponse* response);

  // Settles many hands in one call, the results in request order. A malformed request does
  // not fail the call: its result holds a SettleError in place of the response.
  Status SettleBatch(const mahjong::shanghai::v1::SettleBatchRequest& request, Clock::time_point deadline,
                     mahjong::shanghai::v1::SettleBatchResponse* response);

  // The generated stub, for the rpcs this client does not wrap.
  mahjong::shanghai::v1::ScoringService::Stub& service() { return *stub_; }

 private:
  Status Retrying(Clock::time_point deadline, const std::function<grpc::Status(grpc::ClientContext*)>& call);

  // Waits out a backoff on the channel, asking it to connect, and ends early once it is ready.
  void Backoff(std::chrono::milliseconds backoff);

  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<mahjong::shanghai::v1::ScoringService::Stub> stub_;
  Options options_;
};

}  // namespace shmj
