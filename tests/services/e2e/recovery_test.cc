// Crash recovery and graceful restarts: many matches are being played by RemotePlayers with a
// reconnect policy when the service is SIGKILLed (or stopped with SIGTERM) and started again.
// Every player must reconnect and finish, and no event any player saw before the service went
// away may be lost or applied twice: each view's event must be, at its sequence number, the
// action the final record holds there.
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "gtest/gtest.h"
#include "tests/services/e2e/e2e_helpers.h"

namespace boneyard::e2e {
namespace {

// The crash test: this many matches, killed once the players have seen this many of their
// own actions acknowledged (about a dozen per match, so most matches are mid-play).
constexpr int kCrashMatches = 200;
constexpr int64_t kCrashAcksBeforeKill = 2400;
// The graceful test, smaller.
constexpr int kGracefulMatches = 40;
constexpr int64_t kGracefulAcksBeforeStop = 400;
// Muggins is played to this target here: long matches, so they outlive the acknowledgements
// above.
constexpr int64_t kLongMugginsTarget = 250;
// At least this share of the matches must still be in play when the service goes away, or
// the test proves nothing (make the matches longer).
constexpr int kMinShareInPlayPercent = 50;
// Bounds (guards against hangs, not timing assertions).
constexpr absl::Duration kReconnectGiveUp = absl::Seconds(90);
constexpr absl::Duration kProgressTimeout = absl::Seconds(300);
constexpr absl::Duration kFinishTimeout = absl::Seconds(600);

class RecoveryTest : public ServiceTest {
 protected:
  // The players' own acknowledgements, counted from their views.
  void CountAck(const v1::SeatView& view) {
    if (view.has_last_event() && view.last_event().seat() == view.seat()) {
      absl::MutexLock lock(&mu_);
      ++acks_;
    }
  }

  bool WaitForAcks(int64_t count, absl::Duration timeout) {
    absl::MutexLock lock(&mu_);
    auto reached = [this, count]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return acks_ >= count; };
    return mu_.AwaitWithTimeout(absl::Condition(&reached), timeout);
  }

  // `count` long matches over every registered game, every seat a reconnecting RemotePlayer.
  void CreateRuns(int count, std::vector<MatchRun>& runs) {
    const std::vector<std::string> games = DefaultRegistry().Names();
    PlayerSetup setup;
    setup.options.reconnect = client::ReconnectPolicy{.give_up_after = kReconnectGiveUp};
    setup.options.on_view = [this](const v1::SeatView& view) { CountAck(view); };
    runs.reserve(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
      const std::string& game = games[static_cast<size_t>(i) % games.size()];
      Variant variant = VariantsFor(game).front();
      if (game == "muggins") variant.rules["target"] = IntRule(kLongMugginsTarget);
      absl::StatusOr<v1::CreateMatchResponse> created = CreateMatch(
          stub(i), operator_token(), MatchRequest(game, variant.rules, variant.seats));
      ASSERT_TRUE(created.ok()) << variant.label << ": " << created.status();
      runs.push_back(MatchRun{*created, {}, {}, {}});
      AddPlayers(runs.back(), i, stubs(), setup);
    }
  }

  static std::vector<std::vector<size_t>> LogSizes(const std::vector<MatchRun>& runs) {
    std::vector<std::vector<size_t>> sizes;
    for (const MatchRun& run : runs) {
      sizes.emplace_back();
      for (const auto& log : run.logs) sizes.back().push_back(log->size());
    }
    return sizes;
  }

  // Whether the terminal view is among the first `count` views of a player's log: the match
  // was over for that seat by then (so it needed no reconnect to finish).
  static bool SawEnd(const MatchRun& run, size_t player, size_t count) {
    const std::vector<SeenEvent> events = run.logs[player]->events();
    for (size_t i = 0; i < events.size() && i < count; ++i) {
      if (events[i].terminal) return true;
    }
    return false;
  }

  // Every player finished; every match FINISHED with a record that replays, whose actions
  // number its final sequence; every event any view showed is the record's action at that
  // sequence. `before_restart[m][p]`: how many views player p of match m had received from the
  // service that went away; `after_restart`: how many it had once the new one was serving.
  void ExpectNothingLost(std::vector<MatchRun>& runs,
                         const std::vector<std::vector<absl::Status>>& statuses,
                         const std::vector<std::vector<size_t>>& before_restart,
                         const std::vector<std::vector<size_t>>& after_restart,
                         int64_t min_events_checked) {
    int64_t events_before = 0;
    int resumed_matches = 0;
    for (size_t m = 0; m < runs.size(); ++m) {
      MatchRun& run = runs[m];
      SCOPED_TRACE(run.name());
      absl::StatusOr<v1::Match> match = GetMatch(stub(), run.name());
      ASSERT_TRUE(match.ok()) << match.status();
      EXPECT_EQ(match->state(), v1::Match::FINISHED);
      EXPECT_TRUE(match->has_result());
      absl::StatusOr<v1::Record> record = GetRecord(stub(), run.name());
      ASSERT_TRUE(record.ok()) << record.status();
      absl::StatusOr<std::unique_ptr<State>> state = ReplayProto(*record);
      ASSERT_TRUE(state.ok()) << state.status();
      EXPECT_TRUE((*state)->IsTerminal());
      EXPECT_TRUE(ResultIsEngines(match->result(), **state));
      const std::vector<v1::Record::RecordedAction> actions = FlattenActions(*record);
      // None applied twice (nor skipped): one action per event.
      EXPECT_EQ(static_cast<int64_t>(actions.size()), match->sequence());
      // The event shows each action as everyone may see it (Moon's face-down "discard"), so
      // the expected text is the public form of the recorded action in the state it met.
      absl::StatusOr<std::vector<std::unique_ptr<State>>> states = StatesAfterEachAction(*record);
      ASSERT_TRUE(states.ok()) << states.status();
      std::vector<std::string> public_actions;
      for (size_t k = 0; k < actions.size(); ++k) {
        const State& before = *(*states)[k];
        absl::StatusOr<Action> action = before.ResolveAction(actions[k].seat(), actions[k].action());
        ASSERT_TRUE(action.ok()) << action.status();
        public_actions.push_back(before.PublicActionToString(*action));
      }

      int64_t max_seen_before = 0;
      for (size_t p = 0; p < run.players.size(); ++p) {
        SCOPED_TRACE(absl::StrCat("seat ", run.seats[p]));
        EXPECT_TRUE(statuses[m][p].ok()) << statuses[m][p];
        const std::optional<v1::SeatView> last = run.players[p]->last_view();
        ASSERT_TRUE(last.has_value());
        EXPECT_TRUE(last->terminal());
        EXPECT_EQ(last->sequence(), match->sequence());
        const client::RemotePlayerStats stats = run.players[p]->stats();
        EXPECT_EQ(stats.error_rejections, 0);
        if (!SawEnd(run, p, after_restart[m][p])) {
          EXPECT_GE(stats.reconnects, 1) << "finished after the restart without reconnecting";
        }

        const std::vector<SeenEvent> events = run.logs[p]->events();
        for (size_t i = 0; i < events.size(); ++i) {
          const SeenEvent& event = events[i];
          if (event.sequence == 0) continue;
          const bool before = i < before_restart[m][p];
          if (before) {
            ++events_before;
            max_seen_before = std::max(max_seen_before, event.sequence);
          }
          ASSERT_LE(event.sequence, static_cast<int64_t>(actions.size()))
              << "a view showed event " << event.sequence << " ('" << event.action << "' by seat "
              << event.seat << (before ? ", before the restart" : "")
              << ") but the final record has only " << actions.size() << " actions";
          const size_t k = static_cast<size_t>(event.sequence - 1);
          EXPECT_EQ(event.seat, actions[k].seat())
              << "event " << event.sequence << (before ? " (seen before the restart)" : "");
          EXPECT_EQ(event.action, public_actions[k])
              << "event " << event.sequence << ", recorded '" << actions[k].action() << "'"
              << (before ? " (seen before the restart)" : "");
          EXPECT_EQ(event.reason, v1::MatchEvent::PLAYED) << "event " << event.sequence;
        }
      }
      if (match->sequence() > max_seen_before) ++resumed_matches;
    }
    std::cout << "[ recovery ] " << runs.size() << " matches; " << events_before
              << " events seen before the restart, each found in its final record; "
              << resumed_matches << " matches played on after the restart\n";
    EXPECT_GE(events_before, min_events_checked)
        << "fewer events were seen before the restart than were acknowledged";
    EXPECT_GE(resumed_matches * 100, static_cast<int>(runs.size()) * kMinShareInPlayPercent)
        << "only " << resumed_matches << " of " << runs.size()
        << " matches were played on after the restart; make the matches longer";
  }

  absl::Mutex mu_;
  int64_t acks_ ABSL_GUARDED_BY(mu_) = 0;
};

TEST_F(RecoveryTest, EveryMatchSurvivesASigkillWithoutLosingAnAcknowledgedAction) {
  std::vector<MatchRun> runs;
  CreateRuns(kCrashMatches, runs);
  if (HasFatalFailure()) return;
  StartAll(runs);
  ASSERT_TRUE(WaitForAcks(kCrashAcksBeforeKill, kProgressTimeout))
      << "the players did not get " << kCrashAcksBeforeKill << " actions acknowledged";

  ASSERT_TRUE(service_->Kill(SIGKILL).ok());
  const std::vector<std::vector<size_t>> before_restart = LogSizes(runs);
  int in_play = 0;
  for (const MatchRun& run : runs) {
    bool done = true;
    for (const auto& player : run.players) done = done && player->done();
    in_play += done ? 0 : 1;
  }
  ASSERT_GE(in_play * 100, kCrashMatches * kMinShareInPlayPercent)
      << "only " << in_play << " matches were in play at the kill; make them longer";

  ASSERT_TRUE(service_->Restart().ok()) << service_->log();
  const std::vector<std::vector<size_t>> after_restart = LogSizes(runs);
  const std::vector<std::vector<absl::Status>> statuses = WaitAll(runs, kFinishTimeout);
  ExpectNothingLost(runs, statuses, before_restart, after_restart, kCrashAcksBeforeKill);
}

TEST_F(RecoveryTest, AGracefulStopEndsStreamsWithUnavailableAndPlayResumesAfterARestart) {
  // A parked match: its seat and a spectator hold streams, and nobody plays it.
  const std::string parked_game = DefaultRegistry().Names().front();
  const Variant parked_variant = VariantsFor(parked_game).front();
  absl::StatusOr<v1::CreateMatchResponse> parked = CreateMatch(
      stub(), operator_token(),
      MatchRequest(parked_game, parked_variant.rules, parked_variant.seats));
  ASSERT_TRUE(parked.ok()) << parked.status();
  const std::string parked_name = parked->match().name();
  absl::Mutex idle_mu;
  int idle_views = 0;  // guarded by idle_mu
  client::RemotePlayerOptions idle_options;  // no reconnect: the stream's end is the player's
  idle_options.on_view = [&](const v1::SeatView&) {
    absl::MutexLock lock(&idle_mu);
    ++idle_views;
  };
  std::vector<std::unique_ptr<client::RemotePlayer>> idle;
  for (const v1::SeatToken& token : parked->seat_tokens()) {
    idle.push_back(std::make_unique<client::RemotePlayer>(
        stub(), parked_name, token.token(),
        [](const v1::SeatView&) { return std::optional<std::string>(); }, idle_options));
    idle.back()->Start();
  }
  auto watcher = std::make_unique<Spectator>(stub(1), parked_name);

  std::vector<MatchRun> runs;
  CreateRuns(kGracefulMatches, runs);
  if (HasFatalFailure()) return;
  StartAll(runs);
  ASSERT_TRUE(WaitForAcks(kGracefulAcksBeforeStop, kProgressTimeout));
  ASSERT_TRUE(watcher->WaitForViews(1, kProgressTimeout));
  {
    // Every idle seat has its first view (its chooser never acts: it waits on its stream).
    absl::MutexLock lock(&idle_mu);
    const int want = static_cast<int>(idle.size());
    auto arrived = [&]() { return idle_views >= want; };
    ASSERT_TRUE(idle_mu.AwaitWithTimeout(absl::Condition(&arrived), kProgressTimeout));
  }

  const absl::Status stopped = service_->Stop();
  ASSERT_TRUE(stopped.ok()) << stopped;
  ASSERT_TRUE(service_->last_wait_status().has_value());
  EXPECT_TRUE(WIFEXITED(*service_->last_wait_status()));
  EXPECT_EQ(WEXITSTATUS(*service_->last_wait_status()), 0);
  const std::vector<std::vector<size_t>> before_restart = LogSizes(runs);

  // The streams the service ended itself say why: UNAVAILABLE, reconnect.
  for (const auto& player : idle) {
    const std::optional<absl::Status> status = player->WaitFor(kProgressTimeout);
    ASSERT_TRUE(status.has_value());
    EXPECT_EQ(status->code(), absl::StatusCode::kUnavailable) << *status;
    EXPECT_TRUE(absl::StrContains(status->message(), "shutting down")) << *status;
    EXPECT_FALSE(player->last_view()->terminal());
  }
  const std::optional<absl::Status> watch_status = watcher->WaitDone(kProgressTimeout);
  ASSERT_TRUE(watch_status.has_value());
  EXPECT_EQ(watch_status->code(), absl::StatusCode::kUnavailable) << *watch_status;
  int in_play = 0;
  for (const MatchRun& run : runs) {
    bool done = true;
    for (const auto& player : run.players) done = done && player->done();
    in_play += done ? 0 : 1;
  }
  ASSERT_GE(in_play * 100, kGracefulMatches * kMinShareInPlayPercent)
      << "only " << in_play << " matches were in play at the stop; make them longer";

  ASSERT_TRUE(service_->Restart().ok()) << service_->log();
  const std::vector<std::vector<size_t>> after_restart = LogSizes(runs);

  // The parked match resumes from its tokens alone, and a new spectator follows it to its end.
  auto second_watcher = std::make_unique<Spectator>(stub(1), parked_name);
  ASSERT_TRUE(second_watcher->WaitForViews(1, kProgressTimeout))
      << second_watcher->WaitDone(absl::ZeroDuration()).value_or(absl::OkStatus());
  MatchRun parked_run{*parked, {}, {}, {}};
  PlayerSetup parked_setup;
  // Its channel may still be backing off from the stop: retry UNAVAILABLE.
  parked_setup.options.reconnect = client::ReconnectPolicy{.give_up_after = kReconnectGiveUp};
  AddPlayers(parked_run, kGracefulMatches + 1, stubs(), parked_setup);
  for (auto& player : parked_run.players) player->Start();

  const std::vector<std::vector<absl::Status>> statuses = WaitAll(runs, kFinishTimeout);
  ExpectNothingLost(runs, statuses, before_restart, after_restart, kGracefulAcksBeforeStop);

  for (auto& player : parked_run.players) {
    const std::optional<absl::Status> status = player->WaitFor(kFinishTimeout);
    ASSERT_TRUE(status.has_value());
    EXPECT_TRUE(status->ok()) << *status;
    EXPECT_TRUE(player->last_view()->terminal());
  }
  const std::optional<absl::Status> second_watch = second_watcher->WaitDone(kFinishTimeout);
  ASSERT_TRUE(second_watch.has_value());
  EXPECT_TRUE(second_watch->ok()) << *second_watch;
  const std::vector<v1::PublicView> watched = second_watcher->views();
  ASSERT_FALSE(watched.empty());
  EXPECT_TRUE(watched.back().terminal());
  absl::StatusOr<v1::Match> parked_match = GetMatch(stub(), parked_name);
  ASSERT_TRUE(parked_match.ok()) << parked_match.status();
  EXPECT_EQ(parked_match->state(), v1::Match::FINISHED);
  EXPECT_EQ(watched.back().sequence(), parked_match->sequence());
}

}  // namespace
}  // namespace boneyard::e2e
