// PgRatingStore and ResultBatcher against the real PostgreSQL (BONEYARD_TEST_DATABASE_URL),
// each test in a schema of its own.
#include "services/ratings/pg_rating_store.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/internal_error.h"
#include "services/ratings/rating_update.h"
#include "services/ratings/result_batcher.h"
#include "tests/services/ratings/ratings_test_util.h"

namespace boneyard::ratings {
namespace {

using ::testing::HasSubstr;
using test_util::Duel;
using test_util::FinishedMatch;
using test_util::Minute;
using test_util::Request;
using test_util::Solitaire;

ValidResult Valid(const v1::Match& match) {
  absl::StatusOr<ValidResult> result = ValidateResult(Request(match), DefaultRegistry());
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *std::move(result) : ValidResult();
}

class StoreTest : public test_util::RatingsPgTest {
 protected:
  // Records `results` as one batch; every outcome must be OK.
  std::vector<v1::RecordResultResponse> RecordOk(const std::vector<ValidResult>& results) {
    std::vector<RecordOutcome> outcomes = Record(results);
    std::vector<v1::RecordResultResponse> out;
    for (RecordOutcome& outcome : outcomes) {
      EXPECT_TRUE(outcome.ok()) << outcome.status();
      out.push_back(outcome.ok() ? *outcome : v1::RecordResultResponse());
    }
    return out;
  }
  std::vector<RecordOutcome> Record(const std::vector<ValidResult>& results) {
    std::vector<const ValidResult*> batch;
    for (const ValidResult& r : results) batch.push_back(&r);
    absl::StatusOr<std::vector<RecordOutcome>> outcomes = store_->RecordBatch(batch);
    EXPECT_TRUE(outcomes.ok()) << outcomes.status();
    return outcomes.ok() ? *outcomes : std::vector<RecordOutcome>();
  }
  v1::Rating RatingOf(const std::string& player, const std::string& game = "muggins") {
    absl::StatusOr<std::optional<v1::Rating>> rating = store_->GetRating(game, player);
    EXPECT_TRUE(rating.ok()) << rating.status();
    EXPECT_TRUE(rating.ok() && rating->has_value()) << player << " has no rating";
    return rating.ok() && rating->has_value() ? **rating : v1::Rating();
  }
};

TEST_F(StoreTest, RecordsAResult) {
  std::vector<v1::RecordResultResponse> responses =
      RecordOk({Valid(Duel("m1", "ann", "bob", Minute(1)))});
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(responses[0].match(), "matches/m1");
  EXPECT_FALSE(responses[0].already_recorded());
  ASSERT_EQ(responses[0].changes_size(), 2);
  const v1::RatingChange& ann = responses[0].changes(0);
  const v1::RatingChange& bob = responses[0].changes(1);
  EXPECT_EQ(ann.player_id(), "ann");
  EXPECT_EQ(ann.rank(), 1);
  EXPECT_GT(ann.mu_after(), ann.mu_before());
  EXPECT_LT(bob.mu_after(), bob.mu_before());
  EXPECT_LT(ann.sigma_after(), ann.sigma_before());

  const v1::Rating stored = RatingOf("ann");
  EXPECT_EQ(stored.mu(), ann.mu_after());
  EXPECT_EQ(stored.sigma(), ann.sigma_after());
  EXPECT_EQ(stored.ordinal(), ann.mu_after() - 3 * ann.sigma_after());
  EXPECT_EQ(stored.games_played(), 1);
  EXPECT_EQ(stored.name(), "players/ann/ratings/muggins");
  EXPECT_EQ(Count("results"), 1);
  EXPECT_EQ(Count("history"), 2);
  EXPECT_EQ(Count("models", "game = 'muggins' AND kind = 1"), 1);  // pinned at first use
}

TEST_F(StoreTest, ARepeatChangesNothingAndAnswersTheSameChanges) {
  const ValidResult result = Valid(Duel("m1", "ann", "bob", Minute(1)));
  const std::vector<v1::RecordResultResponse> first = RecordOk({result});
  const std::string before = Snapshot();
  const std::vector<v1::RecordResultResponse> again = RecordOk({result});
  EXPECT_EQ(Snapshot(), before);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_TRUE(again[0].already_recorded());
  v1::RecordResultResponse expected = first[0];
  expected.set_already_recorded(true);
  EXPECT_EQ(again[0].SerializeAsString(), expected.SerializeAsString());
}

TEST_F(StoreTest, RepeatsAndConflictsInsideOneBatch) {
  const ValidResult result = Valid(Duel("m1", "ann", "bob", Minute(1)));
  const ValidResult other = Valid(Duel("m1", "bob", "ann", Minute(1)));
  std::vector<RecordOutcome> outcomes = Record({result, result, other, result});
  ASSERT_EQ(outcomes.size(), 4u);
  ASSERT_TRUE(outcomes[0].ok());
  EXPECT_FALSE(outcomes[0]->already_recorded());
  ASSERT_TRUE(outcomes[1].ok());
  EXPECT_TRUE(outcomes[1]->already_recorded());
  EXPECT_EQ(outcomes[1]->changes_size(), 2);
  EXPECT_EQ(outcomes[2].status().code(), absl::StatusCode::kAlreadyExists);
  ASSERT_TRUE(outcomes[3].ok());
  EXPECT_EQ(Count("results"), 1);
  EXPECT_EQ(Count("history"), 2);
  EXPECT_EQ(RatingOf("ann").games_played(), 1);
}

TEST_F(StoreTest, AConflictingResultIsAlreadyExistsDescribingBothAndChangesNothing) {
  RecordOk({Valid(Duel("m1", "ann", "bob", Minute(1)))});
  const std::string before = Snapshot();
  std::vector<RecordOutcome> outcomes = Record({Valid(Duel("m1", "bob", "ann", Minute(1)))});
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0].status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_THAT(outcomes[0].status().message(), HasSubstr("matches/m1"));
  EXPECT_THAT(outcomes[0].status().message(), HasSubstr("recorded: game muggins"));
  EXPECT_THAT(outcomes[0].status().message(), HasSubstr("seats [ann, bob], ranks [1, 2]"));
  EXPECT_THAT(outcomes[0].status().message(), HasSubstr("this request: game muggins"));
  EXPECT_THAT(outcomes[0].status().message(), HasSubstr("seats [bob, ann], ranks [1, 2]"));
  EXPECT_EQ(Snapshot(), before);
}

TEST_F(StoreTest, TeamsMoveTogetherAndBotsAreNotStored) {
  std::vector<v1::RecordResultResponse> responses = RecordOk({Valid(FinishedMatch(
      "t1", "muggins", {{"ann", 1}, {"", 2}, {"cat", 1}, {"dan", 2}}, Minute(1),
      {{0, 2}, {1, 3}}))});
  ASSERT_EQ(responses[0].changes_size(), 3);  // the bot has none
  EXPECT_EQ(responses[0].changes(0).player_id(), "ann");
  EXPECT_EQ(responses[0].changes(1).player_id(), "cat");
  EXPECT_EQ(responses[0].changes(2).player_id(), "dan");
  for (const v1::RatingChange& c : responses[0].changes()) {
    if (c.rank() == 1) {
      EXPECT_GT(c.mu_after(), c.mu_before()) << c.player_id();
    } else {
      EXPECT_LT(c.mu_after(), c.mu_before()) << c.player_id();
    }
  }
  EXPECT_EQ(Count("ratings"), 3);
  EXPECT_EQ(Count("ratings", "player_id = ''"), 0);
}

TEST_F(StoreTest, ResultsAreAppliedInArrivalOrderAndRerateRestoresFinishOrder) {
  // Three matches between ann and bob; the last one to finish arrives first.
  const ValidResult m1 = Valid(Duel("m1", "ann", "bob", Minute(1)));
  const ValidResult m2 = Valid(Duel("m2", "ann", "bob", Minute(2)));
  const ValidResult m3 = Valid(Duel("m3", "bob", "ann", Minute(3)));
  RecordOk({m3});
  RecordOk({m1, m2});

  // As applied: m3, m1, m2 — each against the ratings the one before it left.
  RatingTable arrival;
  RatingModelConfig model;
  for (const ValidResult* r : {&m3, &m1, &m2}) ASSERT_TRUE(ApplyResult(model, *r, arrival).ok());
  EXPECT_EQ(RatingOf("ann").mu(), arrival["ann"].skill.mu);
  EXPECT_EQ(RatingOf("bob").sigma(), arrival["bob"].skill.sigma);

  absl::StatusOr<std::vector<RecordOutcome>> unused;
  absl::StatusOr<RerateSummary> summary = store_->Rerate("muggins", std::nullopt);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->results, 3);
  EXPECT_EQ(summary->players, 2);

  RatingTable finish;
  for (const ValidResult* r : {&m1, &m2, &m3}) ASSERT_TRUE(ApplyResult(model, *r, finish).ok());
  EXPECT_EQ(RatingOf("ann").mu(), finish["ann"].skill.mu);
  EXPECT_EQ(RatingOf("ann").sigma(), finish["ann"].skill.sigma);
  EXPECT_EQ(RatingOf("bob").mu(), finish["bob"].skill.mu);
  EXPECT_NE(finish["ann"].skill.mu, arrival["ann"].skill.mu);  // order matters
  EXPECT_EQ(RatingOf("ann").games_played(), 3);

  // History, newest first, is now in finish order and chains.
  absl::StatusOr<HistoryPage> history = store_->ListHistory("muggins", "ann", std::nullopt, 10);
  ASSERT_TRUE(history.ok()) << history.status();
  ASSERT_EQ(history->changes.size(), 3u);
  EXPECT_EQ(history->changes[0].match(), "matches/m3");
  EXPECT_EQ(history->changes[1].match(), "matches/m2");
  EXPECT_EQ(history->changes[2].match(), "matches/m1");
  EXPECT_EQ(history->changes[0].mu_before(), history->changes[1].mu_after());
  EXPECT_EQ(history->changes[1].mu_before(), history->changes[2].mu_after());
  EXPECT_EQ(history->changes[2].mu_before(), 25.0);
}

TEST_F(StoreTest, RerateWithANewModel) {
  RecordOk({Valid(Duel("m1", "ann", "bob", Minute(1))), Valid(Duel("m2", "bob", "ann", Minute(2)))});
  RatingModelConfig bt;
  bt.kind = ModelKind::kBradleyTerryFull;
  bt.tau = 0.1;
  absl::StatusOr<RerateSummary> summary = store_->Rerate("muggins", bt);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->model.kind, ModelKind::kBradleyTerryFull);
  EXPECT_EQ(Count("models", "game = 'muggins' AND kind = 4 AND tau = 0.1"), 1);
  RatingTable expected;
  ASSERT_TRUE(ApplyResult(bt, Valid(Duel("m1", "ann", "bob", Minute(1))), expected).ok());
  ASSERT_TRUE(ApplyResult(bt, Valid(Duel("m2", "bob", "ann", Minute(2))), expected).ok());
  EXPECT_EQ(RatingOf("ann").mu(), expected["ann"].skill.mu);
  EXPECT_EQ(RatingOf("bob").sigma(), expected["bob"].skill.sigma);

  // Later results use the game's new model.
  RecordOk({Valid(Duel("m3", "ann", "bob", Minute(3)))});
  ASSERT_TRUE(ApplyResult(bt, Valid(Duel("m3", "ann", "bob", Minute(3))), expected).ok());
  EXPECT_EQ(RatingOf("ann").mu(), expected["ann"].skill.mu);
  absl::StatusOr<RatingModelConfig> model = store_->ModelOf("muggins");
  ASSERT_TRUE(model.ok());
  EXPECT_EQ(model->kind, ModelKind::kBradleyTerryFull);
}

TEST_F(StoreTest, LeaderboardRanksTiesAcrossPages) {
  // ann and cat each beat a newcomer: identical ratings; bob and dan identical losers.
  RecordOk({Valid(Duel("m1", "ann", "bob", Minute(1))), Valid(Duel("m2", "cat", "dan", Minute(2))),
            Valid(FinishedMatch("m3", "muggins", {{"eve", 1}, {"fay", 1}}, Minute(3)))});
  // Page by page, one entry at a time.
  std::vector<std::pair<std::string, int>> seen;
  std::optional<LeaderboardCursor> cursor;
  for (int page = 0; page < 10; ++page) {
    absl::StatusOr<LeaderboardPage> p = store_->ListRatings("muggins", cursor, 1);
    ASSERT_TRUE(p.ok()) << p.status();
    for (const v1::LeaderboardEntry& e : p->entries) seen.emplace_back(e.player_id(), e.rank());
    cursor = p->next;
    if (!cursor.has_value()) break;
  }
  const std::vector<std::pair<std::string, int>> expected = {
      {"ann", 1}, {"cat", 1}, {"eve", 3}, {"fay", 3}, {"bob", 5}, {"dan", 5}};
  EXPECT_EQ(seen, expected);
  absl::StatusOr<LeaderboardPage> all = store_->ListRatings("muggins", std::nullopt, 100);
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->entries.size(), 6u);
  EXPECT_FALSE(all->next.has_value());
  EXPECT_EQ(all->entries[3].rank(), 3);
  EXPECT_EQ(all->entries[4].rank(), 5);
}

TEST_F(StoreTest, SolitaireLeaderboards) {
  RecordOk({Valid(Solitaire("s1", "ann", 3, 20, absl::Seconds(50), Minute(1))),
            Valid(Solitaire("s2", "ann", 1, 4, absl::Seconds(80), Minute(2))),
            Valid(Solitaire("s3", "bob", 1, 4, absl::Seconds(80), Minute(3))),
            Valid(Solitaire("s4", "cat", 1, 4, absl::Seconds(70), Minute(4))),
            Valid(Solitaire("s5", "", 0, 0, absl::Seconds(10), Minute(5)))});  // a bot: unlisted
  EXPECT_EQ(Count("results"), 5);
  EXPECT_EQ(Count("ratings"), 0);
  EXPECT_EQ(Count("models"), 0);
  absl::StatusOr<LeaderboardPage> best = store_->ListSolitaire("castle_rock", false, std::nullopt, 10);
  ASSERT_TRUE(best.ok()) << best.status();
  ASSERT_EQ(best->entries.size(), 3u);
  EXPECT_EQ(best->entries[0].player_id(), "cat");
  EXPECT_EQ(best->entries[0].rank(), 1);
  EXPECT_EQ(best->entries[1].player_id(), "ann");
  EXPECT_EQ(best->entries[1].result().match(), "matches/s2");
  EXPECT_EQ(best->entries[1].rank(), 2);
  EXPECT_EQ(best->entries[2].player_id(), "bob");
  EXPECT_EQ(best->entries[2].rank(), 2);  // tied with ann
  EXPECT_EQ(best->entries[2].result().duration_millis(), 80000);
  EXPECT_TRUE(best->entries[2].result().won());

  std::vector<std::pair<std::string, int>> all;
  std::optional<LeaderboardCursor> cursor;
  for (int page = 0; page < 10; ++page) {
    absl::StatusOr<LeaderboardPage> p = store_->ListSolitaire("castle_rock", true, cursor, 2);
    ASSERT_TRUE(p.ok()) << p.status();
    for (const v1::LeaderboardEntry& e : p->entries) all.emplace_back(e.result().match(), e.rank());
    cursor = p->next;
    if (!cursor.has_value()) break;
  }
  const std::vector<std::pair<std::string, int>> expected = {
      {"matches/s4", 1}, {"matches/s2", 2}, {"matches/s3", 2}, {"matches/s1", 4}};
  EXPECT_EQ(all, expected);
}

TEST_F(StoreTest, HistoryPages) {
  for (int i = 0; i < 5; ++i) {
    RecordOk({Valid(Duel(absl::StrCat("m", i), "ann", absl::StrCat("p", i), Minute(i)))});
  }
  std::vector<std::string> matches;
  std::optional<int64_t> before;
  for (int page = 0; page < 10; ++page) {
    absl::StatusOr<HistoryPage> p = store_->ListHistory("muggins", "ann", before, 2);
    ASSERT_TRUE(p.ok()) << p.status();
    for (const v1::RatingChange& c : p->changes) matches.push_back(c.match());
    before = p->next_before;
    if (!before.has_value()) break;
  }
  EXPECT_EQ(matches, (std::vector<std::string>{"matches/m4", "matches/m3", "matches/m2",
                                               "matches/m1", "matches/m0"}));
}

// ----- The batcher --------------------------------------------------------------------------

// Collects outcomes from the writer thread.
class Outcomes {
 public:
  ResultBatcher::Done Add() {
    return [this](RecordOutcome outcome) {
      absl::MutexLock lock(&mu_);
      outcomes_.push_back(std::move(outcome));
    };
  }
  std::vector<RecordOutcome> WaitFor(size_t n) {
    absl::MutexLock lock(&mu_);
    auto ready = [&] { return outcomes_.size() >= n; };
    mu_.AwaitWithTimeout(absl::Condition(&ready), absl::Seconds(60));
    return outcomes_;
  }

 private:
  absl::Mutex mu_;
  std::vector<RecordOutcome> outcomes_;
};

TEST_F(StoreTest, BatcherAppliesConcurrentDeliveriesOnce) {
  ResultBatcher batcher(*store_, {});
  const ValidResult result = Valid(Duel("m1", "ann", "bob", Minute(1)));
  Outcomes outcomes;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 125; ++i) batcher.Record(result, outcomes.Add());
    });
  }
  for (std::thread& t : threads) t.join();
  std::vector<RecordOutcome> all = outcomes.WaitFor(1000);
  ASSERT_EQ(all.size(), 1000u);
  int fresh = 0;
  for (const RecordOutcome& o : all) {
    ASSERT_TRUE(o.ok()) << o.status();
    if (!o->already_recorded()) ++fresh;
    EXPECT_EQ(o->changes_size(), 2);
  }
  EXPECT_EQ(fresh, 1);
  EXPECT_EQ(Count("results"), 1);
  EXPECT_EQ(Count("history"), 2);
  EXPECT_EQ(RatingOf("ann").games_played(), 1);
}

TEST_F(StoreTest, AFailedCommitAnswersUnavailableAndStoresNothing) {
  RecordOk({Valid(Duel("m0", "ann", "bob", Minute(0)))});
  // A deferred constraint trigger fails every transaction that writes a result at COMMIT.
  absl::Status created = pool_->Run([&](pqxx::work& tx) {
    tx.exec0(absl::StrCat(
        "CREATE FUNCTION ", In("fail()"), " RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        " RAISE EXCEPTION 'the disk is full'; END $$;"
        " CREATE CONSTRAINT TRIGGER fail AFTER INSERT ON ", In("results"),
        " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ", In("fail()")));
  });
  ASSERT_TRUE(created.ok()) << created;
  const std::string before = Snapshot();
  ResultBatcher batcher(*store_, {.retry_for = absl::Milliseconds(50)});
  Outcomes outcomes;
  batcher.Record(Valid(Duel("m1", "ann", "bob", Minute(1))), outcomes.Add());
  batcher.Record(Valid(Duel("m2", "cat", "bob", Minute(2))), outcomes.Add());
  std::vector<RecordOutcome> all = outcomes.WaitFor(2);
  ASSERT_EQ(all.size(), 2u);
  for (const RecordOutcome& o : all) {
    EXPECT_EQ(o.status().code(), absl::StatusCode::kUnavailable) << o.status();
    EXPECT_THAT(o.status().message(), HasSubstr("the disk is full"));
  }
  EXPECT_EQ(Snapshot(), before);
  EXPECT_EQ(RatingOf("ann").games_played(), 1);
}

// A result whose data the database refuses (here a player id too large for the index, which
// the edge's validation would have refused before) fails alone: the batch is split around it,
// the others are stored in arrival order, and its answer is INVALID_ARGUMENT without the
// database's words (marked for the edge).
TEST_F(StoreTest, AResultTheDatabaseRefusesFailsAloneInItsBatch) {
  std::string huge;  // incompressible, so it cannot fit an index row
  for (uint32_t x = 7; huge.size() < 9000;) {
    x = x * 1664525u + 1013904223u;
    huge += static_cast<char>('a' + (x >> 24) % 26);
  }
  ValidResult poison = Valid(Duel("m3", "ann", "zed", Minute(3)));
  poison.player_ids[1] = huge;
  std::vector<ValidResult> results = {Valid(Duel("m1", "ann", "bob", Minute(1))),
                                      Valid(Duel("m2", "cat", "bob", Minute(2))), poison,
                                      Valid(Duel("m4", "dan", "bob", Minute(4)))};
  std::vector<int> batch_sizes;
  ResultBatcher batcher(*store_, {.on_commit = [&](const BatchStats& stats) {
                                   batch_sizes.push_back(stats.results);
                                 }});
  Outcomes outcomes;
  // Held back until all four are queued, so they share one batch.
  absl::Notification release;
  batcher.RunExclusive([&](absl::Status) { release.WaitForNotification(); });
  for (const ValidResult& r : results) batcher.Record(r, outcomes.Add());
  release.Notify();
  std::vector<RecordOutcome> all = outcomes.WaitFor(4);
  ASSERT_EQ(all.size(), 4u);
  int failed = 0;
  for (const RecordOutcome& o : all) {
    if (o.ok()) continue;
    ++failed;
    EXPECT_EQ(o.status().code(), absl::StatusCode::kInvalidArgument) << o.status();
    EXPECT_TRUE(IsMarkedInternal(o.status()));
  }
  EXPECT_EQ(failed, 1);
  EXPECT_EQ(Count("results"), 3);
  EXPECT_EQ(RatingOf("bob").games_played(), 3);
  EXPECT_EQ(batch_sizes, (std::vector<int>{4, 2, 2, 1, 1}));
}

TEST_F(StoreTest, ExclusiveTasksRunBetweenBatchesInOrder) {
  ResultBatcher batcher(*store_, {});
  Outcomes outcomes;
  absl::Notification ran;
  int64_t seen_results = -1;
  batcher.Record(Valid(Duel("m1", "ann", "bob", Minute(1))), outcomes.Add());
  batcher.RunExclusive([&](absl::Status status) {
    EXPECT_TRUE(status.ok());
    seen_results = Count("results");  // m1 is committed, m2 waits
    ran.Notify();
  });
  batcher.Record(Valid(Duel("m2", "ann", "bob", Minute(2))), outcomes.Add());
  ASSERT_TRUE(ran.WaitForNotificationWithTimeout(absl::Seconds(30)));
  outcomes.WaitFor(2);
  EXPECT_EQ(seen_results, 1);
  batcher.Stop();
  // After Stop: UNAVAILABLE at once.
  Outcomes late;
  batcher.Record(Valid(Duel("m3", "ann", "bob", Minute(3))), late.Add());
  std::vector<RecordOutcome> l = late.WaitFor(1);
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0].status().code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace boneyard::ratings
