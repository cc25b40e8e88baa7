// shmj-cpp-example calls the scoring service through the C++ client and prints how each kind
// of answer reads: a legal win with its seat deltas, an illegal one with its reasons, a win under
// the knock with a dragon flower (RULES.md section 14), a malformed request with the field paths
// of its google.rpc.BadRequest, a deadline that has passed, and (with --late-target) a call retried on UNAVAILABLE until a late server is up.
//
//   shmj-cpp-example [--target HOST:PORT] [--late-target HOST:PORT]
#include <charconv>
#include <cstring>
#include <iostream>
#include <string>

#include "scoring_client.h"

namespace v1 = mahjong::shanghai::v1;
using Clock = shmj::ScoringClient::Clock;

namespace {

// RULES.md worked example 1: seat 0 self-draws 111m 555m 999p EEE 77s with two flowers.
v1::SettleRequest WorkedExample1() {
  v1::SettleRequest request;
  request.set_profile("classic");
  request.set_outcome(v1::OUTCOME_SELF_DRAW);
  v1::Winner* winner = request.add_winners();
  winner->set_seat(0);
  v1::Hand* hand = winner->mutable_hand();
  for (v1::Tile t : {v1::TILE_M1, v1::TILE_M1, v1::TILE_M1, v1::TILE_M5, v1::TILE_M5, v1::TILE_M5, v1::TILE_P9,
                     v1::TILE_P9, v1::TILE_P9, v1::TILE_EAST, v1::TILE_EAST, v1::TILE_EAST, v1::TILE_S7, v1::TILE_S7})
    hand->add_concealed(t);
  hand->set_winning_tile(v1::TILE_S7);
  hand->add_flowers(v1::FLOWER_SPRING);
  hand->add_flowers(v1::FLOWER_PLUM);
  return request;
}

// The shortest text that reads back as the same double: 36, -12, 0.5.
std::string Number(double value) {
  char text[32];
  auto end = std::to_chars(text, text + sizeof text, value).ptr;
  return std::string(text, end);
}

std::string Deltas(const v1::SettleResponse& response) {
  std::string text;
  for (double delta : response.seat_deltas()) text += (text.empty() ? "" : " ") + Number(delta);
  return text;
}

const char* Legality(const v1::WinnerResult& winner) { return winner.legal() ? "LEGAL" : "NOT LEGAL"; }

bool Failed(const std::string& step, const std::string& what) {
  std::cout << step << ": failed: " << what << "\n";
  return false;
}

bool Failed(const std::string& step, const shmj::Status& status) {
  return Failed(step, shmj::CodeName(status.code) + ": " + status.message);
}

// Settles a request and prints its first winner's legality, patterns and value.
bool SettledWin(shmj::ScoringClient& client, const std::string& step, const v1::SettleRequest& request) {
  v1::SettleResponse response;
  shmj::Status status = client.Settle(request, Clock::now() + std::chrono::seconds(2), &response);
  if (!status.ok()) return Failed(step, status);
  const v1::WinnerResult& winner = response.winners(0);
  std::cout << step << ": seat " << winner.seat() << " " << Legality(winner);
  for (int pattern : winner.patterns()) std::cout << " " << v1::Pattern_Name(static_cast<v1::Pattern>(pattern));
  std::cout << ", value " << Number(winner.value()) << "; seat deltas " << Deltas(response) << "\n";
  return true;
}

bool LegalWin(shmj::ScoringClient& client) { return SettledWin(client, "legal", WorkedExample1()); }

// Worked example 1 with 红中 held as a flower, by a seat that has knocked (敲), under the built-in
// qiaoma profile (敲麻, RULES.md 14.10), asked for by name as a backend running a 敲麻 room would:
// (1 + 4 花) × 2^2 番 = 20 a share.
bool KnockedWin(shmj::ScoringClient& client) {
  v1::SettleRequest request = WorkedExample1();
  request.set_profile("qiaoma");
  request.mutable_winners(0)->mutable_hand()->add_dragon_flowers(v1::TILE_RED);
  request.add_declared_seats(0);
  return SettledWin(client, "knock", request);
}

// Seat 1 wins on seat 3's East with 456p 789s 234s EE and a chow of 123m from seat 0: a
// complete hand, but no pattern of the classic profile.
bool IllegalWin(shmj::ScoringClient& client) {
  v1::SettleRequest request;
  request.set_profile("classic");
  request.set_outcome(v1::OUTCOME_DISCARD);
  request.set_discarder_seat(3);
  v1::Winner* winner = request.add_winners();
  winner->set_seat(1);
  v1::Hand* hand = winner->mutable_hand();
  for (v1::Tile t : {v1::TILE_P4, v1::TILE_P5, v1::TILE_P6, v1::TILE_S7, v1::TILE_S8, v1::TILE_S9, v1::TILE_S2,
                     v1::TILE_S3, v1::TILE_S4, v1::TILE_EAST, v1::TILE_EAST})
    hand->add_concealed(t);
  hand->set_winning_tile(v1::TILE_EAST);
  v1::Meld* chow = hand->add_melds();
  chow->set_kind(v1::MELD_KIND_CHOW);
  for (v1::Tile t : {v1::TILE_M1, v1::TILE_M2, v1::TILE_M3}) chow->add_tiles(t);
  chow->set_from_seat(0);

  v1::SettleResponse response;
  shmj::Status status = client.Settle(request, Clock::now() + std::chrono::seconds(2), &response);
  if (!status.ok()) return Failed("illegal", status);
  const v1::WinnerResult& result = response.winners(0);
  std::cout << "illegal: seat " << result.seat() << " " << Legality(result);
  for (int reason : result.illegal_reasons())
    std::cout << " " << v1::IllegalReason_Name(static_cast<v1::IllegalReason>(reason));
  std::cout << "; seat deltas " << Deltas(response) << "\n";
  return true;
}

// Worked example 1 one tile short, won by a fifth seat: refused with a BadRequest.
bool MalformedRequest(shmj::ScoringClient& client) {
  v1::SettleRequest request = WorkedExample1();
  v1::Winner* winner = request.mutable_winners(0);
  winner->set_seat(5);
  winner->mutable_hand()->mutable_concealed()->RemoveLast();
  v1::SettleResponse response;
  shmj::Status status = client.Settle(request, Clock::now() + std::chrono::seconds(2), &response);
  if (status.code != grpc::StatusCode::INVALID_ARGUMENT) return Failed("malformed", status);
  std::cout << "malformed: " << shmj::CodeName(status.code) << ", " << status.violations.size()
            << " field violations\n";
  for (const shmj::FieldViolation& v : status.violations) std::cout << "  " << v.field << ": " << v.description << "\n";
  return true;
}

// A thousand hands in one batch take the server far longer than a millisecond.
bool PassedDeadline(shmj::ScoringClient& client) {
  v1::SettleBatchRequest batch;
  for (int i = 0; i < 1000; ++i) *batch.add_requests() = WorkedExample1();
  v1::SettleBatchResponse response;
  shmj::Status status = client.SettleBatch(batch, Clock::now() + std::chrono::milliseconds(1), &response);
  if (status.code != grpc::StatusCode::DEADLINE_EXCEEDED) return Failed("deadline", status);
  std::cout << "deadline: " << shmj::CodeName(status.code) << " after 1 ms, " << batch.requests_size()
            << " hands in one batch\n";
  return true;
}

bool RetryUntilUp(const std::string& target) {
  shmj::Options options;
  options.on_retry = [&](int attempt, const shmj::Status& status) {
    if (attempt == 1)
      std::cout << "retry: " << shmj::CodeName(status.code) << " from " << target << ", retrying with backoff"
                << std::endl;  // flushed: whoever starts the late server waits for this line
  };
  shmj::ScoringClient client(target, options);
  v1::SettleResponse response;
  shmj::Status status = client.Settle(WorkedExample1(), Clock::now() + std::chrono::seconds(60), &response);
  if (!status.ok()) return Failed("retry", status);
  std::cout << "retry: seat deltas " << Deltas(response) << "\n";
  return true;
}

}  // namespace

// A mistake in the command line: said in one line, exit 2.
int Refuse(const std::string& line) {
  std::cerr << line << "\n";
  return 2;
}

int main(int argc, char** argv) {
  std::string target = "127.0.0.1:50051", late_target;
  for (int i = 1; i < argc; ++i) {
    if (i + 1 < argc && std::strcmp(argv[i], "--target") == 0) {
      target = argv[++i];
    } else if (i + 1 < argc && std::strcmp(argv[i], "--late-target") == 0) {
      late_target = argv[++i];
    } else {
      return Refuse("usage: shmj-cpp-example [--target HOST:PORT] [--late-target HOST:PORT]");
    }
  }
  std::string error = shmj::TargetError(target);
  if (error.empty() && !late_target.empty()) error = shmj::TargetError(late_target);  // now, not after the calls
  if (!error.empty()) return Refuse("shmj-cpp-example: " + error);
  shmj::ScoringClient client(target);
  bool ok = LegalWin(client) && IllegalWin(client) && KnockedWin(client) && MalformedRequest(client) &&
            PassedDeadline(client);
  if (ok && !late_target.empty()) ok = RetryUntilUp(late_target);
  return ok ? 0 : 1;
}
