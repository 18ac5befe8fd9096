// GroupCommitter over the real PgMatchStore (see exec_pg_test.h) and over a scripted store for
// the failure paths.
#include "services/execution/group_commit.h"

#include "services/common/internal_error.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/internal_error.h"
#include "services/execution/match_store.h"
#include "tests/services/execution/exec_pg_test.h"

namespace boneyard::execution {
namespace {

using ::testing::Contains;
using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::Ge;
using ::testing::Gt;
using ::testing::Le;
using ::testing::SizeIs;
using test_util::At;
using test_util::ExecPgTest;

constexpr int64_t kT0 = 1'700'000'000'000'000;

// A store whose Commit runs a script; everything else is unimplemented.
class ScriptedStore : public MatchStore {
 public:
  explicit ScriptedStore(std::function<absl::Status(const CommitBatch&)> commit)
      : commit_(std::move(commit)) {}

  absl::Status Commit(const CommitBatch& batch) override { return commit_(batch); }

  absl::StatusOr<CreateResult> CreateMatch(const NewMatch&) override { return Unimplemented(); }
  absl::StatusOr<std::vector<ActiveMatch>> LoadActiveMatches() override {
    return Unimplemented();
  }
  absl::StatusOr<v1::Match> GetMatch(const std::string&) override { return Unimplemented(); }
  absl::StatusOr<NewMatch> GetNewMatch(const std::string&) override { return Unimplemented(); }
  absl::StatusOr<MatchPage> ListMatches(const MatchFilter&, int,
                                        const std::optional<MatchCursor>&) override {
    return Unimplemented();
  }
  absl::StatusOr<StoredRecord> GetRecordJson(const std::string&) override {
    return Unimplemented();
  }
  absl::StatusOr<std::optional<EventRow>> LastEvent(const std::string&) override {
    return Unimplemented();
  }
  absl::StatusOr<SeatGrant> FindSeatToken(const std::string&) override { return Unimplemented(); }
  absl::StatusOr<std::vector<OutboxItem>> PendingOutbox(const std::string&, int,
                                                        absl::Time) override {
    return Unimplemented();
  }
  absl::Status MarkDelivered(int64_t, absl::Time) override { return Unimplemented(); }
  absl::Status MarkFailed(int64_t, const std::string&, absl::Time) override {
    return Unimplemented();
  }
  absl::Status MarkParked(int64_t, const std::string&, absl::Time) override {
    return Unimplemented();
  }
  absl::StatusOr<std::vector<ParkedItem>> ListParked(int, int64_t) override {
    return Unimplemented();
  }
  absl::StatusOr<ParkedItem> RetryParked(int64_t, absl::Time) override { return Unimplemented(); }
  absl::StatusOr<ParkedItem> DropParked(int64_t) override { return Unimplemented(); }

 private:
  static absl::Status Unimplemented() { return absl::UnimplementedError("scripted store"); }
  std::function<absl::Status(const CommitBatch&)> commit_;
};

// Forwards to a real store, but holds every Commit until the gate opens.
class GatedStore : public ScriptedStore {
 public:
  explicit GatedStore(MatchStore& real)
      : ScriptedStore([this, &real](const CommitBatch& batch) {
          {
            absl::MutexLock lock(&mu_);
            ++waiting_;
            mu_.Await(absl::Condition(&open_));
            --waiting_;
          }
          return real.Commit(batch);
        }) {}

  void Open() {
    absl::MutexLock lock(&mu_);
    open_ = true;
  }
  // Blocks until a commit is held at the gate.
  void AwaitHeldCommit() {
    absl::MutexLock lock(&mu_);
    mu_.Await(absl::Condition(
        +[](int* waiting) { return *waiting > 0; }, &waiting_));
  }

 private:
  absl::Mutex mu_;
  bool open_ ABSL_GUARDED_BY(mu_) = false;
  int waiting_ ABSL_GUARDED_BY(mu_) = 0;
};

// Records what callbacks and on_commit see.
class Recorder {
 public:
  GroupCommitter::Callback Done(std::string key) {
    return [this, key = std::move(key)](absl::Status status) {
      absl::MutexLock lock(&mu_);
      order_.push_back(key);
      statuses_[key] = status;
    };
  }
  std::function<void(const CommitStats&)> OnCommit() {
    return [this](const CommitStats& stats) {
      absl::MutexLock lock(&mu_);
      stats_.push_back(stats);
    };
  }
  std::vector<std::string> order() {
    absl::MutexLock lock(&mu_);
    return order_;
  }
  std::map<std::string, absl::Status> statuses() {
    absl::MutexLock lock(&mu_);
    return statuses_;
  }
  std::vector<CommitStats> stats() {
    absl::MutexLock lock(&mu_);
    return stats_;
  }
  std::vector<int> batch_sizes() {
    std::vector<int> sizes;
    for (const CommitStats& s : stats()) sizes.push_back(s.events);
    return sizes;
  }

 private:
  absl::Mutex mu_;
  std::vector<std::string> order_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, absl::Status> statuses_ ABSL_GUARDED_BY(mu_);
  std::vector<CommitStats> stats_ ABSL_GUARDED_BY(mu_);
};

EventRow Event(const std::string& match_id, int64_t sequence) {
  return ExecPgTest::MakeEvent(match_id, sequence, At(kT0));
}

class GroupCommitTest : public ExecPgTest {};

TEST_F(GroupCommitTest, ManyThreadsAppendingAreAllCommittedWithCallbacksInOrder) {
  constexpr int kThreads = 8;
  constexpr int kEventsEach = 200;
  std::vector<std::string> ids;
  for (int t = 0; t < kThreads; ++t) ids.push_back(CreateMatch(At(kT0 + t)).id);

  Recorder recorder;
  absl::Mutex mu;
  std::vector<std::vector<int64_t>> seen(kThreads);  // guarded by mu
  std::atomic<int> failures{0};
  {
    GroupCommitter log(*store_, {.writers = 2, .max_batch = 64, .on_commit = recorder.OnCommit()});
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        // Appended without waiting, so one thread's events span batches and both writers.
        for (int64_t s = 1; s <= kEventsEach; ++s) {
          std::optional<MatchEnd> end;
          if (s == kEventsEach) end = Finished(ids[t], s, At(kT0 + 1'000'000));
          log.Append(Event(ids[t], s), std::move(end), [&, t, s](absl::Status status) {
            if (!status.ok()) {
              ++failures;
              ADD_FAILURE() << status;
            }
            absl::MutexLock lock(&mu);
            seen[t].push_back(s);
          });
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    log.Flush();
    absl::MutexLock lock(&mu);
    for (int t = 0; t < kThreads; ++t) {
      ASSERT_EQ(seen[t].size(), static_cast<size_t>(kEventsEach)) << "thread " << t;
      for (int64_t s = 1; s <= kEventsEach; ++s) {
        ASSERT_EQ(seen[t][s - 1], s) << "thread " << t << ": callbacks out of order";
      }
    }
  }
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(Count("events"), kThreads * kEventsEach);
  EXPECT_EQ(Count("matches", "state = 2"), kThreads);
  EXPECT_EQ(Count("outbox"), kThreads);

  const std::vector<int> sizes = recorder.batch_sizes();
  int total = 0;
  for (int n : sizes) total += n;
  EXPECT_EQ(total, kThreads * kEventsEach);  // every attempt succeeded: each event once
  EXPECT_THAT(sizes, Each(Le(64)));
  EXPECT_THAT(sizes, Contains(Gt(1)));  // events really were grouped
}

TEST_F(GroupCommitTest, EventsQueuedDuringACommitGoInTheNextBatch) {
  const std::string a = CreateMatch(At(kT0)).id;
  const std::string b = CreateMatch(At(kT0)).id;
  GatedStore gated(*store_);
  Recorder recorder;
  GroupCommitter log(gated, {.writers = 1, .max_batch = 4, .on_commit = recorder.OnCommit()});
  log.Append(Event(a, 1), std::nullopt, recorder.Done("a1"));
  gated.AwaitHeldCommit();  // the writer holds a batch of one
  for (int64_t s = 1; s <= 5; ++s) {
    log.Append(Event(b, s), std::nullopt, recorder.Done(absl::StrCat("b", s)));
  }
  log.Append(Event(a, 2), std::nullopt, recorder.Done("a2"));
  gated.Open();
  log.Flush();
  EXPECT_THAT(recorder.batch_sizes(), ElementsAre(1, 4, 2));
  EXPECT_THAT(recorder.order(), ElementsAre("a1", "b1", "b2", "b3", "b4", "b5", "a2"));
  for (const auto& [key, status] : recorder.statuses()) EXPECT_TRUE(status.ok()) << key;
  EXPECT_EQ(Count("events"), 7);
}

// A batch holding an event the database refuses (a duplicate; an end whose record holds a
// NUL, which jsonb cannot store) is split until the offenders are alone: they fail with their
// own errors, not retried, and every other event of the batch is stored.
TEST_F(GroupCommitTest, OnlyTheOffendingEventsOfABatchFail) {
  const std::string a = CreateMatch(At(kT0)).id;
  const std::string b = CreateMatch(At(kT0)).id;
  const std::string c = CreateMatch(At(kT0)).id;
  const std::string d = CreateMatch(At(kT0)).id;
  const std::string e = CreateMatch(At(kT0)).id;
  ASSERT_TRUE(store_->Commit({{Event(a, 1)}, {}}).ok());

  GatedStore gated(*store_);
  Recorder recorder;
  GroupCommitter log(gated, {.writers = 1, .max_batch = 100, .on_commit = recorder.OnCommit()});
  log.Append(Event(b, 1), std::nullopt, recorder.Done("b1"));
  gated.AwaitHeldCommit();
  // One batch: C's event, A's duplicate, D's last event with a record PostgreSQL refuses, E's.
  log.Append(Event(c, 1), std::nullopt, recorder.Done("c1"));
  log.Append(Event(a, 1), std::nullopt, recorder.Done("a1-again"));
  MatchEnd poisoned = Finished(d, 1, At(kT0 + 5));
  poisoned.record_json = R"({"note": "a\u0000b"})";
  log.Append(Event(d, 1), std::move(poisoned), recorder.Done("d1-end"));
  log.Append(Event(e, 1), std::nullopt, recorder.Done("e1"));
  gated.Open();
  log.Flush();

  std::map<std::string, absl::Status> statuses = recorder.statuses();
  for (const char* key : {"b1", "c1", "e1"}) {
    EXPECT_TRUE(statuses[key].ok()) << key << ": " << statuses[key];
  }
  EXPECT_EQ(statuses["a1-again"].code(), absl::StatusCode::kAlreadyExists) << statuses["a1-again"];
  EXPECT_EQ(statuses["d1-end"].code(), absl::StatusCode::kInvalidArgument) << statuses["d1-end"];
  // The database's own words are marked: the edge never shows them to a client.
  EXPECT_TRUE(IsMarkedInternal(statuses["d1-end"]));
  EXPECT_THAT(recorder.order(), ElementsAre("b1", "c1", "a1-again", "d1-end", "e1"));
  EXPECT_EQ(Count("events", absl::StrCat("match_id = '", c, "'")), 1);
  EXPECT_EQ(Count("events", absl::StrCat("match_id = '", e, "'")), 1);
  EXPECT_EQ(Count("events", absl::StrCat("match_id = '", d, "'")), 0);
  EXPECT_EQ(Count("outbox"), 0);
  // The batch of 4, its halves, and the halves' halves: no transaction was retried.
  EXPECT_THAT(recorder.batch_sizes(), ElementsAre(1, 4, 2, 1, 1, 2, 1, 1));

  // The log goes on working.
  log.Append(Event(d, 1), std::nullopt, recorder.Done("d1-again"));
  log.Flush();
  EXPECT_TRUE(recorder.statuses()["d1-again"].ok());
}

TEST_F(GroupCommitTest, StrandsAppendingFromTheirCallbacksAllFinish) {
  // As the match host works: each match appends its next event from the previous one's
  // callback, so it never has two in flight.
  constexpr int kMatches = 20;
  constexpr int kEvents = 25;
  std::vector<std::string> ids;
  for (int m = 0; m < kMatches; ++m) ids.push_back(CreateMatch(At(kT0 + m)).id);
  Recorder recorder;
  absl::Mutex mu;
  int finished = 0;  // guarded by mu
  GroupCommitter log(*store_, {.writers = 2, .max_batch = 512, .on_commit = recorder.OnCommit()});
  std::function<void(int, int64_t)> next = [&](int m, int64_t s) {
    std::optional<MatchEnd> end;
    if (s == kEvents) end = Finished(ids[m], s, At(kT0 + 9));
    log.Append(Event(ids[m], s), std::move(end), [&, m, s](absl::Status status) {
      EXPECT_TRUE(status.ok()) << status;
      if (s < kEvents && status.ok()) {
        next(m, s + 1);
        return;
      }
      absl::MutexLock lock(&mu);
      ++finished;
    });
  };
  for (int m = 0; m < kMatches; ++m) next(m, 1);
  {
    absl::MutexLock lock(&mu);
    EXPECT_TRUE(mu.AwaitWithTimeout(
        absl::Condition(+[](int* n) { return *n == kMatches; }, &finished), absl::Seconds(60)));
  }
  log.Stop();
  EXPECT_EQ(Count("events"), kMatches * kEvents);
  EXPECT_EQ(Count("outbox"), kMatches);
}

// --- Failure paths, over a scripted store ---

TEST(GroupCommitScriptedTest, TransientFailuresAreRetriedWithBackoff) {
  std::atomic<int> calls{0};
  ScriptedStore store([&](const CommitBatch&) {
    const int n = ++calls;
    if (n == 1) return absl::UnavailableError("connection lost");
    if (n == 2) return absl::AbortedError("deadlock detected");
    return absl::OkStatus();
  });
  Recorder recorder;
  GroupCommitter log(store, {.writers = 1, .on_commit = recorder.OnCommit()});
  const absl::Time start = absl::Now();
  log.Append(Event("m", 1), std::nullopt, recorder.Done("m1"));
  log.Flush();
  const absl::Duration took = absl::Now() - start;
  EXPECT_TRUE(recorder.statuses()["m1"].ok()) << recorder.statuses()["m1"];
  EXPECT_EQ(calls.load(), 3);
  std::vector<bool> oks;
  for (const CommitStats& s : recorder.stats()) oks.push_back(s.ok);
  EXPECT_THAT(oks, ElementsAre(false, false, true));
  EXPECT_GE(took, absl::Milliseconds(10 + 20));  // waited 10 ms, then 20 ms
}

TEST(GroupCommitScriptedTest, RetriesStopAfterRetryForAndOtherErrorsAreNotRetried) {
  std::atomic<int> calls{0};
  ScriptedStore down([&](const CommitBatch&) {
    ++calls;
    return absl::DeadlineExceededError("no database connection became free");
  });
  Recorder recorder;
  {
    GroupCommitter log(down, {.writers = 1, .retry_for = absl::Milliseconds(200)});
    log.Append(Event("m", 1), std::nullopt, recorder.Done("m1"));
    log.Append(Event("m", 2), std::nullopt, recorder.Done("m2"));
    log.Flush();
  }
  EXPECT_EQ(recorder.statuses()["m1"].code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(recorder.statuses()["m2"].code(), absl::StatusCode::kDeadlineExceeded);
  // 10 + 20 + 40 + 80 ms of backoff fit in 200 ms, 160 more do not: about 5 attempts a batch.
  EXPECT_GE(calls.load(), 3);
  EXPECT_LE(calls.load(), 2 * 8);

  calls = 0;
  ScriptedStore broken([&](const CommitBatch&) {
    ++calls;
    return absl::InternalError("syntax error");
  });
  GroupCommitter log(broken, {.writers = 1});
  log.Append(Event("m", 1), std::nullopt, recorder.Done("broken"));
  log.Flush();
  EXPECT_EQ(recorder.statuses()["broken"].code(), absl::StatusCode::kInternal);
  EXPECT_EQ(calls.load(), 1);
}

// Bisection finds one bad event among many: it alone fails; the database being away is not
// bisected (every half would wait for it), and a bug (INTERNAL) fails the batch whole.
TEST(GroupCommitScriptedTest, ABadEventIsIsolatedButOutagesAndBugsAreNot) {
  std::atomic<int> calls{0};
  std::atomic<bool> down{false};
  ScriptedStore store([&](const CommitBatch& batch) {
    ++calls;
    if (down) return absl::UnavailableError("database unavailable");
    for (const EventRow& event : batch.events) {
      if (event.match_id == "poison") return absl::InvalidArgumentError("cannot be stored");
      if (event.match_id == "bug") return absl::InternalError("syntax error");
    }
    return absl::OkStatus();
  });
  // One batch of eight, whatever the machine's load: a first commit starts the interval, so
  // the writer waits for the eight (a full batch) instead of taking the first alone.
  auto append_eight = [&](GroupCommitter& log, Recorder& recorder, const std::string& odd_one,
                          bool database_down = false) {
    Recorder warm_up;
    log.Append(Event("warm-up", 1), std::nullopt, warm_up.Done("warm-up"));
    log.Flush();
    calls = 0;
    down = database_down;
    for (int i = 0; i < 8; ++i) {
      const std::string id = i == 5 ? odd_one : absl::StrCat("m", i);
      log.Append(Event(id, 1), std::nullopt, recorder.Done(id));
    }
  };
  {
    Recorder recorder;
    GroupCommitter log(store, {.writers = 1, .max_batch = 8, .min_interval = absl::Seconds(30)});
    append_eight(log, recorder, "poison");
    log.Flush();
    for (const auto& [key, status] : recorder.statuses()) {
      EXPECT_EQ(status.code(), key == "poison" ? absl::StatusCode::kInvalidArgument
                                               : absl::StatusCode::kOk)
          << key;
    }
    EXPECT_EQ(recorder.statuses().size(), 8u);
    EXPECT_EQ(calls.load(), 1 + 2 + 2 + 2);  // 8, then 4+4, 2+2 of the bad half, 1+1
  }
  {
    Recorder recorder;
    GroupCommitter log(store, {.writers = 1, .max_batch = 8, .min_interval = absl::Seconds(30)});
    append_eight(log, recorder, "bug");
    log.Flush();
    for (const auto& [key, status] : recorder.statuses()) {
      EXPECT_EQ(status.code(), absl::StatusCode::kInternal) << key;
    }
    EXPECT_EQ(calls.load(), 1);
  }
  {
    Recorder recorder;
    GroupCommitter log(store, {.writers = 1, .max_batch = 8,
                               .min_interval = absl::Seconds(30),
                               .retry_for = absl::Milliseconds(50)});
    append_eight(log, recorder, "poison", /*database_down=*/true);
    log.Flush();
    for (const auto& [key, status] : recorder.statuses()) {
      EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << key;
    }
    EXPECT_LE(calls.load(), 4);  // retries of the whole batch only, never a half
  }
}

TEST(GroupCommitScriptedTest, AlreadyExistsAfterAnUnknownCommitMeansItWasCommitted) {
  std::atomic<int> calls{0};
  ScriptedStore store([&](const CommitBatch&) {
    return ++calls == 1 ? absl::UnknownError("connection lost during commit")
                        : absl::AlreadyExistsError("duplicate key value");
  });
  Recorder recorder;
  GroupCommitter log(store, {.writers = 1});
  log.Append(Event("m", 1), std::nullopt, recorder.Done("m1"));
  log.Flush();
  EXPECT_TRUE(recorder.statuses()["m1"].ok()) << recorder.statuses()["m1"];
  EXPECT_EQ(calls.load(), 2);
}

TEST(GroupCommitScriptedTest, CallbacksKeepAppendOrderAcrossWriters) {
  // The first batch commits slowly on one writer while the second commits at once on the
  // other; the second's callbacks still wait for the first's.
  absl::Notification first_taken;
  ScriptedStore store([&](const CommitBatch& batch) {
    if (batch.events.front().sequence == 1) {
      first_taken.Notify();
      absl::SleepFor(absl::Milliseconds(200));
    }
    return absl::OkStatus();
  });
  Recorder recorder;
  GroupCommitter log(store, {.writers = 2, .on_commit = recorder.OnCommit()});
  log.Append(Event("m", 1), std::nullopt, recorder.Done("1"));
  first_taken.WaitForNotification();
  log.Append(Event("n", 2), std::nullopt, recorder.Done("2"));
  log.Flush();
  EXPECT_THAT(recorder.order(), ElementsAre("1", "2"));
  EXPECT_THAT(recorder.batch_sizes(), ElementsAre(1, 1));
}

TEST(GroupCommitScriptedTest, StopFlushesThenRefusesAppends) {
  std::atomic<int> committed{0};
  ScriptedStore store([&](const CommitBatch& batch) {
    absl::SleepFor(absl::Milliseconds(2));
    committed += static_cast<int>(batch.events.size());
    return absl::OkStatus();
  });
  Recorder recorder;
  GroupCommitter log(store, {.writers = 2, .max_batch = 8});
  for (int s = 1; s <= 100; ++s) {
    log.Append(Event("m", s), std::nullopt, recorder.Done(absl::StrCat(s)));
  }
  log.Stop();
  EXPECT_EQ(committed.load(), 100);
  EXPECT_EQ(recorder.order().size(), 100u);
  for (const auto& [key, status] : recorder.statuses()) EXPECT_TRUE(status.ok()) << key;

  // After Stop the callback runs at once, on the caller's thread.
  absl::Status late = absl::OkStatus();
  bool called = false;
  log.Append(Event("m", 101), std::nullopt, [&](absl::Status status) {
    called = true;
    late = status;
  });
  EXPECT_TRUE(called);
  EXPECT_EQ(late.code(), absl::StatusCode::kUnavailable) << late;
  EXPECT_EQ(committed.load(), 100);
  log.Stop();  // idempotent
  log.Flush();  // nothing to wait for
}

TEST(GroupCommitScriptedTest, FlushWaitsForEverythingAppendedBefore) {
  std::atomic<int> committed{0};
  ScriptedStore store([&](const CommitBatch& batch) {
    absl::SleepFor(absl::Milliseconds(20));
    committed += static_cast<int>(batch.events.size());
    return absl::OkStatus();
  });
  GroupCommitter log(store, {.writers = 2, .max_batch = 3});
  log.Flush();  // nothing appended yet
  std::atomic<int> done{0};
  for (int s = 1; s <= 10; ++s) {
    log.Append(Event("m", s), std::nullopt, [&](absl::Status) { ++done; });
  }
  log.Flush();
  EXPECT_EQ(done.load(), 10);
  EXPECT_EQ(committed.load(), 10);
}

// min_interval: the first event commits at once; events arriving within the interval of the
// last batch wait and share the next commit.
TEST(GroupCommitScriptedTest, EventsWithinTheIntervalShareTheNextCommit) {
  absl::Mutex mu;
  std::vector<absl::Time> commit_times;
  ScriptedStore store([&](const CommitBatch&) {
    absl::MutexLock lock(&mu);
    commit_times.push_back(absl::Now());
    return absl::OkStatus();
  });
  Recorder recorder;
  constexpr absl::Duration kInterval = absl::Milliseconds(300);
  GroupCommitter log(store, {.min_interval = kInterval, .on_commit = recorder.OnCommit()});
  const absl::Time start = absl::Now();
  log.Append(Event("a", 1), std::nullopt, recorder.Done("a1"));
  log.Flush();
  for (int s = 1; s <= 5; ++s) {
    log.Append(Event("b", s), std::nullopt, recorder.Done(absl::StrCat("b", s)));
  }
  log.Flush();
  EXPECT_THAT(recorder.batch_sizes(), ElementsAre(1, 5));
  absl::MutexLock lock(&mu);
  ASSERT_THAT(commit_times, SizeIs(2));
  EXPECT_GE(commit_times[1] - start, kInterval);  // not before the interval was up
}

TEST(GroupCommitScriptedTest, AFullBatchOrStopDoesNotWaitForTheInterval) {
  ScriptedStore store([](const CommitBatch&) { return absl::OkStatus(); });
  Recorder recorder;
  // An interval no test run reaches: only a full batch or Stop can end the wait.
  GroupCommitter log(store, {.max_batch = 4,
                             .min_interval = absl::Hours(1),
                             .on_commit = recorder.OnCommit()});
  log.Append(Event("a", 1), std::nullopt, recorder.Done("a1"));
  log.Flush();
  for (int s = 1; s <= 4; ++s) {
    log.Append(Event("b", s), std::nullopt, recorder.Done(absl::StrCat("b", s)));
  }
  log.Flush();  // the fourth filled the batch: it went at once
  log.Append(Event("c", 1), std::nullopt, recorder.Done("c1"));
  log.Stop();  // flushes what waits, without waiting out the interval
  EXPECT_THAT(recorder.batch_sizes(), ElementsAre(1, 4, 1));
  EXPECT_EQ(recorder.order().size(), 6u);
}

}  // namespace
}  // namespace boneyard::execution
