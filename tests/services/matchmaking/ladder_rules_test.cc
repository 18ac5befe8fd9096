// ladder_rules.h: a ladder's settings checked and completed, bot accounts' accept rules, and
// what a challenge becomes — each rule of ladder.proto on its own, with no database.
#include "services/matchmaking/ladder_rules.h"

#include <limits>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/random/random.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard::matchmaking {
namespace {

using ::testing::HasSubstr;

v1::Ladder MugginsLadder() {
  v1::Ladder ladder;
  ladder.set_display_name("Muggins ladder");
  ladder.set_game("muggins");
  v1::HouseBot& bot = *ladder.add_house_bots();
  bot.set_bot_id("search-2");
  bot.set_kind("search");
  bot.set_level(2);
  return ladder;
}

void ExpectInvalid(const absl::StatusOr<v1::Ladder>& ladder, const std::string& field) {
  EXPECT_EQ(ladder.status().code(), absl::StatusCode::kInvalidArgument) << field;
  EXPECT_THAT(ladder.status().message(), HasSubstr(field));
}

TEST(LadderRulesTest, ALadderIsCompletedWithTwoSeatsAndItsHouseBotsIds) {
  absl::StatusOr<v1::Ladder> ladder = NormalizedLadder("mug", MugginsLadder());
  ASSERT_TRUE(ladder.ok()) << ladder.status();
  EXPECT_EQ(ladder->rules().at("players").int_value(), 2);
  EXPECT_EQ(ladder->house_bots(0).rating_id(), "house:mug:search-2");
  EXPECT_EQ(ladder->house_bots(0).display_name(), "search level 2");
  EXPECT_EQ(HouseBotName("mug", "search-2"), "ladders/mug/bots/search-2");
  EXPECT_EQ(HumanVsBotWeight(*ladder), 1.0);
  EXPECT_EQ(BotVsBotDailyCap(*ladder), kDefaultBotVsBotDailyCap);
}

TEST(LadderRulesTest, BadSettingsAreRefusedNamingTheField) {
  ExpectInvalid(NormalizedLadder("", MugginsLadder()), "ladder_id");
  ExpectInvalid(NormalizedLadder(std::string(33, 'a'), MugginsLadder()), "ladder_id");
  ExpectInvalid(NormalizedLadder("Caps", MugginsLadder()), "ladder_id");
  v1::Ladder l = MugginsLadder();
  l.set_display_name("");
  ExpectInvalid(NormalizedLadder("mug", l), "ladder.display_name");
  l = MugginsLadder();
  l.set_game("chess");
  ExpectInvalid(NormalizedLadder("mug", l), "ladder.game");
  l = MugginsLadder();
  (*l.mutable_rules())["players"].set_int_value(4);  // seats beyond the two sides', no fill bot
  ExpectInvalid(NormalizedLadder("mug", l), "ladder.fill_bot_id");
  l = MugginsLadder();
  (*l.mutable_rules())["no_such_option"].set_int_value(1);
  ExpectInvalid(NormalizedLadder("mug", l), "ladder.rules");
  l = MugginsLadder();
  l.set_game("castle_rock");  // solitaire
  l.clear_house_bots();
  ExpectInvalid(NormalizedLadder("mug", l), "ladder.rules");
  l = MugginsLadder();
  l.mutable_house_bots(0)->set_kind("oracle");
  ExpectInvalid(NormalizedLadder("mug", l), "ladder.house_bots[0].kind");
  l = MugginsLadder();
  l.mutable_house_bots(0)->set_level(9);
  ExpectInvalid(NormalizedLadder("mug", l), "ladder.house_bots[0].level");
  l = MugginsLadder();
  *l.add_house_bots() = l.house_bots(0);
  ExpectInvalid(NormalizedLadder("mug", l), "ladder.house_bots[1].bot_id");
  l = MugginsLadder();
  l.mutable_house_bots(0)->set_bot_id("Search 2");
  ExpectInvalid(NormalizedLadder("mug", l), "ladder.house_bots[0].bot_id");
  for (double bad : {-0.5, 1.01, std::numeric_limits<double>::quiet_NaN()}) {
    l = MugginsLadder();
    l.set_human_vs_bot_weight(bad);
    ExpectInvalid(NormalizedLadder("mug", l), "ladder.human_vs_bot_weight");
  }
  for (int bad : {-1, kMaxBotVsBotDailyCap + 1}) {
    l = MugginsLadder();
    l.set_bot_vs_bot_daily_cap(bad);
    ExpectInvalid(NormalizedLadder("mug", l), "ladder.bot_vs_bot_daily_cap");
  }
  l = MugginsLadder();
  l.mutable_clock()->set_timeout_policy(v1::ClockSettings::FORFEIT);
  ExpectInvalid(NormalizedLadder("mug", l), "ladder.clock.timeout_policy");
}

v1::Ladder FortyTwoLadder() {
  v1::Ladder ladder;
  ladder.set_display_name("Forty-Two ladder");
  ladder.set_game("forty_two");
  for (const auto& [id, kind, level] : {std::tuple{"s3", "search", 3}, {"h", "heuristic", 0}}) {
    v1::HouseBot& bot = *ladder.add_house_bots();
    bot.set_bot_id(id);
    bot.set_kind(kind);
    bot.set_level(level);
  }
  ladder.set_fill_bot_id("h");
  return ladder;
}

TEST(LadderRulesTest, RulesThatSeatMoreThanTwoNeedAHouseBotForTheOtherSeats) {
  absl::StatusOr<v1::Ladder> ladder = NormalizedLadder("ftw", FortyTwoLadder());
  ASSERT_TRUE(ladder.ok()) << ladder.status();
  absl::StatusOr<LadderTable> table = TableOf(*ladder);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(table->seats, 4);
  EXPECT_EQ(table->teams, (std::vector<std::vector<int>>{{0, 2}, {1, 3}}));
  EXPECT_TRUE(table->NeedsFill());

  v1::Ladder l = FortyTwoLadder();
  l.clear_fill_bot_id();
  ExpectInvalid(NormalizedLadder("ftw", l), "ladder.fill_bot_id");
  l.set_fill_bot_id("nobody");
  ExpectInvalid(NormalizedLadder("ftw", l), "ladder.fill_bot_id");
  // Two seats leave none to fill.
  l = MugginsLadder();
  l.set_fill_bot_id("search-2");
  ExpectInvalid(NormalizedLadder("mug", l), "ladder.fill_bot_id");
  // A table of three without teams, and Muggins' partnership game.
  l = MugginsLadder();
  l.set_game("moon");
  l.mutable_house_bots(0)->set_kind("heuristic");
  l.mutable_house_bots(0)->set_level(0);
  l.set_fill_bot_id("search-2");
  ladder = NormalizedLadder("moon", l);
  ASSERT_TRUE(ladder.ok()) << ladder.status();
  table = TableOf(*ladder);
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(table->seats, 3);
  EXPECT_TRUE(table->teams.empty());
  l = MugginsLadder();
  (*l.mutable_rules())["players"].set_int_value(4);
  (*l.mutable_rules())["teams"].set_bool_value(true);
  l.set_fill_bot_id("search-2");
  ladder = NormalizedLadder("mug", l);
  ASSERT_TRUE(ladder.ok()) << ladder.status();
  EXPECT_EQ(TableOf(*ladder)->teams.size(), 2u);
}

// Every seat the draw may give, as (challenger, opponent) pairs over many draws.
std::set<std::pair<int, int>> DrawnSeats(const LadderTable& table) {
  std::set<std::pair<int, int>> seen;
  absl::BitGen gen;
  for (int i = 0; i < 2000; ++i) {
    const LadderSeats seats = DrawLadderSeats(table, gen);
    seen.insert({seats.challenger, seats.opponent});
  }
  return seen;
}

TEST(LadderRulesTest, TheTwoSidesSitOnOppositeTeamsOrAnywhereAtATableWithoutTeams) {
  // Two seats: either way round.
  EXPECT_EQ(DrawnSeats(LadderTable{.seats = 2, .teams = {}}),
            (std::set<std::pair<int, int>>{{0, 1}, {1, 0}}));
  // Forty-Two's partnerships: one seat of each team, any of them, either team the challenger's.
  EXPECT_EQ(DrawnSeats(LadderTable{.seats = 4, .teams = {{0, 2}, {1, 3}}}),
            (std::set<std::pair<int, int>>{
                {0, 1}, {0, 3}, {2, 1}, {2, 3}, {1, 0}, {1, 2}, {3, 0}, {3, 2}}));
  // Eighty-Four with six: teams of three.
  const std::set<std::pair<int, int>> six =
      DrawnSeats(LadderTable{.seats = 6, .teams = {{0, 2, 4}, {1, 3, 5}}});
  EXPECT_EQ(six.size(), 18u);
  for (const auto& [challenger, opponent] : six) EXPECT_NE(challenger % 2, opponent % 2);
  // Moon's three: any two different seats.
  EXPECT_EQ(DrawnSeats(LadderTable{.seats = 3, .teams = {}}),
            (std::set<std::pair<int, int>>{{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}}));
}

TEST(LadderRulesTest, ThePoolsBotIsTheHouseBotNearestInSkill) {
  v1::Ladder l = MugginsLadder();
  l.clear_house_bots();
  EXPECT_EQ(NearestHouseBot(l, 25, {}), nullptr);
  for (const char* id : {"low", "mid", "high"}) l.add_house_bots()->set_bot_id(id);
  EXPECT_EQ(NearestHouseBot(l, 25, {10, 24, 40})->bot_id(), "mid");
  EXPECT_EQ(NearestHouseBot(l, 35, {10, 24, 40})->bot_id(), "high");
  EXPECT_EQ(NearestHouseBot(l, -5, {10, 24, 40})->bot_id(), "low");
  EXPECT_EQ(NearestHouseBot(l, 17, {10, 24, 40})->bot_id(), "low");  // equals: the first
  EXPECT_EQ(PoolName("mug"), "ladders/mug/pool");
  EXPECT_EQ(PoolKey("mug"), "pool:mug");
}

TEST(LadderRulesTest, APoolWaitsBetweenASecondAndAnHour) {
  v1::Ladder l = MugginsLadder();
  l.mutable_pool_wait()->set_seconds(1);
  EXPECT_TRUE(NormalizedLadder("mug", l).ok());
  l.mutable_pool_wait()->set_seconds(3600);
  EXPECT_TRUE(NormalizedLadder("mug", l).ok());
  l.mutable_pool_wait()->set_seconds(3601);
  ExpectInvalid(NormalizedLadder("mug", l), "ladder.pool_wait");
  l.mutable_pool_wait()->set_seconds(-1);
  ExpectInvalid(NormalizedLadder("mug", l), "ladder.pool_wait");
}

TEST(LadderRulesTest, AcceptRulesDefaultToCasualOneAtATime) {
  absl::StatusOr<v1::BotAcceptRules> rules = NormalizedAcceptRules({}, /*given=*/false);
  ASSERT_TRUE(rules.ok());
  EXPECT_TRUE(rules->accept_casual());
  EXPECT_FALSE(rules->accept_rated());
  EXPECT_EQ(rules->max_concurrent(), 1);
  EXPECT_FALSE(rules->answer_myself());

  v1::BotAcceptRules bad;
  bad.set_accept_rated(true);
  bad.set_min_skill(30);
  bad.set_max_skill(20);
  EXPECT_THAT(NormalizedAcceptRules(bad, true).status().message(), HasSubstr("accept.min_skill"));
  bad.set_min_skill(std::numeric_limits<double>::infinity());
  EXPECT_THAT(NormalizedAcceptRules(bad, true).status().message(), HasSubstr("accept.min_skill"));
  bad = {};
  bad.set_accept_casual(true);
  bad.set_max_concurrent(-1);
  EXPECT_THAT(NormalizedAcceptRules(bad, true).status().message(),
              HasSubstr("accept.max_concurrent"));
  bad = {};
  EXPECT_EQ(NormalizedAcceptRules(bad, true).status().code(),
            absl::StatusCode::kInvalidArgument);  // accepts nothing
}

ChallengeSide Person(bool opted_in = false) {
  ChallengeSide s;
  s.name = "players/ann";
  s.rated_vs_bots = opted_in;
  s.skill = 25;
  return s;
}
ChallengeSide House() {
  ChallengeSide s;
  s.name = "ladders/mug/bots/search-2";
  s.bot = s.house = true;
  return s;
}
ChallengeSide Account(v1::BotAcceptRules rules) {
  ChallengeSide s;
  s.name = "players/robo";
  s.bot = true;
  s.accept = rules;
  return s;
}
v1::BotAcceptRules Rules(bool rated, bool casual, bool answer_myself = false) {
  v1::BotAcceptRules r;
  r.set_accept_rated(rated);
  r.set_accept_casual(casual);
  r.set_max_concurrent(1);
  r.set_answer_myself(answer_myself);
  return r;
}

TEST(DecideChallengeTest, AHouseBotAcceptsAtOnce) {
  absl::StatusOr<ChallengeDecision> d = DecideChallenge(MugginsLadder(), false, Person(), House());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->state, kChallengeAccepted);
}

TEST(DecideChallengeTest, RatedGamesAgainstBotsNeedThePersonsOptIn) {
  absl::StatusOr<ChallengeDecision> d = DecideChallenge(MugginsLadder(), true, Person(), House());
  EXPECT_EQ(d.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(d.status().message(), HasSubstr("players/ann has not opted in"));
  // Whichever side challenges.
  d = DecideChallenge(MugginsLadder(), true, Account(Rules(true, true)), Person());
  EXPECT_EQ(d.status().code(), absl::StatusCode::kFailedPrecondition);
  d = DecideChallenge(MugginsLadder(), true, Person(/*opted_in=*/true), House());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->state, kChallengeAccepted);
  // Between two people the opt-in does not matter.
  ChallengeSide bob = Person();
  bob.name = "players/bob";
  d = DecideChallenge(MugginsLadder(), true, Person(), bob);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->state, kChallengeOffered);
}

TEST(DecideChallengeTest, BotAccountsFollowTheirRules) {
  auto decide = [](bool rated, const ChallengeSide& challenger, const ChallengeSide& bot) {
    absl::StatusOr<ChallengeDecision> d = DecideChallenge(MugginsLadder(), rated, challenger, bot);
    EXPECT_TRUE(d.ok()) << d.status();
    return d.ok() ? *d : ChallengeDecision{};
  };
  EXPECT_EQ(decide(false, Person(), Account(Rules(false, true))).state, kChallengeAccepted);
  ChallengeDecision d = decide(true, Person(true), Account(Rules(false, true)));
  EXPECT_EQ(d.state, kChallengeDeclined);
  EXPECT_THAT(d.reason, HasSubstr("rated"));
  d = decide(false, Person(), Account(Rules(true, false)));
  EXPECT_EQ(d.state, kChallengeDeclined);
  EXPECT_THAT(d.reason, HasSubstr("casual"));
  EXPECT_EQ(decide(false, Person(), Account(Rules(true, true, /*answer_myself=*/true))).state,
            kChallengeOffered);

  v1::BotAcceptRules range = Rules(false, true);
  range.set_min_skill(26);
  d = decide(false, Person(), Account(range));
  EXPECT_EQ(d.state, kChallengeDeclined);
  EXPECT_THAT(d.reason, HasSubstr("below its minimum 26"));
  range.set_min_skill(10);
  range.set_max_skill(20);
  d = decide(false, Person(), Account(range));
  EXPECT_THAT(d.reason, HasSubstr("above its maximum 20"));
  range.set_max_skill(30);
  EXPECT_EQ(decide(false, Person(), Account(range)).state, kChallengeAccepted);

  ChallengeSide busy = Account(Rules(false, true));
  busy.active_matches = 1;
  d = decide(false, Person(), busy);
  EXPECT_EQ(d.state, kChallengeDeclined);
  EXPECT_THAT(d.reason, HasSubstr("limit of 1"));
  busy.accept.set_max_concurrent(2);
  EXPECT_EQ(decide(false, Person(), busy).state, kChallengeAccepted);
}

TEST(DecideChallengeTest, BotVersusBotGamesAreCappedPerDay) {
  v1::Ladder ladder = MugginsLadder();
  ladder.set_bot_vs_bot_daily_cap(2);
  ChallengeSide robo = Account(Rules(false, true));
  robo.bot_games_last_day = 1;
  absl::StatusOr<ChallengeDecision> d = DecideChallenge(ladder, false, robo, House());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->state, kChallengeAccepted);
  robo.bot_games_last_day = 2;
  d = DecideChallenge(ladder, false, robo, House());
  EXPECT_EQ(d.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(d.status().message(), HasSubstr("bot_vs_bot_daily_cap"));
  // A person is never capped.
  ChallengeSide ann = Person();
  ann.bot_games_last_day = 99;
  EXPECT_TRUE(DecideChallenge(ladder, false, ann, House()).ok());
  // A cap of 0: no games between bots at all.
  ladder.set_bot_vs_bot_daily_cap(0);
  robo.bot_games_last_day = 0;
  EXPECT_EQ(DecideChallenge(ladder, false, robo, House()).status().code(),
            absl::StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace boneyard::matchmaking
