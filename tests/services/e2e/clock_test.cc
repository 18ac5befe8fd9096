// Move clocks against the real service: a seat that never acts is played for by the service
// (AUTO_PLAY_DEFAULT_BOT: the game's default bot) until the match finishes, or forfeits at its
// first timeout (FORFEIT); views carry the mover's deadline while a player is to move.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "engine/bots/bot.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "services/execution/bot_seeds.h"
#include "tests/services/e2e/e2e_helpers.h"

namespace boneyard::e2e {
namespace {

constexpr absl::Duration kPerMove = absl::Milliseconds(200);
// The lowest Muggins target, so a match whose player never acts is short.
constexpr int64_t kShortTarget = 50;
constexpr uint64_t kSeed = 31337;
constexpr absl::Duration kWaitBound = absl::Seconds(120);

class ClockTest : public ServiceTest {};

int64_t Nanos(const google::protobuf::Timestamp& t) {
  return t.seconds() * 1'000'000'000 + t.nanos();
}

v1::CreateMatchRequest ClockedRequest(const std::vector<SeatSpec>& seats, int64_t target,
                                      v1::ClockSettings::TimeoutPolicy policy) {
  v1::CreateMatchRequest request = MatchRequest("muggins", {{"target", IntRule(target)}}, seats);
  request.set_seed(kSeed);
  request.mutable_clock()->mutable_per_move()->set_nanos(
      static_cast<int32_t>(absl::ToInt64Nanoseconds(kPerMove)));
  request.mutable_clock()->set_timeout_policy(policy);
  return request;
}

client::Chooser Never() {
  return [](const v1::SeatView&) { return std::optional<std::string>(); };
}

// Seat 0 of `run`'s match is a player that never acts: the service plays its every move until
// the match ends, which this waits for.
void SleepThroughTheMatch(MatchRun& run, const std::vector<Stub*>& stubs, bool keep_views) {
  PlayerSetup setup;
  setup.keep_views = keep_views;
  setup.chooser = [](int, int) { return Never(); };
  AddPlayers(run, 0, stubs, setup);
  ASSERT_EQ(run.players.size(), 1u);
  run.players[0]->Start();
  const std::optional<absl::Status> status = run.players[0]->WaitFor(kWaitBound);
  ASSERT_TRUE(status.has_value()) << "the match did not finish";
  ASSERT_TRUE(status->ok()) << *status;
  EXPECT_EQ(run.players[0]->stats().actions_sent, 0);
}

// The deadline rules every view must follow: while a player seat (one of `player_seats`) is to
// move, the deadline is its turn's start (the last event's time, or the match's creation) plus
// kPerMove; otherwise (a bot to move, the match over) there is none. Returns the views that
// had a deadline.
template <class View>
int ExpectDeadlines(const std::vector<View>& views, const std::vector<bool>& player_seat,
                    const v1::Match& match, const std::string& who) {
  int with_deadline = 0;
  for (const View& view : views) {
    SCOPED_TRACE(absl::StrCat(who, " view at sequence ", view.sequence()));
    const bool player_to_move = !view.terminal() && view.current_seat() >= 0 &&
                                player_seat[static_cast<size_t>(view.current_seat())];
    EXPECT_EQ(view.has_deadline(), player_to_move);
    if (!view.has_deadline()) continue;
    ++with_deadline;
    const int64_t turn_start = view.has_last_event() ? Nanos(view.last_event().create_time())
                                                     : Nanos(match.create_time());
    EXPECT_EQ(Nanos(view.deadline()) - turn_start, absl::ToInt64Nanoseconds(kPerMove));
  }
  return with_deadline;
}

TEST_F(ClockTest, AutoPlayDefaultBotPlaysForASeatThatNeverActsUntilTheMatchFinishes) {
  // Seat 0 a player that never acts, seat 1 the greedy bot.
  const v1::CreateMatchRequest request =
      ClockedRequest({SeatSpec::Player("sleeper"), SeatSpec::Bot("greedy")}, kShortTarget,
                     v1::ClockSettings::AUTO_PLAY_DEFAULT_BOT);
  absl::StatusOr<v1::CreateMatchResponse> created = CreateMatch(stub(), operator_token(), request);
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(created->match().clock().timeout_policy(), v1::ClockSettings::AUTO_PLAY_DEFAULT_BOT);
  Spectator spectator(stub(1), created->match().name());
  MatchRun run{*created, {}, {}, {}};
  ASSERT_NO_FATAL_FAILURE(SleepThroughTheMatch(run, stubs(), /*keep_views=*/true));

  absl::StatusOr<v1::Match> match = GetMatch(stub(), run.name());
  ASSERT_TRUE(match.ok()) << match.status();
  EXPECT_EQ(match->state(), v1::Match::FINISHED);
  ASSERT_TRUE(match->has_result());
  EXPECT_EQ(match->result().forfeited_seats_size(), 0);

  const std::vector<v1::SeatView> views = run.logs[0]->views();
  ASSERT_FALSE(views.empty());
  EXPECT_TRUE(views.back().terminal());
  int timeouts = 0;
  for (const v1::SeatView& view : views) {
    if (!view.has_last_event()) continue;
    const v1::MatchEvent& event = view.last_event();
    SCOPED_TRACE(absl::StrCat("event ", event.sequence()));
    if (event.seat() == 0) {
      EXPECT_EQ(event.reason(), v1::MatchEvent::TIMEOUT_AUTO_PLAY);
      EXPECT_FALSE(event.action().text().empty());
      // Not before the deadline.
      EXPECT_GE(Nanos(event.create_time()) - Nanos(event.turn_start_time()),
                absl::ToInt64Nanoseconds(kPerMove));
      ++timeouts;
    } else {
      EXPECT_EQ(event.seat(), 1);
      EXPECT_EQ(event.reason(), v1::MatchEvent::PLAYED);
    }
  }
  EXPECT_GT(timeouts, 0) << "no TIMEOUT_AUTO_PLAY event was seen";
  EXPECT_GT(ExpectDeadlines(views, {true, false}, *match, "seat 0"), 0);
  const std::optional<absl::Status> watched = spectator.WaitDone(kWaitBound);
  ASSERT_TRUE(watched.has_value());
  EXPECT_TRUE(watched->ok()) << *watched;
  EXPECT_GT(ExpectDeadlines(spectator.views(), {true, false}, *match, "spectator"), 0);

  // The auto-played moves are actions of the record, which replays to the result.
  absl::StatusOr<v1::Record> record = GetRecord(stub(), run.name());
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(static_cast<int64_t>(FlattenActions(*record).size()), match->sequence());
  absl::StatusOr<std::unique_ptr<State>> state = ReplayProto(*record);
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_TRUE((*state)->IsTerminal());
  EXPECT_TRUE(ResultIsEngines(match->result(), **state));
  EXPECT_TRUE(SameMessage(views.back().result(), match->result()));
}

// The game's default bot stands in for a timed-out seat: in Forty-Two that is the heuristic
// bot (a random stand-in would trump its partner's winning trick). Every move played for the
// sleeping seat is the one the default bot, seeded as the service seeds it, picks from that
// seat's view.
TEST_F(ClockTest, ATimedOutFortyTwoSeatPlaysTheDefaultBotsMove) {
  const GameSpec* spec = DefaultRegistry().Find("forty_two");
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->default_bot, "heuristic");
  v1::CreateMatchRequest request = MatchRequest(
      "forty_two", {{"scoring", StringRule("marks")}, {"marks_target", IntRule(1)}},
      {SeatSpec::Player("sleeper"), SeatSpec::Bot("heuristic"), SeatSpec::Bot("heuristic"),
       SeatSpec::Bot("heuristic")});
  request.set_seed(kSeed);
  request.mutable_clock()->mutable_per_move()->set_nanos(
      static_cast<int32_t>(absl::ToInt64Nanoseconds(kPerMove)));
  request.mutable_clock()->set_timeout_policy(v1::ClockSettings::AUTO_PLAY_DEFAULT_BOT);
  absl::StatusOr<v1::CreateMatchResponse> created = CreateMatch(stub(), operator_token(), request);
  ASSERT_TRUE(created.ok()) << created.status();
  MatchRun run{*created, {}, {}, {}};
  ASSERT_NO_FATAL_FAILURE(SleepThroughTheMatch(run, stubs(), /*keep_views=*/false));

  absl::StatusOr<v1::Record> record = GetRecord(stub(), run.name());
  ASSERT_TRUE(record.ok()) << record.status();
  const std::vector<v1::Record::RecordedAction> actions = FlattenActions(*record);
  absl::StatusOr<std::vector<std::unique_ptr<State>>> states = StatesAfterEachAction(*record);
  ASSERT_TRUE(states.ok()) << states.status();
  ASSERT_EQ(states->size(), actions.size() + 1);
  const Game& game = states->front()->game();
  absl::StatusOr<std::unique_ptr<Bot>> stand_in =
      DefaultBots().MakeDefault(game, DeriveSeed(kSeed, execution::kStandInSeedStream));
  ASSERT_TRUE(stand_in.ok()) << stand_in.status();
  int played_for_sleeper = 0;
  int with_a_choice = 0;
  for (size_t i = 0; i < actions.size(); ++i) {
    if (actions[i].seat() != 0) continue;
    SCOPED_TRACE(absl::StrCat("action ", i, ": ", actions[i].action()));
    const State& before = *(*states)[i];
    ActionList legal;
    before.LegalActions(legal);
    const Action expected = (*stand_in)->ChooseAction(*before.ViewFor(0), legal.span());
    EXPECT_EQ(actions[i].action(), before.ActionToString(expected));
    ++played_for_sleeper;
    if (legal.size() > 1) ++with_a_choice;
  }
  // A bid and seven tiles at least, most of them with a choice to make.
  EXPECT_GE(played_for_sleeper, 8);
  EXPECT_GE(with_a_choice, 4);
}

TEST_F(ClockTest, ForfeitEndsTheMatchAtTheFirstTimeout) {
  // Seat 0 plays at random; seat 1 never acts and forfeits on its first turn.
  const v1::CreateMatchRequest request =
      ClockedRequest({SeatSpec::Player("active"), SeatSpec::Player("sleeper")}, 100,
                     v1::ClockSettings::FORFEIT);
  absl::StatusOr<v1::CreateMatchResponse> created = CreateMatch(stub(), operator_token(), request);
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(created->match().clock().timeout_policy(), v1::ClockSettings::FORFEIT);
  constexpr int kSleeper = 1;
  PlayerSetup setup;
  setup.keep_views = true;
  setup.chooser = [](int /*match*/, int seat) {
    return seat == kSleeper ? Never() : client::RandomChooser(static_cast<uint64_t>(seat) + 1);
  };
  MatchRun run{*created, {}, {}, {}};
  AddPlayers(run, 0, stubs(), setup);
  ASSERT_EQ(run.players.size(), 2u);
  for (auto& player : run.players) player->Start();
  for (auto& player : run.players) {
    const std::optional<absl::Status> status = player->WaitFor(kWaitBound);
    ASSERT_TRUE(status.has_value()) << "the match did not end";
    EXPECT_TRUE(status->ok()) << *status;
  }

  absl::StatusOr<v1::Match> match = GetMatch(stub(), run.name());
  ASSERT_TRUE(match.ok()) << match.status();
  EXPECT_EQ(match->state(), v1::Match::FINISHED);
  ASSERT_TRUE(match->has_result());
  EXPECT_EQ(Ints(match->result().forfeited_seats()), std::vector<int>{kSleeper});
  EXPECT_EQ(Ints(match->result().ranks()), (std::vector<int>{1, 2}));
  EXPECT_EQ(Ints(match->result().winners()), std::vector<int>{1 - kSleeper});

  for (size_t p = 0; p < run.players.size(); ++p) {
    const int seat = run.seats[p];
    SCOPED_TRACE(absl::StrCat("seat ", seat));
    const std::vector<v1::SeatView> views = run.logs[p]->views();
    ASSERT_FALSE(views.empty());
    const v1::SeatView& end = views.back();
    EXPECT_TRUE(end.terminal());
    EXPECT_EQ(end.current_seat(), kNobody);
    EXPECT_EQ(end.sequence(), match->sequence());
    EXPECT_EQ(end.last_event().reason(), v1::MatchEvent::TIMEOUT_FORFEIT);
    EXPECT_EQ(end.last_event().seat(), kSleeper);
    EXPECT_TRUE(end.last_event().action().text().empty());
    EXPECT_GE(Nanos(end.last_event().create_time()) - Nanos(end.last_event().turn_start_time()),
              absl::ToInt64Nanoseconds(kPerMove));
    ASSERT_TRUE(end.has_result());
    EXPECT_TRUE(SameMessage(end.result(), match->result()));
    // Every event before the forfeit was the active seat's own play: the first timeout ended it.
    for (size_t i = 0; i + 1 < views.size(); ++i) {
      if (!views[i].has_last_event()) continue;
      EXPECT_EQ(views[i].last_event().reason(), v1::MatchEvent::PLAYED);
      EXPECT_EQ(views[i].last_event().seat(), 1 - kSleeper);
    }
    EXPECT_GT(ExpectDeadlines(views, {true, true}, *match, absl::StrCat("seat ", seat)), 0);
  }

  // The record holds the actions before the forfeit and the service's result.
  absl::StatusOr<v1::Record> record = GetRecord(stub(), run.name());
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(static_cast<int64_t>(FlattenActions(*record).size()), match->sequence() - 1);
  ASSERT_TRUE(record->has_result());
  EXPECT_EQ(Ints(record->result().forfeited_seats()), std::vector<int>{kSleeper});
  absl::StatusOr<std::unique_ptr<State>> state = ReplayProto(*record);
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_FALSE((*state)->IsTerminal());
  EXPECT_EQ((*state)->CurrentSeat(), kSleeper);
}

TEST_F(ClockTest, APerMoveWithoutAPolicyMeansAutoPlayDefaultBot) {
  v1::CreateMatchRequest request =
      ClockedRequest({SeatSpec::Player("a"), SeatSpec::Player("b")}, 100,
                     v1::ClockSettings::TIMEOUT_POLICY_UNSPECIFIED);
  absl::StatusOr<v1::CreateMatchResponse> created = CreateMatch(stub(), operator_token(), request);
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(created->match().clock().timeout_policy(), v1::ClockSettings::AUTO_PLAY_DEFAULT_BOT);
  EXPECT_EQ(created->match().clock().per_move().nanos(), absl::ToInt64Nanoseconds(kPerMove));
  absl::StatusOr<v1::Match> match = GetMatch(stub(), created->match().name());
  ASSERT_TRUE(match.ok()) << match.status();
  EXPECT_EQ(match->clock().timeout_policy(), v1::ClockSettings::AUTO_PLAY_DEFAULT_BOT);
  ASSERT_TRUE(AbortMatch(stub(), operator_token(), created->match().name(), "done").ok());
}

}  // namespace
}  // namespace boneyard::e2e
