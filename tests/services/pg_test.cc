// PgPool and migrations against a real PostgreSQL: the one named by BONEYARD_TEST_DATABASE_URL,
// which tests/run.sh starts and exports. Without it these tests fail; they never skip.
// Each test works in a schema of its own (t_<random hex>), dropped at the end.
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <latch>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/migrations.h"
#include "services/common/internal_error.h"
#include "services/common/pg_pool.h"

namespace boneyard {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Pair;

constexpr char kUrlVariable[] = "BONEYARD_TEST_DATABASE_URL";

std::filesystem::path MigrationsDir(absl::string_view name) {
  return std::filesystem::path(BONEYARD_SERVICES_TESTDATA) / "migrations" / std::string(name);
}

std::string RandomHex() {
  std::random_device device;
  const uint64_t bits = (uint64_t{device()} << 32) | device();
  return absl::StrCat(absl::Hex(bits, absl::kZeroPad16));
}

// A Run function returning this session's backend process id.
int BackendPid(pqxx::work& tx) { return tx.exec1("SELECT pg_backend_pid()")[0].as<int>(); }

class PgTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* url = std::getenv(kUrlVariable);
    ASSERT_TRUE(url != nullptr && *url != '\0')
        << kUrlVariable << " is not set: these tests need a real PostgreSQL. tests/run.sh starts "
        << "one; by hand:\n  deploy/local/pg.sh start /tmp/boneyard-pg 55432\n  export "
        << kUrlVariable << "=$(deploy/local/pg.sh url /tmp/boneyard-pg 55432)";
    url_ = url;
    absl::StatusOr<std::unique_ptr<PgPool>> admin = PgPool::Connect(url_, 1);
    ASSERT_TRUE(admin.ok()) << "cannot reach the test database: " << admin.status();
    admin_ = *std::move(admin);
    schema_ = NewSchemaName();
  }

  void TearDown() override {
    if (admin_ == nullptr) return;
    for (const std::string& schema : schemas_) {
      absl::Status status = admin_->Run([&](pqxx::work& tx) {
        tx.exec0("DROP SCHEMA IF EXISTS " + tx.quote_name(schema) + " CASCADE");
      });
      EXPECT_TRUE(status.ok()) << "dropping schema " << schema << ": " << status;
    }
  }

  // A fresh schema name (not created), dropped at the end of the test.
  std::string NewSchemaName(absl::string_view suffix = "") {
    schemas_.push_back(absl::StrCat("t_", RandomHex(), suffix));
    return schemas_.back();
  }

  // `name` qualified with the test schema, for SQL text.
  std::string In(absl::string_view name) const { return absl::StrCat("\"", schema_, "\".", name); }

  void Exec(const std::string& sql) {
    absl::Status status = admin_->Run([&](pqxx::work& tx) { tx.exec(sql); });
    ASSERT_TRUE(status.ok()) << status << "\nin: " << sql;
  }

  template <class T>
  T Scalar(const std::string& sql) {
    absl::StatusOr<T> value = admin_->Run([&](pqxx::work& tx) { return tx.exec1(sql)[0].as<T>(); });
    EXPECT_TRUE(value.ok()) << value.status() << "\nin: " << sql;
    return value.ok() ? *value : T{};
  }

  bool TableExists(absl::string_view schema, absl::string_view table) {
    return !Scalar<bool>(
        absl::StrCat("SELECT to_regclass('\"", schema, "\".", table, "') IS NULL"));
  }

  // schema_migrations of `schema`, as (version, name) pairs in version order.
  std::vector<std::pair<int, std::string>> Recorded(absl::string_view schema) {
    absl::StatusOr<std::vector<std::pair<int, std::string>>> rows =
        admin_->Run([&](pqxx::work& tx) {
          std::vector<std::pair<int, std::string>> out;
          for (const pqxx::row& row :
               tx.exec(absl::StrCat("SELECT version, name FROM \"", schema,
                                    "\".schema_migrations ORDER BY version"))) {
            out.emplace_back(row[0].as<int>(), row[1].as<std::string>());
          }
          return out;
        });
    EXPECT_TRUE(rows.ok()) << rows.status();
    return rows.ok() ? *rows : std::vector<std::pair<int, std::string>>{};
  }

  std::unique_ptr<PgPool> Connect(int size) {
    absl::StatusOr<std::unique_ptr<PgPool>> pool = PgPool::Connect(url_, size);
    EXPECT_TRUE(pool.ok()) << pool.status();
    return pool.ok() ? *std::move(pool) : nullptr;
  }

  std::string url_;
  std::string schema_;
  std::vector<std::string> schemas_;
  std::unique_ptr<PgPool> admin_;
};

// --- PgPool ---

TEST_F(PgTest, ConnectsAndQueries) {
  std::unique_ptr<PgPool> pool = Connect(2);
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(pool->size(), 2);
  absl::StatusOr<int> sum =
      pool->Run([](pqxx::work& tx) { return tx.exec1("SELECT 40 + 2")[0].as<int>(); });
  ASSERT_TRUE(sum.ok()) << sum.status();
  EXPECT_EQ(*sum, 42);
}

TEST_F(PgTest, UnreachableServerIsUnavailableWithoutLeakingThePassword) {
  // Nothing listens on port 1 of the loopback interface.
  absl::StatusOr<std::unique_ptr<PgPool>> pool =
      PgPool::Connect("postgresql://boneyard:s3cret@127.0.0.1:1/boneyard?connect_timeout=5", 2);
  ASSERT_FALSE(pool.ok());
  EXPECT_EQ(pool.status().code(), absl::StatusCode::kUnavailable) << pool.status();
  EXPECT_THAT(pool.status().message(), HasSubstr("cannot connect to the database"));
  EXPECT_THAT(pool.status().message(), HasSubstr("127.0.0.1"));
  EXPECT_THAT(pool.status().message(), Not(HasSubstr("s3cret")));
}

TEST_F(PgTest, MalformedDsnAndBadSizeAreInvalidArguments) {
  absl::StatusOr<std::unique_ptr<PgPool>> malformed = PgPool::Connect("host=127.0.0.1 port", 1);
  ASSERT_FALSE(malformed.ok());
  EXPECT_EQ(malformed.status().code(), absl::StatusCode::kInvalidArgument) << malformed.status();
  EXPECT_THAT(malformed.status().message(), HasSubstr("malformed database connection string"));

  absl::StatusOr<std::unique_ptr<PgPool>> empty = PgPool::Connect(url_, 0);
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), absl::StatusCode::kInvalidArgument) << empty.status();
}

TEST_F(PgTest, PoolOfTwoServesEightThreadsWithoutLosingAnIncrement) {
  constexpr int kThreads = 8;
  constexpr int kTransactionsEach = 200;
  Exec(absl::StrCat("CREATE SCHEMA \"", schema_, "\"; CREATE TABLE ", In("counter"),
                    " (n bigint NOT NULL); INSERT INTO ", In("counter"), " VALUES (0)"));
  std::unique_ptr<PgPool> pool = Connect(2);
  ASSERT_NE(pool, nullptr);

  absl::Mutex mu;
  std::set<int> backends;           // guarded by mu
  std::vector<std::string> errors;  // guarded by mu
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kTransactionsEach; ++i) {
        absl::StatusOr<int> backend = pool->Run(
            [&](pqxx::work& tx) {
              tx.exec0("UPDATE " + In("counter") + " SET n = n + 1");
              return BackendPid(tx);
            },
            absl::Seconds(60));
        absl::MutexLock lock(&mu);
        if (backend.ok()) {
          backends.insert(*backend);
        } else {
          errors.push_back(backend.status().ToString());
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();

  EXPECT_THAT(errors, ::testing::IsEmpty());
  EXPECT_EQ(Scalar<int64_t>("SELECT n FROM " + In("counter")), kThreads * kTransactionsEach);
  // Every transaction ran on one of the pool's two sessions.
  EXPECT_LE(backends.size(), 2u);
}

TEST_F(PgTest, AcquireTimesOutWhenEveryConnectionIsLeased) {
  std::unique_ptr<PgPool> pool = Connect(1);
  ASSERT_NE(pool, nullptr);
  absl::StatusOr<PgPool::Lease> first = pool->Acquire(absl::Seconds(5));
  ASSERT_TRUE(first.ok()) << first.status();
  std::optional<PgPool::Lease> held(*std::move(first));

  const absl::Time start = absl::Now();
  absl::StatusOr<PgPool::Lease> second = pool->Acquire(absl::Milliseconds(200));
  const absl::Duration waited = absl::Now() - start;
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kDeadlineExceeded) << second.status();
  EXPECT_THAT(second.status().message(), HasSubstr("no database connection became free"));
  EXPECT_GE(waited, absl::Milliseconds(190));

  absl::Status run = pool->Run([](pqxx::work&) {}, absl::Milliseconds(50));
  EXPECT_EQ(run.code(), absl::StatusCode::kDeadlineExceeded) << run;

  // A waiter gets the connection as soon as it comes back.
  std::thread releaser([&] {
    absl::SleepFor(absl::Milliseconds(100));
    held.reset();
  });
  const absl::Time wait_start = absl::Now();
  absl::StatusOr<PgPool::Lease> third = pool->Acquire(absl::Seconds(30));
  releaser.join();
  ASSERT_TRUE(third.ok()) << third.status();
  EXPECT_LT(absl::Now() - wait_start, absl::Seconds(10));
  EXPECT_EQ(pqxx::work(third->conn()).exec1("SELECT 1")[0].as<int>(), 1);
}

TEST_F(PgTest, BrokenConnectionIsReplaced) {
  std::unique_ptr<PgPool> pool = Connect(1);
  ASSERT_NE(pool, nullptr);
  absl::StatusOr<int> before = pool->Run(BackendPid);
  ASSERT_TRUE(before.ok()) << before.status();

  // Kill the pool's session from outside, and wait until the server has let it go.
  Exec(absl::StrCat("SELECT pg_terminate_backend(", *before, ")"));
  const std::string still_there =
      absl::StrCat("SELECT count(*) FROM pg_stat_activity WHERE pid = ", *before);
  for (int i = 0; i < 500 && Scalar<int64_t>(still_there) > 0; ++i) {
    absl::SleepFor(absl::Milliseconds(10));
  }

  // The first use finds the session dead: UNAVAILABLE, and the connection is dropped.
  absl::StatusOr<int> broken = pool->Run(BackendPid);
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.status().code(), absl::StatusCode::kUnavailable) << broken.status();

  // The next one gets a new session.
  absl::StatusOr<int> after = pool->Run(BackendPid, absl::Seconds(5));
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_NE(*after, *before);
}

TEST_F(PgTest, RunStatementsCommitsEachStatementOnItsOwn) {
  Exec(absl::StrCat("CREATE SCHEMA \"", schema_, "\"; CREATE TABLE ", In("players"),
                    " (id bigint PRIMARY KEY)"));
  const std::string insert = "INSERT INTO " + In("players") + " VALUES ";
  absl::Status status = admin_->RunStatements([&](pqxx::nontransaction& tx) {
    tx.exec0(insert + "(1)");
    tx.exec0(insert + "(1)");  // fails; the first has committed already
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kAlreadyExists) << status;
  EXPECT_EQ(Scalar<int64_t>("SELECT count(*) FROM " + In("players")), 1);

  // One statement is all or nothing: a multi-row insert with a duplicate stores none of it.
  status = admin_->RunStatements([&](pqxx::nontransaction& tx) { tx.exec0(insert + "(2), (1)"); });
  EXPECT_EQ(status.code(), absl::StatusCode::kAlreadyExists) << status;
  EXPECT_EQ(Scalar<int64_t>("SELECT count(*) FROM " + In("players")), 1);
}

TEST_F(PgTest, RunStatementsOnAConnectionThatBreaksIsUnknownThenRecovers) {
  std::unique_ptr<PgPool> pool = Connect(1);
  ASSERT_NE(pool, nullptr);
  // The statement's session dies under it: whether it committed cannot be known.
  absl::Status status = pool->RunStatements([](pqxx::nontransaction& tx) {
    tx.exec("SELECT pg_terminate_backend(pg_backend_pid())");
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kUnknown) << status;
  EXPECT_THAT(status.message(), HasSubstr("outcome unknown"));
  // The broken connection was replaced.
  absl::StatusOr<int> after = pool->Run(BackendPid, absl::Seconds(5));
  EXPECT_TRUE(after.ok()) << after.status();
}

TEST_F(PgTest, UniqueViolationIsAlreadyExists) {
  Exec(absl::StrCat("CREATE SCHEMA \"", schema_, "\"; CREATE TABLE ", In("players"),
                    " (id bigint PRIMARY KEY, name text NOT NULL)"));
  auto insert = [&](pqxx::work& tx) {
    tx.exec_params("INSERT INTO " + In("players") + " VALUES ($1, $2)", 7, "ann");
  };
  absl::Status first = admin_->Run(insert);
  ASSERT_TRUE(first.ok()) << first;
  absl::Status second = admin_->Run(insert);
  EXPECT_EQ(second.code(), absl::StatusCode::kAlreadyExists) << second;
  EXPECT_THAT(second.message(), HasSubstr("duplicate key"));
  EXPECT_THAT(second.message(), HasSubstr("23505"));
  EXPECT_EQ(Scalar<int64_t>("SELECT count(*) FROM " + In("players")), 1);
}

TEST_F(PgTest, FailuresRollBackAndKeepTheirStatus) {
  Exec(absl::StrCat("CREATE SCHEMA \"", schema_, "\"; CREATE TABLE ", In("players"),
                    " (id bigint PRIMARY KEY)"));
  const std::string insert = "INSERT INTO " + In("players") + " VALUES ";

  // A status returned by the function: rolled back, returned unchanged.
  absl::Status declined = admin_->WithTransaction([&](pqxx::work& tx) {
    tx.exec0(insert + "(1)");
    return absl::FailedPreconditionError("not your turn");
  });
  EXPECT_EQ(declined, absl::FailedPreconditionError("not your turn"));

  absl::StatusOr<int> value = admin_->Run([&](pqxx::work& tx) -> absl::StatusOr<int> {
    tx.exec0(insert + "(2)");
    return absl::NotFoundError("no such match");
  });
  EXPECT_EQ(value.status(), absl::NotFoundError("no such match"));

  // Any exception: rolled back, INTERNAL.
  absl::Status thrown = admin_->Run([&](pqxx::work& tx) {
    tx.exec0(insert + "(3)");
    throw std::runtime_error("boom");
  });
  EXPECT_EQ(thrown.code(), absl::StatusCode::kInternal) << thrown;
  EXPECT_THAT(thrown.message(), HasSubstr("boom"));

  // Other SQL errors: INTERNAL with the SQLSTATE.
  absl::Status missing =
      admin_->Run([&](pqxx::work& tx) { tx.exec("SELECT * FROM " + In("nope")); });
  EXPECT_EQ(missing.code(), absl::StatusCode::kInternal) << missing;
  EXPECT_THAT(missing.message(), HasSubstr("42P01"));

  EXPECT_EQ(Scalar<int64_t>("SELECT count(*) FROM " + In("players")), 0);

  // And a StatusOr that holds a value commits.
  absl::StatusOr<int> ok = admin_->Run([&](pqxx::work& tx) -> absl::StatusOr<int> {
    tx.exec0(insert + "(4)");
    return 4;
  });
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(*ok, 4);
  EXPECT_EQ(Scalar<int64_t>("SELECT count(*) FROM " + In("players")), 1);
}

TEST_F(PgTest, DeadlockIsAborted) {
  Exec(absl::StrCat("CREATE SCHEMA \"", schema_, "\"; CREATE TABLE ", In("seats"),
                    " (id int PRIMARY KEY, n int NOT NULL); INSERT INTO ", In("seats"),
                    " VALUES (1, 0), (2, 0)"));
  std::unique_ptr<PgPool> pool = Connect(2);
  ASSERT_NE(pool, nullptr);
  // Each transaction locks one row, waits for the other to do the same, then wants the other's.
  std::latch both_locked(2);
  auto cross = [&](int mine, int theirs) {
    return pool->Run([&](pqxx::work& tx) {
      tx.exec_params("UPDATE " + In("seats") + " SET n = n + 1 WHERE id = $1", mine);
      both_locked.arrive_and_wait();
      tx.exec_params("UPDATE " + In("seats") + " SET n = n + 1 WHERE id = $1", theirs);
    });
  };
  absl::Status a;
  absl::Status b;
  std::thread ta([&] { a = cross(1, 2); });
  std::thread tb([&] { b = cross(2, 1); });
  ta.join();
  tb.join();
  // The server breaks the deadlock by failing exactly one of them.
  EXPECT_NE(a.ok(), b.ok()) << a << " / " << b;
  const absl::Status& loser = a.ok() ? b : a;
  EXPECT_EQ(loser.code(), absl::StatusCode::kAborted) << loser;
  EXPECT_THAT(loser.message(), HasSubstr("deadlock"));
}

TEST(FromPqxxTest, MapsEachKindOfError) {
  EXPECT_EQ(FromPqxx(pqxx::unique_violation("ERROR: dup", "INSERT", "23505")).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(FromPqxx(pqxx::serialization_failure("ERROR: could not serialize")).code(),
            absl::StatusCode::kAborted);
  EXPECT_EQ(FromPqxx(pqxx::deadlock_detected("ERROR: deadlock detected")).code(),
            absl::StatusCode::kAborted);
  EXPECT_EQ(FromPqxx(pqxx::sql_error("ERROR: could not serialize", "UPDATE", "40001")).code(),
            absl::StatusCode::kAborted);
  EXPECT_EQ(FromPqxx(pqxx::broken_connection("server closed the connection")).code(),
            absl::StatusCode::kUnavailable);
  EXPECT_EQ(FromPqxx(pqxx::too_many_connections("too many clients")).code(),
            absl::StatusCode::kUnavailable);
  EXPECT_EQ(FromPqxx(pqxx::sql_error("FATAL: terminating", "", "57P01")).code(),
            absl::StatusCode::kUnavailable);
  EXPECT_EQ(FromPqxx(pqxx::in_doubt_error("lost during commit")).code(),
            absl::StatusCode::kUnknown);
  EXPECT_EQ(FromPqxx(pqxx::sql_error("ERROR: canceling statement", "", "57014")).code(),
            absl::StatusCode::kDeadlineExceeded);
  absl::Status syntax = FromPqxx(pqxx::syntax_error("ERROR: syntax error\n", "SELEC", "42601"));
  EXPECT_EQ(syntax.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(syntax.message(), HasSubstr("SQLSTATE 42601"));
  EXPECT_THAT(syntax.message(), Not(HasSubstr("SELEC\n")));
  EXPECT_EQ(FromPqxx(std::runtime_error("boom")).code(), absl::StatusCode::kInternal);
  // Bad data, a broken constraint, a limit: permanent, INVALID_ARGUMENT (never retried).
  for (const char* state : {"22P05", "22021", "22003", "23502", "23503", "54000"}) {
    EXPECT_EQ(FromPqxx(pqxx::sql_error("ERROR: refused", "INSERT", state)).code(),
              absl::StatusCode::kInvalidArgument)
        << state;
  }
  // Every one of them holds the database's words: marked, so no client sees them.
  EXPECT_TRUE(IsMarkedInternal(FromPqxx(pqxx::sql_error("ERROR: x", "", "22P05"))));
  EXPECT_TRUE(IsMarkedInternal(FromPqxx(std::runtime_error("boom"))));
  EXPECT_TRUE(IsMarkedInternal(FromPqxx(pqxx::broken_connection("gone"))));
}

TEST_F(PgTest, RowsTheDatabaseCannotStoreAreInvalidArgument) {
  Exec(absl::StrCat("CREATE SCHEMA \"", schema_, "\"; CREATE TABLE ", In("docs"),
                    " (id text PRIMARY KEY, body jsonb NOT NULL)"));
  // A NUL escaped in JSON text (jsonb cannot hold it), a missing value, an index row too large.
  const std::string insert = "INSERT INTO " + In("docs") + " VALUES ";
  std::string incompressible;  // a compressible key would fit in the index after all
  for (uint32_t x = 1; incompressible.size() < 9000;) {
    x = x * 1664525u + 1013904223u;
    incompressible += static_cast<char>('a' + (x >> 24) % 26);
  }
  for (const std::string& values :
       {std::string("('a', '{\"x\": \"a\\u0000b\"}')"), std::string("('b', NULL)"),
        absl::StrCat("('", incompressible, "', '{}')")}) {
    absl::Status status = admin_->Run([&](pqxx::work& tx) { tx.exec0(insert + values); });
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
    EXPECT_TRUE(IsMarkedInternal(status));
  }
  EXPECT_EQ(Scalar<int64_t>("SELECT count(*) FROM " + In("docs")), 0);
}

// --- Migrations ---

TEST(LoadMigrationsTest, ReadsNumberedFilesInOrder) {
  absl::StatusOr<std::vector<Migration>> migrations = LoadMigrations(MigrationsDir("good"));
  ASSERT_TRUE(migrations.ok()) << migrations.status();
  ASSERT_EQ(migrations->size(), 3u);  // notes.txt is not a migration
  EXPECT_EQ((*migrations)[0].version, 1);
  EXPECT_EQ((*migrations)[0].name, "0001_create_players.sql");
  EXPECT_THAT((*migrations)[0].sql, HasSubstr("CREATE TABLE players"));
  EXPECT_EQ((*migrations)[1].version, 2);
  EXPECT_EQ((*migrations)[1].name, "0002_add_ratings.sql");
  EXPECT_EQ((*migrations)[2].version, 3);
  EXPECT_EQ((*migrations)[2].name, "0003_create_matches.sql");
}

TEST(LoadMigrationsTest, RejectsGapsDuplicatesBadNamesAndMissingFolders) {
  absl::StatusOr<std::vector<Migration>> gap = LoadMigrations(MigrationsDir("gap"));
  ASSERT_FALSE(gap.ok());
  EXPECT_EQ(gap.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(gap.status().message(), HasSubstr("version 2 is missing"));
  EXPECT_THAT(gap.status().message(), HasSubstr("0001_a.sql is followed by 0003_c.sql"));

  absl::StatusOr<std::vector<Migration>> duplicate = LoadMigrations(MigrationsDir("duplicate"));
  ASSERT_FALSE(duplicate.ok());
  EXPECT_EQ(duplicate.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(duplicate.status().message(),
              HasSubstr("two migrations have version 2: 0002_b.sql and 0002_c.sql"));

  absl::StatusOr<std::vector<Migration>> bad_name = LoadMigrations(MigrationsDir("bad_name"));
  ASSERT_FALSE(bad_name.ok());
  EXPECT_EQ(bad_name.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad_name.status().message(), HasSubstr("init.sql"));
  EXPECT_THAT(bad_name.status().message(), HasSubstr("NNNN_name.sql"));

  absl::StatusOr<std::vector<Migration>> missing = LoadMigrations(MigrationsDir("no_such_dir"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
}

TEST_F(PgTest, MigrationsApplyInOrderAndReRunningChangesNothing) {
  absl::StatusOr<std::vector<Migration>> migrations = LoadMigrations(MigrationsDir("good"));
  ASSERT_TRUE(migrations.ok()) << migrations.status();
  // Applying only the first two, then all three, applies the third alone.
  std::vector<Migration> first_two(migrations->begin(), migrations->begin() + 2);
  absl::Status status = ApplyMigrations(*admin_, schema_, first_two);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_FALSE(TableExists(schema_, "matches"));
  status = ApplyMigrations(*admin_, schema_, *migrations);
  ASSERT_TRUE(status.ok()) << status;

  EXPECT_THAT(Recorded(schema_),
              ElementsAre(Pair(1, "0001_create_players.sql"), Pair(2, "0002_add_ratings.sql"),
                          Pair(3, "0003_create_matches.sql")));
  // Unqualified names in the files landed in the schema.
  EXPECT_TRUE(TableExists(schema_, "players"));
  EXPECT_TRUE(TableExists(schema_, "matches"));
  EXPECT_EQ(Scalar<int64_t>("SELECT count(*) FROM " + In("players")), 1);
  EXPECT_EQ(Scalar<int64_t>("SELECT count(*) FROM " + In("matches")), 1);
  const std::string applied_at = Scalar<std::string>(
      "SELECT string_agg(applied_at::text, ',' ORDER BY version) FROM " + In("schema_migrations"));

  status = ApplyMigrations(*admin_, schema_, *migrations);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(Recorded(schema_).size(), 3u);
  EXPECT_EQ(Scalar<std::string>("SELECT string_agg(applied_at::text, ',' ORDER BY version) FROM " +
                                In("schema_migrations")),
            applied_at);
  EXPECT_EQ(Scalar<int64_t>("SELECT count(*) FROM " + In("players")), 1);
}

TEST_F(PgTest, FailingMigrationRollsBackAndNamesItsFile) {
  absl::StatusOr<std::vector<Migration>> migrations = LoadMigrations(MigrationsDir("broken"));
  ASSERT_TRUE(migrations.ok()) << migrations.status();
  ASSERT_EQ(migrations->size(), 4u);

  for (int attempt = 0; attempt < 2; ++attempt) {  // failing again changes nothing either
    absl::Status status = ApplyMigrations(*admin_, schema_, *migrations);
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.code(), absl::StatusCode::kInternal) << status;
    EXPECT_THAT(status.message(), HasSubstr("0003_broken.sql"));
    EXPECT_THAT(status.message(), HasSubstr("no_such_table"));  // the server's own message
    EXPECT_THAT(status.message(), HasSubstr("42P01"));

    EXPECT_THAT(Recorded(schema_),
                ElementsAre(Pair(1, "0001_create_players.sql"), Pair(2, "0002_add_ratings.sql")));
    EXPECT_TRUE(TableExists(schema_, "players"));
    EXPECT_FALSE(TableExists(schema_, "tournaments"));  // created by 0003 before it failed
    EXPECT_FALSE(TableExists(schema_, "never"));        // 0004 never ran
  }
}

TEST_F(PgTest, ConcurrentStartsApplyEachMigrationOnce) {
  absl::StatusOr<std::vector<Migration>> migrations = LoadMigrations(MigrationsDir("good"));
  ASSERT_TRUE(migrations.ok()) << migrations.status();
  constexpr int kRounds = 5;
  constexpr int kProcesses = 4;
  for (int round = 0; round < kRounds; ++round) {
    const std::string schema = NewSchemaName();
    // A pool each, as separate processes would have.
    std::vector<std::unique_ptr<PgPool>> pools;
    for (int p = 0; p < kProcesses; ++p) {
      pools.push_back(Connect(1));
      ASSERT_NE(pools.back(), nullptr);
    }
    std::vector<absl::Status> results(kProcesses);
    std::latch start(kProcesses);
    std::vector<std::thread> threads;
    for (int p = 0; p < kProcesses; ++p) {
      threads.emplace_back([&, p] {
        start.arrive_and_wait();
        results[p] = ApplyMigrations(*pools[p], schema, *migrations);
      });
    }
    for (std::thread& thread : threads) thread.join();
    for (const absl::Status& result : results) EXPECT_TRUE(result.ok()) << result;
    EXPECT_EQ(Recorded(schema).size(), 3u);
    EXPECT_EQ(Scalar<int64_t>(absl::StrCat("SELECT count(*) FROM \"", schema, "\".players")), 1);
    EXPECT_EQ(Scalar<int64_t>(absl::StrCat("SELECT count(*) FROM \"", schema, "\".matches")), 1);
  }
}

TEST_F(PgTest, RenamedAppliedMigrationIsRefused) {
  absl::StatusOr<std::vector<Migration>> migrations = LoadMigrations(MigrationsDir("good"));
  ASSERT_TRUE(migrations.ok()) << migrations.status();
  ASSERT_TRUE(ApplyMigrations(*admin_, schema_, *migrations).ok());
  std::vector<Migration> edited = *migrations;
  edited[1].name = "0002_renamed.sql";
  absl::Status status = ApplyMigrations(*admin_, schema_, edited);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_THAT(status.message(), HasSubstr("0002_add_ratings.sql"));
  EXPECT_THAT(status.message(), HasSubstr("0002_renamed.sql"));
}

TEST_F(PgTest, ApplyMigrationsChecksItsArguments) {
  std::vector<Migration> gap = {{1, "0001_a.sql", "CREATE TABLE a (id int)"},
                                {3, "0003_c.sql", "CREATE TABLE c (id int)"}};
  absl::Status status = ApplyMigrations(*admin_, schema_, gap);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(status.message(), HasSubstr("version 2 is missing"));

  status = ApplyMigrations(*admin_, std::string(64, 'x'), {});
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  status = ApplyMigrations(*admin_, "", {});
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
}

TEST_F(PgTest, SchemaNamesAreQuoted) {
  // A name that only works quoted: mixed case, a space and a double quote.
  const std::string schema = NewSchemaName(" Odd\"Name");
  std::vector<Migration> migrations = {{1, "0001_t.sql", "CREATE TABLE t (id int)"}};
  absl::Status status = ApplyMigrations(*admin_, schema, migrations);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(Scalar<int64_t>("SELECT count(*) FROM pg_namespace WHERE nspname = '" + schema + "'"),
            1);
}

}  // namespace
}  // namespace boneyard
