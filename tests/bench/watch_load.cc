// watch_load: what unread watch streams cost a running boneyard-matchmaking, for
// tests/bench/watch_load.sh (docs/performance.md, "Watching at scale"). Opens --tournament_streams
// WatchTournament streams on one new tournament (no token) and --event_streams WatchEvents
// streams spread over --event_players new players, and never reads them; after --settle, over
// --window it measures the CPU of the matchmaking process (--matchmaking_pid) and of
// PostgreSQL (--postgres_pid, the postmaster, and its children), from /proc/PID/stat (utime +
// stime), while it makes a GetTournament call every --call_every and times it. Prints each
// process's share of a core, the calls' p50 and p99, and the targets (2,000 unread streams of
// each kind under 10 % of a core together; a normal call under 20 ms p99). Not a test: nothing
// is asserted. The exit status is 1 when the setup fails.
//
//   watch_load --target=127.0.0.1:50471 --operator_token_file=F --matchmaking_pid=P
//              --postgres_pid=Q
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "boneyard/v1/ladder.grpc.pb.h"
#include "boneyard/v1/matchmaking.grpc.pb.h"
#include "boneyard/v1/tournament.grpc.pb.h"
#include "services/common/bearer.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50471", "The matchmaking service.");
ABSL_FLAG(std::string, operator_token_file, "", "File holding the operator token.");
ABSL_FLAG(int, matchmaking_pid, 0, "The boneyard-matchmaking process to measure.");
ABSL_FLAG(int, postgres_pid, 0,
          "PostgreSQL's postmaster; it and its children are measured. 0: not measured.");
ABSL_FLAG(int, tournament_streams, 2000, "Unread WatchTournament streams on one tournament.");
ABSL_FLAG(int, event_streams, 2000, "Unread WatchEvents streams.");
ABSL_FLAG(int, event_players, 50,
          "Players the WatchEvents streams are spread over (mind --max_event_streams_per_player).");
ABSL_FLAG(int, streams_per_channel, 100, "Streams per gRPC channel (connection).");
ABSL_FLAG(absl::Duration, settle, absl::Seconds(10), "Wait after opening, before measuring.");
ABSL_FLAG(absl::Duration, window, absl::Seconds(30), "How long CPU is measured.");
ABSL_FLAG(absl::Duration, call_every, absl::Milliseconds(20), "GetTournament calls' spacing.");

namespace {

namespace v1 = boneyard::v1;
using boneyard::AddBearerToken;

// The fields of /proc/PID/stat after the command (which may hold spaces): [0] is the state,
// [1] the parent, [11] utime, [12] stime. Empty when the process is gone.
std::vector<std::string> StatFields(int pid) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/stat"));
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t close = stat.rfind(')');
  if (close == std::string::npos || close + 2 > stat.size()) return {};
  std::istringstream fields(stat.substr(close + 2));
  std::vector<std::string> out;
  std::string field;
  while (out.size() < 13 && fields >> field) out.push_back(field);
  if (out.size() < 13) return {};
  return out;
}

// CPU seconds (utime + stime) of `pid`; with `children`, of it and every process whose parent
// it is (PostgreSQL's backends and workers). A backend that exits within the window takes its
// share with it, which for idle streams is none.
double CpuSeconds(int pid, bool children) {
  const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  auto cpu = [&](const std::vector<std::string>& f) {
    int64_t utime = 0, stime = 0;
    if (f.empty() || !absl::SimpleAtoi(f[11], &utime) || !absl::SimpleAtoi(f[12], &stime)) {
      return 0.0;
    }
    return static_cast<double>(utime + stime) / tick;
  };
  double total = cpu(StatFields(pid));
  if (!children) return total;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    int child = 0;
    if (!absl::SimpleAtoi(entry.path().filename().string(), &child)) continue;
    const std::vector<std::string> f = StatFields(child);
    if (!f.empty() && f[1] == absl::StrCat(pid)) total += cpu(f);
  }
  return total;
}

// A stream opened and never read. Counts the streams that ended before the cancel at the end
// (refused by a cap, say): those would make the figures lie.
template <typename Message>
class UnreadStream : public grpc::ClientReadReactor<Message> {
 public:
  struct Tally {
    absl::Mutex mu;
    int ended = 0;
    int failed = 0;
    std::string first_error;
  };
  explicit UnreadStream(Tally& tally) : tally_(tally) {}
  grpc::ClientContext& context() { return context_; }
  void OnDone(const grpc::Status& status) override {
    absl::MutexLock lock(&tally_.mu);
    ++tally_.ended;
    if (!status.ok() && status.error_code() != grpc::StatusCode::CANCELLED) {
      if (tally_.failed++ == 0) tally_.first_error = status.error_message();
    }
  }

 private:
  Tally& tally_;
  grpc::ClientContext context_;
};

std::shared_ptr<grpc::Channel> Channel(const std::string& target, int n) {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  args.SetInt("boneyard.watch_load_channel", n);  // a connection of its own
  return grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args);
}

std::unique_ptr<grpc::ClientContext> Call(const std::string& token) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  if (!token.empty()) AddBearerToken(*context, token);
  return context;
}

absl::Duration Percentile(std::vector<absl::Duration> sorted, double p) {
  if (sorted.empty()) return absl::ZeroDuration();
  const size_t at = std::min(sorted.size() - 1, static_cast<size_t>(p * sorted.size()));
  return sorted[at];
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const std::string target = absl::GetFlag(FLAGS_target);
  std::ifstream token_file(absl::GetFlag(FLAGS_operator_token_file));
  std::string op((std::istreambuf_iterator<char>(token_file)), std::istreambuf_iterator<char>());
  op = std::string(absl::StripAsciiWhitespace(op));
  const int matchmaking_pid = absl::GetFlag(FLAGS_matchmaking_pid);
  const int postgres_pid = absl::GetFlag(FLAGS_postgres_pid);
  if (op.empty() || matchmaking_pid <= 0) {
    std::cerr << "watch_load: --operator_token_file and --matchmaking_pid are needed\n";
    return 1;
  }
  const int tournament_streams = absl::GetFlag(FLAGS_tournament_streams);
  const int event_streams = absl::GetFlag(FLAGS_event_streams);
  const int event_players = std::max(1, absl::GetFlag(FLAGS_event_players));
  const int per_channel = std::max(1, absl::GetFlag(FLAGS_streams_per_channel));

  // Setup: a tournament, and the players whose event streams are opened.
  auto control = v1::TournamentService::NewStub(Channel(target, 0));
  const std::string run = absl::StrCat(absl::ToUnixSeconds(absl::Now()));
  const std::string tournament = absl::StrCat("tournaments/watch-", run);
  {
    v1::CreateTournamentRequest create;
    create.set_tournament_id(absl::StrCat("watch-", run));
    v1::Tournament& t = *create.mutable_tournament();
    t.set_display_name("Watched by many");
    t.set_game("muggins");
    t.set_format(v1::Tournament::SWISS);
    t.set_rounds(3);
    t.add_tiebreaks("BH");
    v1::Tournament created;
    grpc::Status status = control->CreateTournament(Call(op).get(), create, &created);
    if (!status.ok()) {
      std::cerr << "watch_load: CreateTournament: " << status.error_message() << "\n";
      return 1;
    }
  }
  auto players = v1::MatchmakingService::NewStub(Channel(target, 0));
  std::vector<std::string> tokens;
  for (int i = 0; i < event_players; ++i) {
    v1::CreatePlayerRequest request;
    request.set_player_id(absl::StrCat("watch", run, "x", i));
    request.set_display_name(absl::StrCat("Watcher ", i));
    v1::CreatePlayerResponse created;
    grpc::Status status = players->CreatePlayer(Call(op).get(), request, &created);
    if (!status.ok()) {
      std::cerr << "watch_load: CreatePlayer: " << status.error_message() << "\n";
      return 1;
    }
    tokens.push_back(created.token());
  }

  // The streams, never read, over channels of --streams_per_channel each.
  const int total = tournament_streams + event_streams;
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  for (int i = 0; i < (total + per_channel - 1) / per_channel; ++i) {
    channels.push_back(Channel(target, i + 1));
  }
  UnreadStream<v1::TournamentUpdate>::Tally tournament_tally;
  UnreadStream<v1::LadderEvent>::Tally event_tally;
  std::vector<std::unique_ptr<UnreadStream<v1::TournamentUpdate>>> watching;
  std::vector<std::unique_ptr<UnreadStream<v1::LadderEvent>>> listening;
  std::vector<std::unique_ptr<v1::TournamentService::Stub>> tournament_stubs;
  std::vector<std::unique_ptr<v1::LadderService::Stub>> ladder_stubs;
  for (const auto& channel : channels) {
    tournament_stubs.push_back(v1::TournamentService::NewStub(channel));
    ladder_stubs.push_back(v1::LadderService::NewStub(channel));
  }
  v1::WatchTournamentRequest watch;
  watch.set_tournament(tournament);
  const v1::WatchEventsRequest listen;
  for (int i = 0; i < total; ++i) {
    const size_t channel = static_cast<size_t>(i / per_channel);
    if (i < tournament_streams) {
      auto stream = std::make_unique<UnreadStream<v1::TournamentUpdate>>(tournament_tally);
      tournament_stubs[channel]->async()->WatchTournament(&stream->context(), &watch,
                                                          stream.get());
      stream->StartCall();
      watching.push_back(std::move(stream));
    } else {
      auto stream = std::make_unique<UnreadStream<v1::LadderEvent>>(event_tally);
      AddBearerToken(stream->context(), tokens[static_cast<size_t>(i) % tokens.size()]);
      ladder_stubs[channel]->async()->WatchEvents(&stream->context(), &listen, stream.get());
      stream->StartCall();
      listening.push_back(std::move(stream));
    }
  }
  std::cout << "opened " << tournament_streams << " WatchTournament and " << event_streams
            << " WatchEvents streams over " << channels.size() << " connections; settling for "
            << absl::FormatDuration(absl::GetFlag(FLAGS_settle)) << "\n";
  absl::SleepFor(absl::GetFlag(FLAGS_settle));

  // The window: CPU at both ends, a normal call every --call_every meanwhile.
  const absl::Duration window = absl::GetFlag(FLAGS_window);
  const double mm_before = CpuSeconds(matchmaking_pid, false);
  const double pg_before = postgres_pid > 0 ? CpuSeconds(postgres_pid, true) : 0;
  const absl::Time began = absl::Now();
  std::vector<absl::Duration> latencies;
  int call_errors = 0;
  v1::GetTournamentRequest get;
  get.set_name(tournament);
  while (absl::Now() - began < window) {
    const absl::Time start = absl::Now();
    v1::Tournament got;
    if (control->GetTournament(Call("").get(), get, &got).ok()) {
      latencies.push_back(absl::Now() - start);
    } else {
      ++call_errors;
    }
    absl::SleepFor(absl::GetFlag(FLAGS_call_every) - (absl::Now() - start));
  }
  const double seconds = absl::ToDoubleSeconds(absl::Now() - began);
  const double mm = (CpuSeconds(matchmaking_pid, false) - mm_before) / seconds;
  const double pg = postgres_pid > 0 ? (CpuSeconds(postgres_pid, true) - pg_before) / seconds : 0;
  std::sort(latencies.begin(), latencies.end());

  auto ended = [](auto& tally) {
    absl::MutexLock lock(&tally.mu);
    return std::make_pair(tally.failed, tally.first_error);
  };
  const auto [tournament_failed, tournament_error] = ended(tournament_tally);
  const auto [event_failed, event_error] = ended(event_tally);
  std::cout << absl::StrFormat("window:                 %.1f s\n", seconds);
  std::cout << absl::StrFormat("matchmaking CPU:        %.1f %% of a core\n", 100 * mm);
  if (postgres_pid > 0) {
    std::cout << absl::StrFormat("PostgreSQL CPU:         %.1f %% of a core\n", 100 * pg);
    std::cout << absl::StrFormat("together:               %.1f %% of a core (target < 10 %%)\n",
                                 100 * (mm + pg));
  }
  std::cout << absl::StrFormat(
      "GetTournament:          %d calls, p50 %.2f ms, p99 %.2f ms (target p99 < 20 ms), "
      "%d failed\n",
      static_cast<int>(latencies.size()),
      absl::ToDoubleMilliseconds(Percentile(latencies, 0.50)),
      absl::ToDoubleMilliseconds(Percentile(latencies, 0.99)), call_errors);
  std::cout << "streams ended early:    " << tournament_failed << " WatchTournament"
            << (tournament_failed > 0 ? " (" + tournament_error + ")" : "") << ", " << event_failed
            << " WatchEvents" << (event_failed > 0 ? " (" + event_error + ")" : "") << "\n";

  for (auto& stream : watching) stream->context().TryCancel();
  for (auto& stream : listening) stream->context().TryCancel();
  // Every OnDone before the streams go.
  auto all_ended = [&] {
    absl::MutexLock a(&tournament_tally.mu);
    return tournament_tally.ended;
  };
  auto all_ended_events = [&] {
    absl::MutexLock b(&event_tally.mu);
    return event_tally.ended;
  };
  const absl::Time deadline = absl::Now() + absl::Seconds(30);
  while ((all_ended() < tournament_streams || all_ended_events() < event_streams) &&
         absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(20));
  }
  if (all_ended() < tournament_streams || all_ended_events() < event_streams) {
    std::_Exit(0);  // a stream still open: its reactor must outlive it, so leave at once
  }
  return 0;
}
