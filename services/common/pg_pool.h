// A fixed-size pool of PostgreSQL connections (libpqxx), and the one place where libpqxx's
// exceptions become absl::Status codes. Every Pg* store in services/ goes through here:
//
//   absl::StatusOr<std::unique_ptr<PgPool>> pool = PgPool::Connect(config.database_url, 8);
//   if (!pool.ok()) return pool.status();
//   absl::StatusOr<int64_t> n = (*pool)->Run([&](pqxx::work& tx) {
//     return tx.exec1("SELECT count(*) FROM exec.matches")[0].as<int64_t>();
//   });
//
// Run/WithTransaction lease a connection, run the function in one transaction and commit it.
// Nothing thrown by libpqxx leaves them: exceptions are caught and mapped by FromPqxx. They do not
// retry; an ABORTED (serialization failure, deadlock) or UNAVAILABLE result is the caller's to
// retry, because only the caller knows whether its function may run twice.
//
// Connections are made eagerly by Connect (so a wrong URL or a stopped server fails start-up), and
// a connection found broken when it comes back to the pool is dropped and replaced by a fresh one
// on a later Acquire. No gRPC in here.
#ifndef BONEYARD_SERVICES_COMMON_PG_POOL_H_
#define BONEYARD_SERVICES_COMMON_PG_POOL_H_

#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "pqxx/pqxx"

namespace boneyard {

// Maps an exception thrown by libpqxx (or anything else thrown inside a transaction):
//   unique_violation (23505)                          ALREADY_EXISTS
//   serialization_failure (40001), deadlock (40P01),
//     other transaction rollbacks (class 40)          ABORTED: retry the whole transaction
//   broken_connection, too many connections,
//     connection errors (class 08), server shutdown   UNAVAILABLE
//   in_doubt_error, statement_completion_unknown       UNKNOWN: the commit may or may not have
//                                                      happened
//   query_canceled (57014, e.g. statement_timeout)    DEADLINE_EXCEEDED
//   any other sql_error                               INTERNAL, with the SQLSTATE in the message
//   anything else                                     INTERNAL
// The message is libpqxx's (the server's error text), without the query.
absl::Status FromPqxx(const std::exception& e);

class PgPool {
 public:
  // Used by Run/WithTransaction (and so by ApplyMigrations) when no timeout is given.
  static constexpr absl::Duration kDefaultAcquireTimeout = absl::Seconds(10);

  // One leased connection; returns it to the pool when destroyed. The pool must outlive it.
  class Lease {
   public:
    Lease(Lease&& other) noexcept;
    Lease& operator=(Lease&& other) noexcept;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease();

    pqxx::connection& conn() const { return *conn_; }

   private:
    friend class PgPool;
    Lease(PgPool* pool, std::unique_ptr<pqxx::connection> conn);
    void Return();

    PgPool* pool_;
    std::unique_ptr<pqxx::connection> conn_;
  };

  // Opens `size` connections to `dsn` (a libpq connection string or postgresql:// URL; put
  // connect_timeout=N in it to bound connection attempts). INVALID_ARGUMENT for a malformed DSN
  // or size < 1, UNAVAILABLE when the server cannot be reached or refuses the connection. The
  // messages never repeat the DSN, which may hold a password.
  static absl::StatusOr<std::unique_ptr<PgPool>> Connect(std::string dsn, int size);

  PgPool(const PgPool&) = delete;
  PgPool& operator=(const PgPool&) = delete;
  // Every Lease must have been destroyed first.
  ~PgPool();

  // Waits up to `timeout` for a free connection (absl::InfiniteDuration() waits for ever).
  // DEADLINE_EXCEEDED when every connection stays leased that long; UNAVAILABLE when a broken
  // connection had to be replaced and the new one could not be opened.
  absl::StatusOr<Lease> Acquire(absl::Duration timeout);

  // Leases a connection, runs fn(tx) in a transaction and commits when fn returns OK. A non-OK
  // status from fn rolls back and is returned as it is; an exception rolls back and is mapped by
  // FromPqxx; a failed commit is mapped too.
  absl::Status WithTransaction(absl::FunctionRef<absl::Status(pqxx::work&)> fn,
                               absl::Duration acquire_timeout = kDefaultAcquireTimeout);

  // Leases a connection and runs fn(tx) outside a transaction block: each statement fn runs is
  // committed on its own when it completes. For one statement that is atomic by itself, this
  // saves the BEGIN and COMMIT round trips of WithTransaction. Exceptions are mapped by
  // FromPqxx, except a connection that breaks while fn runs: its statement may have committed
  // or not, so that is UNKNOWN, as a commit in doubt is.
  absl::Status RunStatements(absl::FunctionRef<void(pqxx::nontransaction&)> fn,
                             absl::Duration acquire_timeout = kDefaultAcquireTimeout);

  // The same for a function returning a value. fn(tx) may return
  //   T                 -> absl::StatusOr<T>: committed, then the value
  //   absl::StatusOr<T> -> absl::StatusOr<T>: committed only when it holds a value
  //   absl::Status      -> absl::Status (as WithTransaction)
  //   void              -> absl::Status
  template <class F>
  auto Run(F&& fn, absl::Duration acquire_timeout = kDefaultAcquireTimeout);

  int size() const { return size_; }

 private:
  PgPool(std::string dsn, int size, std::vector<std::unique_ptr<pqxx::connection>> conns);

  // Opens one connection; UNAVAILABLE (with libpq's message) when it cannot.
  static absl::StatusOr<std::unique_ptr<pqxx::connection>> Open(const std::string& dsn);

  bool CanLease() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return !idle_.empty() || open_ < size_;
  }
  void Release(std::unique_ptr<pqxx::connection> conn);

  const std::string dsn_;
  const int size_;

  absl::Mutex mu_;
  std::vector<std::unique_ptr<pqxx::connection>> idle_ ABSL_GUARDED_BY(mu_);
  // Connections that exist or are being opened: idle ones, leased ones, and replacements being
  // opened by Acquire. Never more than size_.
  int open_ ABSL_GUARDED_BY(mu_);
};

// Implementation of PgPool::Run.

namespace pg_internal {

template <class R>
struct IsStatusOr : std::false_type {};
template <class T>
struct IsStatusOr<absl::StatusOr<T>> : std::true_type {};

}  // namespace pg_internal

template <class F>
auto PgPool::Run(F&& fn, absl::Duration acquire_timeout) {
  using R = std::invoke_result_t<F&, pqxx::work&>;
  if constexpr (std::is_void_v<R>) {
    return WithTransaction(
        [&fn](pqxx::work& tx) {
          fn(tx);
          return absl::OkStatus();
        },
        acquire_timeout);
  } else if constexpr (std::is_same_v<R, absl::Status>) {
    return WithTransaction(fn, acquire_timeout);
  } else {
    using Result = std::conditional_t<pg_internal::IsStatusOr<R>::value, R, absl::StatusOr<R>>;
    // Constructed inside the transaction; moved out only after the commit succeeded.
    std::optional<R> value;
    absl::Status status = WithTransaction(
        [&fn, &value](pqxx::work& tx) {
          value.emplace(fn(tx));
          if constexpr (pg_internal::IsStatusOr<R>::value) {
            return value->status();
          } else {
            return absl::OkStatus();
          }
        },
        acquire_timeout);
    if (!status.ok()) return Result(std::move(status));
    return Result(std::move(*value));
  }
}

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_PG_POOL_H_
