// The audit log of operator actions (PostgreSQL, schema `web`): appended by the
// web API after each action, with its outcome, and listed on the dashboard
// newest first.
#ifndef BONEYARD_SERVICES_WEB_AUDIT_LOG_H_
#define BONEYARD_SERVICES_WEB_AUDIT_LOG_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/common/pg_pool.h"

namespace boneyard::web {

struct AuditEntry {
  int64_t id = 0;   // set by the log
  absl::Time time;  // set by the log
  std::string actor;
  std::string action;   // e.g. "abort_match", "sign_in"
  std::string target;   // the resource, e.g. "matches/abc"
  std::string detail;   // e.g. the abort's reason
  std::string outcome;  // "OK" or "CODE: message"
};

class AuditLog {
 public:
  // Applies the schema's migrations; `pool` must outlive the log.
  static absl::StatusOr<std::unique_ptr<AuditLog>> Open(PgPool& pool,
                                                        const std::string& schema = "web");

  absl::Status Append(const AuditEntry& entry);
  // Up to `limit` entries with id < `before` (0: from the newest), newest
  // first.
  absl::StatusOr<std::vector<AuditEntry>> List(int64_t before, int limit);

 private:
  AuditLog(PgPool& pool, std::string quoted_table) : pool_(pool), table_(std::move(quoted_table)) {}
  PgPool& pool_;
  const std::string table_;
};

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_AUDIT_LOG_H_
