// Signed-in browsers. A session is a random id in an HttpOnly cookie; the
// server keeps what it stands for: the role, the credential the web service
// presents to the other services on the session's behalf (the operator token,
// or the player's token — never sent back to the browser), and the CSRF token
// the pages echo in X-CSRF-Token.
//
// Sessions live in this process's memory: a restart of the web service signs
// everyone out (a browser signs in again; matches and tickets are unaffected).
#ifndef BONEYARD_SERVICES_WEB_SESSIONS_H_
#define BONEYARD_SERVICES_WEB_SESSIONS_H_

#include <map>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace boneyard::web {

enum class Role { kOperator, kPlayer };

struct Session {
  Role role = Role::kPlayer;
  std::string player_id;     // players only
  std::string display_name;  // players only
  std::string credential;    // the token presented to the services
  std::string csrf_token;
  std::string actor;  // who, in the audit log: "operator:1a2b3c4d" or "player:ann"
};

class SessionStore {
 public:
  // Sessions unused this long end.
  explicit SessionStore(absl::Duration idle_limit = absl::Hours(12), int max_sessions = 100000);

  // A new session; returns its id (the cookie's value) and fills the CSRF token
  // and actor.
  std::string Create(Session& session);
  // The session of a cookie value, which counts as use.
  std::optional<Session> Find(const std::string& id);
  void End(const std::string& id);
  int size();

 private:
  struct Entry {
    Session session;
    absl::Time last_used;
  };
  void DropExpired(absl::Time now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const absl::Duration idle_limit_;
  const int max_sessions_;
  absl::Mutex mu_;
  std::map<std::string, Entry> sessions_ ABSL_GUARDED_BY(mu_);
};

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_SESSIONS_H_
