// Signed-in browsers. A session is a random id in an HttpOnly cookie; the
// server keeps what it stands for: the role, the credential the web service
// presents to the other services on the session's behalf (the operator token,
// or the player's token — never sent back to the browser), and the CSRF token
// the pages echo in X-CSRF-Token.
//
// Sessions live in PostgreSQL (the web schema's `sessions`, migration 0002),
// so every web replica knows every session and a restart signs no one out
// (docs/scaling.md). The table alone signs no one in: a session is found by
// the SHA-256 of its id, and its credential is sealed (sealed.h) under a key
// derived from the operator token, which the database does not hold. Times
// are the database's clock, shared by the replicas.
#ifndef BONEYARD_SERVICES_WEB_SESSIONS_H_
#define BONEYARD_SERVICES_WEB_SESSIONS_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/common/pg_pool.h"
#include "services/web/sealed.h"

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
  // Sessions unused for `idle_limit` end; past `max_sessions` the least
  // recently used go. `pool` must outlive the store and hold the web schema
  // (AuditLog::Open applies its migrations); `secret` keys the sealing.
  SessionStore(PgPool& pool, std::string quoted_schema, absl::string_view secret,
               absl::Duration idle_limit = absl::Hours(12), int max_sessions = 100000);

  // A new session; returns its id (the cookie's value) and fills the CSRF
  // token and actor.
  absl::StatusOr<std::string> Create(Session& session);
  // The session of a cookie value, which counts as use; nullopt for none
  // (unknown, ended, idle too long, or sealed under another operator token).
  absl::StatusOr<std::optional<Session>> Find(const std::string& id);
  absl::Status End(const std::string& id);
  absl::StatusOr<int> size();

 private:
  PgPool& pool_;
  const std::string table_;
  const Sealer sealer_;
  const absl::Duration idle_limit_;
  const int max_sessions_;
};

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_SESSIONS_H_
