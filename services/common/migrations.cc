#include "services/common/migrations.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <system_error>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"

namespace boneyard {
namespace {

namespace fs = std::filesystem;

constexpr absl::string_view kNameRule =
    "migration files are named NNNN_name.sql: a version number, '_', then letters, digits, "
    "'_' or '-'";

// Splits "0012_add_clocks.sql" into 12; nullopt when the name does not follow the rule.
std::optional<int> VersionOf(absl::string_view file_name) {
  if (!absl::ConsumeSuffix(&file_name, ".sql")) return std::nullopt;
  size_t digits = 0;
  while (digits < file_name.size() && absl::ascii_isdigit(file_name[digits])) ++digits;
  // At most 9 digits, so the version fits an int (and the schema_migrations integer column).
  if (digits == 0 || digits > 9 || digits + 1 >= file_name.size() || file_name[digits] != '_') {
    return std::nullopt;
  }
  for (char c : file_name.substr(digits + 1)) {
    if (!absl::ascii_isalnum(c) && c != '_' && c != '-') return std::nullopt;
  }
  int version = 0;
  if (!absl::SimpleAtoi(file_name.substr(0, digits), &version)) return std::nullopt;
  return version;
}

// The checks LoadMigrations and ApplyMigrations share: versions 1, 2, ... N in order.
absl::Status CheckSequence(const std::vector<Migration>& migrations) {
  for (size_t i = 0; i < migrations.size(); ++i) {
    const Migration& m = migrations[i];
    const int expected = static_cast<int>(i) + 1;
    if (m.version == expected) continue;
    if (i == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("migrations must start at version 1, but the first is ", m.name,
                       " (version ", m.version, ")"));
    }
    const Migration& previous = migrations[i - 1];
    if (m.version == previous.version) {
      return absl::InvalidArgumentError(absl::StrCat("two migrations have version ", m.version,
                                                     ": ", previous.name, " and ", m.name));
    }
    if (m.version > expected) {
      return absl::InvalidArgumentError(absl::StrCat("migration version ", expected,
                                                     " is missing: ", previous.name,
                                                     " is followed by ", m.name));
    }
    return absl::InvalidArgumentError(
        absl::StrCat("migrations are out of order: ", previous.name, " (version ", previous.version,
                     ") comes before ", m.name, " (version ", m.version, ")"));
  }
  return absl::OkStatus();
}

// A stable 64-bit key for pg_advisory_xact_lock (FNV-1a): the same in every process and release,
// unlike std::hash, and namespaced so it will not collide with other advisory locks by accident.
int64_t LockKey(absl::string_view schema) {
  uint64_t hash = 14695981039346656037ull;
  for (char c : absl::StrCat("boneyard.schema_migrations:", schema)) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return static_cast<int64_t>(hash);
}

void LockSchema(pqxx::work& tx, int64_t key) {
  tx.exec_params("SELECT pg_advisory_xact_lock($1)", key);
}

// Prefixes `status`'s message, keeping its code.
absl::Status Annotate(const absl::Status& status, absl::string_view prefix) {
  return absl::Status(status.code(), absl::StrCat(prefix, status.message()));
}

}  // namespace

absl::StatusOr<std::vector<Migration>> LoadMigrations(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return absl::NotFoundError(
        absl::StrCat("migrations folder ", dir.string(), " does not exist or is not a folder"));
  }
  std::vector<Migration> migrations;
  fs::directory_iterator it(dir, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot list migrations folder ", dir.string(), ": ", ec.message()));
  }
  for (const fs::directory_entry& entry : it) {
    const std::string file_name = entry.path().filename().string();
    if (entry.path().extension() != ".sql" || !entry.is_regular_file(ec)) continue;
    std::optional<int> version = VersionOf(file_name);
    if (!version.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad migration file name ", entry.path().string(), ": ", kNameRule));
    }
    std::ifstream in(entry.path(), std::ios::binary);
    std::string sql(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>{});
    if (!in.is_open() || in.bad()) {
      return absl::InternalError(absl::StrCat("cannot read migration ", entry.path().string(), ": ",
                                              std::strerror(errno)));
    }
    // An empty file would be recorded as applied and could never be filled in afterwards.
    if (absl::StripAsciiWhitespace(sql).empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("migration ", entry.path().string(), " is empty"));
    }
    migrations.push_back(Migration{*version, file_name, std::move(sql)});
  }
  std::sort(migrations.begin(), migrations.end(), [](const Migration& a, const Migration& b) {
    return std::tie(a.version, a.name) < std::tie(b.version, b.name);
  });
  if (absl::Status status = CheckSequence(migrations); !status.ok()) {
    return Annotate(status, absl::StrCat("in ", dir.string(), ": "));
  }
  return migrations;
}

absl::Status ApplyMigrations(PgPool& pool, absl::string_view schema_view,
                             const std::vector<Migration>& migrations) {
  const std::string schema(schema_view);
  // PostgreSQL would silently truncate a longer name to 63 bytes.
  if (schema.empty() || schema.size() > 63 || schema.find('\0') != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad schema name '", schema, "': it needs 1 to 63 bytes"));
  }
  if (absl::Status status = CheckSequence(migrations); !status.ok()) return status;
  const int64_t key = LockKey(schema);

  // Creates the schema and the record table if they are missing, and reads what is applied.
  // The checks, rather than IF NOT EXISTS, keep a role without CREATE on the database working
  // once the schema exists, and say nothing (IF NOT EXISTS sends a NOTICE).
  absl::StatusOr<std::map<int, std::string>> applied =
      pool.Run([&](pqxx::work& tx) -> std::map<int, std::string> {
        LockSchema(tx, key);
        const std::string quoted = tx.quote_name(schema);
        if (tx.exec_params("SELECT 1 FROM pg_namespace WHERE nspname = $1", schema).empty()) {
          tx.exec0("CREATE SCHEMA " + quoted);
        }
        if (tx.exec_params("SELECT to_regclass($1) IS NULL", quoted + ".schema_migrations")[0][0]
                .as<bool>()) {
          tx.exec0("CREATE TABLE " + quoted +
                   ".schema_migrations (\n"
                   "  version integer PRIMARY KEY,\n"
                   "  name text NOT NULL,\n"
                   "  applied_at timestamptz NOT NULL DEFAULT now()\n"
                   ")");
        }
        std::map<int, std::string> done;
        for (const pqxx::row& row :
             tx.exec("SELECT version, name FROM " + quoted + ".schema_migrations")) {
          done.emplace(row[0].as<int>(), row[1].as<std::string>());
        }
        return done;
      });
  if (!applied.ok()) {
    return Annotate(applied.status(),
                    absl::StrCat("preparing migrations in schema ", schema, ": "));
  }

  auto check_name = [&](const Migration& m, const std::string& recorded) {
    if (recorded == m.name) return absl::OkStatus();
    return absl::FailedPreconditionError(absl::StrCat(
        "schema ", schema, " recorded migration version ", m.version, " as ", recorded,
        " but it is now ", m.name, ": applied migrations must not be renamed or renumbered"));
  };

  for (const Migration& m : migrations) {
    if (auto it = applied->find(m.version); it != applied->end()) {
      if (absl::Status status = check_name(m, it->second); !status.ok()) return status;
      continue;
    }
    absl::Status status = pool.Run([&](pqxx::work& tx) -> absl::Status {
      LockSchema(tx, key);
      const std::string quoted = tx.quote_name(schema);
      // Another process may have applied it while this one waited for the lock.
      pqxx::result recorded = tx.exec_params(
          "SELECT name FROM " + quoted + ".schema_migrations WHERE version = $1", m.version);
      if (!recorded.empty()) return check_name(m, recorded[0][0].as<std::string>());
      tx.exec0("SET LOCAL search_path TO " + quoted);
      tx.exec(m.sql);
      tx.exec_params("INSERT INTO " + quoted + ".schema_migrations (version, name) VALUES ($1, $2)",
                     m.version, m.name);
      return absl::OkStatus();
    });
    if (!status.ok()) {
      if (status.code() == absl::StatusCode::kFailedPrecondition) return status;
      // UNKNOWN: the connection was lost during COMMIT; the next start will know.
      const absl::string_view outcome = status.code() == absl::StatusCode::kUnknown
                                            ? " may or may not have been applied: "
                                            : " failed and was rolled back: ";
      return Annotate(status, absl::StrCat("migration ", m.name, " (version ", m.version,
                                           ") in schema ", schema, outcome));
    }
  }
  return absl::OkStatus();
}

}  // namespace boneyard
