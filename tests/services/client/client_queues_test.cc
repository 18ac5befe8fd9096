// ClientQueues: tags complete on the queue's own thread, and so do its timers, in time order and
// never early; a timer asked for off a queue's thread is a programming error.
#include "services/client/client_queues.h"

#include <functional>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "grpcpp/alarm.h"
#include "gtest/gtest.h"

namespace boneyard::client {
namespace {

using ::testing::ElementsAre;

// A tag that runs a function.
class FunctionTag final : public AsyncTag {
 public:
  explicit FunctionTag(std::function<void()> fn) : fn_(std::move(fn)) {}
  void Complete(bool) override { fn_(); }

 private:
  std::function<void()> fn_;
};

TEST(ClientQueuesTest, TimersCompleteOnTheQueueThreadInTimeOrderAndNotEarly) {
  ClientQueues queues(1);
  absl::Mutex mu;
  std::vector<int> order;
  std::vector<std::thread::id> threads;
  std::vector<absl::Duration> lateness;  // how long after its time each ran
  absl::Notification all_ran;
  std::vector<std::unique_ptr<FunctionTag>> timers;
  constexpr int kDelaysMs[] = {60, 20, 40};
  const absl::Time base = absl::Now() + absl::Milliseconds(30);
  for (const int ms : kDelaysMs) {
    timers.push_back(std::make_unique<FunctionTag>([&, ms] {
      absl::MutexLock lock(&mu);
      order.push_back(ms);
      threads.push_back(std::this_thread::get_id());
      lateness.push_back(absl::Now() - (base + absl::Milliseconds(ms)));
      if (order.size() == 3) all_ran.Notify();
    }));
  }
  std::thread::id queue_thread;
  // Onto the queue's thread first: timers are set from there.
  FunctionTag start([&] {
    queue_thread = std::this_thread::get_id();
    for (size_t i = 0; i < timers.size(); ++i) {
      ClientQueues::RunLater(base + absl::Milliseconds(kDelaysMs[i]), timers[i].get());
    }
  });
  grpc::Alarm alarm;
  alarm.Set(queues.Pick(), absl::ToChronoTime(absl::Now()), &start);
  all_ran.WaitForNotification();
  absl::MutexLock lock(&mu);
  EXPECT_THAT(order, ElementsAre(20, 40, 60));
  for (const std::thread::id id : threads) EXPECT_EQ(id, queue_thread);
  for (const absl::Duration late : lateness) EXPECT_GE(late, absl::ZeroDuration());
}

TEST(ClientQueuesDeathTest, ATimerOffAQueueThreadAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  FunctionTag tag([] {});
  EXPECT_DEATH(ClientQueues::RunLater(absl::Now(), &tag), "off a client queue's thread");
}

}  // namespace
}  // namespace boneyard::client
