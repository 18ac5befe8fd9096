// The store's replicas (match_store.h, pg_replicas.cc) on the real PostgreSQL: a replica owns
// what it creates; another adopts its matches only once its lease has lapsed (or been given up),
// with every event it stored; from then on the old replica stores nothing (the fence), even a
// write that began before the fence but had not finished; replicas adopting at once take each
// match once; a draining replica hands its matches to the live ones, least loaded first. Several
// stores on one schema stand for several processes.
#include <chrono>
#include <future>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "services/execution/match_store.h"
#include "services/execution/pg_match_store.h"
#include "tests/services/execution/exec_pg_test.h"

namespace boneyard::execution {
namespace {

using test_util::At;
using test_util::ExecPgTest;
using ::testing::HasSubstr;
using ::testing::SizeIs;

constexpr int64_t kT0 = 1'700'000'000'000'000;
constexpr absl::Duration kLongLease = absl::Hours(1);

class ReplicasTest : public ExecPgTest {
 protected:
  // Another store on the test's schema: another process.
  std::unique_ptr<PgMatchStore> OtherStore() {
    absl::StatusOr<std::unique_ptr<PgMatchStore>> store = PgMatchStore::Open(*pool_, schema_);
    EXPECT_TRUE(store.ok()) << store.status();
    return store.ok() ? *std::move(store) : nullptr;
  }
  int64_t Register(MatchStore& store, const std::string& name) {
    absl::StatusOr<int64_t> epoch =
        store.RegisterReplica({.name = name, .address = name + ":50051"}, kLongLease);
    EXPECT_TRUE(epoch.ok()) << epoch.status();
    return epoch.ok() ? *epoch : 0;
  }
  // The database's clock moves past `epoch`'s lease.
  void Lapse(int64_t epoch) {
    ASSERT_TRUE(pool_
                    ->Run([&](pqxx::work& tx) {
                      tx.exec0(absl::StrCat("UPDATE ", In("replicas"),
                                            " SET lease_expires = clock_timestamp() - interval "
                                            "'1 second' WHERE epoch = ",
                                            epoch));
                    })
                    .ok());
  }
  int64_t Owner(const std::string& match_id) {
    return Scalar<int64_t>(absl::StrCat("SELECT coalesce(owner_epoch, 0) FROM ", In("matches"),
                                        " WHERE id = '", match_id, "'"));
  }
  int64_t Events(const std::string& match_id) {
    return Count("events", absl::StrCat("match_id = '", match_id, "'"));
  }
};

TEST_F(ReplicasTest, AnotherReplicaAdoptsAMatchOnlyOnceItsOwnersLeaseLapsedAndTheOwnerIsFenced) {
  std::unique_ptr<PgMatchStore> b = OtherStore();
  const int64_t a_epoch = Register(*store_, "a");
  const int64_t b_epoch = Register(*b, "b");
  ASSERT_NE(a_epoch, b_epoch);
  const NewMatch m = CreateMatch(At(kT0));
  EXPECT_EQ(Owner(m.id), a_epoch);
  ASSERT_TRUE(store_->Commit({{MakeEvent(m.id, 1), MakeEvent(m.id, 2)}, {}}).ok());

  // a renews: nothing to adopt.
  ASSERT_TRUE(store_->RenewLease(kLongLease).ok());
  absl::StatusOr<std::vector<ActiveMatch>> adopted = b->AdoptMatches(10);
  ASSERT_TRUE(adopted.ok()) << adopted.status();
  EXPECT_THAT(*adopted, SizeIs(0));
  EXPECT_EQ(Owner(m.id), a_epoch);

  Lapse(a_epoch);
  adopted = b->AdoptMatches(10);
  ASSERT_TRUE(adopted.ok()) << adopted.status();
  ASSERT_THAT(*adopted, SizeIs(1));
  EXPECT_EQ((*adopted)[0].match.id, m.id);
  EXPECT_THAT((*adopted)[0].events, SizeIs(2));
  EXPECT_EQ((*adopted)[0].match.seat_tokens, m.seat_tokens);
  EXPECT_EQ(Owner(m.id), b_epoch);

  // a is fenced for good: no event, no end, no renewal; nothing of it stored.
  absl::Status s = store_->Commit({{MakeEvent(m.id, 3)}, {}});
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_THAT(s.message(), HasSubstr("fenced"));
  EXPECT_TRUE(IsFenced(s));
  s = store_->Commit({{MakeEvent(m.id, 3)}, {Finished(m.id, 3, At(kT0 + 5))}});
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_TRUE(IsFenced(store_->RenewLease(kLongLease)));
  EXPECT_TRUE(IsFenced(store_->AdoptMatches(10).status()));
  EXPECT_EQ(Events(m.id), 2);
  EXPECT_EQ(Count("matches", absl::StrCat("id = '", m.id, "' AND state = 1")), 1);

  // b carries on, and keeps the match: nothing left to adopt.
  ASSERT_TRUE(b->Commit({{MakeEvent(m.id, 3)}, {}}).ok());
  EXPECT_EQ(Events(m.id), 3);
  adopted = b->AdoptMatches(10);
  ASSERT_TRUE(adopted.ok());
  EXPECT_THAT(*adopted, SizeIs(0));
}

TEST_F(ReplicasTest, AGivenUpLeaseIsAdoptedAtOnceAndSoAreMatchesWithNoOwner) {
  // A store that never registers (one process, as before replicas) owns nothing.
  const NewMatch unowned = CreateMatch(At(kT0));
  EXPECT_EQ(Owner(unowned.id), 0);
  std::unique_ptr<PgMatchStore> a = OtherStore();
  std::unique_ptr<PgMatchStore> b = OtherStore();
  const int64_t a_epoch = Register(*a, "a");
  const int64_t b_epoch = Register(*b, "b");
  NewMatch m = MakeMatch(At(kT0 + 1));
  ASSERT_TRUE(a->CreateMatches({m})[0].ok());
  EXPECT_EQ(Owner(m.id), a_epoch);
  ASSERT_TRUE(a->ReleaseLease().ok());  // a clean exit

  absl::StatusOr<std::vector<ActiveMatch>> adopted = b->AdoptMatches(10);
  ASSERT_TRUE(adopted.ok()) << adopted.status();
  ASSERT_THAT(*adopted, SizeIs(2));
  EXPECT_EQ((*adopted)[0].match.id, unowned.id);  // oldest first
  EXPECT_EQ((*adopted)[1].match.id, m.id);
  EXPECT_EQ(Owner(unowned.id), b_epoch);
  EXPECT_EQ(Owner(m.id), b_epoch);
  EXPECT_EQ(a->Commit({{MakeEvent(m.id, 1)}, {}}).code(), absl::StatusCode::kFailedPrecondition);
  // An unregistered store has no lease to renew or give up (and is not fenced).
  EXPECT_EQ(store_->RenewLease(kLongLease).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_FALSE(IsFenced(store_->RenewLease(kLongLease)));
  EXPECT_EQ(store_->AdoptMatches(1).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST_F(ReplicasTest, ReplicasAdoptingAtOnceTakeEachMatchOnce) {
  std::set<std::string> all;
  for (int i = 0; i < 40; ++i) all.insert(CreateMatch(At(kT0 + i)).id);
  std::unique_ptr<PgMatchStore> b = OtherStore();
  std::unique_ptr<PgMatchStore> c = OtherStore();
  Register(*b, "b");
  Register(*c, "c");
  auto adopt = [](MatchStore* store) {
    std::vector<std::string> ids;
    for (int pass = 0; pass < 40; ++pass) {
      absl::StatusOr<std::vector<ActiveMatch>> got = store->AdoptMatches(3);
      if (!got.ok()) continue;  // a deadlock or lock timeout: the next pass tries again
      for (const ActiveMatch& m : *got) ids.push_back(m.match.id);
    }
    return ids;
  };
  std::future<std::vector<std::string>> by_b = std::async(std::launch::async, adopt, b.get());
  std::future<std::vector<std::string>> by_c = std::async(std::launch::async, adopt, c.get());
  std::vector<std::string> ids = by_b.get();
  const size_t from_b = ids.size();
  for (std::string& id : by_c.get()) ids.push_back(std::move(id));
  const std::set<std::string> unique(ids.begin(), ids.end());
  EXPECT_EQ(unique.size(), ids.size()) << "a match adopted twice";
  EXPECT_EQ(unique, all);
  EXPECT_GT(from_b, 0u);
  EXPECT_LT(from_b, ids.size());
}

// The fence and a write in flight, each way round, with a transaction of this test standing in
// for the other side.
TEST_F(ReplicasTest, AWriteThatMeetsAFenceInFlightStoresNothingAndAFenceWaitsForAWrite) {
  std::unique_ptr<PgMatchStore> b = OtherStore();
  const int64_t a_epoch = Register(*store_, "a");
  Register(*b, "b");
  const NewMatch m = CreateMatch(At(kT0));
  ASSERT_TRUE(store_->Commit({{MakeEvent(m.id, 1)}, {}}).ok());

  // A write of a's that began before a fence commits is stored, and is in the adopted log: the
  // fence waits for it.
  {
    Lapse(a_epoch);  // before the write holds a's row: the lease lapses as a is busy writing
    pqxx::connection conn(url_);
    pqxx::work write(conn);
    write.exec1(
        absl::StrCat("SELECT 1 FROM ", In("replicas"), " WHERE epoch = ", a_epoch, " FOR SHARE"));
    write.exec0(
        absl::StrCat("INSERT INTO ", In("events"),
                     " (match_id, sequence, seat, action, reason, round, message, turn_start_time,"
                     " create_time) VALUES ('",
                     m.id, "', 2, 0, '6-2', 1, 0, '', now(), now())"));
    std::future<absl::StatusOr<std::vector<ActiveMatch>>> adopting =
        std::async(std::launch::async, [&] { return b->AdoptMatches(10); });
    EXPECT_EQ(adopting.wait_for(std::chrono::milliseconds(300)), std::future_status::timeout)
        << "the fence did not wait for the write in flight";
    write.commit();
    absl::StatusOr<std::vector<ActiveMatch>> adopted = adopting.get();
    ASSERT_TRUE(adopted.ok()) << adopted.status();
    ASSERT_THAT(*adopted, SizeIs(1));
    EXPECT_THAT((*adopted)[0].events, SizeIs(2));
  }

  // A fence in flight (uncommitted) holds a's write; once it commits, the write stores nothing.
  std::unique_ptr<PgMatchStore> c = OtherStore();
  const int64_t c_epoch = Register(*c, "c");
  const NewMatch n = MakeMatch(At(kT0 + 1));
  ASSERT_TRUE(c->CreateMatch(n).ok());
  pqxx::connection conn(url_);
  pqxx::work fence(conn);
  fence.exec0(absl::StrCat("UPDATE ", In("replicas"),
                           " SET fenced_time = clock_timestamp() WHERE epoch = ", c_epoch));
  // One write by the single statement, one (ending the match) by the transaction with COPY.
  std::future<absl::Status> statement = std::async(std::launch::async, [&] {
    return c->Commit({{MakeEvent(n.id, 1)}, {}});
  });
  std::future<absl::Status> transaction = std::async(std::launch::async, [&] {
    return c->Commit({{MakeEvent(n.id, 1)}, {Finished(n.id, 1, At(kT0 + 9))}});
  });
  EXPECT_EQ(statement.wait_for(std::chrono::milliseconds(300)), std::future_status::timeout)
      << "the write did not wait for the fence in flight";
  EXPECT_EQ(transaction.wait_for(std::chrono::milliseconds(10)), std::future_status::timeout)
      << "the write did not wait for the fence in flight";
  fence.commit();
  EXPECT_EQ(statement.get().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(transaction.get().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Count("matches", absl::StrCat("id = '", n.id, "' AND state = 1")), 1);
  EXPECT_EQ(Events(n.id), 0);
}

TEST_F(ReplicasTest, ADrainingReplicaHandsItsMatchesToTheLiveReplicasLeastLoadedFirst) {
  std::unique_ptr<PgMatchStore> b = OtherStore();
  std::unique_ptr<PgMatchStore> c = OtherStore();
  std::unique_ptr<PgMatchStore> gone = OtherStore();
  const int64_t a_epoch = Register(*store_, "a");
  const int64_t b_epoch = Register(*b, "b");
  const int64_t c_epoch = Register(*c, "c");
  const int64_t gone_epoch = Register(*gone, "gone");
  Lapse(gone_epoch);  // not live: it gets nothing
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(b->CreateMatch(MakeMatch(At(kT0 + i))).ok());
  }
  std::vector<std::string> mine;
  for (int i = 0; i < 4; ++i) {
    const NewMatch m = CreateMatch(At(kT0 + 10 + i));
    ASSERT_TRUE(store_->Commit({{MakeEvent(m.id, 1)}, {}}).ok());
    mine.push_back(m.id);
  }

  absl::StatusOr<int> handed = store_->HandOver();
  ASSERT_TRUE(handed.ok()) << handed.status();
  EXPECT_EQ(*handed, 4);
  // b had 2, c none: c takes the first two, then they alternate (ties to the older replica),
  // ending even at 3 each.
  EXPECT_EQ(Owner(mine[0]), c_epoch);
  EXPECT_EQ(Owner(mine[1]), c_epoch);
  EXPECT_EQ(Owner(mine[2]), b_epoch);
  EXPECT_EQ(Owner(mine[3]), c_epoch);
  EXPECT_EQ(Count("matches", absl::StrCat("owner_epoch = ", gone_epoch)), 0);
  EXPECT_EQ(Count("matches", absl::StrCat("owner_epoch = ", a_epoch)), 0);

  // The giver is fenced: nothing of it is stored any more.
  absl::Status s = store_->Commit({{MakeEvent(mine[0], 2)}, {}});
  EXPECT_TRUE(IsFenced(s)) << s;
  EXPECT_EQ(Events(mine[0]), 1);

  // Each receiver loads what it was handed, once, with its events; a lapsed replica's look
  // (AdoptMatches) takes them too, but never twice.
  absl::StatusOr<std::vector<ActiveMatch>> taken = b->TakeHandedOver(10);
  ASSERT_TRUE(taken.ok()) << taken.status();
  ASSERT_THAT(*taken, SizeIs(1));
  EXPECT_EQ((*taken)[0].match.id, mine[2]);
  EXPECT_THAT((*taken)[0].events, SizeIs(1));
  taken = b->TakeHandedOver(10);
  ASSERT_TRUE(taken.ok());
  EXPECT_THAT(*taken, SizeIs(0));
  taken = c->TakeHandedOver(1);
  ASSERT_TRUE(taken.ok());
  EXPECT_THAT(*taken, SizeIs(1));
  taken = c->AdoptMatches(10);
  ASSERT_TRUE(taken.ok()) << taken.status();
  EXPECT_THAT(*taken, SizeIs(2));
  taken = c->AdoptMatches(10);
  ASSERT_TRUE(taken.ok());
  EXPECT_THAT(*taken, SizeIs(0));
  // The receivers play on.
  EXPECT_TRUE(c->Commit({{MakeEvent(mine[0], 2)}, {}}).ok());
  EXPECT_TRUE(b->Commit({{MakeEvent(mine[2], 2)}, {}}).ok());
}

TEST_F(ReplicasTest, AMatchHandedToAReplicaThatDiesBeforeLoadingItIsAdoptedOnce) {
  std::unique_ptr<PgMatchStore> b = OtherStore();
  std::unique_ptr<PgMatchStore> c = OtherStore();
  Register(*store_, "a");
  const int64_t b_epoch = Register(*b, "b");
  const NewMatch m = CreateMatch(At(kT0));
  absl::StatusOr<int> handed = store_->HandOver();
  ASSERT_TRUE(handed.ok()) << handed.status();
  EXPECT_EQ(*handed, 1);  // to b, the only live replica (c registers after)
  const int64_t c_epoch = Register(*c, "c");
  Lapse(b_epoch);
  absl::StatusOr<std::vector<ActiveMatch>> adopted = c->AdoptMatches(10);
  ASSERT_TRUE(adopted.ok()) << adopted.status();
  ASSERT_THAT(*adopted, SizeIs(1));
  EXPECT_EQ(Owner(m.id), c_epoch);
  // Adopted, it is no longer "handed over": c does not load it a second time.
  adopted = c->TakeHandedOver(10);
  ASSERT_TRUE(adopted.ok());
  EXPECT_THAT(*adopted, SizeIs(0));
}

TEST_F(ReplicasTest, WithNoLiveReplicaAHandOverGivesTheLeaseUp) {
  std::unique_ptr<PgMatchStore> b = OtherStore();
  Register(*store_, "a");
  const NewMatch m = CreateMatch(At(kT0));
  absl::StatusOr<int> handed = store_->HandOver();
  ASSERT_TRUE(handed.ok()) << handed.status();
  EXPECT_EQ(*handed, 0);
  EXPECT_TRUE(IsFenced(store_->RenewLease(kLongLease)));
  // A replica starting later adopts it at once, as after ReleaseLease.
  const int64_t b_epoch = Register(*b, "b");
  absl::StatusOr<std::vector<ActiveMatch>> adopted = b->AdoptMatches(10);
  ASSERT_TRUE(adopted.ok()) << adopted.status();
  EXPECT_THAT(*adopted, SizeIs(1));
  EXPECT_EQ(Owner(m.id), b_epoch);
}

TEST_F(ReplicasTest, EachReplicaSharesItsLoadAndSeesTheLiveOnes) {
  std::unique_ptr<PgMatchStore> b = OtherStore();
  std::unique_ptr<PgMatchStore> gone = OtherStore();
  const int64_t a_epoch = Register(*store_, "a");
  const int64_t b_epoch = Register(*b, "b");
  Lapse(Register(*gone, "gone"));
  ASSERT_TRUE(b->ShareLoad(7).ok());
  absl::StatusOr<std::vector<ReplicaLoad>> loads = store_->ShareLoad(3);
  ASSERT_TRUE(loads.ok()) << loads.status();
  ASSERT_THAT(*loads, SizeIs(2));  // not the lapsed one
  EXPECT_EQ((*loads)[0].epoch, a_epoch);
  EXPECT_EQ((*loads)[0].live_matches, 3);
  EXPECT_EQ((*loads)[0].address, "a:50051");
  EXPECT_EQ((*loads)[1].epoch, b_epoch);
  EXPECT_EQ((*loads)[1].live_matches, 7);
}

TEST_F(ReplicasTest, AReplicaTakingTheAddressOfAnEarlierOneFencesIt) {
  // A process restarted in its predecessor's place (same host and port): clients sent to the
  // address reach the new one, which does not play the old one's matches.
  std::unique_ptr<PgMatchStore> next = OtherStore();
  std::unique_ptr<PgMatchStore> other = OtherStore();
  Register(*store_, "a");
  ASSERT_TRUE(store_->SetReplicaAddress("10.0.0.7:50051").ok());
  const NewMatch m = CreateMatch(At(kT0));
  Register(*other, "other");
  ASSERT_TRUE(other->SetReplicaAddress("10.0.0.8:50051").ok());
  const int64_t next_epoch = Register(*next, "a-again");
  ASSERT_TRUE(next->SetReplicaAddress("10.0.0.7:50051").ok());
  EXPECT_TRUE(IsFenced(store_->RenewLease(kLongLease)));
  EXPECT_TRUE(other->RenewLease(kLongLease).ok());  // another address: untouched
  // Its matches are anyone's at once, the new replica's included.
  absl::StatusOr<std::vector<ActiveMatch>> adopted = next->AdoptMatches(10);
  ASSERT_TRUE(adopted.ok()) << adopted.status();
  EXPECT_THAT(*adopted, SizeIs(1));
  EXPECT_EQ(Owner(m.id), next_epoch);
}

}  // namespace
}  // namespace boneyard::execution
