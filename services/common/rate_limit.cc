#include "services/common/rate_limit.h"

#include <algorithm>

namespace boneyard {

TokenBucket::TokenBucket(RateLimit limit, absl::Time now)
    : limit_(limit), tokens_(std::max(limit.burst, 1.0)), last_(now) {
  limit_.burst = tokens_;
}

void TokenBucket::Refill(absl::Time now) {
  // A clock that went back gives nothing, rather than taking tokens away.
  if (now <= last_) return;
  tokens_ = std::min(limit_.burst,
                     tokens_ + absl::ToDoubleSeconds(now - last_) * limit_.per_second);
  last_ = now;
}

bool TokenBucket::TryTake(absl::Time now) {
  if (limit_.unlimited()) return true;
  Refill(now);
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

}  // namespace boneyard
