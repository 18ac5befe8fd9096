// Shared by the ratings service tests: a PgRatingStore (schema `ratings`, as the service uses
// it) on a fresh database of the PostgreSQL named by BONEYARD_TEST_DATABASE_URL (TestDatabase:
// tests/run.sh starts and exports it; without it the tests fail, they never skip), dropped at
// the end, and builders of finished matches as the execution service sends them.
#ifndef BONEYARD_TESTS_SERVICES_RATINGS_RATINGS_TEST_UTIL_H_
#define BONEYARD_TESTS_SERVICES_RATINGS_RATINGS_TEST_UTIL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "boneyard/v1/execution.pb.h"
#include "boneyard/v1/ratings.pb.h"
#include "engine/core/registry.h"
#include "gtest/gtest.h"
#include "services/common/engine_proto.h"
#include "services/common/pg_pool.h"
#include "services/ratings/pg_rating_store.h"
#include "tests/services/service_process.h"

namespace boneyard::ratings::test_util {

// A fixed base time, whole seconds, so times round-trip through PostgreSQL exactly.
inline absl::Time Minute(int n) { return absl::FromUnixSeconds(1'800'000'000) + absl::Minutes(n); }

// One seat of a match: a player id, or "" for a built-in bot.
struct SeatSpec {
  std::string player;
  int rank = 1;
};

// A FINISHED match as execution's outbox carries it: seats, result (player ids, ranks,
// scores, teams), create and end time.
inline v1::Match FinishedMatch(const std::string& id, const std::string& game,
                               const std::vector<SeatSpec>& seats, absl::Time end,
                               const std::vector<std::vector<int>>& teams = {}) {
  v1::Match match;
  match.set_name(absl::StrCat("matches/", id));
  match.set_game(game);
  match.set_state(v1::Match::FINISHED);
  v1::MatchResult& result = *match.mutable_result();
  for (const SeatSpec& seat : seats) {
    v1::Seat& s = *match.add_seats();
    if (seat.player.empty()) {
      s.mutable_bot()->set_kind("greedy");
    } else {
      s.mutable_player()->set_player_id(seat.player);
    }
    result.add_player_ids(seat.player);
    result.add_ranks(seat.rank);
    result.add_scores(seat.rank == 1 ? 61 : 40);
  }
  for (const std::vector<int>& team : teams) {
    v1::Team& t = *result.add_teams();
    for (int seat : team) t.add_seats(seat);
    *match.add_teams() = t;
  }
  *match.mutable_create_time() = ToTimestamp(end - absl::Minutes(10));
  *match.mutable_update_time() = ToTimestamp(end);
  *match.mutable_end_time() = ToTimestamp(end);
  return match;
}

// A one-on-one Muggins match won by `winner`.
inline v1::Match Duel(const std::string& id, const std::string& winner, const std::string& loser,
                      absl::Time end) {
  return FinishedMatch(id, "muggins", {{winner, 1}, {loser, 2}}, end);
}

// A Castle Rock result.
inline v1::Match Solitaire(const std::string& id, const std::string& player, int tiles_left,
                           int pips_left, absl::Duration took, absl::Time end) {
  v1::Match match = FinishedMatch(id, "castle_rock", {{player, 1}}, end);
  *match.mutable_create_time() = ToTimestamp(end - took);
  auto& fields = *match.mutable_result()->mutable_details()->mutable_fields();
  fields["tiles_left"].set_number_value(tiles_left);
  fields["pips_left"].set_number_value(pips_left);
  fields["won"].set_bool_value(tiles_left <= 2);
  return match;
}

inline v1::RecordResultRequest Request(v1::Match match) {
  v1::RecordResultRequest request;
  *request.mutable_match() = std::move(match);
  return request;
}

// A store on a fresh database.
class RatingsPgTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<testing::TestDatabase>> database =
        testing::TestDatabase::Create();
    ASSERT_TRUE(database.ok()) << database.status();
    database_ = *std::move(database);
    absl::StatusOr<std::unique_ptr<PgPool>> pool = PgPool::Connect(database_->url(), 4);
    ASSERT_TRUE(pool.ok()) << "cannot reach the test database: " << pool.status();
    pool_ = *std::move(pool);
    absl::StatusOr<std::unique_ptr<PgRatingStore>> store =
        PgRatingStore::Open(*pool_, "ratings", RatingModelConfig{}, DefaultRegistry());
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = *std::move(store);
  }

  // The store, then the pool, then the database (see the members' order).
  void TearDown() override {}

  std::string In(absl::string_view table) const { return absl::StrCat("ratings.", table); }

  int64_t Count(absl::string_view table, absl::string_view where = "true") {
    absl::StatusOr<int64_t> n = pool_->Run([&](pqxx::work& tx) {
      return tx.exec1(absl::StrCat("SELECT count(*) FROM ", In(table), " WHERE ", where))[0]
          .as<int64_t>();
    });
    EXPECT_TRUE(n.ok()) << n.status();
    return n.ok() ? *n : -1;
  }

  // Every table's rows, as text, for "nothing changed" checks.
  std::string Snapshot() {
    absl::StatusOr<std::string> text = pool_->Run([&](pqxx::work& tx) {
      std::string out;
      for (const char* table : {"results", "ratings", "history", "solitaire_results"}) {
        for (const pqxx::row& row : tx.exec(absl::StrCat(
                 "SELECT t::text FROM ", In(table), " t ORDER BY t::text"))) {
          absl::StrAppend(&out, table, ": ", row[0].as<std::string>(), "\n");
        }
      }
      return out;
    });
    EXPECT_TRUE(text.ok()) << text.status();
    return text.ok() ? *text : "";
  }

  std::unique_ptr<testing::TestDatabase> database_;
  std::unique_ptr<PgPool> pool_;
  std::unique_ptr<PgRatingStore> store_;
};

}  // namespace boneyard::ratings::test_util

#endif  // BONEYARD_TESTS_SERVICES_RATINGS_RATINGS_TEST_UTIL_H_
