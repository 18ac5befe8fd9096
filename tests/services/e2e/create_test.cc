// CreateMatch's idempotency and validation, and AbortMatch, against the real service.
#include <atomic>
#include <memory>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "gtest/gtest.h"
#include "tests/services/e2e/e2e_helpers.h"

namespace boneyard::e2e {
namespace {

// Concurrent CreateMatch calls repeating one request_id.
constexpr int kConcurrentCreates = 8;
constexpr int kMaxRequestIdLength = 128;
// Actions played before the operator aborts the match.
constexpr int kActionsBeforeAbort = 6;
constexpr absl::Duration kWaitBound = absl::Seconds(60);
constexpr uint64_t kSeed = 4242;

class CreateTest : public ServiceTest {
 protected:
  size_t CountMatches() {
    absl::StatusOr<std::vector<v1::Match>> all = ListAllMatches(stub());
    EXPECT_TRUE(all.ok()) << all.status();
    return all.ok() ? all->size() : 0;
  }

  // Plays every player seat of a created match to the end (random legal moves); the match as
  // it is then.
  absl::StatusOr<v1::Match> PlayToTheEnd(const v1::CreateMatchResponse& created) {
    MatchRun run{created, {}, {}, {}};
    AddPlayers(run, 0, stubs(), PlayerSetup{});
    for (auto& player : run.players) player->Start();
    for (auto& player : run.players) {
      const std::optional<absl::Status> status = player->WaitFor(kWaitBound);
      if (!status.has_value()) return absl::DeadlineExceededError("a player did not finish");
      if (!status->ok()) return *status;
    }
    return GetMatch(stub(), run.name());
  }
};

std::vector<std::pair<int, std::string>> Tokens(const v1::CreateMatchResponse& response) {
  std::vector<std::pair<int, std::string>> out;
  for (const v1::SeatToken& token : response.seat_tokens()) {
    out.emplace_back(token.seat(), token.token());
  }
  return out;
}

// The same match: everything but the times, which may lose sub-microsecond digits in storage.
::testing::AssertionResult SameMatch(const v1::Match& a, const v1::Match& b) {
  v1::Match x = a;
  v1::Match y = b;
  for (v1::Match* m : {&x, &y}) {
    m->clear_update_time();
    m->mutable_create_time()->set_nanos(m->create_time().nanos() / 1000 * 1000);
  }
  if (SameMessage(x, y)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "first:\n" << Text(a) << "second:\n" << Text(b);
}

TEST_F(CreateTest, RepeatingARequestIdReturnsTheSameMatchAndTokens) {
  v1::CreateMatchRequest request = MatchRequest("muggins", {{"target", IntRule(100)}}, 2);
  request.set_request_id("5a7f9c1e-0000-4000-8000-000000000001");
  absl::StatusOr<v1::CreateMatchResponse> first = CreateMatch(stub(), operator_token(), request);
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_EQ(first->seat_tokens_size(), 2);
  absl::StatusOr<v1::CreateMatchResponse> again = CreateMatch(stub(1), operator_token(), request);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->match().name(), first->match().name());
  EXPECT_EQ(Tokens(*again), Tokens(*first));
  EXPECT_TRUE(SameMatch(again->match(), first->match()));
  EXPECT_EQ(CountMatches(), 1u);

  // Concurrently: one match, every caller gets it.
  v1::CreateMatchRequest racing = MatchRequest("muggins", {{"target", IntRule(100)}}, 2);
  racing.set_request_id("5a7f9c1e-0000-4000-8000-000000000002");
  std::vector<absl::StatusOr<v1::CreateMatchResponse>> results(kConcurrentCreates,
                                                               absl::UnknownError("not run"));
  std::vector<std::thread> threads;
  for (int i = 0; i < kConcurrentCreates; ++i) {
    threads.emplace_back([&, i] { results[i] = CreateMatch(stub(i), operator_token(), racing); });
  }
  for (std::thread& thread : threads) thread.join();
  for (int i = 0; i < kConcurrentCreates; ++i) {
    ASSERT_TRUE(results[i].ok()) << "call " << i << ": " << results[i].status();
    EXPECT_EQ(results[i]->match().name(), results[0]->match().name()) << "call " << i;
    EXPECT_EQ(Tokens(*results[i]), Tokens(*results[0])) << "call " << i;
    EXPECT_EQ(results[i]->seat_tokens_size(), 2) << "call " << i;
  }
  EXPECT_NE(results[0]->match().name(), first->match().name());
  EXPECT_EQ(CountMatches(), 2u);

  // Without a request_id every call creates a match.
  v1::CreateMatchRequest plain = MatchRequest("muggins", {{"target", IntRule(100)}}, 2);
  absl::StatusOr<v1::CreateMatchResponse> one = CreateMatch(stub(), operator_token(), plain);
  absl::StatusOr<v1::CreateMatchResponse> two = CreateMatch(stub(), operator_token(), plain);
  ASSERT_TRUE(one.ok() && two.ok());
  EXPECT_NE(one->match().name(), two->match().name());
  EXPECT_NE(Tokens(*one), Tokens(*two));
  EXPECT_EQ(CountMatches(), 4u);
}

TEST_F(CreateTest, ARequestIdReusedWithOtherParametersIsAlreadyExists) {
  v1::CreateMatchRequest request = MatchRequest("muggins", {{"target", IntRule(100)}}, 2);
  request.set_request_id("reused-id");
  absl::StatusOr<v1::CreateMatchResponse> first = CreateMatch(stub(), operator_token(), request);
  ASSERT_TRUE(first.ok()) << first.status();
  const std::string id = first->match().name().substr(std::string("matches/").size());

  std::vector<v1::CreateMatchRequest> others;
  others.push_back(MatchRequest("muggins", {{"target", IntRule(150)}}, 2));
  others.push_back(MatchRequest("muggins", {{"target", IntRule(100)}},
                                {SeatSpec::Player("p0"), SeatSpec::Bot("greedy")}));
  others.push_back(request);
  others.back().set_seed(7);
  others.push_back(MatchRequest("castle_rock", {}, 1));
  for (v1::CreateMatchRequest& other : others) {
    other.set_request_id("reused-id");
    absl::StatusOr<v1::CreateMatchResponse> result = CreateMatch(stub(), operator_token(), other);
    EXPECT_EQ(result.status().code(), absl::StatusCode::kAlreadyExists)
        << Text(other) << " → " << result.status();
    EXPECT_TRUE(absl::StrContains(result.status().message(), id)) << result.status();
  }
  EXPECT_EQ(CountMatches(), 1u);
}

TEST_F(CreateTest, BadRequestsAreInvalidArgumentNamingTheProblemAndCreateNothing) {
  struct Bad {
    std::string what;
    v1::CreateMatchRequest request;
    std::string named;  // the message names it
  };
  const RuleMap quick = {{"target", IntRule(100)}};
  std::vector<Bad> bad;
  bad.push_back({"unknown game", MatchRequest("chess", {}, 2), "chess"});
  bad.push_back({"unknown rule option",
                 MatchRequest("muggins", {{"colour", StringRule("red")}}, 2), "colour"});
  bad.push_back({"wrong rule type", MatchRequest("muggins", {{"target", StringRule("high")}}, 2),
                 "target"});
  bad.push_back({"rule value out of range",
                 MatchRequest("muggins", {{"target", IntRule(5)}}, 2), "target"});
  bad.push_back({"unset rule value", MatchRequest("muggins", {{"target", v1::RuleValue()}}, 2),
                 "target"});
  bad.push_back({"unknown preset",
                 MatchRequest("muggins", {{"preset", StringRule("no-such-preset")}}, 2),
                 "no-such-preset"});
  bad.push_back({"seat count differs from players",
                 MatchRequest("muggins", {{"players", IntRule(3)}}, 2), "seats"});
  bad.push_back({"seat count above the game's", MatchRequest("muggins", quick, 5), "players"});
  bad.push_back({"no seats", MatchRequest("muggins", quick, 0), "players"});
  bad.push_back({"empty player_id",
                 MatchRequest("muggins", quick, {SeatSpec::Player("p0"), SeatSpec::Player("")}),
                 "player_id"});
  {
    v1::CreateMatchRequest empty_seat = MatchRequest("muggins", quick, 1);
    empty_seat.add_seats();
    bad.push_back({"a seat with neither player nor bot", empty_seat, "seat 1"});
  }
  bad.push_back({"unknown bot kind",
                 MatchRequest("muggins", quick, {SeatSpec::Player("p0"), SeatSpec::Bot("minimax")}),
                 "minimax"});
  {
    v1::CreateMatchRequest level =
        MatchRequest("muggins", quick, {SeatSpec::Player("p0"), SeatSpec::Bot("greedy")});
    level.mutable_seats(1)->mutable_bot()->set_level(3);
    bad.push_back({"bot level 3", level, "level"});
  }
  for (int level : {6, -1}) {
    v1::CreateMatchRequest search =
        MatchRequest("muggins", quick, {SeatSpec::Player("p0"), SeatSpec::Bot("search")});
    search.mutable_seats(1)->mutable_bot()->set_level(level);
    bad.push_back({absl::StrCat("search bot level ", level), search, "bot.level"});
  }
  for (double weight : {-0.5, 1.5, std::numeric_limits<double>::quiet_NaN()}) {
    v1::CreateMatchRequest weighted = MatchRequest("muggins", quick, 2);
    weighted.mutable_seats(0)->mutable_player()->set_rating_weight(weight);
    bad.push_back({absl::StrCat("rating weight ", weight), weighted,
                   "seats[0].player.rating_weight"});
  }
  {
    v1::CreateMatchRequest rated_bot =
        MatchRequest("muggins", quick, {SeatSpec::Player("p0"), SeatSpec::Bot("greedy")});
    rated_bot.mutable_seats(1)->mutable_bot()->set_rating_id("house:a b");
    bad.push_back({"a rating id with a space", rated_bot, "seats[1].bot.rating_id"});
    rated_bot.mutable_seats(1)->mutable_bot()->set_rating_id("p0");
    bad.push_back({"a rating id that is a seated player's", rated_bot, "seats[1].bot.rating_id"});
  }
  {
    v1::CreateMatchRequest negative = MatchRequest("muggins", quick, 2);
    negative.mutable_clock()->mutable_per_move()->set_seconds(-1);
    bad.push_back({"negative per_move", negative, "per_move"});
  }
  {
    v1::CreateMatchRequest policy = MatchRequest("muggins", quick, 2);
    policy.mutable_clock()->set_timeout_policy(v1::ClockSettings::FORFEIT);
    bad.push_back({"timeout policy without per_move", policy, "per_move"});
  }
  {
    v1::CreateMatchRequest long_id = MatchRequest("muggins", quick, 2);
    long_id.set_request_id(std::string(kMaxRequestIdLength + 1, 'r'));
    bad.push_back({"request_id of 129 characters", long_id, "request_id"});
  }

  const size_t before = CountMatches();
  for (size_t i = 0; i < bad.size(); ++i) {
    Bad& b = bad[i];
    SCOPED_TRACE(b.what);
    if (b.request.request_id().empty()) b.request.set_request_id(absl::StrCat("bad-", i));
    absl::StatusOr<v1::CreateMatchResponse> result =
        CreateMatch(stub(), operator_token(), b.request);
    EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument) << result.status();
    EXPECT_TRUE(absl::StrContains(result.status().message(), b.named))
        << "the message does not name \"" << b.named << "\": " << result.status();
  }
  EXPECT_EQ(CountMatches(), before);

  // A refused request reserves nothing: its request_id creates a good match afterwards; and the
  // longest request_id allowed is fine.
  v1::CreateMatchRequest good = MatchRequest("muggins", quick, 2);
  good.set_request_id("bad-0");
  absl::StatusOr<v1::CreateMatchResponse> created = CreateMatch(stub(), operator_token(), good);
  EXPECT_TRUE(created.ok()) << created.status();
  good.set_request_id(std::string(kMaxRequestIdLength, 'r'));
  created = CreateMatch(stub(), operator_token(), good);
  EXPECT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(CountMatches(), before + 2);
}

// ----- AbortMatch ----------------------------------------------------------------------------

TEST_F(CreateTest, AbortMatchEndsALiveMatchOnEveryStreamAndKeepsItsPartialRecord) {
  v1::CreateMatchRequest request = MatchRequest("muggins", {{"target", IntRule(100)}}, 2);
  request.set_seed(kSeed);
  absl::StatusOr<v1::CreateMatchResponse> created = CreateMatch(stub(), operator_token(), request);
  ASSERT_TRUE(created.ok()) << created.status();
  const std::string name = created->match().name();
  Spectator spectator(stub(1), name);
  ASSERT_TRUE(spectator.WaitForViews(1, kWaitBound));

  // The seats play kActionsBeforeAbort actions between them, then nothing.
  auto budget = std::make_shared<std::atomic<int>>(kActionsBeforeAbort);
  absl::Mutex mu;
  int seats_at_target = 0;  // guarded by mu
  PlayerSetup setup;
  setup.chooser = [budget](int /*match*/, int seat) -> client::Chooser {
    client::Chooser random = client::RandomChooser(static_cast<uint64_t>(seat) + 1);
    return [budget, random](const v1::SeatView& view) -> std::optional<std::string> {
      if (budget->fetch_sub(1) <= 0) return std::nullopt;
      return random(view);
    };
  };
  setup.options.on_view = [&](const v1::SeatView& view) {
    if (view.sequence() == kActionsBeforeAbort) {
      absl::MutexLock lock(&mu);
      ++seats_at_target;
    }
  };
  MatchRun run{*created, {}, {}, {}};
  AddPlayers(run, 0, stubs(), setup);
  for (auto& player : run.players) player->Start();
  {
    absl::MutexLock lock(&mu);
    auto reached = [&]() { return seats_at_target >= 2; };
    ASSERT_TRUE(mu.AwaitWithTimeout(absl::Condition(&reached), kWaitBound))
        << "the match did not reach sequence " << kActionsBeforeAbort;
  }

  // While it is being played: no record, and an abort needs a reason.
  EXPECT_EQ(GetRecord(stub(), name).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(AbortMatch(stub(), operator_token(), name, "").status().code(),
            absl::StatusCode::kInvalidArgument);
  absl::StatusOr<v1::Match> live = GetMatch(stub(), name);
  ASSERT_TRUE(live.ok()) << live.status();
  EXPECT_EQ(live->state(), v1::Match::ACTIVE);
  EXPECT_EQ(live->sequence(), kActionsBeforeAbort);

  const std::string reason = "the table was double-booked";
  absl::StatusOr<v1::Match> aborted = AbortMatch(stub(), operator_token(), name, reason);
  ASSERT_TRUE(aborted.ok()) << aborted.status();
  EXPECT_EQ(aborted->state(), v1::Match::ABORTED);
  EXPECT_EQ(aborted->abort_reason(), reason);
  EXPECT_EQ(aborted->sequence(), kActionsBeforeAbort + 1);
  EXPECT_FALSE(aborted->has_result());
  EXPECT_TRUE(aborted->has_end_time());

  // Every stream got a terminal view saying so, then OK.
  for (size_t p = 0; p < run.players.size(); ++p) {
    SCOPED_TRACE(absl::StrCat("seat ", run.seats[p]));
    const std::optional<absl::Status> status = run.players[p]->WaitFor(kWaitBound);
    ASSERT_TRUE(status.has_value()) << "the player's stream did not end";
    EXPECT_TRUE(status->ok()) << *status;
    const std::optional<v1::SeatView> view = run.players[p]->last_view();
    ASSERT_TRUE(view.has_value());
    EXPECT_TRUE(view->terminal());
    EXPECT_EQ(view->sequence(), kActionsBeforeAbort + 1);
    EXPECT_EQ(view->current_seat(), kNobody);
    EXPECT_EQ(view->legal_actions_size(), 0);
    EXPECT_FALSE(view->has_result());
    EXPECT_EQ(view->last_event().reason(), v1::MatchEvent::OPERATOR_ABORT);
    EXPECT_EQ(view->last_event().seat(), -1);
    EXPECT_EQ(view->last_event().message(), reason);
    EXPECT_TRUE(view->last_event().action().text().empty());
  }
  const std::optional<absl::Status> watched = spectator.WaitDone(kWaitBound);
  ASSERT_TRUE(watched.has_value());
  EXPECT_TRUE(watched->ok()) << *watched;
  const std::vector<v1::PublicView> public_views = spectator.views();
  ASSERT_FALSE(public_views.empty());
  EXPECT_TRUE(public_views.back().terminal());
  EXPECT_EQ(public_views.back().last_event().reason(), v1::MatchEvent::OPERATOR_ABORT);
  EXPECT_EQ(public_views.back().last_event().message(), reason);

  // Aborting again returns it unchanged.
  absl::StatusOr<v1::Match> stored = GetMatch(stub(), name);
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->state(), v1::Match::ABORTED);
  absl::StatusOr<v1::Match> again = AbortMatch(stub(), operator_token(), name, "another reason");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(SameMessage(*again, *stored)) << "again:\n" << Text(*again) << "stored:\n"
                                            << Text(*stored);
  EXPECT_EQ(again->abort_reason(), reason);
  EXPECT_EQ(again->sequence(), aborted->sequence());
  // The end time as first answered, to the microsecond (storage keeps microseconds).
  EXPECT_EQ(again->end_time().seconds(), aborted->end_time().seconds());
  EXPECT_EQ(again->end_time().nanos() / 1000, aborted->end_time().nanos() / 1000)
      << "again: " << Text(again->end_time()) << "first: " << Text(aborted->end_time());

  // No more actions.
  absl::StatusOr<v1::SeatView> late =
      SubmitAction(stub(), created->seat_tokens(0).token(), name, "draw", aborted->sequence());
  EXPECT_EQ(late.status().code(), absl::StatusCode::kFailedPrecondition) << late.status();
  // A hello after the end still gets a terminal view (what it holds: EndedMatchesShow...).
  absl::StatusOr<v1::SeatView> hello = HelloView(stub(), created->seat_tokens(0).token(), name);
  ASSERT_TRUE(hello.ok()) << hello.status();
  EXPECT_TRUE(hello->terminal());
  EXPECT_EQ(hello->sequence(), aborted->sequence());

  // The partial record: the actions played, no result; it replays to an unfinished match.
  absl::StatusOr<v1::Record> record = GetRecord(stub(), name);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_FALSE(record->has_result());
  EXPECT_EQ(record->seed(), kSeed);
  EXPECT_EQ(FlattenActions(*record).size(), static_cast<size_t>(kActionsBeforeAbort));
  absl::StatusOr<std::unique_ptr<State>> state = ReplayProto(*record);
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_FALSE((*state)->IsTerminal());
}

TEST_F(CreateTest, AbortingAFinishedMatchIsFailedPrecondition) {
  const std::string game = DefaultRegistry().Names().front();
  const Variant variant = VariantsFor(game).front();
  absl::StatusOr<v1::CreateMatchResponse> created = CreateMatch(
      stub(), operator_token(), MatchRequest(game, variant.rules, variant.seats));
  ASSERT_TRUE(created.ok()) << created.status();
  absl::StatusOr<v1::Match> finished = PlayToTheEnd(*created);
  ASSERT_TRUE(finished.ok()) << finished.status();
  ASSERT_EQ(finished->state(), v1::Match::FINISHED);

  absl::StatusOr<v1::Match> aborted =
      AbortMatch(stub(), operator_token(), finished->name(), "too late");
  EXPECT_EQ(aborted.status().code(), absl::StatusCode::kFailedPrecondition) << aborted.status();
  absl::StatusOr<v1::Match> after = GetMatch(stub(), finished->name());
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_TRUE(SameMessage(*after, *finished));
}

// A built-in search bot at a level plays a whole match against a player through the service
// (it samples its worlds on the match's strand and thinks on the bot pool).
TEST_F(CreateTest, ASearchBotAtALevelPlaysAWholeMatch) {
  v1::CreateMatchRequest request = MatchRequest(
      "muggins", {{"target", IntRule(61)}}, {SeatSpec::Player("p0"), SeatSpec::Bot("search")});
  request.mutable_seats(1)->mutable_bot()->set_level(2);
  absl::StatusOr<v1::CreateMatchResponse> created = CreateMatch(stub(), operator_token(), request);
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(created->match().seats(1).bot().level(), 2);
  absl::StatusOr<v1::Match> finished = PlayToTheEnd(*created);
  ASSERT_TRUE(finished.ok()) << finished.status();
  EXPECT_EQ(finished->state(), v1::Match::FINISHED);
}

// ----- Views of a match that is over ---------------------------------------------------------

// A hello (Play) or a spectator (WatchMatch) that comes after a match ended gets the terminal
// view the streams got when it ended: with its last event (the last action, the operator's
// abort and reason, the forfeit), its scores and result. Only times may lose their digits below
// a microsecond (they come from the database then).
TEST_F(CreateTest, EndedMatchesShowLateHellosAndSpectatorsTheTerminalViewTheStreamsGot) {
  const std::string solitaire = DefaultRegistry().Names().front();
  const Variant variant = VariantsFor(solitaire).front();
  struct Ended {
    std::string how;
    v1::CreateMatchRequest request;
    bool play = false;   // the seats play (else they never act)
    bool abort = false;  // the operator aborts it once everyone has a view
  };
  std::vector<Ended> cases;
  cases.push_back({"finished", MatchRequest(solitaire, variant.rules, variant.seats), true, false});
  cases.push_back({"aborted", MatchRequest(solitaire, variant.rules, variant.seats), false, true});
  {
    // The only seat never acts and forfeits at its first deadline.
    v1::CreateMatchRequest forfeit = MatchRequest(solitaire, variant.rules, variant.seats);
    forfeit.mutable_clock()->mutable_per_move()->set_nanos(200'000'000);
    forfeit.mutable_clock()->set_timeout_policy(v1::ClockSettings::FORFEIT);
    cases.push_back({"forfeited", forfeit, false, false});
  }
  for (Ended& c : cases) {
    SCOPED_TRACE(c.how);
    c.request.set_seed(kSeed);
    absl::StatusOr<v1::CreateMatchResponse> created =
        CreateMatch(stub(), operator_token(), c.request);
    ASSERT_TRUE(created.ok()) << created.status();
    const std::string name = created->match().name();
    auto spectator = std::make_unique<Spectator>(stub(1), name);
    ASSERT_TRUE(spectator->WaitForViews(1, kWaitBound));
    PlayerSetup setup;
    setup.keep_views = true;
    if (!c.play) {
      setup.chooser = [](int, int) -> client::Chooser {
        return [](const v1::SeatView&) { return std::optional<std::string>(); };
      };
    }
    MatchRun run{*created, {}, {}, {}};
    AddPlayers(run, 0, stubs(), setup);
    for (auto& player : run.players) player->Start();
    if (c.abort) {
      for (const auto& log : run.logs) {
        ASSERT_TRUE(log->WaitForViews(1, kWaitBound)) << "a seat got no view";
      }
      ASSERT_TRUE(AbortMatch(stub(), operator_token(), name, "closing time").ok());
    }
    for (auto& player : run.players) {
      const std::optional<absl::Status> status = player->WaitFor(kWaitBound);
      ASSERT_TRUE(status.has_value());
      ASSERT_TRUE(status->ok()) << *status;
    }
    const std::optional<absl::Status> watched = spectator->WaitDone(kWaitBound);
    ASSERT_TRUE(watched.has_value());
    ASSERT_TRUE(watched->ok()) << *watched;
    const v1::PublicView streamed_public = spectator->views().back();
    ASSERT_TRUE(streamed_public.terminal());

    for (size_t p = 0; p < run.players.size(); ++p) {
      const v1::SeatView streamed = run.logs[p]->views().back();
      ASSERT_TRUE(streamed.terminal());
      ASSERT_TRUE(streamed.has_last_event());
      absl::StatusOr<v1::SeatView> hello =
          HelloView(stub(), run.created.seat_tokens(static_cast<int>(p)).token(), name);
      ASSERT_TRUE(hello.ok()) << hello.status();
      EXPECT_TRUE(hello->has_last_event()) << "a hello after the end has no last_event";
      EXPECT_TRUE(SameToTheMicrosecond(*hello, streamed))
          << "a hello after the end vs the terminal view streamed at the end";
    }
    Spectator late(stub(), name);
    const std::optional<absl::Status> late_done = late.WaitDone(kWaitBound);
    ASSERT_TRUE(late_done.has_value());
    EXPECT_TRUE(late_done->ok()) << *late_done;
    const std::vector<v1::PublicView> late_views = late.views();
    ASSERT_EQ(late_views.size(), 1u);
    EXPECT_TRUE(late_views[0].has_last_event()) << "a late spectator's view has no last_event";
    EXPECT_TRUE(SameToTheMicrosecond(late_views[0], streamed_public))
        << "a late spectator's view vs the one streamed at the end";
  }
}

}  // namespace
}  // namespace boneyard::e2e
