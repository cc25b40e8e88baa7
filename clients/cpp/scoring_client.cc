#include "scoring_client.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace shmj {

namespace v1 = mahjong::shanghai::v1;

std::string CodeName(grpc::StatusCode code) {
  static const std::array<const char*, 17> names = {
      "OK",      "CANCELLED",         "UNKNOWN",         "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
      "NOT_FOUND", "ALREADY_EXISTS",  "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
      "ABORTED", "OUT_OF_RANGE",      "UNIMPLEMENTED",   "INTERNAL",           "UNAVAILABLE",
      "DATA_LOSS", "UNAUTHENTICATED",
  };
  auto index = static_cast<std::size_t>(code);
  return index < names.size() ? names[index] : "CODE_" + std::to_string(index);
}

Status StatusOf(const grpc::Status& status) {
  Status result{status.error_code(), status.error_message(), {}};
  google::rpc::Status details;  // the grpc-status-details-bin trailer
  if (status.error_details().empty() || !details.ParseFromString(status.error_details())) return result;
  for (const auto& any : details.details()) {
    google::rpc::BadRequest bad_request;
    if (!any.UnpackTo(&bad_request)) continue;
    for (const auto& v : bad_request.field_violations()) result.violations.push_back({v.field(), v.description()});
  }
  return result;
}

std::string TargetError(const std::string& target) {
  if (target.find("://") != std::string::npos || target.rfind("unix:", 0) == 0) return "";
  auto colon = target.rfind(':');
  std::string host = target.substr(0, colon == std::string::npos ? 0 : colon);
  std::string port = colon == std::string::npos ? "" : target.substr(colon + 1);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);  // [::1]
  } else if (host.find(':') != std::string::npos) {
    host.clear();  // an IPv6 address without its brackets
  }
  bool digits = !port.empty() && port.size() <= 5 &&
                std::all_of(port.begin(), port.end(), [](unsigned char c) { return std::isdigit(c); });
  if (host.empty() || !digits || std::stoi(port) < 1 || std::stoi(port) > 65535)
    return "target \"" + target + "\" is neither HOST:PORT (a port 1-65535) nor a gRPC target such as dns:///HOST:PORT";
  return "";
}

namespace {

// Reconnecting no more than max_backoff apart (gRPC's default grows to 120 s), so that a
// server back up is found by the next retry rather than minutes later.
std::shared_ptr<grpc::Channel> ChannelTo(const std::string& target, const Options& options) {
  std::string error = TargetError(target);
  if (!error.empty()) throw std::invalid_argument(error);
  grpc::ChannelArguments arguments;
  arguments.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, static_cast<int>(options.initial_backoff.count()));
  arguments.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, static_cast<int>(options.max_backoff.count()));
  return grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), arguments);
}

}  // namespace

ScoringClient::ScoringClient(const std::string& target, Options options)
    : channel_(ChannelTo(target, options)), stub_(v1::ScoringService::NewStub(channel_)), options_(std::move(options)) {}

Status ScoringClient::Settle(const v1::SettleRequest& request, Clock::time_point deadline,
                             v1::SettleResponse* response) {
  return Retrying(deadline, [&](grpc::ClientContext* context) { return stub_->Settle(context, request, response); });
}

Status ScoringClient::SettleBatch(const v1::SettleBatchRequest& request, Clock::time_point deadline,
                                  v1::SettleBatchResponse* response) {
  return Retrying(deadline,
                  [&](grpc::ClientContext* context) { return stub_->SettleBatch(context, request, response); });
}

Status ScoringClient::Retrying(Clock::time_point deadline,
                               const std::function<grpc::Status(grpc::ClientContext*)>& call) {
  auto backoff = options_.initial_backoff;
  for (int attempt = 1;; ++attempt) {
    grpc::ClientContext context;  // one per attempt: a context serves a single call
    context.set_deadline(deadline);
    Status status = StatusOf(call(&context));
    if (status.code != grpc::StatusCode::UNAVAILABLE) return status;
    if (options_.on_retry) options_.on_retry(attempt, status);
    if (Clock::now() + backoff >= deadline) return status;  // the next attempt would start past it
    Backoff(backoff);
    backoff = std::min(backoff * 2, options_.max_backoff);
  }
}

// Not a plain sleep: a blocking client's channel left alone reconnects only when gRPC's backup
// poller runs (every 5 s), so a server back up would wait that long; waiting on the channel's
// state drives the reconnection and ends the wait as soon as the server answers.
void ScoringClient::Backoff(std::chrono::milliseconds backoff) {
  auto until = Clock::now() + backoff;
  for (auto state = channel_->GetState(/*try_to_connect=*/true);
       state != GRPC_CHANNEL_READY && channel_->WaitForStateChange(state, until);)
    state = channel_->GetState(/*try_to_connect=*/true);
}

}  // namespace shmj
