// When a streaming call served on gRPC's async API may be deleted: once its Finish has
// completed, no other operation it started is outstanding, and, if it asked gRPC to say when
// the call is done (the tag given to ServerContext::AsyncNotifyWhenDone), gRPC has said so.
// Before that, a completion may still arrive for it on its queue.
//
//   lifetime_.Started();  stream_.Write(message, &write_tag_);   // any thread
//   ...
//   void Completed(Event event, bool ok) {                         // the queue's thread
//     ...
//     const bool last = event == Event::kDone ? lifetime_.Done()
//                                             : lifetime_.Completed(event == Event::kFinished);
//     if (last) delete this;
//   }
//
// A call that always has a read outstanding learns of its cancellation from that read, and
// may go without the done tag (CallLifetime(/*done_event=*/false)): each tag outstanding on a
// queue lengthens the scan Debian's debug-built libgrpc makes on every completion
// (async_queues.h).
#ifndef BONEYARD_SERVICES_COMMON_CALL_LIFETIME_H_
#define BONEYARD_SERVICES_COMMON_CALL_LIFETIME_H_

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace boneyard {

class CallLifetime {
 public:
  // `done_event`: the call will get gRPC's done event (it called AsyncNotifyWhenDone).
  explicit CallLifetime(bool done_event = true) : done_(!done_event) {}

  // Before starting an operation, so that its completion never finds the count at zero.
  void Started() {
    absl::MutexLock lock(&mu_);
    ++outstanding_;
  }

  // An operation completed; `finish` says it was the call's Finish. Returns whether the call
  // may be deleted now.
  bool Completed(bool finish) {
    absl::MutexLock lock(&mu_);
    --outstanding_;
    if (finish) finished_ = true;
    return Last();
  }

  // gRPC said the call is done (only with `done_event`). Returns whether the call may be
  // deleted now.
  bool Done() {
    absl::MutexLock lock(&mu_);
    done_ = true;
    return Last();
  }

 private:
  bool Last() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return done_ && finished_ && outstanding_ == 0;
  }

  absl::Mutex mu_;
  int outstanding_ ABSL_GUARDED_BY(mu_) = 0;
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
  bool done_ ABSL_GUARDED_BY(mu_);
};

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_CALL_LIFETIME_H_
