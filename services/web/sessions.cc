#include "services/web/sessions.h"

#include "absl/strings/str_cat.h"
#include "services/common/tokens.h"

namespace boneyard::web {

SessionStore::SessionStore(absl::Duration idle_limit, int max_sessions)
    : idle_limit_(idle_limit), max_sessions_(max_sessions) {}

std::string SessionStore::Create(Session& session) {
  std::string id = NewSecretToken();
  session.csrf_token = NewSecretToken();
  // The audit log names an operator session by a prefix of its id: enough to
  // tell sessions apart, useless as a credential.
  session.actor = session.role == Role::kOperator ? absl::StrCat("operator:", id.substr(0, 8))
                                                  : absl::StrCat("player:", session.player_id);
  const absl::Time now = absl::Now();
  absl::MutexLock lock(&mu_);
  DropExpired(now);
  // Past the cap the oldest-keyed session goes; ids are random, so that is any
  // one of them.
  if (static_cast<int>(sessions_.size()) >= max_sessions_) sessions_.erase(sessions_.begin());
  sessions_[id] = Entry{.session = session, .last_used = now};
  return id;
}

std::optional<Session> SessionStore::Find(const std::string& id) {
  const absl::Time now = absl::Now();
  absl::MutexLock lock(&mu_);
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return std::nullopt;
  if (now - it->second.last_used > idle_limit_) {
    sessions_.erase(it);
    return std::nullopt;
  }
  it->second.last_used = now;
  return it->second.session;
}

void SessionStore::End(const std::string& id) {
  absl::MutexLock lock(&mu_);
  sessions_.erase(id);
}

int SessionStore::size() {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(sessions_.size());
}

void SessionStore::DropExpired(absl::Time now) {
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    it = now - it->second.last_used > idle_limit_ ? sessions_.erase(it) : std::next(it);
  }
}

}  // namespace boneyard::web
