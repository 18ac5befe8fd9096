// Sessions: random ids and CSRF tokens, the actor the audit log names, idle
// expiry, sign-out.
#include "services/web/sessions.h"

#include "gtest/gtest.h"

namespace boneyard::web {
namespace {

Session Player(const std::string& id) {
  Session s;
  s.role = Role::kPlayer;
  s.player_id = id;
  return s;
}

TEST(SessionStoreTest, CreateFindAndEnd) {
  SessionStore store;
  Session op;
  op.role = Role::kOperator;
  op.credential = "operator-token";
  const std::string id = store.Create(op);
  EXPECT_GE(id.size(), 32u);
  EXPECT_GE(op.csrf_token.size(), 32u);
  EXPECT_NE(op.csrf_token, id);
  EXPECT_EQ(op.actor, "operator:" + id.substr(0, 8));
  std::optional<Session> found = store.Find(id);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->credential, "operator-token");
  EXPECT_EQ(found->csrf_token, op.csrf_token);
  EXPECT_FALSE(store.Find(id + "x").has_value());
  EXPECT_FALSE(store.Find("").has_value());
  store.End(id);
  EXPECT_FALSE(store.Find(id).has_value());
}

TEST(SessionStoreTest, EverySessionHasItsOwnIdAndCsrfToken) {
  SessionStore store;
  Session a = Player("ann");
  Session b = Player("ann");
  const std::string id_a = store.Create(a);
  const std::string id_b = store.Create(b);
  EXPECT_NE(id_a, id_b);
  EXPECT_NE(a.csrf_token, b.csrf_token);
  EXPECT_EQ(a.actor, "player:ann");
}

TEST(SessionStoreTest, IdleSessionsEndAndTheCapHolds) {
  SessionStore idle(absl::ZeroDuration());
  Session s = Player("ann");
  const std::string id = idle.Create(s);
  absl::SleepFor(absl::Milliseconds(2));
  EXPECT_FALSE(idle.Find(id).has_value());

  SessionStore capped(absl::Hours(1), /*max_sessions=*/3);
  for (int i = 0; i < 10; ++i) {
    Session t = Player("p");
    capped.Create(t);
  }
  EXPECT_EQ(capped.size(), 3);
}

}  // namespace
}  // namespace boneyard::web
