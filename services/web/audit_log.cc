#include "services/web/audit_log.h"

#include <pqxx/pqxx>

#include "absl/strings/str_cat.h"
#include "services/common/migrations.h"
#include "services/common/pg_text.h"
#include "services/web/migrations.h"

namespace boneyard::web {

absl::StatusOr<std::unique_ptr<AuditLog>> AuditLog::Open(PgPool& pool, const std::string& schema) {
  if (absl::Status s = ApplyMigrations(pool, schema, WebMigrations()); !s.ok()) return s;
  absl::StatusOr<std::string> quoted =
      pool.Run([&](pqxx::work& tx) { return tx.quote_name(schema); });
  if (!quoted.ok()) return quoted.status();
  return std::unique_ptr<AuditLog>(new AuditLog(pool, absl::StrCat(*quoted, ".audit_log")));
}

absl::Status AuditLog::Append(const AuditEntry& entry) {
  absl::StatusOr<int> done = pool_.Run([&](pqxx::work& tx) {
    tx.exec_params0(absl::StrCat("INSERT INTO ", table_,
                                 " (actor, action, target, detail, outcome)"
                                 " VALUES ($1, $2, $3, $4, $5)"),
                    entry.actor, entry.action, entry.target, entry.detail, entry.outcome);
    return 0;
  });
  return done.status();
}

absl::StatusOr<std::vector<AuditEntry>> AuditLog::List(int64_t before, int limit) {
  return pool_.Run([&](pqxx::work& tx) {
    const pqxx::result rows =
        tx.exec_params(absl::StrCat("SELECT id, ", pg_text::EpochMicros("time"),
                                    ", actor, action, target, detail, outcome FROM ", table_,
                                    " WHERE $1::bigint = 0 OR id < $1::bigint ORDER BY id "
                                    "DESC LIMIT $2"),
                       before, limit);
    std::vector<AuditEntry> entries;
    for (const pqxx::row& row : rows) {
      entries.push_back(AuditEntry{.id = row[0].as<int64_t>(),
                                   .time = absl::FromUnixMicros(row[1].as<int64_t>()),
                                   .actor = row[2].as<std::string>(),
                                   .action = row[3].as<std::string>(),
                                   .target = row[4].as<std::string>(),
                                   .detail = row[5].as<std::string>(),
                                   .outcome = row[6].as<std::string>()});
    }
    return entries;
  });
}

}  // namespace boneyard::web
