// OutboxDispatcher over the real PgMatchStore (see exec_pg_test.h) with test sinks.
#include "services/execution/outbox.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/execution/match_store.h"
#include "services/execution/pg_match_store.h"
#include "tests/services/execution/exec_pg_test.h"

namespace boneyard::execution {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::SizeIs;
using test_util::At;
using test_util::ExecPgTest;

constexpr int64_t kT0 = 1'700'000'000'000'000;

// Fails the first `failures` deliveries of each match named in `failing` (all matches when
// empty), then accepts; records every call.
class TestSink : public ResultSink {
 public:
  explicit TestSink(int failures, std::vector<std::string> failing = {})
      : failures_(failures), failing_(std::move(failing)) {}

  absl::Status Deliver(const OutboxItem& item) override {
    absl::MutexLock lock(&mu_);
    calls_.push_back({item.match_id, item.attempts, absl::Now()});
    const bool targeted =
        failing_.empty() ||
        std::find(failing_.begin(), failing_.end(), item.match_id) != failing_.end();
    if (targeted && failed_[item.match_id] < failures_) {
      ++failed_[item.match_id];
      return absl::UnavailableError(absl::StrCat("ratings is down (", failed_[item.match_id], ")"));
    }
    delivered_.push_back(item);
    return absl::OkStatus();
  }

  struct Call {
    std::string match_id;
    int attempts;
    absl::Time when;
  };
  std::vector<Call> calls() {
    absl::MutexLock lock(&mu_);
    return calls_;
  }
  std::vector<std::string> delivered_ids() {
    absl::MutexLock lock(&mu_);
    std::vector<std::string> ids;
    for (const OutboxItem& item : delivered_) ids.push_back(item.match_id);
    return ids;
  }
  std::vector<OutboxItem> delivered() {
    absl::MutexLock lock(&mu_);
    return delivered_;
  }
  // Waits up to `timeout` for `n` deliveries.
  bool AwaitDelivered(size_t n, absl::Duration timeout) {
    absl::MutexLock lock(&mu_);
    awaited_ = n;
    return mu_.AwaitWithTimeout(absl::Condition(this, &TestSink::HasDelivered), timeout);
  }

 private:
  bool HasDelivered() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return delivered_.size() >= awaited_;
  }

  const int failures_;
  const std::vector<std::string> failing_;
  absl::Mutex mu_;
  std::map<std::string, int> failed_ ABSL_GUARDED_BY(mu_);
  std::vector<Call> calls_ ABSL_GUARDED_BY(mu_);
  std::vector<OutboxItem> delivered_ ABSL_GUARDED_BY(mu_);
  size_t awaited_ ABSL_GUARDED_BY(mu_) = 0;
};

class OutboxTest : public ExecPgTest {
 protected:
  // A finished match, its result now in the outbox; returns its id.
  std::string FinishMatch(absl::Time end = absl::Now()) {
    const NewMatch m = CreateMatch(At(kT0));
    const absl::Status status =
        store_->Commit({{MakeEvent(m.id, 1, At(kT0))}, {Finished(m.id, 1, end)}});
    EXPECT_TRUE(status.ok()) << status;
    return m.id;
  }
};

TEST_F(OutboxTest, FailingDeliveriesAreRetriedWithBackoffAndDeliveredOnce) {
  const std::string id = FinishMatch();
  TestSink sink(/*failures=*/2);
  OutboxDispatcher dispatcher(*store_, sink,
                              {.poll_interval = absl::Milliseconds(10),
                               .batch = 10,
                               .initial_backoff = absl::Milliseconds(100),
                               .max_backoff = absl::Seconds(2)});
  dispatcher.Start();
  ASSERT_TRUE(sink.AwaitDelivered(1, absl::Seconds(30)));
  // Many more polls: nothing is delivered again.
  absl::SleepFor(absl::Milliseconds(300));
  dispatcher.Stop();

  EXPECT_THAT(sink.delivered_ids(), ElementsAre(id));
  const std::vector<TestSink::Call> calls = sink.calls();
  ASSERT_THAT(calls, SizeIs(3));
  // Each call saw the failures recorded so far, and waited out its backoff: 100 ms after the
  // first failure, 200 ms after the second.
  EXPECT_EQ(calls[0].attempts, 0);
  EXPECT_EQ(calls[1].attempts, 1);
  EXPECT_EQ(calls[2].attempts, 2);
  EXPECT_GE(calls[1].when - calls[0].when, absl::Milliseconds(100));
  EXPECT_GE(calls[2].when - calls[1].when, absl::Milliseconds(200));

  EXPECT_EQ(Scalar<int>(absl::StrCat("SELECT attempts FROM ", In("outbox"))), 2);
  EXPECT_THAT(Scalar<std::string>(absl::StrCat("SELECT last_error FROM ", In("outbox"))),
              HasSubstr("ratings is down (2)"));
  EXPECT_EQ(Count("outbox", "delivered_time IS NOT NULL"), 1);

  // What was delivered is the finished match with its result.
  const OutboxItem item = sink.delivered()[0];
  EXPECT_EQ(item.match.name(), "matches/" + id);
  EXPECT_EQ(item.match.state(), v1::Match::FINISHED);
  EXPECT_EQ(item.match.sequence(), 1);
  EXPECT_THAT(item.match.result().winners(), ElementsAre(0, 2));
  EXPECT_TRUE(item.match.has_end_time());
}

TEST_F(OutboxTest, WakeDeliversWithoutWaitingForThePoll) {
  TestSink sink(/*failures=*/0);
  OutboxDispatcher dispatcher(*store_, sink, {.poll_interval = absl::Hours(1)});
  dispatcher.Start();
  // The first pass finds nothing; the next poll is an hour away.
  absl::SleepFor(absl::Milliseconds(100));
  const std::string id = FinishMatch();
  dispatcher.Wake();
  ASSERT_TRUE(sink.AwaitDelivered(1, absl::Seconds(30)));
  EXPECT_THAT(sink.delivered_ids(), ElementsAre(id));
  dispatcher.Stop();
  dispatcher.Stop();  // idempotent
  dispatcher.Start();  // no restart after Stop
  EXPECT_THAT(sink.calls(), SizeIs(1));
}

TEST_F(OutboxTest, DeliversOldestFirstInBatches) {
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(FinishMatch());
  TestSink sink(/*failures=*/0);
  OutboxDispatcher dispatcher(*store_, sink, {.batch = 2});
  absl::StatusOr<int> delivered = dispatcher.DeliverDue();
  ASSERT_TRUE(delivered.ok()) << delivered.status();
  EXPECT_EQ(*delivered, 5);
  EXPECT_THAT(sink.delivered_ids(), ElementsAreArray(ids));
  delivered = dispatcher.DeliverDue();
  ASSERT_TRUE(delivered.ok()) << delivered.status();
  EXPECT_EQ(*delivered, 0);
  EXPECT_EQ(Count("outbox", "delivered_time IS NULL"), 0);
}

// The backlog gauge: every undelivered item counts, due or backing off; delivered and parked
// ones do not; another receiver's are not this one's.
TEST_F(OutboxTest, TheBacklogCountsUndeliveredItemsAfterEachPass) {
  const std::string first = FinishMatch();
  FinishMatch();
  FinishMatch();
  auto count = [&](const char* receiver) {
    absl::StatusOr<int64_t> n = store_->CountPendingOutbox(receiver);
    EXPECT_TRUE(n.ok()) << n.status();
    return n.value_or(-1);
  };
  EXPECT_EQ(count(kRatingsReceiver), 3);
  EXPECT_EQ(count("nobody"), 0);
  TestSink sink(/*failures=*/1000, /*failing=*/{first});
  std::vector<int64_t> seen;
  absl::Mutex mu;
  OutboxDispatcher dispatcher(*store_, sink,
                              {.poll_interval = absl::Milliseconds(10),
                               .initial_backoff = absl::Hours(1),
                               .max_backoff = absl::Hours(2),
                               .on_backlog = [&](int64_t n) {
                                 absl::MutexLock lock(&mu);
                                 seen.push_back(n);
                               }});
  dispatcher.Start();
  // The failing item ends each pass; the next passes deliver the other two, then one remains.
  for (int i = 0; i < 3000; ++i) {
    {
      absl::MutexLock lock(&mu);
      if (!seen.empty() && seen.back() == 1 && sink.delivered_ids().size() == 2) break;
    }
    absl::SleepFor(absl::Milliseconds(10));
  }
  dispatcher.Stop();
  absl::MutexLock lock(&mu);
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.back(), 1);
  EXPECT_EQ(count(kRatingsReceiver), 1);
}

TEST_F(OutboxTest, AFailureEndsThePassAndDoesNotHoldBackOthersAfterwards) {
  const std::string first = FinishMatch();
  const std::string second = FinishMatch();
  const std::string third = FinishMatch();
  TestSink sink(/*failures=*/1000, /*failing=*/{first});
  OutboxDispatcher dispatcher(*store_, sink,
                              {.initial_backoff = absl::Hours(1), .max_backoff = absl::Hours(2)});

  absl::StatusOr<int> delivered = dispatcher.DeliverDue();
  ASSERT_TRUE(delivered.ok()) << delivered.status();
  EXPECT_EQ(*delivered, 0);
  EXPECT_THAT(sink.calls(), SizeIs(1));  // the rest waits for the next pass

  delivered = dispatcher.DeliverDue();  // `first` is not due for an hour
  ASSERT_TRUE(delivered.ok()) << delivered.status();
  EXPECT_EQ(*delivered, 2);
  EXPECT_THAT(sink.delivered_ids(), ElementsAre(second, third));
  EXPECT_EQ(Scalar<int>(absl::StrCat("SELECT attempts FROM ", In("outbox"), " WHERE match_id = '",
                                     first, "'")),
            1);
  EXPECT_EQ(Count("outbox", "delivered_time IS NULL AND next_attempt_time > now() + "
                            "interval '50 minutes'"),
            1);
}

// Refuses one match's result for good (the receiver says it is invalid); accepts the others.
class RefusingSink : public ResultSink {
 public:
  explicit RefusingSink(std::string refused) : refused_(std::move(refused)) {}
  absl::Status Deliver(const OutboxItem& item) override {
    absl::MutexLock lock(&mu_);
    ++calls_[item.match_id];
    if (item.match_id == refused_) {
      return absl::InvalidArgumentError("RecordResult: match.seats[0].player.player_id: too long");
    }
    return absl::OkStatus();
  }
  int calls(const std::string& match_id) {
    absl::MutexLock lock(&mu_);
    return calls_[match_id];
  }

 private:
  const std::string refused_;
  absl::Mutex mu_;
  std::map<std::string, int> calls_ ABSL_GUARDED_BY(mu_);
};

// A result the receiver refuses for good is parked with its error, counted, never retried, and
// does not end the pass: the results after it are delivered at once.
TEST_F(OutboxTest, AResultRefusedForGoodIsParkedNotRetried) {
  const std::string first = FinishMatch();
  const std::string refused = FinishMatch();
  const std::string third = FinishMatch();
  RefusingSink sink(refused);
  int parked = 0;
  OutboxDispatcher dispatcher(*store_, sink,
                              {.initial_backoff = absl::Milliseconds(1),
                               .on_parked = [&parked] { ++parked; }});
  absl::StatusOr<int> delivered = dispatcher.DeliverDue();
  ASSERT_TRUE(delivered.ok()) << delivered.status();
  EXPECT_EQ(*delivered, 2);
  EXPECT_EQ(parked, 1);
  EXPECT_EQ(Count("outbox", absl::StrCat("match_id = '", refused, "' AND parked_time IS NOT NULL "
                                         "AND delivered_time IS NULL AND last_error LIKE "
                                         "'%player_id: too long%'")),
            1);
  // Later passes leave it alone.
  for (int i = 0; i < 3; ++i) {
    absl::SleepFor(absl::Milliseconds(5));
    delivered = dispatcher.DeliverDue();
    ASSERT_TRUE(delivered.ok()) << delivered.status();
    EXPECT_EQ(*delivered, 0);
  }
  EXPECT_EQ(sink.calls(refused), 1);
  EXPECT_EQ(sink.calls(first), 1);
  EXPECT_EQ(sink.calls(third), 1);
}

TEST_F(OutboxTest, BackoffDoublesFromTheInitialBackoffUpToTheMaximum) {
  TestSink sink(/*failures=*/0);
  OutboxDispatcher dispatcher(*store_, sink, {});  // the defaults: 1 s doubling up to 5 min
  EXPECT_EQ(dispatcher.Backoff(0), absl::Seconds(1));
  EXPECT_EQ(dispatcher.Backoff(1), absl::Seconds(2));
  EXPECT_EQ(dispatcher.Backoff(2), absl::Seconds(4));
  EXPECT_EQ(dispatcher.Backoff(8), absl::Seconds(256));
  EXPECT_EQ(dispatcher.Backoff(9), absl::Minutes(5));
  EXPECT_EQ(dispatcher.Backoff(1'000'000), absl::Minutes(5));
}

// Claiming (several replicas on one outbox): a pass that fails on one item releases the rest it
// claimed, so they are not held for the claim's length.
TEST_F(OutboxTest, AClaimingPassThatFailsReleasesTheItemsItDidNotTry) {
  const std::string first = FinishMatch();
  const std::string second = FinishMatch();
  const std::string third = FinishMatch();
  TestSink sink(/*failures=*/1000, /*failing=*/{first});
  OutboxDispatcher dispatcher(*store_, sink,
                              {.claim_for = absl::Hours(1),
                               .initial_backoff = absl::Hours(1),
                               .max_backoff = absl::Hours(2)});
  absl::StatusOr<int> delivered = dispatcher.DeliverDue();
  ASSERT_TRUE(delivered.ok()) << delivered.status();
  EXPECT_EQ(*delivered, 0);
  delivered = dispatcher.DeliverDue();  // not an hour later: released, not claimed
  ASSERT_TRUE(delivered.ok()) << delivered.status();
  EXPECT_EQ(*delivered, 2);
  EXPECT_THAT(sink.delivered_ids(), ElementsAre(second, third));
}

// A sink that takes a moment, so two dispatchers' passes overlap.
class SlowSink : public TestSink {
 public:
  SlowSink() : TestSink(/*failures=*/0) {}
  absl::Status Deliver(const OutboxItem& item) override {
    absl::SleepFor(absl::Milliseconds(3));
    return TestSink::Deliver(item);
  }
};

// Two replicas' dispatchers on one outbox at once, claiming: every result delivered by exactly
// one of them.
TEST_F(OutboxTest, TheDispatchersOfTwoReplicasDeliverEachResultOnce) {
  constexpr int kMatches = 24;
  for (int i = 0; i < kMatches; ++i) FinishMatch();
  absl::StatusOr<std::unique_ptr<PgMatchStore>> other = PgMatchStore::Open(*pool_, schema_);
  ASSERT_TRUE(other.ok()) << other.status();
  SlowSink here_sink;
  SlowSink there_sink;
  OutboxDispatcher here(*store_, here_sink, {.batch = 3, .claim_for = absl::Seconds(30)});
  OutboxDispatcher there(**other, there_sink, {.batch = 3, .claim_for = absl::Seconds(30)});
  std::thread thread([&] { ASSERT_TRUE(there.DeliverDue().ok()); });
  ASSERT_TRUE(here.DeliverDue().ok());
  thread.join();
  std::vector<std::string> all = here_sink.delivered_ids();
  const std::vector<std::string> theirs = there_sink.delivered_ids();
  all.insert(all.end(), theirs.begin(), theirs.end());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all.size(), static_cast<size_t>(kMatches));  // none twice
  EXPECT_EQ(std::unique(all.begin(), all.end()), all.end());
  EXPECT_FALSE(theirs.empty());  // both took part
  EXPECT_FALSE(here_sink.delivered_ids().empty());
  EXPECT_EQ(Count("outbox", "delivered_time IS NULL"), 0);
}

}  // namespace
}  // namespace boneyard::execution
