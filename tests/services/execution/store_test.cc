// PgMatchStore against the real PostgreSQL (see exec_pg_test.h), and the embedded migrations.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <latch>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "boneyard/v1/execution.pb.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "services/common/migrations.h"
#include "services/execution/match_store.h"
#include "services/execution/migrations.h"
#include "services/execution/pg_match_store.h"
#include "tests/services/execution/exec_pg_test.h"

namespace boneyard::execution {
namespace {

using ::google::protobuf::util::MessageDifferencer;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;
using test_util::At;
using test_util::ExecPgTest;
using test_util::SetTime;

constexpr int64_t kT0 = 1'700'000'000'123'456;  // 2023-11-14 22:13:20.123456 UTC

MATCHER_P(EqualsProto, expected, "") {
  std::string diff;
  MessageDifferencer differencer;
  differencer.ReportDifferencesToString(&diff);
  if (differencer.Compare(arg, expected)) return true;
  *result_listener << diff;
  return false;
}

std::vector<std::string> EventKeys(const std::vector<EventRow>& events) {
  std::vector<std::string> keys;
  for (const EventRow& e : events) keys.push_back(absl::StrCat(e.match_id, "#", e.sequence));
  return keys;
}

void ExpectSameEvent(const EventRow& got, const EventRow& want) {
  EXPECT_EQ(got.match_id, want.match_id);
  EXPECT_EQ(got.sequence, want.sequence);
  EXPECT_EQ(got.seat, want.seat);
  EXPECT_EQ(got.action, want.action);
  EXPECT_EQ(got.reason, want.reason);
  EXPECT_EQ(got.round, want.round);
  EXPECT_EQ(got.message, want.message);
  EXPECT_EQ(got.turn_start_time, want.turn_start_time);
  EXPECT_EQ(got.create_time, want.create_time);
}

class StoreTest : public ExecPgTest {};

// --- Migrations ---

TEST(ExecutionMigrationsTest, EmbedsEveryFileByteForByte) {
  // This file is tests/services/execution/store_test.cc; the migrations are in
  // services/execution/migrations/.
  const std::filesystem::path dir = std::filesystem::path(__FILE__).parent_path() / ".." / ".." /
                                    ".." / "services" / "execution" / "migrations";
  absl::StatusOr<std::vector<Migration>> files = LoadMigrations(dir);
  ASSERT_TRUE(files.ok()) << files.status();
  const std::vector<Migration> embedded = ExecutionMigrations();
  ASSERT_EQ(embedded.size(), files->size());
  ASSERT_FALSE(embedded.empty());
  EXPECT_EQ(embedded[0].version, 1);
  EXPECT_EQ(embedded[0].name, "0001_init.sql");
  for (size_t i = 0; i < embedded.size(); ++i) {
    EXPECT_EQ(embedded[i].version, (*files)[i].version);
    EXPECT_EQ(embedded[i].name, (*files)[i].name);
    EXPECT_EQ(embedded[i].sql, (*files)[i].sql) << embedded[i].name;
  }
}

TEST_F(StoreTest, OpenAppliesTheMigrationsOnceAndAgainIsHarmless) {
  EXPECT_EQ(Count("schema_migrations"), static_cast<int64_t>(ExecutionMigrations().size()));
  absl::StatusOr<std::unique_ptr<MatchStore>> again = OpenPgMatchStore(*pool_, schema_);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(Count("schema_migrations"), static_cast<int64_t>(ExecutionMigrations().size()));
}

// --- CreateMatch and reads ---

TEST_F(StoreTest, CreatedMatchReadsBackFieldForField) {
  NewMatch m = MakeMatch(At(kT0), "muggins", "req-1", std::string("\x00\xff\x10 digest", 10));
  m.seed = 0xfedc'ba98'7654'3210ULL;  // top bit set
  absl::StatusOr<CreateResult> created = store_->CreateMatch(m);
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_FALSE(created->existed);
  EXPECT_EQ(created->match.id, m.id);

  absl::StatusOr<NewMatch> stored = store_->GetNewMatch(m.id);
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->id, m.id);
  EXPECT_THAT(stored->match, EqualsProto(m.match));
  EXPECT_EQ(stored->seed, 0xfedc'ba98'7654'3210ULL);
  EXPECT_THAT(stored->seat_tokens, ElementsAreArray(m.seat_tokens));
  EXPECT_EQ(stored->seat_tokens[1], "");  // the bot's seat
  EXPECT_EQ(stored->request_id, "req-1");
  EXPECT_EQ(stored->request_digest, m.request_digest);
  // The seed is kept as its bit pattern.
  EXPECT_EQ(Scalar<int64_t>(absl::StrCat("SELECT seed FROM ", In("matches"))),
            static_cast<int64_t>(0xfedc'ba98'7654'3210ULL));

  absl::StatusOr<v1::Match> match = store_->GetMatch(m.id);
  ASSERT_TRUE(match.ok()) << match.status();
  EXPECT_THAT(*match, EqualsProto(m.match));
  EXPECT_EQ(match->state(), v1::Match::ACTIVE);
  EXPECT_EQ(match->sequence(), 0);

  for (int seat : {0, 2}) {
    absl::StatusOr<SeatGrant> grant = store_->FindSeatToken(m.seat_tokens[seat]);
    ASSERT_TRUE(grant.ok()) << grant.status();
    EXPECT_EQ(grant->match_id, m.id);
    EXPECT_EQ(grant->seat, seat);
  }
  absl::StatusOr<SeatGrant> unknown = store_->FindSeatToken("tok-nobody");
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kNotFound) << unknown.status();
  EXPECT_THAT(unknown.status().message(), ::testing::Not(HasSubstr("tok-nobody")));
  EXPECT_EQ(store_->FindSeatToken("").status().code(), absl::StatusCode::kNotFound);

  EXPECT_EQ(store_->GetMatch("nope").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->GetNewMatch("nope").status().code(), absl::StatusCode::kNotFound);
}

TEST_F(StoreTest, MatchWithoutRequestIdStoresNullAndNeverConflicts) {
  NewMatch a = MakeMatch(At(kT0));
  NewMatch b = MakeMatch(At(kT0));
  ASSERT_TRUE(store_->CreateMatch(a).ok());
  absl::StatusOr<CreateResult> second = store_->CreateMatch(b);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_FALSE(second->existed);
  EXPECT_EQ(Count("matches", "request_id IS NULL"), 2);
  absl::StatusOr<NewMatch> stored = store_->GetNewMatch(b.id);
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->request_id, "");
}

TEST_F(StoreTest, CreateIsIdempotentOnRequestId) {
  NewMatch first = MakeMatch(At(kT0), "muggins", "req-7", "digest-A");
  ASSERT_TRUE(store_->CreateMatch(first).ok());

  // A repeat: another id and other tokens, as a retried RPC would make; the first one wins.
  NewMatch repeat = MakeMatch(At(kT0 + 5), "muggins", "req-7", "digest-A");
  absl::StatusOr<CreateResult> again = store_->CreateMatch(repeat);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->existed);
  EXPECT_EQ(again->match.id, first.id);
  EXPECT_THAT(again->match.match, EqualsProto(first.match));
  EXPECT_THAT(again->match.seat_tokens, ElementsAreArray(first.seat_tokens));
  EXPECT_EQ(again->match.seed, first.seed);
  EXPECT_EQ(again->match.request_id, "req-7");
  EXPECT_EQ(again->match.request_digest, "digest-A");

  NewMatch other = MakeMatch(At(kT0), "muggins", "req-7", "digest-B");
  absl::StatusOr<CreateResult> conflict = store_->CreateMatch(other);
  ASSERT_FALSE(conflict.ok());
  EXPECT_EQ(conflict.status().code(), absl::StatusCode::kAlreadyExists) << conflict.status();
  EXPECT_EQ(conflict.status().message(),
            absl::StrCat("request_id \"req-7\" was used for matches/", first.id,
                         " with different parameters"));

  EXPECT_EQ(Count("matches"), 1);
  EXPECT_EQ(Count("seat_tokens"), 2);
  EXPECT_EQ(store_->FindSeatToken(repeat.seat_tokens[0]).status().code(),
            absl::StatusCode::kNotFound);
}

// CreateMatches: many in one transaction, each answered as CreateMatch would answer it alone.
TEST_F(StoreTest, ABatchOfCreatesAnswersEachAsAloneAndStoresOnlyTheGoodOnes) {
  NewMatch earlier = MakeMatch(At(kT0), "muggins", "req-old", "digest-A");
  ASSERT_TRUE(store_->CreateMatch(earlier).ok());
  NewMatch plain = MakeMatch(At(kT0 + 1), "muggins", "", "d");
  plain.seed = 0xfedc'ba98'7654'3210ULL;  // top bit set
  NewMatch with_id = MakeMatch(At(kT0 + 2), "muggins", "req-new", "digest-N");
  NewMatch repeat = MakeMatch(At(kT0 + 3), "muggins", "req-old", "digest-A");
  NewMatch reused = MakeMatch(At(kT0 + 4), "muggins", "req-old", "digest-B");
  NewMatch twice = MakeMatch(At(kT0 + 5), "muggins", "req-new", "digest-N");  // in-batch repeat
  NewMatch inactive = MakeMatch(At(kT0 + 6));
  inactive.match.set_state(v1::Match::FINISHED);
  const std::vector<absl::StatusOr<CreateResult>> results =
      store_->CreateMatches({plain, with_id, repeat, reused, twice, inactive});
  ASSERT_EQ(results.size(), 6u);
  ASSERT_TRUE(results[0].ok()) << results[0].status();
  EXPECT_FALSE(results[0]->existed);
  ASSERT_TRUE(results[1].ok()) << results[1].status();
  EXPECT_FALSE(results[1]->existed);
  ASSERT_TRUE(results[2].ok()) << results[2].status();
  EXPECT_TRUE(results[2]->existed);
  EXPECT_EQ(results[2]->match.id, earlier.id);
  EXPECT_THAT(results[2]->match.seat_tokens, ElementsAreArray(earlier.seat_tokens));
  EXPECT_EQ(results[3].status().code(), absl::StatusCode::kAlreadyExists) << results[3].status();
  ASSERT_TRUE(results[4].ok()) << results[4].status();
  EXPECT_TRUE(results[4]->existed);
  EXPECT_EQ(results[4]->match.id, with_id.id);
  EXPECT_EQ(results[5].status().code(), absl::StatusCode::kInvalidArgument) << results[5].status();

  // Stored field for field, tokens included, as CreateMatch stores them.
  for (const NewMatch* m : {&plain, &with_id}) {
    absl::StatusOr<NewMatch> stored = store_->GetNewMatch(m->id);
    ASSERT_TRUE(stored.ok()) << stored.status();
    EXPECT_THAT(stored->match, EqualsProto(m->match));
    EXPECT_EQ(stored->seed, m->seed);
    EXPECT_THAT(stored->seat_tokens, ElementsAreArray(m->seat_tokens));
    EXPECT_EQ(stored->request_id, m->request_id);
    EXPECT_EQ(stored->request_digest, m->request_digest);
  }
  // Both written by one transaction (the batch's), not one each.
  EXPECT_EQ(Scalar<int64_t>(absl::StrCat("SELECT count(DISTINCT xmin::text) FROM ", In("matches"),
                                         " WHERE id IN ('", plain.id, "', '", with_id.id, "')")),
            1);
  EXPECT_EQ(Count("matches"), 3);      // earlier, plain, with_id
  EXPECT_EQ(Count("seat_tokens"), 6);  // two each
  EXPECT_EQ(Count("matches", "request_id IS NULL"), 1);
}

TEST_F(StoreTest, SameIdTwiceIsAlreadyExists) {
  NewMatch m = MakeMatch(At(kT0));
  ASSERT_TRUE(store_->CreateMatch(m).ok());
  NewMatch same_id = MakeMatch(At(kT0));
  same_id.id = m.id;
  EXPECT_EQ(store_->CreateMatch(same_id).status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(Count("seat_tokens"), 2);
}

TEST_F(StoreTest, ConcurrentCreatesWithOneRequestIdMakeOneMatch) {
  constexpr int kThreads = 8;
  absl::StatusOr<std::unique_ptr<PgPool>> pool = PgPool::Connect(url_, kThreads);
  ASSERT_TRUE(pool.ok()) << pool.status();
  absl::StatusOr<std::unique_ptr<MatchStore>> store = OpenPgMatchStore(**pool, schema_);
  ASSERT_TRUE(store.ok()) << store.status();

  for (int round = 0; round < 5; ++round) {
    const std::string request_id = absl::StrCat("req-race-", round);
    std::vector<NewMatch> attempts;
    for (int t = 0; t < kThreads; ++t) {
      attempts.push_back(MakeMatch(At(kT0 + t), "muggins", request_id, "same"));
    }
    std::vector<absl::StatusOr<CreateResult>> results(kThreads, absl::UnknownError("not run"));
    std::latch start(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        start.arrive_and_wait();
        results[t] = (*store)->CreateMatch(attempts[t]);
      });
    }
    for (std::thread& thread : threads) thread.join();

    int created = 0;
    std::string winner;
    for (int t = 0; t < kThreads; ++t) {
      ASSERT_TRUE(results[t].ok()) << results[t].status();
      if (!results[t]->existed) {
        ++created;
        winner = attempts[t].id;
      }
    }
    ASSERT_EQ(created, 1) << "round " << round;
    for (int t = 0; t < kThreads; ++t) {
      EXPECT_EQ(results[t]->match.id, winner);
      EXPECT_EQ(results[t]->match.seat_tokens.size(), 3u);
      EXPECT_FALSE(results[t]->match.seat_tokens[0].empty());
    }
    EXPECT_EQ(Count("matches", absl::StrCat("request_id = '", request_id, "'")), 1);
  }
  EXPECT_EQ(Count("matches"), 5);
  EXPECT_EQ(Count("seat_tokens"), 10);
  store->reset();
}

TEST_F(StoreTest, CreateRejectsAMatchThatIsNotActive) {
  NewMatch m = MakeMatch(At(kT0));
  m.match.set_state(v1::Match::FINISHED);
  EXPECT_EQ(store_->CreateMatch(m).status().code(), absl::StatusCode::kInvalidArgument);
  NewMatch no_id = MakeMatch(At(kT0));
  no_id.id.clear();
  EXPECT_EQ(store_->CreateMatch(no_id).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Count("matches"), 0);
}

// --- Commit ---

TEST_F(StoreTest, CommitStoresEventsAndEndsWithAnOutboxRowOnlyForFinished) {
  const NewMatch a = CreateMatch(At(kT0));
  const NewMatch b = CreateMatch(At(kT0 + 1));
  const NewMatch c = CreateMatch(At(kT0 + 2));
  CommitBatch batch;
  for (int64_t s = 1; s <= 3; ++s) batch.events.push_back(MakeEvent(a.id, s));
  batch.events.push_back(MakeEvent(b.id, 1));
  EventRow abort = MakeEvent(b.id, 2);
  abort.seat = -1;
  abort.action = "";
  abort.reason = v1::MatchEvent::OPERATOR_ABORT;
  abort.message = "server maintenance";
  batch.events.push_back(abort);
  batch.events.push_back(MakeEvent(c.id, 1));
  const absl::Time a_end = At(kT0 + 10'000'001);
  const absl::Time b_end = At(kT0 + 20'000'002);
  batch.ends.push_back(Finished(a.id, 3, a_end));
  batch.ends.push_back(Aborted(b.id, 2, b_end));
  ASSERT_TRUE(store_->Commit(batch).ok());

  EXPECT_EQ(Count("events"), 6);

  absl::StatusOr<v1::Match> finished = store_->GetMatch(a.id);
  ASSERT_TRUE(finished.ok()) << finished.status();
  v1::Match want = a.match;
  want.set_state(v1::Match::FINISHED);
  want.set_sequence(3);
  *want.mutable_result() = *batch.ends[0].result;
  SetTime(a_end, want.mutable_update_time());
  SetTime(a_end, want.mutable_end_time());
  EXPECT_THAT(*finished, EqualsProto(want));

  absl::StatusOr<v1::Match> aborted = store_->GetMatch(b.id);
  ASSERT_TRUE(aborted.ok()) << aborted.status();
  want = b.match;
  want.set_state(v1::Match::ABORTED);
  want.set_sequence(2);
  want.set_abort_reason("server maintenance");
  SetTime(b_end, want.mutable_update_time());
  SetTime(b_end, want.mutable_end_time());
  EXPECT_THAT(*aborted, EqualsProto(want));
  EXPECT_FALSE(aborted->has_result());

  absl::StatusOr<v1::Match> active = store_->GetMatch(c.id);
  ASSERT_TRUE(active.ok()) << active.status();
  EXPECT_THAT(*active, EqualsProto(c.match));  // as created: sequence 0

  // The outbox holds A's result alone, due at its end.
  EXPECT_EQ(Count("outbox"), 1);
  EXPECT_EQ(Count("outbox", absl::StrCat("match_id = '", a.id, "'")), 1);
  absl::StatusOr<std::vector<OutboxItem>> pending =
      store_->PendingOutbox(kRatingsReceiver, 10, a_end);
  ASSERT_TRUE(pending.ok()) << pending.status();
  ASSERT_THAT(*pending, SizeIs(1));
  EXPECT_EQ((*pending)[0].match_id, a.id);
  EXPECT_EQ((*pending)[0].attempts, 0);
  EXPECT_THAT((*pending)[0].match, EqualsProto(*finished));
}

TEST_F(StoreTest, EachReceiverGetsItsOwnOutboxRowAndACasualMatchSkipsRatings) {
  // Rated by hand (ratings only); rated from a queue (both); casual from a queue (matchmaking).
  NewMatch by_hand = MakeMatch(At(kT0));
  NewMatch queued = MakeMatch(At(kT0 + 1));
  queued.match.set_queue("queues/duel");
  NewMatch casual = MakeMatch(At(kT0 + 2));
  casual.match.set_queue("queues/casual");
  casual.match.set_casual(true);
  for (const NewMatch* m : {&by_hand, &queued, &casual}) {
    ASSERT_TRUE(store_->CreateMatch(*m).ok());
  }
  const absl::Time end = At(kT0 + 10);
  ASSERT_TRUE(store_
                  ->Commit({{},
                            {Finished(by_hand.id, 1, end), Finished(queued.id, 1, end),
                             Finished(casual.id, 1, end)}})
                  .ok());
  EXPECT_EQ(Count("outbox"), 4);
  absl::StatusOr<std::vector<OutboxItem>> ratings =
      store_->PendingOutbox(kRatingsReceiver, 10, end);
  absl::StatusOr<std::vector<OutboxItem>> matchmaking =
      store_->PendingOutbox(kMatchmakingReceiver, 10, end);
  ASSERT_TRUE(ratings.ok() && matchmaking.ok());
  std::vector<std::string> rated, matchmade;
  for (const OutboxItem& item : *ratings) rated.push_back(item.match_id);
  for (const OutboxItem& item : *matchmaking) {
    EXPECT_EQ(item.receiver, kMatchmakingReceiver);
    matchmade.push_back(item.match_id);
  }
  EXPECT_THAT(rated, ::testing::ElementsAre(by_hand.id, queued.id));
  EXPECT_THAT(matchmade, ::testing::ElementsAre(queued.id, casual.id));

  // One receiver's delivery, failure or parking leaves the other's row as it was.
  ASSERT_TRUE(store_->MarkDelivered((*ratings)[1].id, end).ok());
  ASSERT_TRUE(store_->MarkParked((*matchmaking)[1].id, "refused", end).ok());
  ratings = store_->PendingOutbox(kRatingsReceiver, 10, end);
  matchmaking = store_->PendingOutbox(kMatchmakingReceiver, 10, end);
  ASSERT_TRUE(ratings.ok() && matchmaking.ok());
  ASSERT_THAT(*ratings, SizeIs(1));
  EXPECT_EQ((*ratings)[0].match_id, by_hand.id);
  ASSERT_THAT(*matchmaking, SizeIs(1));
  EXPECT_EQ((*matchmaking)[0].match_id, queued.id);
  absl::StatusOr<std::vector<ParkedItem>> parked = store_->ListParked(10, 0);
  ASSERT_TRUE(parked.ok());
  ASSERT_THAT(*parked, SizeIs(1));
  EXPECT_EQ((*parked)[0].receiver, kMatchmakingReceiver);
  EXPECT_EQ((*parked)[0].match_id, casual.id);
}

TEST_F(StoreTest, DuplicateSequenceIsAlreadyExistsAndNothingOfTheBatchIsStored) {
  const NewMatch a = CreateMatch(At(kT0));
  const NewMatch b = CreateMatch(At(kT0 + 1));
  ASSERT_TRUE(store_->Commit({{MakeEvent(a.id, 1)}, {}}).ok());

  CommitBatch batch;
  batch.events = {MakeEvent(b.id, 1), MakeEvent(b.id, 2), MakeEvent(a.id, 1), MakeEvent(a.id, 2)};
  batch.ends = {Finished(b.id, 2, At(kT0 + 99))};
  absl::Status status = store_->Commit(batch);
  EXPECT_EQ(status.code(), absl::StatusCode::kAlreadyExists) << status;

  EXPECT_EQ(Count("events"), 1);
  EXPECT_EQ(Count("outbox"), 0);
  absl::StatusOr<v1::Match> still = store_->GetMatch(b.id);
  ASSERT_TRUE(still.ok()) << still.status();
  EXPECT_EQ(still->state(), v1::Match::ACTIVE);

  // A duplicate inside one batch is caught the same way.
  status = store_->Commit({{MakeEvent(b.id, 1), MakeEvent(b.id, 1)}, {}});
  EXPECT_EQ(status.code(), absl::StatusCode::kAlreadyExists) << status;
  EXPECT_EQ(Count("events"), 1);
}

TEST_F(StoreTest, EndsOfUnknownOrEndedMatchesAndBadEndsFailTheBatch) {
  const NewMatch a = CreateMatch(At(kT0));
  absl::Status unknown = store_->Commit({{MakeEvent(a.id, 1)}, {Finished("nope", 1, At(kT0))}});
  EXPECT_EQ(unknown.code(), absl::StatusCode::kNotFound) << unknown;
  EXPECT_EQ(Count("events"), 0);

  ASSERT_TRUE(store_->Commit({{MakeEvent(a.id, 1)}, {Aborted(a.id, 1, At(kT0 + 7))}}).ok());
  absl::Status twice = store_->Commit({{MakeEvent(a.id, 2)}, {Finished(a.id, 2, At(kT0 + 8))}});
  EXPECT_EQ(twice.code(), absl::StatusCode::kFailedPrecondition) << twice;
  EXPECT_EQ(Count("events"), 1);

  const NewMatch b = CreateMatch(At(kT0));
  MatchEnd no_result = Finished(b.id, 1, At(kT0));
  no_result.result.reset();
  EXPECT_EQ(store_->Commit({{MakeEvent(b.id, 1)}, {no_result}}).code(),
            absl::StatusCode::kInvalidArgument);
  MatchEnd still_active = Finished(b.id, 1, At(kT0));
  still_active.state = v1::Match::ACTIVE;
  EXPECT_EQ(store_->Commit({{MakeEvent(b.id, 1)}, {still_active}}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Count("events"), 1);

  EXPECT_TRUE(store_->Commit({}).ok());
}

// Both ways a batch of events is written: one autocommit statement with array literals (up to
// kMaxEventsPerStatement events) and COPY in a transaction (more).
TEST_F(StoreTest, EventTextSurvivesTheStatementAndCopyExactly) {
  const std::vector<std::string> texts = {
      "",        "6-4",          "tab\there", "new\nline\r\n", "back\\slash\\N", "\\.",
      "quote\"'", "comma,{brace}", "é ✓ 🁣",   "\x01\x1f",      "NULL",
  };
  for (const size_t events : {texts.size(), PgMatchStore::kMaxEventsPerStatement + 1}) {
    SCOPED_TRACE(absl::StrCat(events, " events"));
    const NewMatch a = CreateMatch(At(kT0));
    CommitBatch batch;
    for (size_t i = 0; i < events; ++i) {
      EventRow e = MakeEvent(a.id, static_cast<int64_t>(i) + 1);
      e.action = texts[i % texts.size()];
      e.message = texts[texts.size() - 1 - i % texts.size()];
      batch.events.push_back(e);
    }
    ASSERT_TRUE(store_->Commit(batch).ok());
    absl::StatusOr<std::vector<ActiveMatch>> active = store_->LoadActiveMatches();
    ASSERT_TRUE(active.ok()) << active.status();
    auto stored = std::find_if(active->begin(), active->end(),
                               [&](const ActiveMatch& m) { return m.match.id == a.id; });
    ASSERT_NE(stored, active->end());
    ASSERT_THAT(stored->events, SizeIs(events));
    for (size_t i = 0; i < events; ++i) ExpectSameEvent(stored->events[i], batch.events[i]);
  }
}

TEST_F(StoreTest, ALargeBatchWithADuplicateStoresNothingEither) {
  const NewMatch a = CreateMatch(At(kT0));
  CommitBatch batch;
  for (size_t i = 0; i <= PgMatchStore::kMaxEventsPerStatement; ++i) {
    batch.events.push_back(MakeEvent(a.id, static_cast<int64_t>(i) + 1));
  }
  batch.events.push_back(MakeEvent(a.id, 1));
  const absl::Status status = store_->Commit(batch);
  EXPECT_EQ(status.code(), absl::StatusCode::kAlreadyExists) << status;
  EXPECT_EQ(Count("events"), 0);
}

// --- Recovery and listing ---

TEST_F(StoreTest, LoadActiveMatchesReturnsUnfinishedMatchesWithTokensAndOrderedEvents) {
  const NewMatch ended = CreateMatch(At(kT0));
  const NewMatch older = CreateMatch(At(kT0 + 1));
  const NewMatch newer = CreateMatch(At(kT0 + 2));
  const NewMatch quiet = CreateMatch(At(kT0 + 3));  // no events yet
  // Events arrive interleaved, over several commits, sequences not in insertion order.
  ASSERT_TRUE(store_->Commit({{MakeEvent(newer.id, 2), MakeEvent(older.id, 1),
                               MakeEvent(newer.id, 1), MakeEvent(ended.id, 1)},
                              {}})
                  .ok());
  ASSERT_TRUE(store_->Commit({{MakeEvent(older.id, 3), MakeEvent(ended.id, 2),
                               MakeEvent(older.id, 2)},
                              {Finished(ended.id, 2, At(kT0 + 50))}})
                  .ok());

  absl::StatusOr<std::vector<ActiveMatch>> active = store_->LoadActiveMatches();
  ASSERT_TRUE(active.ok()) << active.status();
  ASSERT_THAT(*active, SizeIs(3));
  EXPECT_EQ((*active)[0].match.id, older.id);
  EXPECT_EQ((*active)[1].match.id, newer.id);
  EXPECT_EQ((*active)[2].match.id, quiet.id);
  EXPECT_THAT(EventKeys((*active)[0].events),
              ElementsAre(older.id + "#1", older.id + "#2", older.id + "#3"));
  EXPECT_THAT(EventKeys((*active)[1].events), ElementsAre(newer.id + "#1", newer.id + "#2"));
  EXPECT_THAT((*active)[2].events, IsEmpty());
  ExpectSameEvent((*active)[0].events[1], MakeEvent(older.id, 2));

  const NewMatch& got = (*active)[1].match;
  EXPECT_THAT(got.match, EqualsProto(newer.match));
  EXPECT_THAT(got.seat_tokens, ElementsAreArray(newer.seat_tokens));
  EXPECT_EQ(got.seed, newer.seed);
  EXPECT_EQ(got.request_digest, newer.request_digest);
}

TEST_F(StoreTest, ListMatchesPagesNewestFirstWithFilters) {
  // Seven matches; two pairs share a create_time, so the id breaks the tie.
  struct Spec {
    int64_t micros;
    std::string game;
    std::optional<v1::Match::State> end;
  };
  const std::vector<Spec> specs = {
      {kT0, "muggins", std::nullopt},
      {kT0 + 10, "castle_rock", v1::Match::FINISHED},
      {kT0 + 10, "muggins", v1::Match::FINISHED},
      {kT0 + 20, "castle_rock", std::nullopt},
      {kT0 + 30, "muggins", v1::Match::ABORTED},
      {kT0 + 30, "castle_rock", v1::Match::FINISHED},
      {kT0 + 40, "muggins", std::nullopt},
  };
  struct Made {
    absl::Time created;
    std::string id;
    std::string game;
    v1::Match::State state;
  };
  std::vector<Made> made;
  CommitBatch ends;
  for (const Spec& spec : specs) {
    NewMatch m = CreateMatch(At(spec.micros), spec.game);
    made.push_back({At(spec.micros), m.id, spec.game, spec.end.value_or(v1::Match::ACTIVE)});
    if (spec.end.has_value()) {
      ends.events.push_back(MakeEvent(m.id, 1));
      ends.ends.push_back(*spec.end == v1::Match::FINISHED ? Finished(m.id, 1, At(kT0 + 100))
                                                           : Aborted(m.id, 1, At(kT0 + 100)));
    }
  }
  ASSERT_TRUE(store_->Commit(ends).ok());
  std::sort(made.begin(), made.end(), [](const Made& x, const Made& y) {
    return std::tie(x.created, x.id) > std::tie(y.created, y.id);
  });

  auto expected = [&](const MatchFilter& filter) {
    std::vector<std::string> names;
    for (const Made& m : made) {
      if (filter.state != v1::Match::STATE_UNSPECIFIED && m.state != filter.state) continue;
      if (!filter.game.empty() && m.game != filter.game) continue;
      names.push_back("matches/" + m.id);
    }
    return names;
  };
  auto list_all = [&](const MatchFilter& filter, int page_size) {
    std::vector<std::string> names;
    std::optional<MatchCursor> cursor;
    for (int pages = 0; pages < 20; ++pages) {
      absl::StatusOr<MatchPage> page = store_->ListMatches(filter, page_size, cursor);
      EXPECT_TRUE(page.ok()) << page.status();
      if (!page.ok()) break;
      EXPECT_LE(page->matches.size(), static_cast<size_t>(page_size));
      for (const v1::Match& m : page->matches) names.push_back(m.name());
      if (!page->next.has_value()) break;
      EXPECT_EQ(page->matches.size(), static_cast<size_t>(page_size));
      EXPECT_EQ("matches/" + page->next->id, page->matches.back().name());
      cursor = page->next;
    }
    return names;
  };

  for (int page_size : {1, 2, 3, 7, 50}) {
    EXPECT_THAT(list_all({}, page_size), ElementsAreArray(expected({})))
        << "page size " << page_size;
  }
  const MatchFilter finished{v1::Match::FINISHED, ""};
  const MatchFilter castle{v1::Match::STATE_UNSPECIFIED, "castle_rock"};
  const MatchFilter active_muggins{v1::Match::ACTIVE, "muggins"};
  EXPECT_THAT(expected(finished), SizeIs(3));
  EXPECT_THAT(list_all(finished, 2), ElementsAreArray(expected(finished)));
  EXPECT_THAT(list_all(castle, 2), ElementsAreArray(expected(castle)));
  EXPECT_THAT(list_all(active_muggins, 1), ElementsAreArray(expected(active_muggins)));
  EXPECT_THAT(list_all({v1::Match::ABORTED, "castle_rock"}, 5), IsEmpty());

  // A page exactly as long as what is left says there is no next one.
  absl::StatusOr<MatchPage> all = store_->ListMatches({}, 7, std::nullopt);
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_FALSE(all->next.has_value());
  // Listed matches are as GetMatch returns them.
  for (const v1::Match& m : all->matches) {
    absl::StatusOr<v1::Match> got = store_->GetMatch(m.name().substr(8));
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_THAT(m, EqualsProto(*got));
  }

  EXPECT_EQ(store_->ListMatches({}, 0, std::nullopt).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(StoreTest, RecordJsonOnlyOnceTheMatchHasEnded) {
  const NewMatch a = CreateMatch(At(kT0));
  absl::StatusOr<StoredRecord> early = store_->GetRecordJson(a.id);
  EXPECT_EQ(early.status().code(), absl::StatusCode::kFailedPrecondition) << early.status();
  EXPECT_EQ(store_->GetRecordJson("nope").status().code(), absl::StatusCode::kNotFound);

  const MatchEnd end = Finished(a.id, 1, At(kT0 + 1));
  ASSERT_TRUE(store_->Commit({{MakeEvent(a.id, 1)}, {end}}).ok());
  absl::StatusOr<StoredRecord> record = store_->GetRecordJson(a.id);
  ASSERT_TRUE(record.ok()) << record.status();
  // jsonb may respace and reorder keys; the values, 64-bit seed included, are kept.
  EXPECT_EQ(nlohmann::json::parse(record->json), nlohmann::json::parse(end.record_json));
  EXPECT_EQ(nlohmann::json::parse(record->json)["seed"].get<uint64_t>(), 18446744073709551615ULL);
  EXPECT_EQ(record->deal_group, "");
}

// --- Times ---

TEST_F(StoreTest, TimestampsRoundTripToTheMicrosecond) {
  const std::vector<absl::Time> times = {
      At(kT0),
      At(kT0 + 1),
      At(999'999),                        // 1970-01-01 00:00:00.999999
      At(-1),                             // 1969-12-31 23:59:59.999999
      At(-86'400'000'000LL * 365 * 30 - 7),  // 1940
      At(7'258'118'400'000'001LL),        // 2200-01-01 00:00:00.000001
      absl::FromCivil(absl::CivilSecond(2024, 2, 29, 23, 59, 59), absl::UTCTimeZone()) +
          absl::Microseconds(999'999),
  };
  for (const absl::Time t : times) {
    SCOPED_TRACE(absl::FormatTime(t));
    const NewMatch m = CreateMatch(t);
    EventRow e = MakeEvent(m.id, 1);
    e.turn_start_time = t;
    e.create_time = t + absl::Microseconds(1);
    const absl::Time end_time = t + absl::Microseconds(2);
    ASSERT_TRUE(store_->Commit({{e}, {Finished(m.id, 1, end_time)}}).ok());

    // The event's times and the end, read back.
    EXPECT_EQ(Scalar<int64_t>(absl::StrCat("SELECT (extract(epoch FROM turn_start_time) * 1e6)"
                                           "::bigint FROM ", In("events"), " WHERE match_id = '",
                                           m.id, "'")),
              absl::ToUnixMicros(t));
    absl::StatusOr<v1::Match> got = store_->GetMatch(m.id);
    ASSERT_TRUE(got.ok()) << got.status();
    v1::Match want = m.match;
    SetTime(end_time, want.mutable_end_time());
    EXPECT_THAT(got->end_time(), EqualsProto(want.end_time()));
    // The stored create_time column, through the cursor of a one-row page.
    absl::StatusOr<MatchPage> page = store_->ListMatches({}, 1, MatchCursor{t, "~~~~"});
    ASSERT_TRUE(page.ok()) << page.status();
    ASSERT_THAT(page->matches, SizeIs(1));
    EXPECT_EQ(page->matches[0].name(), m.match.name());
    // The outbox row is due exactly at the end: a microsecond earlier it is not.
    absl::StatusOr<std::vector<OutboxItem>> before =
        store_->PendingOutbox(kRatingsReceiver, 10, end_time - absl::Microseconds(1));
    ASSERT_TRUE(before.ok()) << before.status();
    EXPECT_THAT(*before, IsEmpty());
    absl::StatusOr<std::vector<OutboxItem>> due =
        store_->PendingOutbox(kRatingsReceiver, 10, end_time);
    ASSERT_TRUE(due.ok()) << due.status();
    ASSERT_THAT(*due, SizeIs(1));
    ASSERT_TRUE(store_->MarkDelivered((*due)[0].id, end_time).ok());
  }
  // And the events, through recovery: every match ended, so commit one more match's.
  const NewMatch live = CreateMatch(times[3]);
  std::vector<EventRow> events;
  for (size_t i = 0; i < times.size(); ++i) {
    EventRow e = MakeEvent(live.id, static_cast<int64_t>(i) + 1);
    e.turn_start_time = times[i];
    e.create_time = times[(i + 1) % times.size()];
    events.push_back(e);
  }
  ASSERT_TRUE(store_->Commit({events, {}}).ok());
  absl::StatusOr<std::vector<ActiveMatch>> active = store_->LoadActiveMatches();
  ASSERT_TRUE(active.ok()) << active.status();
  ASSERT_THAT(*active, SizeIs(1));
  ASSERT_THAT((*active)[0].events, SizeIs(events.size()));
  for (size_t i = 0; i < events.size(); ++i) ExpectSameEvent((*active)[0].events[i], events[i]);

  // The page cursor carries the stored create_time exactly.
  absl::StatusOr<MatchPage> first = store_->ListMatches({}, 1, std::nullopt);
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(first->next.has_value());
  EXPECT_EQ(first->next->create_time, times[5]);
}

// --- Outbox ---

TEST_F(StoreTest, OutboxFailuresAndDelivery) {
  const NewMatch a = CreateMatch(At(kT0));
  const NewMatch b = CreateMatch(At(kT0));
  const absl::Time end = At(kT0 + 1'000'000);
  ASSERT_TRUE(store_->Commit({{MakeEvent(a.id, 1), MakeEvent(b.id, 1)},
                              {Finished(a.id, 1, end), Finished(b.id, 1, end)}})
                  .ok());
  absl::StatusOr<std::vector<OutboxItem>> pending =
      store_->PendingOutbox(kRatingsReceiver, 10, end);
  ASSERT_TRUE(pending.ok()) << pending.status();
  ASSERT_THAT(*pending, SizeIs(2));
  const OutboxItem first = (*pending)[0];
  const OutboxItem second = (*pending)[1];
  EXPECT_LT(first.id, second.id);
  EXPECT_EQ(first.match_id, a.id);  // oldest first

  // A limit of one gives the oldest.
  absl::StatusOr<std::vector<OutboxItem>> one = store_->PendingOutbox(kRatingsReceiver, 1, end);
  ASSERT_TRUE(one.ok()) << one.status();
  ASSERT_THAT(*one, SizeIs(1));
  EXPECT_EQ((*one)[0].id, first.id);

  ASSERT_TRUE(store_->MarkFailed(first.id, "ratings: unavailable", end + absl::Seconds(5)).ok());
  pending = store_->PendingOutbox(kRatingsReceiver, 10, end + absl::Seconds(1));
  ASSERT_TRUE(pending.ok()) << pending.status();
  ASSERT_THAT(*pending, SizeIs(1));
  EXPECT_EQ((*pending)[0].id, second.id);
  pending = store_->PendingOutbox(kRatingsReceiver, 10, end + absl::Seconds(5));
  ASSERT_TRUE(pending.ok()) << pending.status();
  ASSERT_THAT(*pending, SizeIs(2));
  EXPECT_EQ((*pending)[0].attempts, 1);
  EXPECT_EQ(Scalar<std::string>(absl::StrCat("SELECT last_error FROM ", In("outbox"),
                                             " WHERE id = ", first.id)),
            "ratings: unavailable");

  ASSERT_TRUE(store_->MarkDelivered(first.id, end + absl::Seconds(6)).ok());
  ASSERT_TRUE(store_->MarkDelivered(first.id, end + absl::Seconds(9)).ok());  // keeps the first
  EXPECT_EQ(Count("outbox", absl::StrCat("delivered_time = '", "2023-11-14 22:13:27.123456+00",
                                         "'")),
            1);
  pending = store_->PendingOutbox(kRatingsReceiver, 10, end + absl::Hours(1));
  ASSERT_TRUE(pending.ok()) << pending.status();
  ASSERT_THAT(*pending, SizeIs(1));
  EXPECT_EQ((*pending)[0].id, second.id);

  EXPECT_EQ(store_->MarkFailed(first.id, "late", end).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(store_->MarkFailed(987654, "x", end).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->MarkDelivered(987654, end).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->PendingOutbox(kRatingsReceiver, 0, end).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// --- Schema names ---

TEST_F(StoreTest, WorksInASchemaThatNeedsQuoting) {
  const std::string odd = absl::StrCat("t_", test_util::RandomHex(), " Odd\"Name");
  absl::StatusOr<std::unique_ptr<MatchStore>> store = OpenPgMatchStore(*pool_, odd);
  ASSERT_TRUE(store.ok()) << store.status();
  NewMatch m = MakeMatch(At(kT0), "muggins", "req", "d");
  absl::Status status = (*store)->CreateMatch(m).status();
  EXPECT_TRUE(status.ok()) << status;
  status = (*store)->Commit({{MakeEvent(m.id, 1)}, {Finished(m.id, 1, At(kT0 + 1))}});
  EXPECT_TRUE(status.ok()) << status;
  absl::StatusOr<std::vector<OutboxItem>> pending =
      (*store)->PendingOutbox(kRatingsReceiver, 5, At(kT0 + 1));
  EXPECT_TRUE(pending.ok() && pending->size() == 1) << pending.status();
  // Nothing went to the fixture's schema.
  EXPECT_EQ(Count("matches"), 0);
  status = pool_->Run([&](pqxx::work& tx) {
    tx.exec0("DROP SCHEMA " + tx.quote_name(odd) + " CASCADE");
  });
  EXPECT_TRUE(status.ok()) << status;
}

TEST_F(StoreTest, ReplicasClaimingTheOutboxAtOnceTakeDifferentItems) {
  // Two replicas' dispatchers on one outbox: each item claimed by one, not due again for the
  // claim's length unless released; one that fails is due at its backoff as before.
  absl::StatusOr<std::unique_ptr<PgMatchStore>> other = PgMatchStore::Open(*pool_, schema_);
  ASSERT_TRUE(other.ok()) << other.status();
  const absl::Time end = At(kT0 + 10);
  std::vector<MatchEnd> ends;
  for (int i = 0; i < 6; ++i) {
    NewMatch m = MakeMatch(At(kT0 + i));
    ASSERT_TRUE(store_->CreateMatch(m).ok());
    ends.push_back(Finished(m.id, 1, end));
  }
  ASSERT_TRUE(store_->Commit({{}, ends}).ok());
  constexpr absl::Duration kClaim = absl::Seconds(30);
  absl::StatusOr<std::vector<OutboxItem>> mine =
      store_->ClaimOutbox(kRatingsReceiver, 4, end, kClaim);
  absl::StatusOr<std::vector<OutboxItem>> theirs =
      (*other)->ClaimOutbox(kRatingsReceiver, 10, end, kClaim);
  ASSERT_TRUE(mine.ok() && theirs.ok());
  ASSERT_THAT(*mine, SizeIs(4));
  ASSERT_THAT(*theirs, SizeIs(2));  // the rest
  std::set<int64_t> ids;
  for (const auto* items : {&*mine, &*theirs}) {
    for (const OutboxItem& item : *items) ids.insert(item.id);
  }
  EXPECT_EQ(ids.size(), 6u);
  EXPECT_LT((*mine)[0].id, (*mine)[3].id);  // oldest first
  // Claimed: nothing due now, all due again once the claim has run out.
  absl::StatusOr<std::vector<OutboxItem>> again =
      store_->ClaimOutbox(kRatingsReceiver, 10, end + absl::Seconds(1), kClaim);
  ASSERT_TRUE(again.ok());
  EXPECT_THAT(*again, SizeIs(0));
  // Released (a pass that stopped early), due at once; delivered ones never again.
  ASSERT_TRUE(store_->MarkDelivered((*mine)[0].id, end).ok());
  ASSERT_TRUE(store_->ReleaseOutbox({(*mine)[0].id, (*mine)[1].id}, end).ok());
  again = (*other)->ClaimOutbox(kRatingsReceiver, 10, end + absl::Seconds(1), kClaim);
  ASSERT_TRUE(again.ok());
  ASSERT_THAT(*again, SizeIs(1));
  EXPECT_EQ((*again)[0].id, (*mine)[1].id);
  again = store_->ClaimOutbox(kRatingsReceiver, 10, end + kClaim + absl::Milliseconds(500), kClaim);
  ASSERT_TRUE(again.ok());
  // The undelivered ones whose claims ran out: all but the one claimed a second after `end`.
  EXPECT_THAT(*again, SizeIs(4));
}

}  // namespace
}  // namespace boneyard::execution
