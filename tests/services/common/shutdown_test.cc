#include "services/common/shutdown.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <thread>

#include "gtest/gtest.h"

namespace boneyard {
namespace {

// Each test runs in a fresh child process ("threadsafe" death tests re-run the binary for the
// one test), so BlockTerminationSignals comes before any thread exists, as in a service's main.
// A signal that was not blocked would kill the child with that signal instead of exit code 0.
class ShutdownDeathTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

// Blocks the signals, then sends `signal` from another thread while the main thread waits;
// exits 0 if the waiter saw that signal.
[[noreturn]] void WaitForSignalFromAnotherThread(int signal) {
  BlockTerminationSignals();
  std::thread sender([signal] {
    if (signal == SIGTERM) {
      RequestTermination();
    } else {
      kill(getpid(), signal);
    }
  });
  const int received = WaitForTerminationSignal();
  sender.join();
  std::_Exit(received == signal ? 0 : 1);
}

TEST_F(ShutdownDeathTest, RequestTerminationWakesTheWaiterWithSigterm) {
  EXPECT_EXIT(WaitForSignalFromAnotherThread(SIGTERM), ::testing::ExitedWithCode(0), "");
}

TEST_F(ShutdownDeathTest, SigintWakesTheWaiter) {
  EXPECT_EXIT(WaitForSignalFromAnotherThread(SIGINT), ::testing::ExitedWithCode(0), "");
}

TEST_F(ShutdownDeathTest, ThreadsStartedLaterInheritTheMask) {
  EXPECT_EXIT(
      {
        BlockTerminationSignals();
        int received = 0;
        std::thread waiter([&received] { received = WaitForTerminationSignal(); });
        // Sent to the process: any thread not blocking SIGTERM would die of it.
        std::thread sender([] { RequestTermination(); });
        sender.join();
        waiter.join();
        std::_Exit(received == SIGTERM ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace boneyard
