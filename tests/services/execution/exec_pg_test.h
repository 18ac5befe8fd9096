// The fixture of the execution store tests: a PgMatchStore on the real PostgreSQL named by
// BONEYARD_TEST_DATABASE_URL (tests/run.sh starts it and exports it; without it the tests fail,
// they never skip), in a schema of its own (t_<random hex>) dropped at the end, and helpers to
// make matches and events.
#ifndef BONEYARD_TESTS_SERVICES_EXECUTION_EXEC_PG_TEST_H_
#define BONEYARD_TESTS_SERVICES_EXECUTION_EXEC_PG_TEST_H_

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "boneyard/v1/execution.pb.h"
#include "boneyard/v1/game.pb.h"
#include "gtest/gtest.h"
#include "services/common/pg_pool.h"
#include "services/execution/match_store.h"
#include "services/execution/pg_match_store.h"

namespace boneyard::execution::test_util {

inline std::string RandomHex(int bytes = 8) {
  static thread_local std::mt19937_64 random{std::random_device{}()};
  std::string out;
  for (int i = 0; i < bytes; ++i) {
    absl::StrAppend(&out, absl::Hex(random() & 0xff, absl::kZeroPad2));
  }
  return out;
}

// A whole number of microseconds, so it round-trips through timestamptz exactly.
inline absl::Time At(int64_t unix_micros) { return absl::FromUnixMicros(unix_micros); }

inline void SetTime(absl::Time t, google::protobuf::Timestamp* ts) {
  const int64_t micros = absl::ToUnixMicros(t);
  int64_t seconds = micros / 1'000'000;
  int64_t rest = micros % 1'000'000;
  if (rest < 0) {
    rest += 1'000'000;
    --seconds;
  }
  ts->set_seconds(seconds);
  ts->set_nanos(static_cast<int32_t>(rest * 1000));
}

class ExecPgTest : public ::testing::Test {
 public:
  static constexpr char kUrlVariable[] = "BONEYARD_TEST_DATABASE_URL";

 protected:

  void SetUp() override {
    const char* url = std::getenv(kUrlVariable);
    ASSERT_TRUE(url != nullptr && *url != '\0')
        << kUrlVariable << " is not set: these tests need a real PostgreSQL. tests/run.sh starts "
        << "one; by hand:\n  deploy/local/pg.sh start /tmp/boneyard-pg 55432\n  export "
        << kUrlVariable << "=$(deploy/local/pg.sh url /tmp/boneyard-pg 55432)";
    url_ = url;
    absl::StatusOr<std::unique_ptr<PgPool>> pool = PgPool::Connect(url_, PoolSize());
    ASSERT_TRUE(pool.ok()) << "cannot reach the test database: " << pool.status();
    pool_ = *std::move(pool);
    schema_ = absl::StrCat("t_", RandomHex());
    absl::StatusOr<std::unique_ptr<PgMatchStore>> store = PgMatchStore::Open(*pool_, schema_);
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = *std::move(store);
  }

  void TearDown() override {
    store_.reset();
    if (pool_ == nullptr || schema_.empty()) return;
    absl::Status status = pool_->Run([&](pqxx::work& tx) {
      tx.exec0("DROP SCHEMA IF EXISTS " + tx.quote_name(schema_) + " CASCADE");
    });
    EXPECT_TRUE(status.ok()) << "dropping schema " << schema_ << ": " << status;
  }

  virtual int PoolSize() const { return 4; }

  // `table` qualified with the test schema, for SQL text.
  std::string In(absl::string_view table) const {
    return absl::StrCat("\"", schema_, "\".", table);
  }

  template <class T>
  T Scalar(const std::string& sql) {
    absl::StatusOr<T> value = pool_->Run([&](pqxx::work& tx) { return tx.exec1(sql)[0].as<T>(); });
    EXPECT_TRUE(value.ok()) << value.status() << "\nin: " << sql;
    return value.ok() ? *value : T{};
  }

  int64_t Count(absl::string_view table, absl::string_view where = "true") {
    return Scalar<int64_t>(absl::StrCat("SELECT count(*) FROM ", In(table), " WHERE ", where));
  }

 public:
  // A new match of two players and a bot: seat 0 and 2 players with tokens, seat 1 a bot.
  static NewMatch MakeMatch(absl::Time created, std::string game = "muggins",
                            std::string request_id = "", std::string digest = "digest-1") {
    NewMatch m;
    m.id = RandomHex(16);
    m.match.set_name(absl::StrCat("matches/", m.id));
    m.match.set_game(std::move(game));
    (*m.match.mutable_rules())["points_to_win"].set_int_value(61);
    (*m.match.mutable_rules())["preset"].set_string_value("standard");
    (*m.match.mutable_rules())["allow_spinners"].set_bool_value(true);
    m.match.add_seats()->mutable_player()->set_player_id("ann");
    v1::Bot* bot = m.match.add_seats()->mutable_bot();
    bot->set_kind("greedy");
    m.match.add_seats()->mutable_player()->set_player_id("bob");
    m.match.add_teams()->add_seats(0);
    m.match.mutable_teams(0)->add_seats(2);
    m.match.add_teams()->add_seats(1);
    m.match.mutable_clock()->mutable_per_move()->set_seconds(30);
    m.match.mutable_clock()->set_timeout_policy(v1::ClockSettings::FORFEIT);
    m.match.set_state(v1::Match::ACTIVE);
    SetTime(created, m.match.mutable_create_time());
    SetTime(created, m.match.mutable_update_time());
    m.seed = 0x8000'0000'0000'0001ULL ^ (std::random_device{}() & 0xffff);
    m.seat_tokens = {absl::StrCat("tok-", RandomHex()), "", absl::StrCat("tok-", RandomHex())};
    m.request_id = std::move(request_id);
    m.request_digest = std::move(digest);
    return m;
  }

 protected:
  // Creates MakeMatch(created, game) in the store.
  NewMatch CreateMatch(absl::Time created, std::string game = "muggins") {
    NewMatch m = MakeMatch(created, std::move(game));
    absl::StatusOr<CreateResult> result = store_->CreateMatch(m);
    EXPECT_TRUE(result.ok()) << result.status();
    EXPECT_FALSE(result.ok() && result->existed);
    return m;
  }

 public:
  static EventRow MakeEvent(const std::string& match_id, int64_t sequence,
                            absl::Time time = At(1'700'000'000'000'000)) {
    EventRow e;
    e.match_id = match_id;
    e.sequence = sequence;
    e.seat = static_cast<int>(sequence % 3);
    e.action = absl::StrCat("6-", sequence % 7);
    e.reason = v1::MatchEvent::PLAYED;
    e.round = static_cast<int>(sequence / 10);
    e.turn_start_time = time;
    e.create_time = time + absl::Microseconds(sequence);
    return e;
  }

  static MatchEnd Finished(const std::string& match_id, int64_t sequence, absl::Time when) {
    MatchEnd end;
    end.match_id = match_id;
    end.state = v1::Match::FINISHED;
    end.sequence = sequence;
    v1::MatchResult result;
    result.add_scores(61);
    result.add_scores(40);
    result.add_scores(61);
    result.add_ranks(1);
    result.add_ranks(2);
    result.add_ranks(1);
    result.add_winners(0);
    result.add_winners(2);
    result.add_player_ids("ann");
    result.add_player_ids("");
    result.add_player_ids("bob");
    end.result = result;
    end.record_json = R"({"game": "muggins", "seed": 18446744073709551615, "actions": ["6-4"]})";
    end.end_time = when;
    return end;
  }

  static MatchEnd Aborted(const std::string& match_id, int64_t sequence, absl::Time when) {
    MatchEnd end;
    end.match_id = match_id;
    end.state = v1::Match::ABORTED;
    end.sequence = sequence;
    end.record_json = R"({"game": "muggins", "actions": []})";
    end.abort_reason = "server maintenance";
    end.end_time = when;
    return end;
  }

 protected:
  std::string url_;
  std::string schema_;
  std::unique_ptr<PgPool> pool_;
  std::unique_ptr<PgMatchStore> store_;
};

}  // namespace boneyard::execution::test_util

#endif  // BONEYARD_TESTS_SERVICES_EXECUTION_EXEC_PG_TEST_H_
