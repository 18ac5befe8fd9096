// `boneyard load`: keeps K matches of remote random bots running against the execution
// service for a while and reports what it sustained.
//
// Every seat of every match is a RemotePlayer with a RandomChooser (seeded from --seed, the
// match's index and the seat), all on a handful of channels (--channels, default 4), so one
// process drives thousands of streams without a thread each. Matches are created with the
// operator token on the client queues (client_queues.h), so creating does not wait on the
// matches in play; when a match ends another is created, keeping K at once, until --duration
// has passed (or, with --finish N, until N matches have finished in the window, if that comes
// first).
//
// The window: matches finished and actions acknowledged are those within the duration (the
// players still playing at the end are counted as they stood then). With --warmup W the run
// first plays for W unmeasured: the start, when every match is created at once and every first
// move queues behind the creations, is not the steady state the latency should describe. The
// matches still being played are then aborted (reason "load test over") so the service is not
// left hosting them. Latency is the RemotePlayers' measure: from sending an action to the view
// acknowledging it. The report also splits it where the service applied the action (the event's
// create_time): the wait to get there (network, the service's reader) and the rest (the group
// commit, the views' writing and delivery). The split reads two processes' clocks, so it means
// something only when they run on one machine, as in tests/bench/load.sh.
// Against several execution replicas (docs/scaling.md) players and aborts follow each match to
// the replica that plays it; with --reconnect-for D a player whose stream breaks (its replica
// killed) reopens it for up to D before that counts as an error, and a creation whose answer
// was lost (its replica stopping) is sent again for up to D — safely: each carries a request id
// — and the report counts both. With --verify every finished match's record is read at the end
// and checked against what its players were shown (each event at its sequence: nothing
// acknowledged lost, nothing forked), and each match's longest wait between two views is
// reported (a killed replica's matches wait for their adoption).
// Errors are failed creations, players ending with an error and rejected actions other than
// stale ones (ABORTED, a normal race). The service's resident memory comes from its metrics
// page (`process_resident_memory_bytes`), read once at the end of the window.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/random/random.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "engine/cli/args.h"
#include "engine/cli/common.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "services/client/channel.h"
#include "services/client/client_queues.h"
#include "services/client/command_common.h"
#include "services/client/prometheus_text.h"
#include "services/client/remote_player.h"
#include "services/common/replica_router.h"
#include "services/common/status_detail.h"

namespace boneyard::client {
namespace {

// How many WrongReplica answers one abort follows.
constexpr int kMaxAbortFollows = 3;
constexpr absl::string_view kDefaultMetricsUrl = "http://127.0.0.1:9464/metrics";
// Each channel is a TCP connection of its own; thousands of streams share these, as the
// players of a real deployment would share fewer connections than they are. Fewer
// connections carry more streams' messages in each write at both ends: at 2,000 matches, 4
// used less CPU than 8 or 16 in the service and the tool alike, with a lower p99, and as many
// actions/s closed loop (docs/performance.md).
constexpr int kDefaultChannels = 4;
constexpr absl::string_view kMemoryMetric = "process_resident_memory_bytes";
// How long the end of a run waits for aborted matches' players to see their last view.
constexpr absl::Duration kDrainTime = absl::Seconds(10);
// A player's think times come from its own stream of its seed, in steps of 1/kThinkSteps of
// the mean.
constexpr uint64_t kThinkStream = 0x7468696e6b;  // "think"
constexpr uint32_t kThinkSteps = 1000;
// How many distinct error messages the report quotes.
constexpr size_t kErrorExamples = 5;
// --verify: how many differences the report lists, and how long a record is asked for again
// after transient answers (a replica stopping or starting).
constexpr size_t kMaxMismatchesShown = 20;
constexpr absl::Duration kRecordRetryFor = absl::Seconds(30);

struct LoadConfig {
  int concurrent = 0;
  std::string game;
  RuleMap rules;
  int seats = 0;
  absl::Duration duration;
  // Played before the window opens, not measured.
  absl::Duration warmup;
  // With a value, the window also closes once this many matches have finished in it: a run
  // that must see matches end (a test, a smoke check) need not guess how long that takes.
  std::optional<int64_t> finish;
  std::string metrics_url;
  uint64_t seed = 1;
  int channels = kDefaultChannels;
  // The mean of each player's pause before an action: with it the load is a rate the players
  // offer (about matches / think_time actions a second for two-seat games) instead of as fast
  // as the service answers. Each pause is uniform between 0 and twice the mean: equal pauses
  // would keep the matches created together acting together, in waves of K actions at once.
  absl::Duration think_time;
  // Views carry only PlayingViewMask()'s fields, not the layout.
  bool lean_views = false;
  // How long a player whose stream breaks (a replica killed or restarting) keeps reopening it
  // before it counts as an error; zero: at once. Answers naming the replica that plays a match
  // are always followed (docs/scaling.md).
  absl::Duration reconnect_for;
  // Check every finished match's record against what its players were shown.
  bool verify = false;
  std::string target;
  std::string operator_token;
};

struct LoadReport {
  std::string rules_text;
  double elapsed_seconds = 0;
  int64_t matches_created = 0;
  int64_t matches_finished = 0;
  int64_t matches_aborted_at_end = 0;
  // Matches the end of the run could not abort (still active on the service).
  int64_t abort_failures = 0;
  std::string first_abort_failure;
  // Over the whole run, the warm-up included.
  int64_t actions_sent = 0;
  // In the window; and before it, during the warm-up.
  int64_t actions_acknowledged = 0;
  int64_t actions_acknowledged_in_warmup = 0;
  int64_t stale_rejections = 0;
  int64_t errors = 0;
  // Streams reopened (after a break, or to follow a match to its replica).
  int64_t reconnects = 0;
  // Creations sent again after their answer was lost (--reconnect-for).
  int64_t creations_resent = 0;
  // --verify: finished matches checked, those whose record differs from what their players were
  // shown (an acknowledged action lost, or one sequence shown as two events) with each
  // difference (match, place, both events; the first kMaxMismatchesShown), those whose record
  // could not be read even after retrying (a transient answer is retried, never counted as a
  // difference), and each checked match's longest wait between two views, sorted.
  int64_t verified_matches = 0;
  int64_t verify_mismatches = 0;
  int64_t verify_unreadable = 0;
  std::string first_mismatch;
  std::vector<std::string> mismatches;
  std::vector<double> longest_wait_ms;
  std::vector<std::string> error_examples;
  std::vector<double> latencies_ms;  // sorted
  // The latency split at the moment the service applied the action (its event's create_time):
  // sent → applied and applied → acknowledged, sorted. Meaningful only when the tool and the
  // service read one clock (the same machine); empty when the views carry no event time.
  std::vector<double> to_applied_ms;
  std::vector<double> applied_to_view_ms;
  std::optional<double> resident_memory_bytes;
  std::string memory_error;
};

std::vector<double> SortedMs(const std::vector<absl::Duration>& durations) {
  std::vector<double> ms;
  ms.reserve(durations.size());
  for (absl::Duration d : durations) ms.push_back(absl::ToDoubleMilliseconds(d));
  std::sort(ms.begin(), ms.end());
  return ms;
}

// The value of `metric` (its first sample) on the Prometheus text page at `url`.
absl::StatusOr<double> FetchMetric(const std::string& url, absl::string_view metric) {
  absl::StatusOr<std::vector<MetricSample>> samples = ScrapeMetrics(url);
  if (!samples.ok()) return samples.status();
  for (const MetricSample& sample : *samples) {
    if (sample.name == metric) return sample.value;
  }
  return absl::NotFoundError(absl::StrCat(url, " has no ", metric));
}

class LoadRun {
 public:
  explicit LoadRun(const LoadConfig& config)
      : config_(config), replicas_(std::make_shared<ReplicaRouter>(config.target)) {
    for (const std::shared_ptr<grpc::Channel>& channel :
         MakeChannels(config.target, config.channels)) {
      stubs_.push_back(v1::ExecutionService::NewStub(channel));
    }
  }

  ~LoadRun() {
    // Players first (each waits for its stream), while the stubs they use still exist.
    slots_.clear();
  }

  // Runs for the configured duration. An error when not even the first match could be made.
  absl::Status Run();
  LoadReport TakeReport() { return std::move(report_); }

 private:
  struct Created {
    v1::CreateMatchResponse response;
    grpc::Status status;
    v1::CreateMatchRequest request;  // to send again
    absl::Time first_sent;
  };
  // What one match's players were shown (--verify).
  struct Shown {
    absl::Mutex mu;
    std::map<int64_t, std::string> events ABSL_GUARDED_BY(mu);  // sequence -> "seat: action"
    std::vector<std::string> forks ABSL_GUARDED_BY(mu);         // a sequence shown as two events
    absl::Time last_view ABSL_GUARDED_BY(mu) = absl::InfinitePast();
    absl::Duration longest_wait ABSL_GUARDED_BY(mu);
    bool ended ABSL_GUARDED_BY(mu) = false;
  };
  struct Slot {
    std::string name;
    std::vector<std::unique_ptr<RemotePlayer>> players;
    std::atomic<int> remaining{0};
    std::shared_ptr<Shown> shown;  // with --verify
  };
  struct Event {
    std::unique_ptr<Created> created;  // set: a CreateMatch answered
    int64_t finished_slot = -1;        // else: every player of this slot is done
  };

  // Creates a match; `again`: the request of one whose answer was lost, sent again (its
  // request_id makes that safe), first sent at `first_sent`.
  void StartCreate(std::optional<v1::CreateMatchRequest> again = std::nullopt,
                   absl::Time first_sent = absl::Now());
  void Post(Event event);
  // The next event, or nullopt at `deadline`.
  std::optional<Event> NextEvent(absl::Time deadline);
  void StartPlayers(const v1::CreateMatchResponse& response);
  // Adds a slot's players' numbers to the report; `final` when they are done (their statuses
  // count), else a snapshot of players still playing.
  void Harvest(const Slot& slot, bool final);
  void AddError(const std::string& message);
  void StopAndDrain();
  // --verify: each finished match's record against what its players were shown.
  void VerifyRecords();
  // The match's record, with transient answers retried for up to kRecordRetryFor.
  absl::StatusOr<v1::Record> ReadRecord(const std::string& match);
  static void Show(Shown& shown, const v1::SeatView& view);
  struct AbortBatch {
    absl::Mutex mu;
    size_t pending ABSL_GUARDED_BY(mu) = 0;
    int64_t aborted ABSL_GUARDED_BY(mu) = 0;
    std::vector<std::string> failures ABSL_GUARDED_BY(mu);
  };
  // Aborts the matches (reason "load test over") and waits for every answer.
  void AbortMatches(const std::vector<std::string>& names);
  void StartAbort(const std::string& name, v1::ExecutionService::Stub& stub,
                  std::shared_ptr<AbortBatch> batch, int follows);

  const LoadConfig& config_;
  // Every call of the run (creates, aborts, the players' streams) completes on these.
  const std::shared_ptr<ClientQueues> queues_ = ClientQueues::Shared();
  std::vector<std::unique_ptr<v1::ExecutionService::Stub>> stubs_;
  size_t next_stub_ = 0;
  // This run's creations' request ids: "load-<random>-<n>".
  const std::string run_id_ = absl::StrCat("load-", absl::Hex(absl::Uniform<uint64_t>(
                                                        absl::BitGen(), 0, ~uint64_t{0})));
  int64_t next_request_ = 0;
  // The replicas players and aborts follow their matches to, one channel each.
  const std::shared_ptr<ReplicaRouter> replicas_;
  const StubFactory follow_ = StubsOf(replicas_);
  int creating_ = 0;
  std::map<int64_t, std::unique_ptr<Slot>> slots_;  // by match index; main thread only
  // Finished matches to check at the end (--verify), with what their players were shown.
  std::vector<std::pair<std::string, std::shared_ptr<Shown>>> to_verify_;
  LoadReport report_;
  // When the window opens (the warm-up is over).
  absl::Time measure_from_;
  std::vector<absl::Duration> latencies_;
  std::vector<absl::Duration> to_applied_;
  std::vector<absl::Duration> applied_to_view_;

  absl::Mutex mu_;
  std::deque<Event> events_ ABSL_GUARDED_BY(mu_);
};

void LoadRun::Post(Event event) {
  absl::MutexLock lock(&mu_);
  events_.push_back(std::move(event));
}

std::optional<LoadRun::Event> LoadRun::NextEvent(absl::Time deadline) {
  absl::MutexLock lock(&mu_);
  auto has_event = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return !events_.empty(); };
  if (!mu_.AwaitWithDeadline(absl::Condition(&has_event), deadline)) return std::nullopt;
  Event event = std::move(events_.front());
  events_.pop_front();
  return event;
}

void LoadRun::StartCreate(std::optional<v1::CreateMatchRequest> again, absl::Time first_sent) {
  v1::CreateMatchRequest request;
  if (again.has_value()) {
    request = *std::move(again);
  } else {
    request.set_game(config_.game);
    *request.mutable_rules() = config_.rules;
    for (int s = 0; s < config_.seats; ++s) {
      request.add_seats()->mutable_player()->set_player_id(absl::StrCat("load-seat-", s));
    }
    // Unique to this run: a creation whose answer was lost is sent again without a second match.
    request.set_request_id(absl::StrCat(run_id_, "-", next_request_++));
  }
  ++creating_;
  const bool resending = again.has_value();
  // The copy kept to send again is made before the call: a call's arguments are evaluated in
  // an unspecified order, and clang moved `request` into Start before the callback captured
  // it, so every creation sent again went out empty ("game: is empty").
  auto kept = std::make_shared<const v1::CreateMatchRequest>(request);
  v1::ExecutionService::Stub& stub = *stubs_[next_stub_++ % stubs_.size()];
  QueuedUnaryCall<v1::CreateMatchRequest, v1::CreateMatchResponse>::Start(
      queues_->Pick(), config_.operator_token, std::move(request),
      [&stub](grpc::ClientContext* context, const v1::CreateMatchRequest& request,
              grpc::CompletionQueue* queue) {
        return stub.PrepareAsyncCreateMatch(context, request, queue);
      },
      [this, kept, first_sent](const grpc::Status& status, v1::CreateMatchResponse& response) {
        auto created = std::make_unique<Created>();
        created->status = status;
        created->response.Swap(&response);
        created->request = *kept;
        created->first_sent = first_sent;
        Post(Event{std::move(created), -1});
      },
      /*wait_for_ready=*/resending);
}

void LoadRun::StartPlayers(const v1::CreateMatchResponse& response) {
  const int64_t index = report_.matches_created++;
  auto slot = std::make_unique<Slot>();
  slot->name = response.match().name();
  slot->remaining = response.seat_tokens_size();
  for (const v1::SeatToken& seat_token : response.seat_tokens()) {
    RemotePlayerOptions options;
    const uint64_t seed = DeriveSeed(DeriveSeed(config_.seed, index), seat_token.seat());
    if (config_.think_time > absl::ZeroDuration()) {
      options.think = [rng = Rng(DeriveSeed(seed, kThinkStream)),
                       mean = config_.think_time]() mutable {
        return mean * (static_cast<double>(rng.Below(kThinkSteps + 1)) * 2.0 / kThinkSteps);
      };
    }
    if (config_.lean_views) options.view_mask = PlayingViewMask();
    options.reconnect = ReconnectPolicy{.give_up_after = config_.reconnect_for};
    if (config_.verify) {
      if (slot->shown == nullptr) slot->shown = std::make_shared<Shown>();
      options.on_view = [shown = slot->shown](const v1::SeatView& view) { Show(*shown, view); };
    }
    options.follow_replica = follow_;
    options.on_done = [this, index, raw = slot.get()](const absl::Status&) {
      if (raw->remaining.fetch_sub(1) == 1) Post(Event{nullptr, index});
    };
    slot->players.push_back(std::make_unique<RemotePlayer>(
        *stubs_[next_stub_++ % stubs_.size()], slot->name, seat_token.token(),
        RandomChooser(seed), std::move(options)));
  }
  Slot& started = *slot;
  slots_[index] = std::move(slot);
  if (report_.rules_text.empty()) report_.rules_text = RulesToText(response.match().rules());
  for (const auto& player : started.players) player->Start();
  if (started.players.empty()) Post(Event{nullptr, index});  // nothing to wait for
}

void LoadRun::AddError(const std::string& message) {
  ++report_.errors;
  if (report_.error_examples.size() < kErrorExamples &&
      std::find(report_.error_examples.begin(), report_.error_examples.end(), message) ==
          report_.error_examples.end()) {
    report_.error_examples.push_back(message);
  }
}

void LoadRun::Harvest(const Slot& slot, bool final) {
  for (const auto& player : slot.players) {
    const RemotePlayerStats stats = player->stats();
    report_.actions_sent += stats.actions_sent;
    report_.stale_rejections += stats.stale_rejections;
    if (final) report_.reconnects += stats.reconnects;
    for (size_t i = 0; i < stats.acknowledged_at.size(); ++i) {
      if (stats.acknowledged_at[i] < measure_from_) {
        ++report_.actions_acknowledged_in_warmup;
        continue;
      }
      ++report_.actions_acknowledged;
      latencies_.push_back(stats.latencies[i]);
      const absl::Time applied = stats.applied_at[i];
      if (applied != absl::InfinitePast()) {
        const absl::Time sent = stats.acknowledged_at[i] - stats.latencies[i];
        to_applied_.push_back(applied - sent);
        applied_to_view_.push_back(stats.acknowledged_at[i] - applied);
      }
    }
    for (int64_t i = 0; i < stats.error_rejections; ++i) {
      AddError(absl::StrCat(slot.name, ": an action was rejected"));
    }
    if (final) {
      const absl::Status status = player->Wait();
      if (!status.ok()) AddError(absl::StrCat(slot.name, ": ", DescribeRpcError("Play", status)));
    }
  }
}

absl::Status LoadRun::Run() {
  measure_from_ = absl::Now() + config_.warmup;
  const absl::Time deadline = measure_from_ + config_.duration;
  for (int i = 0; i < config_.concurrent; ++i) StartCreate();
  absl::Status failure;
  while (true) {
    std::optional<Event> event = NextEvent(deadline);
    if (!event.has_value()) break;
    if (event->created != nullptr) {
      --creating_;
      const Created& created = *event->created;
      if (created.status.ok()) {
        StartPlayers(created.response);
        continue;
      }
      // A replica going away mid-call (UNAVAILABLE, or CANCELLED by a server stopping: this
      // tool cancels no creation): sent again, with the same request_id, while players would
      // still be reconnecting.
      if ((created.status.error_code() == grpc::StatusCode::UNAVAILABLE ||
           created.status.error_code() == grpc::StatusCode::CANCELLED) &&
          absl::Now() - created.first_sent < config_.reconnect_for) {
        ++report_.creations_resent;
        StartCreate(created.request, created.first_sent);
        continue;
      }
      const std::string message = DescribeRpcError("CreateMatch", FromGrpc(created.status));
      if (report_.matches_created == 0) {
        // Not one match yet: the service is unreachable or refuses us; no point going on.
        failure = FromGrpc(created.status);
        report_.error_examples.assign(1, message);
        break;
      }
      AddError(message);
      absl::SleepFor(absl::Milliseconds(100));  // do not hammer a struggling service
      StartCreate();
      continue;
    }
    auto it = slots_.find(event->finished_slot);
    if (it == slots_.end()) continue;
    Harvest(*it->second, /*final=*/true);
    if (it->second->shown != nullptr) to_verify_.emplace_back(it->second->name, it->second->shown);
    if (absl::Now() >= measure_from_) ++report_.matches_finished;
    slots_.erase(it);
    if (config_.finish.has_value() && report_.matches_finished >= *config_.finish) break;
    if (absl::Now() < deadline) StartCreate();
  }
  report_.elapsed_seconds = absl::ToDoubleSeconds(absl::Now() - measure_from_);

  if (failure.ok()) {
    absl::StatusOr<double> memory = FetchMetric(config_.metrics_url, kMemoryMetric);
    if (memory.ok()) {
      report_.resident_memory_bytes = *memory;
    } else {
      report_.memory_error = std::string(memory.status().message());
    }
  }
  StopAndDrain();
  if (config_.verify) VerifyRecords();

  report_.latencies_ms = SortedMs(latencies_);
  report_.to_applied_ms = SortedMs(to_applied_);
  report_.applied_to_view_ms = SortedMs(applied_to_view_);
  return failure;
}

void LoadRun::StartAbort(const std::string& name, v1::ExecutionService::Stub& stub,
                         std::shared_ptr<AbortBatch> batch, int follows) {
  v1::AbortMatchRequest request;
  request.set_name(name);
  request.set_reason("load test over");
  QueuedUnaryCall<v1::AbortMatchRequest, v1::Match>::Start(
      queues_->Pick(), config_.operator_token, std::move(request),
      [&stub](grpc::ClientContext* context, const v1::AbortMatchRequest& request,
              grpc::CompletionQueue* queue) {
        return stub.PrepareAsyncAbortMatch(context, request, queue);
      },
      [this, batch, name, follows](const grpc::Status& status, v1::Match&) {
        const absl::Status answer = FromGrpc(status);
        // Played by another replica: abort it there (a bounded number of times).
        if (std::optional<v1::WrongReplica> where = GetStatusDetail<v1::WrongReplica>(answer);
            where.has_value() && follows < kMaxAbortFollows) {
          StartAbort(name, replicas_->At(where->address()), batch, follows + 1);
          return;
        }
        absl::MutexLock lock(&batch->mu);
        if (status.ok()) {
          ++batch->aborted;
        } else if (status.error_code() != grpc::StatusCode::FAILED_PRECONDITION) {
          // FAILED_PRECONDITION: it finished meanwhile, which is fine.
          batch->failures.push_back(
              absl::StrCat(name, ": ", DescribeRpcError("AbortMatch", answer)));
        }
        --batch->pending;
      });
}

void LoadRun::AbortMatches(const std::vector<std::string>& names) {
  // All at once: one by one, a thousand aborts on a busy service would take longer than the run.
  auto batch = std::make_shared<AbortBatch>();  // shared with the calls, which may end last
  {
    absl::MutexLock lock(&batch->mu);
    batch->pending = names.size();
  }
  for (const std::string& name : names) {
    StartAbort(name, *stubs_[next_stub_++ % stubs_.size()], batch, /*follows=*/0);
  }
  absl::MutexLock lock(&batch->mu);
  auto all_answered = [&batch]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(batch->mu) {
    return batch->pending == 0;
  };
  batch->mu.Await(absl::Condition(&all_answered));
  report_.matches_aborted_at_end += batch->aborted;
  report_.abort_failures += static_cast<int64_t>(batch->failures.size());
  if (report_.first_abort_failure.empty() && !batch->failures.empty()) {
    report_.first_abort_failure = batch->failures.front();
  }
}

void LoadRun::Show(Shown& shown, const v1::SeatView& view) {
  const absl::Time now = absl::Now();
  absl::MutexLock lock(&shown.mu);
  if (shown.last_view != absl::InfinitePast()) {
    shown.longest_wait = std::max(shown.longest_wait, now - shown.last_view);
  }
  shown.last_view = now;
  if (view.terminal()) shown.ended = true;
  if (!view.has_last_event() || view.last_event().reason() != v1::MatchEvent::PLAYED) return;
  std::string event =
      absl::StrCat(view.last_event().seat(), ": ", view.last_event().action().text());
  auto [it, inserted] = shown.events.emplace(view.last_event().sequence(), event);
  if (!inserted && it->second != event) {
    shown.forks.push_back(absl::StrCat("#", it->first, " shown as ", it->second, " and ", event));
  }
}

absl::StatusOr<v1::Record> LoadRun::ReadRecord(const std::string& match) {
  v1::GetRecordRequest request;
  request.set_name(absl::StrCat(match, "/record"));
  absl::Duration backoff = absl::Milliseconds(100);
  const absl::Time give_up = absl::Now() + kRecordRetryFor;
  while (true) {
    v1::Record record;
    grpc::ClientContext context;
    PrepareUnaryContext(context, config_.operator_token);
    const grpc::Status status = replicas_->Home().GetRecord(&context, request, &record);
    if (status.ok()) return record;
    // A replica starting, stopping or moving the match answers for a moment what it cannot
    // answer yet: only a lasting answer says anything about the record.
    const absl::Status error = FromGrpc(status);
    const bool transient = absl::IsUnavailable(error) || absl::IsDeadlineExceeded(error) ||
                           absl::IsAborted(error) || absl::IsResourceExhausted(error) ||
                           absl::IsCancelled(error);
    if (!transient || absl::Now() + backoff > give_up) return error;
    absl::SleepFor(backoff);
    backoff = std::min(backoff * 2, absl::Seconds(2));
  }
}

void LoadRun::VerifyRecords() {
  std::vector<absl::Duration> waits;
  const auto differs = [this](const std::string& name, const std::string& what) {
    ++report_.verify_mismatches;
    const std::string line = absl::StrCat(name, ": ", what);
    if (report_.first_mismatch.empty()) report_.first_mismatch = line;
    if (report_.mismatches.size() < kMaxMismatchesShown) report_.mismatches.push_back(line);
  };
  for (const auto& [name, shown] : to_verify_) {
    absl::MutexLock lock(&shown->mu);
    if (!shown->ended) continue;  // its players gave up: counted as errors already
    ++report_.verified_matches;
    waits.push_back(shown->longest_wait);
    if (!shown->forks.empty()) {
      differs(name, shown->forks.front());
      continue;
    }
    absl::StatusOr<v1::Record> record = ReadRecord(name);
    if (!record.ok()) {
      ++report_.verify_unreadable;
      if (report_.error_examples.size() < kErrorExamples) {
        report_.error_examples.push_back(
            absl::StrCat(name, ": ", DescribeRpcError("GetRecord", record.status())));
      }
      continue;
    }
    std::vector<std::string> recorded;  // the record's actions in order: sequence k is k-1
    for (const v1::Record::Round& round : record->rounds()) {
      for (const v1::Record::RecordedAction& a : round.actions()) {
        recorded.push_back(absl::StrCat(a.seat(), ": ", a.action()));
      }
    }
    for (const auto& [sequence, event] : shown->events) {
      if (sequence < 1 || sequence > static_cast<int64_t>(recorded.size())) {
        differs(name, absl::StrCat("#", sequence, " shown as \"", event,
                                   "\", the record ends at #", recorded.size()));
        break;
      }
      const std::string& in_record = recorded[static_cast<size_t>(sequence - 1)];
      if (in_record != event) {
        differs(name, absl::StrCat("#", sequence, " shown as \"", event, "\", recorded as \"",
                                   in_record, "\""));
        break;
      }
    }
  }
  report_.longest_wait_ms = SortedMs(waits);
}

void LoadRun::StopAndDrain() {
  // The players still playing count as they stand now.
  std::vector<std::string> names;
  for (const auto& [index, slot] : slots_) {
    Harvest(*slot, /*final=*/false);
    names.push_back(slot->name);
  }
  AbortMatches(names);
  // Matches still being created: abort them as they arrive, without playing them. Every
  // CreateMatch has a deadline, so each answers; none may outlive this object.
  names.clear();
  while (creating_ > 0) {
    std::optional<Event> event = NextEvent(absl::InfiniteFuture());
    if (!event.has_value()) break;
    if (event->created == nullptr) continue;
    --creating_;
    if (event->created->status.ok()) {
      ++report_.matches_created;
      names.push_back(event->created->response.match().name());
    }
  }
  AbortMatches(names);
  // Aborted matches end their players' streams; give them a moment, then cancel the rest.
  const absl::Time give_up = absl::Now() + kDrainTime;
  for (const auto& [index, slot] : slots_) {
    for (const auto& player : slot->players) {
      player->WaitFor(std::max(give_up - absl::Now(), absl::ZeroDuration()));
    }
  }
  slots_.clear();
}

std::string Ms(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return "-";
  // Nearest rank.
  const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return absl::StrFormat("%.2f ms", sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1]);
}

nlohmann::json MsJson(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return nullptr;
  const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

// One part of the latency split: {"count", "p50", "p99", "max"}.
nlohmann::json SplitPartJson(const std::vector<double>& sorted) {
  return {{"count", sorted.size()},
          {"p50", MsJson(sorted, 0.50)},
          {"p99", MsJson(sorted, 0.99)},
          {"max", MsJson(sorted, 1.0)}};
}

// The value of a duration flag that may be 0 but not negative; 0 when it is not given.
absl::StatusOr<absl::Duration> NonNegativeDurationFlag(const cli::ParsedArgs& parsed,
                                                       absl::string_view name) {
  const std::string flag = absl::StrCat("--", name);
  const std::optional<std::string> text = parsed.Value(name);
  if (!text.has_value()) return absl::ZeroDuration();
  absl::StatusOr<absl::Duration> duration = ParseDurationFlag(*text, flag);
  if (!duration.ok()) return duration.status();
  if (*duration < absl::ZeroDuration()) {
    return absl::InvalidArgumentError(absl::StrCat(flag, " must not be negative"));
  }
  return *duration;
}

double PerSecond(int64_t count, double seconds) {
  return seconds > 0 ? static_cast<double>(count) / seconds : 0.0;
}

void PrintReport(const LoadConfig& config, const LoadReport& report, bool json, cli::Io& io) {
  const double matches_per_second = PerSecond(report.matches_finished, report.elapsed_seconds);
  const double actions_per_second = PerSecond(report.actions_acknowledged, report.elapsed_seconds);
  if (json) {
    nlohmann::json out = {
        {"target", config.target},
        {"game", config.game},
        {"rules", report.rules_text},
        {"matches_at_once", config.concurrent},
        {"seats", config.seats},
        {"channels", config.channels},
        {"think_time_ms", absl::ToDoubleMilliseconds(config.think_time)},
        {"lean_views", config.lean_views},
        {"duration_seconds", absl::ToDoubleSeconds(config.duration)},
        {"warmup_seconds", absl::ToDoubleSeconds(config.warmup)},
        {"finish", config.finish.has_value() ? nlohmann::json(*config.finish)
                                             : nlohmann::json(nullptr)},
        {"elapsed_seconds", report.elapsed_seconds},
        {"matches_created", report.matches_created},
        {"matches_finished", report.matches_finished},
        {"matches_aborted_at_end", report.matches_aborted_at_end},
        {"abort_failures", report.abort_failures},
        {"first_abort_failure", report.first_abort_failure},
        {"matches_per_second", matches_per_second},
        {"actions_sent", report.actions_sent},
        {"actions_acknowledged", report.actions_acknowledged},
        {"actions_acknowledged_in_warmup", report.actions_acknowledged_in_warmup},
        {"actions_per_second", actions_per_second},
        {"stale_rejections", report.stale_rejections},
        {"latency_ms",
         {{"count", report.latencies_ms.size()},
          {"p50", MsJson(report.latencies_ms, 0.50)},
          {"p90", MsJson(report.latencies_ms, 0.90)},
          {"p99", MsJson(report.latencies_ms, 0.99)},
          {"max", MsJson(report.latencies_ms, 1.0)}}},
        {"latency_split_ms",
         {{"to_applied", SplitPartJson(report.to_applied_ms)},
          {"applied_to_view", SplitPartJson(report.applied_to_view_ms)}}},
        {"errors", report.errors},
        {"reconnects", report.reconnects},
        {"creations_resent", report.creations_resent},
        {"verified_matches", report.verified_matches},
        {"verify_mismatches", report.verify_mismatches},
        {"verify_unreadable", report.verify_unreadable},
        {"first_mismatch", report.first_mismatch},
        {"mismatches", report.mismatches},
        {"longest_wait_ms",
         {{"p50", MsJson(report.longest_wait_ms, 0.50)},
          {"p99", MsJson(report.longest_wait_ms, 0.99)},
          {"max", MsJson(report.longest_wait_ms, 1.0)}}},
        {"error_examples", report.error_examples},
        {"metrics_url", config.metrics_url}};
    out["service_resident_memory_bytes"] = report.resident_memory_bytes.has_value()
                                               ? nlohmann::json(*report.resident_memory_bytes)
                                               : nlohmann::json(nullptr);
    if (!report.memory_error.empty()) out["memory_error"] = report.memory_error;
    io.out << out.dump() << "\n";
    return;
  }
  io.out << "target:      " << config.target << " (" << config.channels << " channels)\n"
         << "load:        " << config.concurrent << " matches at once of " << config.game
         << " (" << report.rules_text << "), " << config.seats << " remote seat"
         << (config.seats == 1 ? "" : "s") << " each, for "
         << absl::FormatDuration(config.duration)
         << (config.finish.has_value()
                 ? absl::StrCat(" or until ", *config.finish, " have finished")
                 : std::string())
         << (config.warmup > absl::ZeroDuration()
                 ? absl::StrCat(" after a warm-up of ", absl::FormatDuration(config.warmup),
                                " (not measured)")
                 : std::string())
         << "\n"
         << "players:     think " << absl::FormatDuration(config.think_time)
         << (config.think_time > absl::ZeroDuration() ? " per action on average, "
                                                      : " per action, ")
         << (config.lean_views ? "lean views (no layout)" : "full views") << "\n"
         << absl::StrFormat("elapsed:     %.2f s\n", report.elapsed_seconds)
         << absl::StrFormat("matches:     %d created, %d finished (%.1f/s), %d aborted at the end",
                            report.matches_created, report.matches_finished,
                            matches_per_second, report.matches_aborted_at_end)
         << (report.abort_failures > 0
                 ? absl::StrCat(" (", report.abort_failures, " could not be aborted, e.g. ",
                                report.first_abort_failure, ")")
                 : std::string())
         << "\n"
         << absl::StrFormat("actions:     %d acknowledged (%.1f/s), %d sent, %d stale",
                            report.actions_acknowledged, actions_per_second,
                            report.actions_sent, report.stale_rejections)
         << (config.warmup > absl::ZeroDuration()
                 ? absl::StrCat("; ", report.actions_acknowledged_in_warmup,
                                " acknowledged in the warm-up")
                 : std::string())
         << "\n"
         << "latency:     p50 " << Ms(report.latencies_ms, 0.50) << ", p90 "
         << Ms(report.latencies_ms, 0.90) << ", p99 " << Ms(report.latencies_ms, 0.99)
         << ", max " << Ms(report.latencies_ms, 1.0) << " (" << report.latencies_ms.size()
         << " actions)\n"
         << "  split:     sent to applied p50 " << Ms(report.to_applied_ms, 0.50) << ", p99 "
         << Ms(report.to_applied_ms, 0.99) << "; applied to view p50 "
         << Ms(report.applied_to_view_ms, 0.50) << ", p99 " << Ms(report.applied_to_view_ms, 0.99)
         << " (by the service's clock: one machine only)\n"
         << "errors:      " << report.errors << "\n"
         << "reconnects:  " << report.reconnects << " streams, " << report.creations_resent
         << " creations sent again\n";
  if (config.verify) {
    io.out << "verified:    " << report.verified_matches << " finished matches' records against "
           << "what their players were shown: " << report.verify_mismatches << " differ, "
           << report.verify_unreadable << " records unreadable\n";
    for (const std::string& mismatch : report.mismatches) io.out << "  differs: " << mismatch << "\n";
    io.out
           << "longest wait between two views of a match: p50 " << Ms(report.longest_wait_ms, 0.5)
           << ", p99 " << Ms(report.longest_wait_ms, 0.99) << ", max "
           << Ms(report.longest_wait_ms, 1.0) << "\n";
  }
  for (const std::string& example : report.error_examples) io.out << "  " << example << "\n";
  if (report.resident_memory_bytes.has_value()) {
    io.out << absl::StrFormat("service rss: %.1f MiB (%s at %s)\n",
                              *report.resident_memory_bytes / (1024.0 * 1024.0), kMemoryMetric,
                              config.metrics_url);
  } else {
    io.out << "service rss: unavailable (" << report.memory_error << ")\n";
  }
}

// The number of seats when --seats is not given: the game's default `players`, else its
// fewest seats.
std::optional<int> DefaultSeats(const std::string& game) {
  const GameSpec* spec = DefaultRegistry().Find(game);
  if (spec == nullptr) return std::nullopt;
  for (const OptionSpec& option : spec->options) {
    if (option.name == "players" && std::holds_alternative<int64_t>(option.default_value)) {
      return static_cast<int>(std::get<int64_t>(option.default_value));
    }
  }
  return spec->min_seats;
}

}  // namespace

int RunLoad(const std::vector<std::string>& args, cli::Io& io) {
  absl::StatusOr<cli::ParsedArgs> parsed =
      cli::ParseArgs(args,
                     ServiceFlags({{"matches", cli::FlagKind::kValue},
                                   {"game", cli::FlagKind::kValue},
                                   {"rules", cli::FlagKind::kValue},
                                   {"seats", cli::FlagKind::kValue},
                                   {"duration", cli::FlagKind::kValue},
                                   {"warmup", cli::FlagKind::kValue},
                                   {"finish", cli::FlagKind::kValue},
                                   {"metrics-url", cli::FlagKind::kValue},
                                   {"channels", cli::FlagKind::kValue},
                                   {"seed", cli::FlagKind::kValue},
                                   {"think-time", cli::FlagKind::kValue},
                                   {"lean-views", cli::FlagKind::kSwitch},
                                   {"reconnect-for", cli::FlagKind::kValue},
                                   {"verify", cli::FlagKind::kSwitch},
                                   {"json", cli::FlagKind::kSwitch}},
                                  TokenUse::kOperator));
  if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kLoadUsage);
  if (parsed->Has("help")) return cli::PrintCommandHelp(io, kLoadUsage);

  LoadConfig config;
  absl::StatusOr<std::optional<int64_t>> matches = parsed->Int("matches", 1, 100000);
  if (!matches.ok()) return cli::UsageError(io, matches.status().message(), kLoadUsage);
  if (!matches->has_value()) {
    return cli::UsageError(io, "--matches is required (how many matches at once)", kLoadUsage);
  }
  config.concurrent = static_cast<int>(**matches);
  const std::optional<std::string> game = parsed->Value("game");
  if (!game.has_value()) return cli::UsageError(io, "--game is required", kLoadUsage);
  config.game = *game;
  absl::StatusOr<RuleMap> rules = ParseRulesFlag(config.game, parsed->Value("rules").value_or(""));
  if (!rules.ok()) return cli::UsageError(io, rules.status().message(), kLoadUsage);
  config.rules = *std::move(rules);
  absl::StatusOr<std::optional<int64_t>> seats = parsed->Int("seats", 1, 64);
  if (!seats.ok()) return cli::UsageError(io, seats.status().message(), kLoadUsage);
  if (seats->has_value()) {
    config.seats = static_cast<int>(**seats);
  } else if (std::optional<int> fallback = DefaultSeats(config.game)) {
    config.seats = *fallback;
  } else {
    return cli::UsageError(
        io, absl::StrCat("--seats is required: this client does not know the game '",
                         config.game, "'"),
        kLoadUsage);
  }
  config.duration = absl::Seconds(30);
  if (const std::optional<std::string> text = parsed->Value("duration")) {
    absl::StatusOr<absl::Duration> duration = ParseDurationFlag(*text, "--duration");
    if (!duration.ok()) return cli::UsageError(io, duration.status().message(), kLoadUsage);
    if (*duration <= absl::ZeroDuration()) {
      return cli::UsageError(io, "--duration must be longer than 0s", kLoadUsage);
    }
    config.duration = *duration;
  }
  absl::StatusOr<absl::Duration> warmup = NonNegativeDurationFlag(*parsed, "warmup");
  if (!warmup.ok()) return cli::UsageError(io, warmup.status().message(), kLoadUsage);
  config.warmup = *warmup;
  absl::StatusOr<std::optional<int64_t>> finish = parsed->Int("finish", 1, 1000000000);
  if (!finish.ok()) return cli::UsageError(io, finish.status().message(), kLoadUsage);
  config.finish = *finish;
  config.metrics_url = parsed->Value("metrics-url").value_or(std::string(kDefaultMetricsUrl));
  absl::StatusOr<std::optional<int64_t>> channels = parsed->Int("channels", 1, 64);
  if (!channels.ok()) return cli::UsageError(io, channels.status().message(), kLoadUsage);
  config.channels = static_cast<int>(channels->value_or(kDefaultChannels));
  absl::StatusOr<std::optional<uint64_t>> seed = parsed->Uint64("seed");
  if (!seed.ok()) return cli::UsageError(io, seed.status().message(), kLoadUsage);
  config.seed = seed->value_or(1);
  absl::StatusOr<absl::Duration> think = NonNegativeDurationFlag(*parsed, "think-time");
  if (!think.ok()) return cli::UsageError(io, think.status().message(), kLoadUsage);
  config.think_time = *think;
  config.lean_views = parsed->Has("lean-views");
  absl::StatusOr<absl::Duration> reconnect_for = NonNegativeDurationFlag(*parsed, "reconnect-for");
  if (!reconnect_for.ok()) return cli::UsageError(io, reconnect_for.status().message(), kLoadUsage);
  config.reconnect_for = *reconnect_for;
  config.verify = parsed->Has("verify");
  config.target = ResolveTarget(parsed->Value("target"));
  if (std::optional<int> code = GetOperatorToken(*parsed, io, kLoadUsage, config.operator_token)) {
    return *code;
  }

  LoadReport report;
  absl::Status status;
  {
    LoadRun run(config);
    status = run.Run();
    report = run.TakeReport();
  }
  if (!status.ok()) return cli::Fail(io, static_cast<cli::ExitCode>(kExitService),
                                     report.error_examples.empty()
                                         ? DescribeRpcError("CreateMatch", status)
                                         : report.error_examples.front());
  PrintReport(config, report, parsed->Has("json"), io);
  return cli::kExitOk;
}

}  // namespace boneyard::client
