// When a streaming call served on gRPC's async API may be deleted: once gRPC has said the call
// is done (the tag given to ServerContext::AsyncNotifyWhenDone), its Finish has completed, and
// no other operation it started is outstanding. Before that, a completion may still arrive for
// it on its queue.
//
//   lifetime_.Started();  stream_.Write(message, &write_tag_);   // any thread
//   ...
//   void Completed(Event event, bool ok) {                         // the queue's thread
//     ...
//     const bool last = event == Event::kDone ? lifetime_.Done()
//                                             : lifetime_.Completed(event == Event::kFinished);
//     if (last) delete this;
//   }
#ifndef BONEYARD_SERVICES_COMMON_CALL_LIFETIME_H_
#define BONEYARD_SERVICES_COMMON_CALL_LIFETIME_H_

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace boneyard {

class CallLifetime {
 public:
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

  // gRPC said the call is done. Returns whether the call may be deleted now.
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
  bool done_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_CALL_LIFETIME_H_
