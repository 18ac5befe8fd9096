// ratings_load: RecordResult under load, for tests/bench/ratings_load.sh. Sends --results
// distinct finished Muggins matches (one-on-one, partners 2v2 and four-player free-for-all,
// with a few bot seats) among --players players, keeping --in_flight calls outstanding on
// --channels channels, and prints calls per second, latencies and errors. Every call must end
// OK; the exit status is 1 otherwise.
//
//   ratings_load --target=127.0.0.1:50351 --token_file=FILE --results=20000
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "boneyard/v1/ratings.grpc.pb.h"
#include "services/common/bearer.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50351", "The ratings service.");
ABSL_FLAG(std::string, token_file, "", "File holding the results token.");
ABSL_FLAG(int, results, 20000, "Distinct results to record.");
ABSL_FLAG(int, players, 2000, "Players the matches are drawn from.");
ABSL_FLAG(int, in_flight, 256, "Calls outstanding at once.");
ABSL_FLAG(int, channels, 4, "gRPC channels (connections) the calls are spread over.");
ABSL_FLAG(uint64_t, seed, 1, "Seed of the generated matches.");

namespace {

using boneyard::AddBearerToken;
using boneyard::v1::Match;
using boneyard::v1::RatingsService;
using boneyard::v1::RecordResultRequest;
using boneyard::v1::RecordResultResponse;

void SetTime(absl::Time t, google::protobuf::Timestamp* ts) {
  const int64_t micros = absl::ToUnixMicros(t);
  ts->set_seconds(micros / 1'000'000);
  ts->set_nanos(static_cast<int32_t>(micros % 1'000'000) * 1000);
}

// Match `n`: a random shape among distinct random players (seat 3 of a free-for-all is a bot
// one time in four).
RecordResultRequest MakeRequest(int n, int players, std::mt19937_64& rng) {
  RecordResultRequest request;
  Match& match = *request.mutable_match();
  match.set_name(absl::StrCat("matches/load", n));
  match.set_game("muggins");
  match.set_state(Match::FINISHED);
  const int shape = static_cast<int>(rng() % 10);  // 0-5 duel, 6-7 partners, 8-9 four players
  const int seats = shape < 6 ? 2 : 4;
  std::vector<int> chosen;
  while (static_cast<int>(chosen.size()) < seats) {
    const int p = static_cast<int>(rng() % players);
    if (std::find(chosen.begin(), chosen.end(), p) == chosen.end()) chosen.push_back(p);
  }
  std::vector<int> order(seats);
  for (int i = 0; i < seats; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  auto& result = *match.mutable_result();
  for (int seat = 0; seat < seats; ++seat) {
    const bool bot = shape >= 8 && seat == 3 && rng() % 4 == 0;
    const std::string id = bot ? "" : absl::StrCat("player", chosen[seat]);
    if (bot) {
      match.add_seats()->mutable_bot()->set_kind("greedy");
    } else {
      match.add_seats()->mutable_player()->set_player_id(id);
    }
    result.add_player_ids(id);
    int rank = order[seat] + 1;
    if (shape == 6 || shape == 7) rank = seat % 2 == order[0] % 2 ? 1 : 2;  // partners 0+2, 1+3
    result.add_ranks(rank);
    result.add_scores(rank == 1 ? 61 : 30);
  }
  if (shape == 6 || shape == 7) {
    for (int team = 0; team < 2; ++team) {
      auto* t = result.add_teams();
      t->add_seats(team);
      t->add_seats(team + 2);
      *match.add_teams() = *t;
    }
  }
  const absl::Time end = absl::FromUnixSeconds(1'800'000'000) + absl::Seconds(n);
  SetTime(end - absl::Minutes(10), match.mutable_create_time());
  SetTime(end, match.mutable_end_time());
  SetTime(end, match.mutable_update_time());
  return request;
}

class Load {
 public:
  Load(std::vector<std::unique_ptr<RatingsService::Stub>> stubs,
       std::vector<RecordResultRequest> requests, std::string token)
      : stubs_(std::move(stubs)), requests_(std::move(requests)), token_(std::move(token)) {}

  void Run(int in_flight) {
    start_ = absl::Now();
    for (int i = 0; i < in_flight; ++i) Next();
    absl::MutexLock lock(&mu_);
    auto finished = [this] { return done_ == static_cast<int64_t>(requests_.size()); };
    mu_.Await(absl::Condition(&finished));
    elapsed_ = absl::Now() - start_;
  }

  void Report() {
    std::sort(latencies_.begin(), latencies_.end());
    auto pct = [&](double q) {
      if (latencies_.empty()) return 0.0;
      return absl::ToDoubleMilliseconds(
          latencies_[std::min(latencies_.size() - 1, static_cast<size_t>(q * latencies_.size()))]);
    };
    std::printf("results:     %zu in %.2f s\n", requests_.size(), absl::ToDoubleSeconds(elapsed_));
    std::printf("throughput:  %.0f RecordResult/s (durable: each answered after its commit)\n",
                requests_.size() / absl::ToDoubleSeconds(elapsed_));
    std::printf("latency ms:  p50 %.1f  p90 %.1f  p99 %.1f  max %.1f\n", pct(0.5), pct(0.9),
                pct(0.99), pct(1.0));
    std::printf("errors:      %lld%s%s\n", static_cast<long long>(errors_),
                errors_ > 0 ? "  first: " : "", first_error_.c_str());
  }

  int64_t errors() const { return errors_; }

 private:
  struct Call {
    grpc::ClientContext context;
    RecordResultResponse response;
    absl::Time start;
  };

  void Next() {
    const int64_t n = next_.fetch_add(1);
    if (n >= static_cast<int64_t>(requests_.size())) return;
    auto* call = new Call;
    call->context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    AddBearerToken(call->context, token_);
    call->start = absl::Now();
    stubs_[n % stubs_.size()]->async()->RecordResult(
        &call->context, &requests_[n], &call->response, [this, call](grpc::Status status) {
          const absl::Duration latency = absl::Now() - call->start;
          delete call;
          {
            absl::MutexLock lock(&mu_);
            latencies_.push_back(latency);
            if (!status.ok() && errors_++ == 0) {
              first_error_ = absl::StrCat(status.error_code(), " ", status.error_message());
            }
            ++done_;
          }
          Next();
        });
  }

  std::vector<std::unique_ptr<RatingsService::Stub>> stubs_;
  std::vector<RecordResultRequest> requests_;
  const std::string token_;
  std::atomic<int64_t> next_{0};
  absl::Time start_;
  absl::Duration elapsed_;
  absl::Mutex mu_;
  int64_t done_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t errors_ = 0;
  std::string first_error_;
  std::vector<absl::Duration> latencies_;
};

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  std::ifstream in(absl::GetFlag(FLAGS_token_file));
  std::stringstream text;
  text << in.rdbuf();
  const std::string token(absl::StripAsciiWhitespace(text.str()));
  if (token.empty()) {
    std::cerr << "ratings_load: --token_file gives no token\n";
    return 2;
  }
  std::mt19937_64 rng(absl::GetFlag(FLAGS_seed));
  std::vector<RecordResultRequest> requests;
  for (int n = 0; n < absl::GetFlag(FLAGS_results); ++n) {
    requests.push_back(MakeRequest(n, std::max(8, absl::GetFlag(FLAGS_players)), rng));
  }
  std::vector<std::unique_ptr<RatingsService::Stub>> stubs;
  for (int c = 0; c < std::max(1, absl::GetFlag(FLAGS_channels)); ++c) {
    grpc::ChannelArguments args;
    args.SetInt("boneyard.load.channel", c);  // a connection each
    auto channel = grpc::CreateCustomChannel(absl::GetFlag(FLAGS_target),
                                             grpc::InsecureChannelCredentials(), args);
    if (!channel->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(30))) {
      std::cerr << "ratings_load: cannot connect to " << absl::GetFlag(FLAGS_target) << "\n";
      return 1;
    }
    stubs.push_back(RatingsService::NewStub(channel));
  }
  Load load(std::move(stubs), std::move(requests), token);
  load.Run(std::max(1, absl::GetFlag(FLAGS_in_flight)));
  load.Report();
  return load.errors() == 0 ? 0 : 1;
}
