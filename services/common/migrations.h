// Numbered SQL migrations, applied at start-up. Each service keeps its schema changes as files
// in its own folder (services/ratings/migrations/0001_init.sql, 0002_history.sql, ...) and owns
// one PostgreSQL schema:
//
//   absl::StatusOr<std::vector<Migration>> migrations = LoadMigrations(config.migrations_dir);
//   if (!migrations.ok()) return migrations.status();
//   if (absl::Status status = ApplyMigrations(pool, "ratings", *migrations); !status.ok()) {
//     return status;
//   }
//
// ApplyMigrations creates the schema and <schema>.schema_migrations(version, name, applied_at)
// if missing, then applies each migration not yet recorded there, in version order, each in its
// own transaction together with its row in schema_migrations. Every transaction first takes a
// transaction-scoped advisory lock derived from the schema name, so processes starting at once
// apply each migration exactly once (the others wait, then skip it).
//
// A migration's SQL runs with search_path set to the schema alone, so it names its tables
// without a schema (`CREATE TABLE matches (...)` lands in `exec.matches`). It may hold several
// statements, but nothing that cannot run inside a transaction (CREATE INDEX CONCURRENTLY,
// VACUUM). Applied files must never be edited or renumbered: add a new one instead.
#ifndef BONEYARD_SERVICES_COMMON_MIGRATIONS_H_
#define BONEYARD_SERVICES_COMMON_MIGRATIONS_H_

#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "services/common/pg_pool.h"

namespace boneyard {

struct Migration {
  int version = 0;   // 1, 2, 3, ... with no gaps
  std::string name;  // the file name ("0001_init.sql"); recorded, and quoted in errors
  std::string sql;
};

// Reads every NNNN_name.sql file in `dir` (NNNN: the version, any number of digits; name:
// letters, digits, '_' and '-'), sorted by version. Other files and folders are ignored, except
// that a *.sql file not named that way is an error rather than silently left out.
// NOT_FOUND when dir is missing; INVALID_ARGUMENT naming the files for a badly named file, two
// files with one version, versions not starting at 1, or a gap.
absl::StatusOr<std::vector<Migration>> LoadMigrations(const std::filesystem::path& dir);

// Applies the pending `migrations` to `schema` as described above. `migrations` must be numbered
// 1..N in order (INVALID_ARGUMENT otherwise). A failing migration is rolled back (nothing of it
// nor its record remains) and the error names its file and carries the server's message, with
// FromPqxx's code; migrations before it stay applied. FAILED_PRECONDITION when a version is
// recorded under another file name (history was edited). Versions recorded in the database
// beyond the last one given are accepted: an older binary may run against a newer schema.
absl::Status ApplyMigrations(PgPool& pool, absl::string_view schema,
                             const std::vector<Migration>& migrations);

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_MIGRATIONS_H_
