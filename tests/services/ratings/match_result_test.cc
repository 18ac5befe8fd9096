// RecordResult's validation (services/ratings/match_result.h): every malformed request
// ratings.proto lists is INVALID_ARGUMENT naming the field. No database.
#include "services/ratings/match_result.h"

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/services/ratings/ratings_test_util.h"

namespace boneyard::ratings {
namespace {

using ::testing::HasSubstr;
using test_util::FinishedMatch;
using test_util::Minute;
using test_util::Request;
using test_util::Solitaire;

v1::Match Partners() {
  return FinishedMatch("m1", "muggins", {{"ann", 1}, {"bob", 2}, {"cat", 1}, {"", 2}}, Minute(0),
                       {{0, 2}, {1, 3}});
}

TEST(ValidateResultTest, AcceptsTeamsAndBots) {
  absl::StatusOr<ValidResult> result = ValidateResult(Request(Partners()), DefaultRegistry());
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->match_id, "m1");
  EXPECT_EQ(result->game, "muggins");
  EXPECT_EQ(result->player_ids, (std::vector<std::string>{"ann", "bob", "cat", ""}));
  EXPECT_EQ(result->teams, (std::vector<std::vector<int>>{{0, 2}, {1, 3}}));
  EXPECT_EQ(result->team_ranks, (std::vector<double>{1, 2}));
  EXPECT_FALSE(result->solitaire.has_value());
  EXPECT_FALSE(result->canonical.empty());
}

TEST(ValidateResultTest, EverySeatItsOwnTeamWithoutTeams) {
  absl::StatusOr<ValidResult> result = ValidateResult(
      Request(FinishedMatch("m1", "muggins", {{"a", 2}, {"b", 1}, {"c", 2}}, Minute(0))),
      DefaultRegistry());
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->teams, (std::vector<std::vector<int>>{{0}, {1}, {2}}));
  EXPECT_EQ(result->team_ranks, (std::vector<double>{2, 1, 2}));
}

TEST(ValidateResultTest, CanonicalIgnoresWhatDoesNotDecideTheResult) {
  v1::Match a = Partners();
  v1::Match b = Partners();
  b.set_sequence(99);
  *b.mutable_update_time() = ToTimestamp(Minute(5));
  absl::StatusOr<ValidResult> ra = ValidateResult(Request(a), DefaultRegistry());
  absl::StatusOr<ValidResult> rb = ValidateResult(Request(b), DefaultRegistry());
  ASSERT_TRUE(ra.ok() && rb.ok());
  EXPECT_EQ(ra->canonical, rb->canonical);
  b.mutable_result()->set_scores(0, 62);
  rb = ValidateResult(Request(b), DefaultRegistry());
  ASSERT_TRUE(rb.ok());
  EXPECT_NE(ra->canonical, rb->canonical);
  EXPECT_THAT(DescribeCanonical(rb->canonical), HasSubstr("scores [62, 40, 61, 40]"));
}

TEST(ValidateResultTest, Solitaire) {
  absl::StatusOr<ValidResult> result = ValidateResult(
      Request(Solitaire("s1", "ann", 3, 17, absl::Seconds(95), Minute(0))), DefaultRegistry());
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_TRUE(result->solitaire.has_value());
  EXPECT_EQ(result->solitaire->tiles_left, 3);
  EXPECT_EQ(result->solitaire->pips_left, 17);
  EXPECT_EQ(result->solitaire->duration_millis, 95000);
  EXPECT_FALSE(result->solitaire->won);
}

struct BadCase {
  const char* name;
  std::function<void(v1::Match&)> mutate;
  const char* field;  // the message names it
};

class BadResultTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadResultTest, IsInvalidArgumentNamingTheField) {
  v1::Match match = GetParam().name == std::string("solitaire_nan") ||
                            GetParam().name == std::string("solitaire_negative") ||
                            GetParam().name == std::string("solitaire_fraction") ||
                            GetParam().name == std::string("solitaire_no_won") ||
                            GetParam().name == std::string("solitaire_ends_before_creation")
                        ? Solitaire("s1", "ann", 3, 17, absl::Seconds(95), Minute(0))
                        : Partners();
  GetParam().mutate(match);
  absl::StatusOr<ValidResult> result = ValidateResult(Request(match), DefaultRegistry());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument) << result.status();
  EXPECT_THAT(result.status().message(), HasSubstr(GetParam().field));
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();

INSTANTIATE_TEST_SUITE_P(
    Cases, BadResultTest,
    ::testing::Values(
        BadCase{"not_finished", [](v1::Match& m) { m.set_state(v1::Match::ACTIVE); },
                "match.state"},
        BadCase{"aborted", [](v1::Match& m) { m.set_state(v1::Match::ABORTED); }, "match.state"},
        BadCase{"no_result", [](v1::Match& m) { m.clear_result(); }, "match.result"},
        BadCase{"unknown_game", [](v1::Match& m) { m.set_game("dominion"); }, "match.game"},
        BadCase{"empty_game", [](v1::Match& m) { m.set_game(""); }, "match.game"},
        BadCase{"bad_name", [](v1::Match& m) { m.set_name("games/1"); }, "match.name"},
        BadCase{"bad_id", [](v1::Match& m) { m.set_name("matches/A B"); }, "match.name"},
        BadCase{"empty_id", [](v1::Match& m) { m.set_name("matches/"); }, "match.name"},
        BadCase{"no_end_time", [](v1::Match& m) { m.clear_end_time(); }, "match.end_time"},
        BadCase{"bad_end_time",
                [](v1::Match& m) { m.mutable_end_time()->set_nanos(-1); }, "match.end_time"},
        BadCase{"no_seats",
                [](v1::Match& m) {
                  m.clear_seats();
                  m.mutable_result()->clear_teams();
                },
                "match.seats"},
        BadCase{"too_many_seats",
                [](v1::Match& m) {
                  m.add_seats()->mutable_player()->set_player_id("dan");
                  m.mutable_result()->add_player_ids("dan");
                  m.mutable_result()->add_ranks(1);
                  m.mutable_result()->add_scores(1);
                },
                "match.seats"},
        BadCase{"fewer_ranks", [](v1::Match& m) { m.mutable_result()->mutable_ranks()->RemoveLast(); },
                "match.result.ranks"},
        BadCase{"fewer_scores",
                [](v1::Match& m) { m.mutable_result()->mutable_scores()->RemoveLast(); },
                "match.result.scores"},
        BadCase{"fewer_player_ids",
                [](v1::Match& m) { m.mutable_result()->mutable_player_ids()->RemoveLast(); },
                "match.result.player_ids"},
        BadCase{"player_ids_disagree",
                [](v1::Match& m) { m.mutable_result()->set_player_ids(1, "eve"); },
                "match.result.player_ids[1]"},
        BadCase{"zero_rank", [](v1::Match& m) { m.mutable_result()->set_ranks(1, 0); },
                "match.result.ranks[1]"},
        BadCase{"negative_rank", [](v1::Match& m) { m.mutable_result()->set_ranks(0, -3); },
                "match.result.ranks[0]"},
        BadCase{"team_mates_ranked_apart",
                [](v1::Match& m) {
                  m.mutable_result()->set_ranks(2, 2);
                },
                "match.result.teams[0]"},
        BadCase{"seat_in_two_teams",
                [](v1::Match& m) { m.mutable_result()->mutable_teams(1)->set_seats(0, 0); },
                "match.result.teams[1]"},
        BadCase{"seat_in_no_team",
                [](v1::Match& m) { m.mutable_result()->mutable_teams(1)->mutable_seats()->RemoveLast(); },
                "match.result.teams"},
        BadCase{"team_seat_out_of_range",
                [](v1::Match& m) { m.mutable_result()->mutable_teams(1)->set_seats(1, 7); },
                "match.result.teams[1]"},
        BadCase{"empty_team", [](v1::Match& m) { m.mutable_result()->add_teams(); },
                "match.result.teams[2]"},
        BadCase{"one_side",
                [](v1::Match& m) {
                  m.mutable_result()->clear_teams();
                  v1::Team* all = m.mutable_result()->add_teams();
                  for (int seat = 0; seat < 4; ++seat) all->add_seats(seat);
                  for (int seat = 0; seat < 4; ++seat) m.mutable_result()->set_ranks(seat, 1);
                },
                "at least two sides"},
        BadCase{"same_player_twice",
                [](v1::Match& m) {
                  m.mutable_seats(2)->mutable_player()->set_player_id("ann");
                  m.mutable_result()->set_player_ids(2, "ann");
                },
                "match.seats[2]"},
        BadCase{"empty_player_id",
                [](v1::Match& m) {
                  m.mutable_seats(1)->mutable_player()->set_player_id("");
                },
                "match.seats[1].player"},
        BadCase{"nul_in_player_id",
                [](v1::Match& m) {
                  const std::string id("b\0b", 3);
                  m.mutable_seats(1)->mutable_player()->set_player_id(id);
                  m.mutable_result()->set_player_ids(1, id);
                },
                "match.seats[1].player"},
        BadCase{"empty_seat", [](v1::Match& m) { m.mutable_seats(3)->Clear(); }, "match.seats[3]"},
        BadCase{"solitaire_nan",
                [](v1::Match& m) {
                  (*m.mutable_result()->mutable_details()->mutable_fields())["pips_left"]
                      .set_number_value(kNaN);
                },
                "match.result.details.pips_left"},
        BadCase{"solitaire_negative",
                [](v1::Match& m) {
                  (*m.mutable_result()->mutable_details()->mutable_fields())["tiles_left"]
                      .set_number_value(-1);
                },
                "match.result.details.tiles_left"},
        BadCase{"solitaire_fraction",
                [](v1::Match& m) {
                  (*m.mutable_result()->mutable_details()->mutable_fields())["tiles_left"]
                      .set_number_value(2.5);
                },
                "match.result.details.tiles_left"},
        BadCase{"solitaire_no_won",
                [](v1::Match& m) {
                  m.mutable_result()->mutable_details()->mutable_fields()->erase("won");
                },
                "match.result.details.won"},
        BadCase{"solitaire_ends_before_creation",
                [](v1::Match& m) { *m.mutable_create_time() = ToTimestamp(Minute(1)); },
                "match.end_time"}),
    [](const ::testing::TestParamInfo<BadCase>& info) { return std::string(info.param.name); });

TEST(ValidateResultTest, NoMatchAtAll) {
  absl::StatusOr<ValidResult> result = ValidateResult(v1::RecordResultRequest(), DefaultRegistry());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(result.status().message(), HasSubstr("match"));
}

}  // namespace
}  // namespace boneyard::ratings
