// ThreadPool and Strand: a strand never runs two of its tasks at once and keeps their order,
// whether they run on a worker (Post) or on the thread that hands them over (Dispatch).
#include "services/execution/thread_pool.h"

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard::execution {
namespace {

using ::testing::ElementsAre;

// What ran, in order, and on which thread.
class Log {
 public:
  void Add(int task) {
    absl::MutexLock lock(&mu_);
    order_.push_back(task);
    threads_.push_back(std::this_thread::get_id());
  }
  std::vector<int> order() const {
    absl::MutexLock lock(&mu_);
    return order_;
  }
  std::vector<std::thread::id> threads() const {
    absl::MutexLock lock(&mu_);
    return threads_;
  }
  void AwaitCount(size_t n) const {
    absl::MutexLock lock(&mu_);
    const auto enough = [&]() ABSL_NO_THREAD_SAFETY_ANALYSIS { return order_.size() >= n; };
    mu_.Await(absl::Condition(&enough));
  }

 private:
  mutable absl::Mutex mu_;
  std::vector<int> order_ ABSL_GUARDED_BY(mu_);
  std::vector<std::thread::id> threads_ ABSL_GUARDED_BY(mu_);
};

TEST(StrandTest, DispatchToAnIdleStrandRunsOnTheCallingThreadBeforeReturning) {
  ThreadPool pool(1);
  auto strand = Strand::Make(pool);
  Log log;
  strand->Dispatch([&] { log.Add(1); });
  EXPECT_THAT(log.order(), ElementsAre(1));
  EXPECT_THAT(log.threads(), ElementsAre(std::this_thread::get_id()));
}

TEST(StrandTest, DispatchWhileATaskRunsQueuesBehindIt) {
  ThreadPool pool(1);
  auto strand = Strand::Make(pool);
  Log log;
  absl::Notification started, release;
  strand->Post([&] {
    started.Notify();
    release.WaitForNotification();
    log.Add(1);
  });
  started.WaitForNotification();
  strand->Dispatch([&] { log.Add(2); });  // returns at once: the strand is busy
  EXPECT_TRUE(log.order().empty());
  release.Notify();
  log.AwaitCount(2);
  EXPECT_THAT(log.order(), ElementsAre(1, 2));
  // Both ran on the worker that held the strand.
  EXPECT_NE(log.threads()[1], std::this_thread::get_id());
}

TEST(StrandTest, TasksADispatchedTaskPostsRunAfterItOnTheSameThread) {
  ThreadPool pool(1);
  auto strand = Strand::Make(pool);
  Log log;
  strand->Dispatch([&] {
    strand->Post([&] { log.Add(2); });
    strand->Dispatch([&] { log.Add(3); });  // the strand is running: queued, not nested
    log.Add(1);
  });
  EXPECT_THAT(log.order(), ElementsAre(1, 2, 3));
  for (std::thread::id id : log.threads()) EXPECT_EQ(id, std::this_thread::get_id());
}

TEST(StrandTest, AFullRunHandsTheRestToAWorker) {
  ThreadPool pool(1);
  auto strand = Strand::Make(pool);
  Log log;
  constexpr int kTasks = Strand::kMaxTasksPerRun + 5;
  strand->Dispatch([&] {
    log.Add(0);
    for (int i = 1; i < kTasks; ++i) strand->Post([&log, i] { log.Add(i); });
  });
  log.AwaitCount(kTasks);
  std::vector<int> expected(kTasks);
  for (int i = 0; i < kTasks; ++i) expected[i] = i;
  EXPECT_EQ(log.order(), expected);
  const std::vector<std::thread::id> threads = log.threads();
  for (int i = 0; i < kTasks; ++i) {
    if (i < Strand::kMaxTasksPerRun) {
      EXPECT_EQ(threads[i], std::this_thread::get_id()) << "task " << i;
    } else {
      EXPECT_NE(threads[i], std::this_thread::get_id()) << "task " << i;
    }
  }
}

TEST(StrandTest, NeverRunsTwoTasksAtOnceAndKeepsEachThreadsOrder) {
  ThreadPool pool(2);
  auto strand = Strand::Make(pool);
  constexpr int kThreads = 4;
  constexpr int kTasksEach = 2000;
  std::atomic<bool> running{false};
  std::atomic<int> overlaps{0};
  std::vector<int> last(kThreads, -1);  // touched only by the strand's tasks
  std::atomic<int> out_of_order{0};
  std::atomic<int> done{0};
  absl::Notification all_done;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kTasksEach; ++i) {
        auto task = [&, t, i] {
          if (running.exchange(true)) ++overlaps;
          if (last[t] != i - 1) ++out_of_order;
          last[t] = i;
          running = false;
          if (++done == kThreads * kTasksEach) all_done.Notify();
        };
        if (i % 2 == 0) {
          strand->Dispatch(task);
        } else {
          strand->Post(task);
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  all_done.WaitForNotification();
  EXPECT_EQ(overlaps.load(), 0);
  EXPECT_EQ(out_of_order.load(), 0);
}

TEST(StrandTest, AfterStopDispatchDropsTheTaskAsPostDoes) {
  ThreadPool pool(1);
  auto strand = Strand::Make(pool);
  pool.Stop();
  bool ran = false;
  strand->Dispatch([&] { ran = true; });
  EXPECT_FALSE(ran);
  EXPECT_FALSE(pool.Post([&] { ran = true; }));
}

TEST(StrandTest, StopWaitsForATaskRunningOnACallersThread) {
  ThreadPool pool(1);
  auto strand = Strand::Make(pool);
  absl::Notification started, release;
  std::atomic<bool> finished{false};
  std::thread caller([&] {
    strand->Dispatch([&] {
      started.Notify();
      release.WaitForNotification();
      finished = true;
    });
  });
  started.WaitForNotification();
  std::atomic<bool> stopped{false};
  std::thread stopper([&] {
    pool.Stop();
    stopped = true;
  });
  // Stop cannot return while the dispatched task runs; there is no event to wait for that
  // proves a negative, so give it a moment to (wrongly) return.
  absl::SleepFor(absl::Milliseconds(50));
  EXPECT_FALSE(stopped.load());
  release.Notify();
  stopper.join();
  caller.join();
  EXPECT_TRUE(finished.load());
  EXPECT_TRUE(stopped.load());
}

}  // namespace
}  // namespace boneyard::execution
