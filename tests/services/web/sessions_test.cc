// Sessions on the real PostgreSQL: random ids and CSRF tokens, the actor the audit log names,
// idle expiry, the cap, sign-out; shared by every web replica (two stores on one schema stand
// for two processes); and the table alone signs no one in (ids kept as hashes, credentials
// sealed under a key the database does not hold). Sealing itself: a round trip, and an altered
// value or another key refused.
#include "services/web/sessions.h"

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "services/common/pg_pool.h"
#include "services/common/tokens.h"
#include "services/web/audit_log.h"
#include "services/web/sealed.h"

namespace boneyard::web {
namespace {

Session Player(const std::string& id) {
  Session s;
  s.role = Role::kPlayer;
  s.player_id = id;
  s.credential = "token-of-" + id;
  return s;
}

class SessionStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* url = std::getenv("BONEYARD_TEST_DATABASE_URL");
    ASSERT_NE(url, nullptr) << "BONEYARD_TEST_DATABASE_URL is not set (tests/run.sh sets it)";
    url_ = url;
    pool_ = Connect();
    ASSERT_NE(pool_, nullptr);
    schema_ = absl::StrCat("t_web_", absl::BytesToHexString(RandomBytes(6)));
    ASSERT_TRUE(AuditLog::Open(*pool_, schema_).ok());  // the web schema's migrations
  }
  void TearDown() override {
    if (pool_ == nullptr || schema_.empty()) return;
    EXPECT_TRUE(pool_
                    ->Run([&](pqxx::work& tx) {
                      tx.exec0("DROP SCHEMA IF EXISTS " + tx.quote_name(schema_) + " CASCADE");
                    })
                    .ok());
  }
  std::unique_ptr<PgPool> Connect() {
    absl::StatusOr<std::unique_ptr<PgPool>> pool = PgPool::Connect(url_, 2);
    EXPECT_TRUE(pool.ok()) << pool.status();
    return pool.ok() ? *std::move(pool) : nullptr;
  }
  std::unique_ptr<SessionStore> Store(PgPool& pool, absl::string_view secret = "operator-secret",
                                      absl::Duration idle = absl::Hours(12), int cap = 100000) {
    return std::make_unique<SessionStore>(pool, absl::StrCat("\"", schema_, "\""), secret, idle,
                                          cap);
  }
  std::optional<Session> Find(SessionStore& store, const std::string& id) {
    absl::StatusOr<std::optional<Session>> found = store.Find(id);
    EXPECT_TRUE(found.ok()) << found.status();
    return found.ok() ? *found : std::nullopt;
  }
  std::string Create(SessionStore& store, Session& session) {
    absl::StatusOr<std::string> id = store.Create(session);
    EXPECT_TRUE(id.ok()) << id.status();
    return id.ok() ? *id : "";
  }

  std::string url_;
  std::unique_ptr<PgPool> pool_;
  std::string schema_;
};

TEST_F(SessionStoreTest, CreateFindAndEnd) {
  std::unique_ptr<SessionStore> store = Store(*pool_);
  Session op;
  op.role = Role::kOperator;
  op.credential = "operator-token";
  const std::string id = Create(*store, op);
  EXPECT_GE(id.size(), 32u);
  EXPECT_GE(op.csrf_token.size(), 32u);
  EXPECT_NE(op.csrf_token, id);
  EXPECT_EQ(op.actor, "operator:" + id.substr(0, 8));
  std::optional<Session> found = Find(*store, id);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->role, Role::kOperator);
  EXPECT_EQ(found->credential, "operator-token");
  EXPECT_EQ(found->csrf_token, op.csrf_token);
  EXPECT_EQ(found->actor, op.actor);
  EXPECT_FALSE(Find(*store, id + "x").has_value());
  EXPECT_FALSE(Find(*store, "").has_value());
  ASSERT_TRUE(store->End(id).ok());
  EXPECT_FALSE(Find(*store, id).has_value());
}

TEST_F(SessionStoreTest, EverySessionHasItsOwnIdAndCsrfToken) {
  std::unique_ptr<SessionStore> store = Store(*pool_);
  Session a = Player("ann");
  Session b = Player("ann");
  const std::string id_a = Create(*store, a);
  const std::string id_b = Create(*store, b);
  EXPECT_NE(id_a, id_b);
  EXPECT_NE(a.csrf_token, b.csrf_token);
  EXPECT_EQ(a.actor, "player:ann");
  std::optional<Session> found = Find(*store, id_b);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->player_id, "ann");
  EXPECT_EQ(found->credential, "token-of-ann");
}

TEST_F(SessionStoreTest, IdleSessionsEndAndTheCapHolds) {
  std::unique_ptr<SessionStore> idle = Store(*pool_, "operator-secret", absl::Milliseconds(1));
  Session s = Player("ann");
  const std::string id = Create(*idle, s);
  absl::SleepFor(absl::Milliseconds(20));
  EXPECT_FALSE(Find(*idle, id).has_value());

  std::unique_ptr<SessionStore> capped = Store(*pool_, "operator-secret", absl::Hours(1), 3);
  std::string last;
  for (int i = 0; i < 10; ++i) {
    Session t = Player("p");
    last = Create(*capped, t);
  }
  absl::StatusOr<int> size = capped->size();
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(*size, 3);
  EXPECT_TRUE(Find(*capped, last).has_value());  // the newest stays
}

TEST_F(SessionStoreTest, EveryReplicaKnowsEverySessionAndItsSignOut) {
  std::unique_ptr<PgPool> other_pool = Connect();  // another web process
  std::unique_ptr<SessionStore> here = Store(*pool_);
  std::unique_ptr<SessionStore> there = Store(*other_pool);
  Session s = Player("bea");
  const std::string id = Create(*here, s);
  std::optional<Session> found = Find(*there, id);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->credential, "token-of-bea");
  EXPECT_EQ(found->csrf_token, s.csrf_token);
  ASSERT_TRUE(there->End(id).ok());
  EXPECT_FALSE(Find(*here, id).has_value());
}

TEST_F(SessionStoreTest, TheTableAloneSignsNoOneIn) {
  std::unique_ptr<SessionStore> store = Store(*pool_);
  Session s = Player("cal");
  const std::string id = Create(*store, s);
  // Neither the id nor the credential is in the table as it is.
  const std::string dump = *pool_->Run([&](pqxx::work& tx) {
    return tx
        .exec1(absl::StrCat("SELECT id_hash || encode(credential, 'escape') FROM \"", schema_,
                            "\".sessions"))[0]
        .as<std::string>();
  });
  EXPECT_EQ(dump.find(id), std::string::npos);
  EXPECT_EQ(dump.find("token-of-cal"), std::string::npos);
  // A web app with another operator token cannot use the session.
  std::unique_ptr<SessionStore> other_key = Store(*pool_, "another-operator-secret");
  EXPECT_FALSE(Find(*other_key, id).has_value());
  EXPECT_TRUE(Find(*store, id).has_value());
}

TEST(SealerTest, SealedValuesOpenOnlyUnaltered) {
  const Sealer sealer("secret");
  const std::string sealed = sealer.Seal("the credential");
  EXPECT_EQ(sealed.find("the credential"), std::string::npos);
  EXPECT_NE(sealer.Seal("the credential"), sealed);  // a fresh nonce each time
  absl::StatusOr<std::string> opened = sealer.Open(sealed);
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_EQ(*opened, "the credential");
  std::string altered = sealed;
  altered[altered.size() / 2] ^= 1;
  EXPECT_EQ(sealer.Open(altered).status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(sealer.Open("short").status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(Sealer("other").Open(sealed).status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(*sealer.Open(sealer.Seal("")), "");
}

}  // namespace
}  // namespace boneyard::web
