// A token bucket, the rate limit behind every flood limit of the services (a seat's rejected
// actions and hellos, for one). It starts full with `burst` tokens and gains `per_second` a
// second up to `burst`; each counted request takes one. Callers pass the time in, so tests
// need no clock and a limit costs no system call beyond the caller's own absl::Now().
//
// Not thread-safe: each bucket belongs to one owner (a match's strand, say).
#ifndef BONEYARD_SERVICES_COMMON_RATE_LIMIT_H_
#define BONEYARD_SERVICES_COMMON_RATE_LIMIT_H_

#include "absl/time/time.h"

namespace boneyard {

struct RateLimit {
  // Tokens gained a second; 0 (or less) means no limit.
  double per_second = 0;
  // The most tokens held, and so the longest run of requests allowed at once (at least 1).
  double burst = 1;

  bool unlimited() const { return per_second <= 0; }
};

class TokenBucket {
 public:
  TokenBucket(RateLimit limit, absl::Time now);

  // Takes one token if one is there at `now`; false (taking nothing) when the bucket is empty.
  // Always true for an unlimited bucket.
  bool TryTake(absl::Time now);

 private:
  void Refill(absl::Time now);

  RateLimit limit_;
  double tokens_;
  absl::Time last_;
};

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_RATE_LIMIT_H_
