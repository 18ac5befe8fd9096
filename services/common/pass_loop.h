// A pass run on a thread of its own every interval, and sooner when woken: what the matchmaker,
// the tournament director and an execution replica's lease (renewal, adoption) each run. Passes never overlap; a Wake during a pass runs the
// next pass right after it (the pass clears the wake before it starts, so it sees whatever woke
// it).
//
//   PassLoop loop(absl::Seconds(1), [this](absl::Time started) { RunPass(started); });
//   loop.Start();
//   loop.Wake();   // a ticket, a result: pass now
//   loop.Stop();   // waits for the pass under way
#ifndef BONEYARD_SERVICES_COMMON_PASS_LOOP_H_
#define BONEYARD_SERVICES_COMMON_PASS_LOOP_H_

#include <functional>
#include <thread>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace boneyard {

class PassLoop {
 public:
  PassLoop(absl::Duration interval, std::function<void(absl::Time started)> pass)
      : interval_(interval), pass_(std::move(pass)) {}
  ~PassLoop() { Stop(); }
  PassLoop(const PassLoop&) = delete;
  PassLoop& operator=(const PassLoop&) = delete;

  // Starts the thread; a loop once stopped stays stopped.
  void Start() {
    absl::MutexLock lock(&mu_);
    if (thread_.joinable() || stopping_) return;
    thread_ = std::thread([this] { Loop(); });
  }
  // Stops the thread after the pass under way. Idempotent.
  void Stop() {
    {
      absl::MutexLock lock(&mu_);
      stopping_ = true;
    }
    if (thread_.joinable()) thread_.join();
  }
  void Wake() {
    absl::MutexLock lock(&mu_);
    woken_ = true;
  }

 private:
  void Loop() {
    while (true) {
      const absl::Time started = absl::Now();
      {
        absl::MutexLock lock(&mu_);
        woken_ = false;
      }
      pass_(started);
      absl::MutexLock lock(&mu_);
      auto due = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stopping_ || woken_; };
      mu_.AwaitWithDeadline(absl::Condition(&due), started + interval_);
      if (stopping_) return;
    }
  }

  const absl::Duration interval_;
  const std::function<void(absl::Time)> pass_;
  absl::Mutex mu_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  bool woken_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_PASS_LOOP_H_
