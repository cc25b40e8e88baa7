#include "scoring_client.h"

#include <algorithm>
#include <array>
#include <thread>

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

ScoringClient::ScoringClient(const std::string& target, Options options)
    : stub_(v1::ScoringService::NewStub(grpc::CreateChannel(target, grpc::InsecureChannelCredentials()))),
      options_(std::move(options)) {}

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
    std::this_thread::sleep_for(backoff);
    backoff = std::min(backoff * 2, options_.max_backoff);
  }
}

}  // namespace shmj
