// matchmaking_load: tickets created and matched through the service, for
// tests/bench/matchmaking_load.sh. Makes a casual head-to-head queue whose window takes any two
// players and --players accounts (setup, not timed), then creates one ticket per player with
// --in_flight CreateTicket calls outstanding on --channels channels (each answered after its
// commit: durable), and waits until the database shows every ticket MATCHED — each pair's match
// created on execution. Prints tickets created per second, tickets created and matched per
// second, and the CreateTicket latencies. The exit status is 1 when a call fails or not every
// ticket is matched within --timeout.
//
//   matchmaking_load --target=127.0.0.1:50371 --operator_token_file=F --database_url=URL
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
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
#include "boneyard/v1/matchmaking.grpc.pb.h"
#include "pqxx/pqxx"
#include "services/common/bearer.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50371", "The matchmaking service.");
ABSL_FLAG(std::string, operator_token_file, "", "File holding the operator token.");
ABSL_FLAG(std::string, database_url, "", "The matchmaking service's database (to count).");
ABSL_FLAG(int, players, 10000, "Players, one ticket each.");
ABSL_FLAG(int, in_flight, 256, "Calls outstanding at once.");
ABSL_FLAG(int, channels, 4, "gRPC channels (connections) the calls are spread over.");
ABSL_FLAG(absl::Duration, timeout, absl::Minutes(5), "How long to wait for every match.");

namespace {

using boneyard::AddBearerToken;
namespace v1 = boneyard::v1;

// Runs call(i, done) for i in [0, n) with `in_flight` outstanding; `done(status)` ends one.
class InFlight {
 public:
  using Call = std::function<void(int, std::function<void(const grpc::Status&)>)>;

  // Returns the latencies; *errors and *first_error say what failed.
  std::vector<absl::Duration> Run(int n, int in_flight, Call call) {
    n_ = n;
    call_ = std::move(call);
    for (int i = 0; i < std::min(n, in_flight); ++i) Next();
    absl::MutexLock lock(&mu_);
    auto finished = [this] { return done_ == n_; };
    mu_.Await(absl::Condition(&finished));
    return latencies_;
  }
  int errors() {
    absl::MutexLock lock(&mu_);
    return errors_;
  }
  std::string first_error() {
    absl::MutexLock lock(&mu_);
    return first_error_;
  }

 private:
  void Next() {
    const int i = next_.fetch_add(1);
    if (i >= n_) return;
    const absl::Time start = absl::Now();
    call_(i, [this, start](const grpc::Status& status) {
      {
        absl::MutexLock lock(&mu_);
        latencies_.push_back(absl::Now() - start);
        if (!status.ok() && errors_++ == 0) {
          first_error_ = absl::StrCat(status.error_code(), " ", status.error_message());
        }
        ++done_;
      }
      Next();
    });
  }

  int n_ = 0;
  Call call_;
  std::atomic<int> next_{0};
  absl::Mutex mu_;
  int done_ ABSL_GUARDED_BY(mu_) = 0;
  int errors_ ABSL_GUARDED_BY(mu_) = 0;
  std::string first_error_ ABSL_GUARDED_BY(mu_);
  std::vector<absl::Duration> latencies_ ABSL_GUARDED_BY(mu_);
};

std::string ReadToken(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return std::string(absl::StripAsciiWhitespace(text.str()));
}

double Ms(const std::vector<absl::Duration>& sorted, double q) {
  if (sorted.empty()) return 0;
  return absl::ToDoubleMilliseconds(
      sorted[std::min(sorted.size() - 1, static_cast<size_t>(q * sorted.size()))]);
}

int64_t Matched(pqxx::connection& db) {
  pqxx::nontransaction tx(db);
  return tx.exec1("SELECT count(*) FROM matchmaking.tickets WHERE state = 2")[0].as<int64_t>();
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const std::string op = ReadToken(absl::GetFlag(FLAGS_operator_token_file));
  if (op.empty() || absl::GetFlag(FLAGS_database_url).empty()) {
    std::cerr << "matchmaking_load: give --operator_token_file and --database_url\n";
    return 2;
  }
  const int players = absl::GetFlag(FLAGS_players);
  const int in_flight = absl::GetFlag(FLAGS_in_flight);
  std::vector<std::unique_ptr<v1::MatchmakingService::Stub>> stubs;
  for (int c = 0; c < std::max(1, absl::GetFlag(FLAGS_channels)); ++c) {
    grpc::ChannelArguments args;
    args.SetInt("boneyard.load.channel", c);  // a connection each
    stubs.push_back(v1::MatchmakingService::NewStub(grpc::CreateCustomChannel(
        absl::GetFlag(FLAGS_target), grpc::InsecureChannelCredentials(), args)));
  }
  auto context = [](grpc::ClientContext& ctx, const std::string& token) {
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    AddBearerToken(ctx, token);
  };

  // Setup: the queue and the accounts.
  v1::CreateQueueRequest queue;
  queue.set_queue_id("load");
  queue.mutable_queue()->set_display_name("Load: any two players");
  queue.mutable_queue()->set_game("muggins");
  queue.mutable_queue()->mutable_format()->mutable_head_to_head();
  queue.mutable_queue()->mutable_window()->set_initial(25);
  queue.mutable_queue()->mutable_window()->set_max(25);
  {
    grpc::ClientContext ctx;
    context(ctx, op);
    v1::Queue created;
    grpc::Status status = stubs[0]->CreateQueue(&ctx, queue, &created);
    if (!status.ok()) {
      std::cerr << "matchmaking_load: CreateQueue: " << status.error_message() << "\n";
      return 1;
    }
  }
  std::vector<std::string> tokens(players);
  struct PlayerCall {
    grpc::ClientContext ctx;
    v1::CreatePlayerRequest request;
    v1::CreatePlayerResponse response;
  };
  InFlight setup;
  setup.Run(players, in_flight, [&](int i, std::function<void(const grpc::Status&)> done) {
    auto* call = new PlayerCall;
    context(call->ctx, op);
    call->request.set_player_id(absl::StrCat("load", i));
    call->request.set_display_name(absl::StrCat("Load ", i));
    stubs[i % stubs.size()]->async()->CreatePlayer(
        &call->ctx, &call->request, &call->response, [&, call, i, done](grpc::Status status) {
          tokens[i] = call->response.token();
          delete call;
          done(status);
        });
  });
  if (setup.errors() > 0) {
    std::cerr << "matchmaking_load: CreatePlayer failed: " << setup.first_error() << "\n";
    return 1;
  }

  // Timed: one ticket each, then every ticket matched.
  pqxx::connection db(absl::GetFlag(FLAGS_database_url));
  struct TicketCall {
    grpc::ClientContext ctx;
    v1::CreateTicketRequest request;
    v1::Ticket response;
  };
  const absl::Time start = absl::Now();
  InFlight tickets;
  std::vector<absl::Duration> latencies =
      tickets.Run(players, in_flight, [&](int i, std::function<void(const grpc::Status&)> done) {
        auto* call = new TicketCall;
        context(call->ctx, tokens[i]);
        call->request.set_queue("queues/load");
        stubs[i % stubs.size()]->async()->CreateTicket(&call->ctx, &call->request,
                                                       &call->response,
                                                       [call, done](grpc::Status status) {
                                                         delete call;
                                                         done(status);
                                                       });
      });
  const absl::Duration created = absl::Now() - start;
  int64_t matched = 0;
  const absl::Time deadline = start + absl::GetFlag(FLAGS_timeout);
  while ((matched = Matched(db)) < players && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(20));
  }
  const absl::Duration all_matched = absl::Now() - start;

  std::sort(latencies.begin(), latencies.end());
  std::printf("tickets:     %d (%d players, a head-to-head queue taking any two)\n", players,
              players);
  std::printf("created:     %.2f s, %.0f tickets/s (durable: each answered after its commit)\n",
              absl::ToDoubleSeconds(created), players / absl::ToDoubleSeconds(created));
  std::printf("matched:     %lld of %d after %.2f s: %.0f tickets/s created and matched "
              "(each pair's match created on execution)\n",
              static_cast<long long>(matched), players, absl::ToDoubleSeconds(all_matched),
              matched / absl::ToDoubleSeconds(all_matched));
  std::printf("CreateTicket latency ms: p50 %.1f  p90 %.1f  p99 %.1f  max %.1f\n",
              Ms(latencies, 0.5), Ms(latencies, 0.9), Ms(latencies, 0.99), Ms(latencies, 1.0));
  std::printf("errors:      %d%s%s\n", tickets.errors(), tickets.errors() > 0 ? "  first: " : "",
              tickets.first_error().c_str());
  return tickets.errors() == 0 && matched == players ? 0 : 1;
}
