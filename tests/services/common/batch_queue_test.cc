// BatchQueue (services/common/batch_queue.h): items submitted at once share a commit, each
// caller gets its own item's outcome, batches never exceed max_batch and commit in order, and
// a stopped queue answers at once.
#include "services/common/batch_queue.h"

#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard {
namespace {

TEST(BatchQueueTest, ConcurrentItemsShareCommitsAndEachGetsItsOwnOutcome) {
  absl::Mutex mu;
  std::vector<int> batch_sizes;
  absl::Notification started, release;
  bool first = true;
  BatchQueue<int, absl::StatusOr<int>> queue(
      [&](std::vector<int>& batch) {
        bool hold = false;
        {
          absl::MutexLock lock(&mu);
          batch_sizes.push_back(static_cast<int>(batch.size()));
          hold = first;
          first = false;
        }
        if (hold) {
          // Hold the first commit so that the others pile up behind it.
          started.Notify();
          release.WaitForNotification();
        }
        std::vector<absl::StatusOr<int>> outcomes;
        for (int item : batch) {
          if (item % 7 == 0) {
            outcomes.push_back(absl::InvalidArgumentError("multiple of 7"));
          } else {
            outcomes.push_back(item * 10);
          }
        }
        return outcomes;
      },
      absl::UnavailableError("stopped"), {.max_batch = 16});
  constexpr int kCallers = 50;
  std::vector<absl::StatusOr<int>> results(kCallers, absl::UnknownError("not run"));
  std::vector<std::thread> callers;
  callers.emplace_back([&] { results[0] = queue.Submit(1); });
  started.WaitForNotification();
  for (int i = 1; i < kCallers; ++i) {
    callers.emplace_back([&, i] { results[i] = queue.Submit(i + 1); });
  }
  absl::SleepFor(absl::Milliseconds(200));  // let them queue (the outcome holds either way)
  release.Notify();
  for (std::thread& caller : callers) caller.join();
  for (int i = 0; i < kCallers; ++i) {
    const int item = i + 1;
    if (item % 7 == 0) {
      EXPECT_TRUE(absl::IsInvalidArgument(results[i].status())) << item;
    } else {
      ASSERT_TRUE(results[i].ok()) << item << ": " << results[i].status();
      EXPECT_EQ(*results[i], item * 10);
    }
  }
  absl::MutexLock lock(&mu);
  int total = 0;
  for (int size : batch_sizes) {
    EXPECT_LE(size, 16);
    total += size;
  }
  EXPECT_EQ(total, kCallers);
  EXPECT_LT(batch_sizes.size(), static_cast<size_t>(kCallers));  // some were shared
}

TEST(BatchQueueTest, AStoppedQueueAnswersAtOnceAndACommitThatAnswersShortFailsNoCallerForEver) {
  BatchQueue<std::string, absl::Status> queue(
      [](std::vector<std::string>&) { return std::vector<absl::Status>(); },
      absl::UnavailableError("stopped"), {.max_batch = 4});
  // The commit answered nothing: the caller is told the queue's `stopped` answer, not left
  // waiting.
  EXPECT_TRUE(absl::IsUnavailable(queue.Submit("a")));
  queue.Stop();
  EXPECT_TRUE(absl::IsUnavailable(queue.Submit("b")));
  queue.Stop();  // idempotent
}

}  // namespace
}  // namespace boneyard
