// RemotePlayer (services/client/remote_player.h) against a real execution service: remote seats
// play whole matches, acknowledgements are counted and timed, and a player survives the service
// being SIGKILLed and restarted (it reconnects and resumes from the hello's view). The
// RandomChooser tests need no service.
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "engine/records/referee.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "services/client/channel.h"
#include "services/common/engine_proto.h"
#include "services/client/engine_seat.h"
#include "services/client/remote_player.h"
#include "tests/services/service_process.h"

namespace boneyard::client {
namespace {

using testing::ServiceProcess;
using testing::ServiceOnNewDatabase;
using testing::StartOnNewDatabase;
using testing::TestDatabase;

v1::SeatView ViewWithActions(const std::vector<std::string>& actions) {
  v1::SeatView view;
  view.set_seat(0);
  view.set_current_seat(0);
  for (const std::string& action : actions) view.add_legal_actions()->set_text(action);
  return view;
}

TEST(RandomChooserTest, IsDeterministicPerSeedAndPicksOnlyLegalActions) {
  const v1::SeatView view = ViewWithActions({"a", "b", "c", "d", "e"});
  Chooser one = RandomChooser(42);
  Chooser same = RandomChooser(42);
  Chooser other = RandomChooser(43);
  std::vector<std::string> first;
  std::vector<std::string> second;
  std::vector<std::string> third;
  for (int i = 0; i < 64; ++i) {
    first.push_back(one(view).value());
    second.push_back(same(view).value());
    third.push_back(other(view).value());
  }
  EXPECT_EQ(first, second);
  EXPECT_NE(first, third);
  for (const std::string& choice : first) EXPECT_TRUE(choice >= "a" && choice <= "e") << choice;
  // Over 64 draws from 5, every action comes up.
  for (const char* action : {"a", "b", "c", "d", "e"}) {
    EXPECT_NE(std::find(first.begin(), first.end(), action), first.end()) << action;
  }
  EXPECT_FALSE(one(ViewWithActions({})).has_value());
}

TEST(RemotePlayerTest, CancelBeforeStartEndsAtOnce) {
  auto stub = v1::ExecutionService::NewStub(MakeChannel("127.0.0.1:1"));
  RemotePlayer player(*stub, "matches/x", "token", RandomChooser(1));
  player.Cancel();
  EXPECT_EQ(player.Wait().code(), absl::StatusCode::kCancelled);
}

TEST(RemotePlayerTest, AnUnreachableServiceEndsThePlayerWithUnavailable) {
  absl::StatusOr<int> port = testing::PickFreePort();
  ASSERT_TRUE(port.ok());
  auto stub = v1::ExecutionService::NewStub(MakeChannel(absl::StrCat("127.0.0.1:", *port)));
  bool done_called = false;
  RemotePlayerOptions options;
  options.on_done = [&done_called](const absl::Status&) { done_called = true; };
  RemotePlayer player(*stub, "matches/x", "token", RandomChooser(1), options);
  player.Start();
  EXPECT_EQ(player.Wait().code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(done_called);  // before Wait returned
}

class RemotePlayerServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<ServiceOnNewDatabase> started = StartOnNewDatabase(BONEYARD_EXECUTION_BINARY);
    ASSERT_TRUE(started.ok()) << started.status();
    database_ = std::move(started->database);
    service_ = std::move(started->service);
    stub_ = v1::ExecutionService::NewStub(MakeChannel(service_->target()));
  }

  void TearDown() override {
    if (HasFailure() && service_ != nullptr) {
      std::cerr << "---- service log ----\n" << service_->log() << "---- end of service log\n";
    }
  }

  // A match of `game` whose seats are all remote players.
  v1::CreateMatchResponse CreateMatch(const std::string& game, int seats,
                                      std::map<std::string, int64_t> int_rules = {}) {
    v1::CreateMatchRequest request;
    request.set_game(game);
    for (int s = 0; s < seats; ++s) {
      request.add_seats()->mutable_player()->set_player_id(absl::StrCat("p", s));
    }
    for (const auto& [name, value] : int_rules) (*request.mutable_rules())[name].set_int_value(value);
    request.set_seed(5);
    grpc::ClientContext context;
    PrepareUnaryContext(context, service_->operator_token());
    v1::CreateMatchResponse response;
    const grpc::Status status = stub_->CreateMatch(&context, request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response;
  }

  v1::Match GetMatch(const std::string& name) {
    v1::GetMatchRequest request;
    request.set_name(name);
    grpc::ClientContext context;
    PrepareUnaryContext(context, "");
    v1::Match match;
    const grpc::Status status = stub_->GetMatch(&context, request, &match);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return match;
  }

  // The match's record replays through the engine's referee.
  void ExpectRecordReplays(const std::string& name) {
    v1::GetRecordRequest request;
    request.set_name(name + "/record");
    grpc::ClientContext context;
    PrepareUnaryContext(context, "");
    v1::Record proto;
    const grpc::Status status = stub_->GetRecord(&context, request, &proto);
    ASSERT_TRUE(status.ok()) << status.error_message();
    absl::StatusOr<Record> record = RecordFromProto(proto);
    ASSERT_TRUE(record.ok()) << record.status();
    absl::StatusOr<std::unique_ptr<State>> state = Replay(*record);
    ASSERT_TRUE(state.ok()) << state.status();
    EXPECT_TRUE((*state)->IsTerminal());
  }

  std::unique_ptr<TestDatabase> database_;
  std::unique_ptr<ServiceProcess> service_;
  std::unique_ptr<v1::ExecutionService::Stub> stub_;
};

TEST_F(RemotePlayerServiceTest, TwoRemoteSeatsPlayAMatchToItsEnd) {
  const v1::CreateMatchResponse created = CreateMatch("muggins", 2, {{"target", 100}});
  ASSERT_EQ(created.seat_tokens_size(), 2);
  std::vector<std::unique_ptr<RemotePlayer>> players;
  for (const v1::SeatToken& token : created.seat_tokens()) {
    players.push_back(std::make_unique<RemotePlayer>(*stub_, created.match().name(),
                                                     token.token(), RandomChooser(token.seat())));
  }
  for (auto& player : players) player->Start();
  int64_t acknowledged = 0;
  for (auto& player : players) {
    ASSERT_TRUE(player->Wait().ok()) << player->Wait();
    const std::optional<v1::SeatView> view = player->last_view();
    ASSERT_TRUE(view.has_value());
    EXPECT_TRUE(view->terminal());
    EXPECT_TRUE(view->has_result());
    const RemotePlayerStats stats = player->stats();
    EXPECT_EQ(stats.error_rejections, 0);
    EXPECT_EQ(stats.reconnects, 0);
    EXPECT_GT(stats.actions_acknowledged, 0);
    EXPECT_EQ(stats.latencies.size(), static_cast<size_t>(stats.actions_acknowledged));
    EXPECT_EQ(stats.acknowledged_at.size(), stats.latencies.size());
    EXPECT_TRUE(std::is_sorted(stats.acknowledged_at.begin(), stats.acknowledged_at.end()));
    EXPECT_EQ(stats.actions_sent, stats.actions_acknowledged + stats.stale_rejections);
    acknowledged += stats.actions_acknowledged;
  }
  // Every event of an all-remote match without a clock is one acknowledged action.
  const v1::Match match = GetMatch(created.match().name());
  EXPECT_EQ(match.state(), v1::Match::FINISHED);
  EXPECT_EQ(match.sequence(), acknowledged);
  ExpectRecordReplays(created.match().name());
}

TEST_F(RemotePlayerServiceTest, LeanViewsAndThinkTimeStillPlayToTheEnd) {
  const v1::CreateMatchResponse created = CreateMatch("muggins", 2, {{"target", 50}});
  ASSERT_EQ(created.seat_tokens_size(), 2);
  std::vector<std::unique_ptr<RemotePlayer>> players;
  for (const v1::SeatToken& token : created.seat_tokens()) {
    RemotePlayerOptions options;
    options.view_mask = PlayingViewMask();
    options.think = [] { return absl::Milliseconds(2); };
    players.push_back(std::make_unique<RemotePlayer>(*stub_, created.match().name(),
                                                     token.token(), RandomChooser(token.seat()),
                                                     std::move(options)));
  }
  for (auto& player : players) player->Start();
  int64_t acknowledged = 0;
  for (auto& player : players) {
    ASSERT_TRUE(player->Wait().ok()) << player->Wait();
    const std::optional<v1::SeatView> view = player->last_view();
    ASSERT_TRUE(view.has_value());
    EXPECT_TRUE(view->terminal());
    // Only the mask's fields came.
    EXPECT_FALSE(view->has_layout());
    EXPECT_EQ(view->hand_size(), 0);
    EXPECT_FALSE(view->has_result());
    const RemotePlayerStats stats = player->stats();
    EXPECT_EQ(stats.error_rejections, 0);
    EXPECT_GT(stats.actions_acknowledged, 0);
    // Latency is from the send, after the think time.
    for (absl::Duration latency : stats.latencies) EXPECT_GE(latency, absl::ZeroDuration());
    // The service (one clock with this test) applied each action between its send and its
    // acknowledgement; event times are stored in whole microseconds.
    ASSERT_EQ(stats.applied_at.size(), stats.latencies.size());
    for (size_t i = 0; i < stats.applied_at.size(); ++i) {
      const absl::Time sent = stats.acknowledged_at[i] - stats.latencies[i];
      EXPECT_GE(stats.applied_at[i], sent - absl::Microseconds(1));
      EXPECT_LE(stats.applied_at[i], stats.acknowledged_at[i]);
    }
    acknowledged += stats.actions_acknowledged;
  }
  const v1::Match match = GetMatch(created.match().name());
  EXPECT_EQ(match.state(), v1::Match::FINISHED);
  EXPECT_EQ(match.sequence(), acknowledged);
  ExpectRecordReplays(created.match().name());
}

// The think function is asked once for every action sent.
TEST_F(RemotePlayerServiceTest, AThinkFunctionGivesEachPause) {
  const v1::CreateMatchResponse created = CreateMatch("muggins", 2, {{"target", 50}});
  ASSERT_EQ(created.seat_tokens_size(), 2);
  std::vector<std::unique_ptr<RemotePlayer>> players;
  std::vector<std::shared_ptr<std::atomic<int64_t>>> asked;
  for (const v1::SeatToken& token : created.seat_tokens()) {
    auto count = std::make_shared<std::atomic<int64_t>>(0);
    asked.push_back(count);
    RemotePlayerOptions options;
    options.think = [count] {
      ++*count;
      return absl::Milliseconds(1);
    };
    players.push_back(std::make_unique<RemotePlayer>(*stub_, created.match().name(),
                                                     token.token(), RandomChooser(token.seat()),
                                                     std::move(options)));
  }
  for (auto& player : players) player->Start();
  for (size_t i = 0; i < players.size(); ++i) {
    ASSERT_TRUE(players[i]->Wait().ok()) << players[i]->Wait();
    const RemotePlayerStats stats = players[i]->stats();
    EXPECT_GT(stats.actions_sent, 0);
    EXPECT_EQ(asked[i]->load(), stats.actions_sent);
  }
}

TEST_F(RemotePlayerServiceTest, ReconnectsAfterTheServiceIsKilledAndRestarted) {
  // A long match, so it is still being played when the service dies.
  const v1::CreateMatchResponse created = CreateMatch("muggins", 2, {{"target", 1000}});
  ASSERT_EQ(created.seat_tokens_size(), 2);
  RemotePlayerOptions options;
  options.reconnect = ReconnectPolicy{.give_up_after = absl::Seconds(60)};
  std::vector<std::unique_ptr<RemotePlayer>> players;
  for (const v1::SeatToken& token : created.seat_tokens()) {
    players.push_back(std::make_unique<RemotePlayer>(
        *stub_, created.match().name(), token.token(), RandomChooser(token.seat()), options));
  }
  for (auto& player : players) player->Start();

  const absl::Time give_up = absl::Now() + absl::Seconds(30);
  while (players[0]->stats().actions_acknowledged + players[1]->stats().actions_acknowledged < 10 &&
         absl::Now() < give_up) {
    absl::SleepFor(absl::Milliseconds(1));
  }
  ASSERT_FALSE(players[0]->done() || players[1]->done())
      << "the match ended before the service could be killed; make it longer";
  ASSERT_TRUE(service_->Kill(SIGKILL).ok());
  absl::SleepFor(absl::Milliseconds(300));  // the players see UNAVAILABLE and back off
  ASSERT_TRUE(service_->Restart().ok()) << service_->log();

  for (auto& player : players) {
    const std::optional<absl::Status> status = player->WaitFor(absl::Seconds(120));
    ASSERT_TRUE(status.has_value()) << "the player did not finish after the restart";
    ASSERT_TRUE(status->ok()) << *status;
    EXPECT_TRUE(player->last_view()->terminal());
    EXPECT_GE(player->stats().reconnects, 1);
    EXPECT_EQ(player->stats().error_rejections, 0);
  }
  EXPECT_EQ(GetMatch(created.match().name()).state(), v1::Match::FINISHED);
  ExpectRecordReplays(created.match().name());
}

TEST_F(RemotePlayerServiceTest, WithoutReconnectAKilledServiceEndsThePlayer) {
  const v1::CreateMatchResponse created = CreateMatch("castle_rock", 1);
  ASSERT_EQ(created.seat_tokens_size(), 1);
  // A chooser that never acts: the player waits on its turn until the stream breaks.
  RemotePlayer player(*stub_, created.match().name(), created.seat_tokens(0).token(),
                      [](const v1::SeatView&) { return std::optional<std::string>(); });
  player.Start();
  const absl::Time give_up = absl::Now() + absl::Seconds(10);
  while (player.stats().views == 0 && absl::Now() < give_up) absl::SleepFor(absl::Milliseconds(1));
  ASSERT_EQ(player.stats().views, 1);
  ASSERT_TRUE(service_->Kill(SIGKILL).ok());
  EXPECT_EQ(player.Wait().code(), absl::StatusCode::kUnavailable);
}


// The seat's views from a Play stream's hello, until the one at `sequence` (`replay`: with the
// earlier events' views first, PlayRequest.replay_events).
std::vector<v1::SeatView> ViewsUntil(v1::ExecutionService::Stub& stub, const std::string& match,
                                     const std::string& token, int64_t sequence, bool replay) {
  grpc::ClientContext context;
  PrepareUnaryContext(context, token);
  auto stream = stub.Play(&context);
  v1::PlayRequest hello;
  hello.set_name(match);
  hello.set_replay_events(replay);
  std::vector<v1::SeatView> views;
  if (!stream->Write(hello)) return views;
  v1::PlayResponse response;
  while (stream->Read(&response)) {
    views.push_back(response.view());
    if (response.view().sequence() >= sequence) break;
  }
  context.TryCancel();
  stream->Finish();
  return views;
}

// Plays `count` moves through SubmitAction, each seat taking its first legal action.
void PlayFirstMoves(v1::ExecutionService::Stub& stub, const v1::CreateMatchResponse& created,
                    int count) {
  for (int64_t sequence = 0; sequence < count; ++sequence) {
    for (const v1::SeatToken& token : created.seat_tokens()) {
      const v1::SeatView view =
          ViewsUntil(stub, created.match().name(), token.token(), sequence, false).back();
      ASSERT_EQ(view.sequence(), sequence);
      if (view.current_seat() != token.seat()) continue;
      v1::SubmitActionRequest request;
      request.set_name(created.match().name());
      *request.mutable_action() = view.legal_actions(0);
      request.set_seen_sequence(sequence);
      grpc::ClientContext context;
      PrepareUnaryContext(context, token.token());
      v1::SeatView after;
      const grpc::Status status = stub.SubmitAction(&context, request, &after);
      ASSERT_TRUE(status.ok()) << status.error_message();
      break;
    }
  }
}

// What a replayed view repeats of the one sent at the time: all but the clock and the event's
// reason, times and effect.
v1::SeatView Comparable(v1::SeatView view) {
  view.clear_deadline();
  v1::MatchEvent& event = *view.mutable_last_event();
  event.clear_reason();
  event.clear_turn_start_time();
  event.clear_create_time();
  event.clear_effect();
  if (view.sequence() == 0) view.clear_last_event();
  return view;
}

TEST_F(RemotePlayerServiceTest, ReplayedViewsAreTheViewsTheSeatSawAtTheTime) {
  const v1::CreateMatchResponse created = CreateMatch("muggins", 2, {{"target", 61}});
  const std::string& name = created.match().name();
  const v1::SeatToken& mine = created.seat_tokens(1);
  // Seat 1 watches from the start on its own stream.
  grpc::ClientContext context;
  PrepareUnaryContext(context, mine.token());
  auto stream = stub_->Play(&context);
  v1::PlayRequest hello;
  hello.set_name(name);
  ASSERT_TRUE(stream->Write(hello));
  std::vector<v1::SeatView> seen;
  v1::PlayResponse response;
  ASSERT_TRUE(stream->Read(&response));
  seen.push_back(response.view());
  constexpr int kMoves = 14;
  PlayFirstMoves(*stub_, created, kMoves);
  while (seen.back().sequence() < kMoves && stream->Read(&response)) seen.push_back(response.view());
  context.TryCancel();
  stream->Finish();
  ASSERT_EQ(seen.size(), kMoves + 1u);

  const std::vector<v1::SeatView> replayed = ViewsUntil(*stub_, name, mine.token(), kMoves, true);
  ASSERT_EQ(replayed.size(), kMoves + 1u);
  for (int k = 0; k <= kMoves; ++k) {
    EXPECT_EQ(replayed[k].sequence(), k);
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(Comparable(replayed[k]),
                                                                   Comparable(seen[k])))
        << "view " << k << ":\n"
        << replayed[k].DebugString() << "\nwas\n"
        << seen[k].DebugString();
  }
  // Without replay_events a hello gets the current view alone.
  EXPECT_EQ(ViewsUntil(*stub_, name, mine.token(), kMoves, false).size(), 1u);
}

// A remote seat played by a built-in search level joins a match already under way: the
// replayed views let it rebuild the match, and it plays to the end without falling back.
TEST_F(RemotePlayerServiceTest, ASearchLevelJoiningLatePlaysFromTheReplayedViews) {
  const v1::CreateMatchResponse created = CreateMatch("muggins", 2, {{"target", 61}});
  const std::string& name = created.match().name();
  PlayFirstMoves(*stub_, created, 6);
  std::ostringstream log;
  absl::StatusOr<EngineSeat> seat = MakeEngineSeat(GetMatch(name), "search:2", 3, [&log](const std::string& l) { log << l; });
  ASSERT_TRUE(seat.ok()) << seat.status();
  RemotePlayerOptions options;
  options.view_mask = EngineViewMask();
  options.replay_events = true;
  options.on_view = seat->on_view;
  RemotePlayer searcher(*stub_, name, created.seat_tokens(1).token(), seat->chooser, options);
  RemotePlayer other(*stub_, name, created.seat_tokens(0).token(), RandomChooser(1));
  searcher.Start();
  other.Start();
  ASSERT_TRUE(searcher.Wait().ok());
  ASSERT_TRUE(other.Wait().ok());
  EXPECT_EQ(GetMatch(name).state(), v1::Match::FINISHED);
  EXPECT_EQ(searcher.stats().error_rejections, 0);
  EXPECT_GT(searcher.stats().actions_acknowledged, 5);
  EXPECT_EQ(log.str(), "");  // it never played at random
}

}  // namespace
}  // namespace boneyard::client
