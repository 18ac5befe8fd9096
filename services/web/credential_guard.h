// Sessions follow their credentials. A player's web session presents the player's token to the
// services; once that token is rotated or revoked (RotatePlayerToken), the session, and every
// event stream it opened (a seat's play stream, a ticket's, a party's), must end at once — on
// every web replica, since each asks matchmaking itself.
//
// The guard answers "does this credential still sign its player in?" from an answer at most
// `fresh` old, asking `checker` (matchmaking's GetPlayer("players/me")) otherwise, and a sweep
// asks again every `fresh` for each credential that has a stream open, ending the streams of
// the refused ones with an `error` event. So a rotation reaches a request at once (its next
// check is at most `fresh` late) and a stream within 2 × `fresh`.
//
// When the checker cannot tell (matchmaking away: UNAVAILABLE, DEADLINE_EXCEEDED...) the last
// answer stands: a matchmaking outage signs nobody out, and a credential once refused stays
// refused (tokens are random; a refused one never comes back).
#ifndef BONEYARD_SERVICES_WEB_CREDENTIAL_GUARD_H_
#define BONEYARD_SERVICES_WEB_CREDENTIAL_GUARD_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/web/http_message.h"

namespace boneyard::web {

class CredentialGuard {
 public:
  // OK: the credential signs its player in; UNAUTHENTICATED: it no longer does; anything
  // else: the checker could not tell.
  using Checker = std::function<absl::Status(const std::string& credential)>;

  explicit CredentialGuard(Checker checker, absl::Duration fresh = absl::Milliseconds(400));
  ~CredentialGuard();  // stops the sweep; the streams it tracks are left as they are
  CredentialGuard(const CredentialGuard&) = delete;
  CredentialGuard& operator=(const CredentialGuard&) = delete;

  // OK, or UNAUTHENTICATED once the credential is known to be rotated or revoked.
  absl::Status Check(const std::string& credential);

  // `sink` was opened with `credential`: the sweep ends it if the credential is refused.
  void Track(const std::string& credential, const std::shared_ptr<EventSink>& sink);

  // How many credentials have a stream open (for tests).
  int tracked();

 private:
  struct Entry {
    absl::Time checked = absl::InfinitePast();
    bool refused = false;
    std::vector<std::weak_ptr<EventSink>> sinks;
  };

  // Asks the checker and records the answer; returns whether the credential is refused.
  bool Refresh(const std::string& credential);
  void Sweep();

  const Checker checker_;
  const absl::Duration fresh_;
  absl::Mutex mu_;
  std::map<std::string, Entry> entries_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread sweeper_;
};

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_CREDENTIAL_GUARD_H_
