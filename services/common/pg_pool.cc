#include "services/common/pg_pool.h"

#include <libpq-fe.h>

#include <cassert>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "services/common/internal_error.h"

namespace boneyard {
namespace {

// libpq and the server end their messages with a newline (and sometimes a DETAIL line after
// it); keep the detail but not the trailing whitespace.
std::string CleanMessage(const char* what) {
  return std::string(absl::StripTrailingAsciiWhitespace(what));
}

absl::Status SqlErrorStatus(const pqxx::sql_error& e) {
  std::string state = e.sqlstate();
  if (state.empty() && dynamic_cast<const pqxx::unique_violation*>(&e) != nullptr) {
    state = "23505";
  }
  const std::string message = CleanMessage(e.what());
  auto with_state = [&](absl::string_view kind) {
    return absl::StrCat(kind, " (SQLSTATE ", state.empty() ? "unknown" : state, "): ", message);
  };
  if (state == "23505") return absl::AlreadyExistsError(with_state("unique violation"));
  if (state == "40001") return absl::AbortedError(with_state("serialization failure"));
  if (state == "40P01") return absl::AbortedError(with_state("deadlock detected"));
  if (state == "40003") return absl::UnknownError(with_state("statement completion unknown"));
  if (absl::StartsWith(state, "40")) return absl::AbortedError(with_state("transaction rollback"));
  if (absl::StartsWith(state, "08") || state == "53300" || state == "57P01" || state == "57P02" ||
      state == "57P03") {
    return absl::UnavailableError(with_state("database unavailable"));
  }
  if (state == "57014") return absl::DeadlineExceededError(with_state("query canceled"));
  // Bad data (class 22: a NUL in text or JSON, a value out of range), a broken constraint
  // (class 23) or a limit (class 54: an index row too large): the same rows would fail again,
  // so these are permanent and never retried.
  if (absl::StartsWith(state, "22") || absl::StartsWith(state, "23") ||
      absl::StartsWith(state, "54")) {
    return absl::InvalidArgumentError(with_state("the data cannot be stored"));
  }
  return absl::InternalError(with_state("SQL error"));
}

absl::Status Classify(const std::exception& e) {
  // Errors the server reported carry their SQLSTATE, which says more than libpqxx's class.
  if (const auto* sql = dynamic_cast<const pqxx::sql_error*>(&e)) return SqlErrorStatus(*sql);
  // In libpqxx 6 the rest carry no SQLSTATE. Most specific first: they derive from one another.
  if (dynamic_cast<const pqxx::serialization_failure*>(&e) != nullptr) {
    return absl::AbortedError(absl::StrCat("serialization failure: ", CleanMessage(e.what())));
  }
  if (dynamic_cast<const pqxx::deadlock_detected*>(&e) != nullptr) {
    return absl::AbortedError(absl::StrCat("deadlock detected: ", CleanMessage(e.what())));
  }
  if (dynamic_cast<const pqxx::statement_completion_unknown*>(&e) != nullptr) {
    return absl::UnknownError(
        absl::StrCat("statement completion unknown: ", CleanMessage(e.what())));
  }
  if (dynamic_cast<const pqxx::transaction_rollback*>(&e) != nullptr) {
    return absl::AbortedError(absl::StrCat("transaction rollback: ", CleanMessage(e.what())));
  }
  if (dynamic_cast<const pqxx::in_doubt_error*>(&e) != nullptr) {
    return absl::UnknownError(absl::StrCat(
        "commit outcome unknown (connection lost during commit): ", CleanMessage(e.what())));
  }
  if (dynamic_cast<const pqxx::broken_connection*>(&e) != nullptr) {
    return absl::UnavailableError(
        absl::StrCat("database connection failed: ", CleanMessage(e.what())));
  }
  return absl::InternalError(absl::StrCat("database transaction failed: ", CleanMessage(e.what())));
}

}  // namespace

// Every status made from a libpqxx exception holds the database's own text: marked, so the
// edge never shows it to a client (internal_error.h).
absl::Status FromPqxx(const std::exception& e) { return MarkInternal(Classify(e)); }

// --- PgPool::Lease ---

PgPool::Lease::Lease(PgPool* pool, std::unique_ptr<pqxx::connection> conn)
    : pool_(pool), conn_(std::move(conn)) {}

PgPool::Lease::Lease(Lease&& other) noexcept
    : pool_(std::exchange(other.pool_, nullptr)), conn_(std::move(other.conn_)) {}

PgPool::Lease& PgPool::Lease::operator=(Lease&& other) noexcept {
  if (this != &other) {
    Return();
    pool_ = std::exchange(other.pool_, nullptr);
    conn_ = std::move(other.conn_);
  }
  return *this;
}

PgPool::Lease::~Lease() { Return(); }

void PgPool::Lease::Return() {
  if (pool_ != nullptr) {
    std::exchange(pool_, nullptr)->Release(std::move(conn_));
  }
}

// --- PgPool ---

PgPool::PgPool(std::string dsn, int size, std::vector<std::unique_ptr<pqxx::connection>> conns)
    : dsn_(std::move(dsn)), size_(size) {
  absl::MutexLock lock(&mu_);
  open_ = static_cast<int>(conns.size());
  idle_ = std::move(conns);
}

PgPool::~PgPool() {
  absl::MutexLock lock(&mu_);
  assert(static_cast<int>(idle_.size()) == open_ && "a PgPool::Lease outlived its pool");
}

absl::StatusOr<std::unique_ptr<pqxx::connection>> PgPool::Open(const std::string& dsn) {
  try {
    return std::make_unique<pqxx::connection>(dsn);
  } catch (const pqxx::broken_connection& e) {
    return MarkInternal(absl::UnavailableError(
        absl::StrCat("cannot connect to the database: ", CleanMessage(e.what()))));
  } catch (const std::exception& e) {
    absl::Status status = FromPqxx(e);
    return MarkInternal(absl::Status(
        status.code(), absl::StrCat("cannot connect to the database: ", status.message())));
  }
}

absl::StatusOr<std::unique_ptr<PgPool>> PgPool::Connect(std::string dsn, int size) {
  if (size < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("a connection pool needs at least one connection, got ", size));
  }
  // libpq would report a malformed connection string as a failed connection; say what it is,
  // since retrying cannot help. (PQconninfoParse's messages name the bad keyword, never the
  // password.)
  char* parse_error = nullptr;
  PQconninfoOption* options = PQconninfoParse(dsn.c_str(), &parse_error);
  if (options == nullptr) {
    std::string message =
        parse_error != nullptr ? CleanMessage(parse_error) : "out of memory parsing it";
    PQfreemem(parse_error);
    return absl::InvalidArgumentError(
        absl::StrCat("malformed database connection string: ", message));
  }
  PQconninfoFree(options);

  std::vector<std::unique_ptr<pqxx::connection>> conns;
  conns.reserve(size);
  for (int i = 0; i < size; ++i) {
    absl::StatusOr<std::unique_ptr<pqxx::connection>> conn = Open(dsn);
    if (!conn.ok()) return conn.status();
    conns.push_back(*std::move(conn));
  }
  return std::unique_ptr<PgPool>(new PgPool(std::move(dsn), size, std::move(conns)));
}

absl::StatusOr<PgPool::Lease> PgPool::Acquire(absl::Duration timeout) {
  std::unique_ptr<pqxx::connection> conn;
  {
    absl::MutexLock lock(&mu_);
    if (!mu_.AwaitWithTimeout(absl::Condition(this, &PgPool::CanLease), timeout)) {
      return absl::DeadlineExceededError(absl::StrCat("no database connection became free within ",
                                                      absl::FormatDuration(timeout), " (all ",
                                                      size_, " are in use)"));
    }
    if (!idle_.empty()) {
      conn = std::move(idle_.back());
      idle_.pop_back();
    } else {
      ++open_;  // reserve the slot of a connection dropped earlier; opened below, unlocked
    }
  }
  if (conn == nullptr) {
    absl::StatusOr<std::unique_ptr<pqxx::connection>> fresh = Open(dsn_);
    if (!fresh.ok()) {
      absl::MutexLock lock(&mu_);
      --open_;
      return fresh.status();
    }
    conn = *std::move(fresh);
  }
  return Lease(this, std::move(conn));
}

void PgPool::Release(std::unique_ptr<pqxx::connection> conn) {
  // A connection whose session died (server restart, network, pg_terminate_backend) is dropped
  // here; its slot is refilled by the next Acquire that finds no idle connection.
  if (conn != nullptr && conn->is_open()) {
    absl::MutexLock lock(&mu_);
    idle_.push_back(std::move(conn));
    return;
  }
  conn.reset();  // closes the socket outside the lock
  absl::MutexLock lock(&mu_);
  --open_;
}

absl::Status PgPool::WithTransaction(absl::FunctionRef<absl::Status(pqxx::work&)> fn,
                                     absl::Duration acquire_timeout) {
  absl::StatusOr<Lease> lease = Acquire(acquire_timeout);
  if (!lease.ok()) return lease.status();
  try {
    pqxx::work tx(lease->conn());
    absl::Status status = fn(tx);
    if (!status.ok()) {
      try {
        tx.abort();
      } catch (const std::exception&) {
        // fn's status says more than a failed ROLLBACK; a dead connection is replaced anyway.
      }
      return status;
    }
    tx.commit();
    return absl::OkStatus();
  } catch (const std::exception& e) {
    return FromPqxx(e);
  } catch (...) {
    return absl::InternalError("database transaction: a non-std exception was thrown");
  }
}

absl::Status PgPool::RunStatements(absl::FunctionRef<void(pqxx::nontransaction&)> fn,
                                  absl::Duration acquire_timeout) {
  absl::StatusOr<Lease> lease = Acquire(acquire_timeout);
  if (!lease.ok()) return lease.status();
  try {
    pqxx::nontransaction tx(lease->conn());
    fn(tx);
    return absl::OkStatus();
  } catch (const pqxx::broken_connection& e) {
    return MarkInternal(absl::UnknownError(absl::StrCat(
        "outcome unknown (connection lost during an autocommit statement): ",
        CleanMessage(e.what()))));
  } catch (const std::exception& e) {
    return FromPqxx(e);
  } catch (...) {
    return absl::InternalError("database statement: a non-std exception was thrown");
  }
}

}  // namespace boneyard
