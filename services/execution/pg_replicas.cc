// PgMatchStore's replicas (match_store.h, docs/scaling.md): registration, the lease, fencing and
// adoption, on the `replicas` table and `matches.owner_epoch` (migration 0005).
//
// Fencing rests on one row lock. Every write of a registered replica holds its own replicas row
// FOR SHARE for the statement or transaction that writes (HoldLease, and the fenced event
// INSERT), and stores nothing when the row is fenced. Fencing a replica is an UPDATE of that
// row, which waits for every write in flight to end; a write that starts after it sees the row
// fenced (READ COMMITTED re-reads a row updated under it). So once the fence commits, the
// fenced replica's log is final: whoever adopts its matches reads every event it will ever have
// stored, and no later write of the old replica can fork a match. A replica paused inside such a
// transaction holds the fence back only until the server ends its idle transaction
// (kIdleInLeaseTimeout); a fence waits at most kFenceLockTimeout and is tried again at the next
// look.
#include <functional>
#include <optional>
#include <queue>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "pqxx/pqxx"
#include "services/common/pg_text.h"
#include "services/execution/pg_match_store.h"

namespace boneyard::execution {
namespace {

constexpr int kActive = v1::Match::ACTIVE;
// How long a fence waits for a replica's writes in flight before the pass gives up (and tries
// again at the next).
constexpr char kFenceLockTimeout[] = "2s";
// How long a transaction holding its replica's lease may sit idle (HoldLease).
constexpr char kIdleInLeaseTimeout[] = "3s";

int64_t Micros(absl::Duration d) { return absl::ToInt64Microseconds(d); }

absl::Status NotRegistered() {
  return absl::FailedPreconditionError("this store has not registered as a replica");
}

}  // namespace

absl::Status PgMatchStore::Fenced(int64_t epoch) {
  absl::Status status = absl::FailedPreconditionError(
      absl::StrCat("replica ", epoch,
                   " is fenced: its lease lapsed and its matches may have "
                   "moved to another replica; nothing was stored"));
  status.SetPayload(kFencedPayload, absl::Cord());
  return status;
}

absl::Status PgMatchStore::HoldLease(pqxx::work& tx, int64_t epoch) {
  // The transaction holds the lease's row, so a replica paused inside it would hold back the
  // fence that lets the others adopt its matches: the server ends it after a while idle.
  const pqxx::result held =
      tx.exec_params(absl::StrCat("SELECT set_config('idle_in_transaction_session_timeout', '",
                                  kIdleInLeaseTimeout, "', true) FROM ", replicas_,
                                  " WHERE epoch = $1 AND fenced_time IS NULL FOR SHARE"),
                     epoch);
  return held.empty() ? Fenced(epoch) : absl::OkStatus();
}

absl::StatusOr<int64_t> PgMatchStore::RegisterReplica(const ReplicaInfo& info,
                                                      absl::Duration lease) {
  if (lease <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("a replica's lease must be positive");
  }
  absl::StatusOr<int64_t> epoch = pool_.Run([&](pqxx::work& tx) {
    return tx
        .exec_params1(absl::StrCat("INSERT INTO ", replicas_,
                                   " (name, address, start_time, lease_expires)"
                                   " VALUES ($1, $2, clock_timestamp(),"
                                   " clock_timestamp() + $3 * interval '1 microsecond')"
                                   " RETURNING epoch"),
                      info.name, info.address, Micros(lease))[0]
        .as<int64_t>();
  });
  if (!epoch.ok()) return epoch.status();
  epoch_.store(*epoch);
  return *epoch;
}

absl::Status PgMatchStore::RenewLease(absl::Duration lease) {
  const int64_t epoch = epoch_.load();
  if (epoch == 0) return NotRegistered();
  absl::StatusOr<bool> renewed = pool_.Run([&](pqxx::work& tx) {
    const pqxx::result updated =
        tx.exec_params(absl::StrCat("UPDATE ", replicas_,
                                    " SET lease_expires = clock_timestamp() + $2 *"
                                    " interval '1 microsecond'"
                                    " WHERE epoch = $1 AND fenced_time IS NULL"),
                       epoch, Micros(lease));
    return updated.affected_rows() > 0;
  });
  if (!renewed.ok()) return renewed.status();
  return *renewed ? absl::OkStatus() : Fenced(epoch);
}

absl::Status PgMatchStore::SetReplicaAddress(const std::string& address) {
  const int64_t epoch = epoch_.load();
  if (epoch == 0) return NotRegistered();
  return pool_.Run([&](pqxx::work& tx) {
    tx.exec0(absl::StrCat("SET LOCAL lock_timeout = '", kFenceLockTimeout, "'"));
    tx.exec_params0(absl::StrCat("UPDATE ", replicas_, " SET address = $2 WHERE epoch = $1"), epoch,
                    address);
    // An earlier replica at this address (a process restarted in its place, a pod's recycled
    // IP) is gone, or at least no longer reached there: clients sent to the address would
    // reach this one, which does not play its matches. Fenced now, its matches are adopted at
    // the next look instead of after its lease. (Fencing is always safe: it only stops writes.)
    tx.exec_params0(absl::StrCat("UPDATE ", replicas_,
                                 " SET fenced_time = clock_timestamp() WHERE address = $2"
                                 " AND epoch <> $1 AND fenced_time IS NULL"),
                    epoch, address);
  });
}

absl::StatusOr<std::optional<std::string>> PgMatchStore::ReplicaAddressOf(
    const std::string& id) {
  return pool_.Run([&](pqxx::work& tx) -> std::optional<std::string> {
    const pqxx::result rows = tx.exec_params(
        absl::StrCat("SELECT r.address FROM ", matches_, " m JOIN ", replicas_,
                     " r ON r.epoch = m.owner_epoch WHERE m.id = $1 AND r.fenced_time IS NULL"),
        id);
    if (rows.empty()) return std::nullopt;
    return rows[0][0].as<std::string>();
  });
}

absl::Status PgMatchStore::ReleaseLease() {
  const int64_t epoch = epoch_.load();
  if (epoch == 0) return NotRegistered();
  return pool_.Run([&](pqxx::work& tx) {
    tx.exec_params0(absl::StrCat("UPDATE ", replicas_,
                                 " SET fenced_time = clock_timestamp()"
                                 " WHERE epoch = $1 AND fenced_time IS NULL"),
                    epoch);
  });
}

absl::StatusOr<int> PgMatchStore::HandOver() {
  const int64_t epoch = epoch_.load();
  if (epoch == 0) return NotRegistered();
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<int> {
    // The fence first: it waits for this replica's own writes in flight, and none lands after
    // it, so the receivers read every event the matches will ever have from here.
    tx.exec_params0(absl::StrCat("UPDATE ", replicas_,
                                 " SET fenced_time = clock_timestamp()"
                                 " WHERE epoch = $1 AND fenced_time IS NULL"),
                    epoch);
    // The receivers, least loaded first.
    struct Receiver {
      int64_t load;
      int64_t epoch;
      bool operator>(const Receiver& o) const {
        return std::tie(load, epoch) > std::tie(o.load, o.epoch);
      }
    };
    std::priority_queue<Receiver, std::vector<Receiver>, std::greater<Receiver>> receivers;
    for (const pqxx::row& row : tx.exec_params(
             absl::StrCat("SELECT r.epoch, (SELECT count(*) FROM ", matches_,
                          " m WHERE m.owner_epoch = r.epoch AND m.state = ", kActive, ") FROM ",
                          replicas_,
                          " r WHERE r.fenced_time IS NULL AND r.lease_expires > clock_timestamp()"
                          " AND r.epoch <> $1"),
             epoch)) {
      receivers.push({row[1].as<int64_t>(), row[0].as<int64_t>()});
    }
    if (receivers.empty()) return 0;
    std::vector<std::string> ids;
    std::vector<std::string> to;
    for (const pqxx::row& row : tx.exec_params(
             absl::StrCat("SELECT id FROM ", matches_, " WHERE owner_epoch = $1 AND state = ",
                          kActive, " ORDER BY create_time, id FOR UPDATE"),
             epoch)) {
      Receiver least = receivers.top();
      receivers.pop();
      ids.push_back(row[0].as<std::string>());
      to.push_back(absl::StrCat(least.epoch));
      ++least.load;
      receivers.push(least);
    }
    if (ids.empty()) return 0;
    tx.exec_params0(
        absl::StrCat("UPDATE ", matches_,
                     " m SET owner_epoch = h.epoch, handed_from = $3 FROM unnest($1::text[],"
                     " $2::bigint[]) AS h(id, epoch) WHERE m.id = h.id"),
        pg_text::TextArray(ids), pg_text::TextArray(to), epoch);
    return static_cast<int>(ids.size());
  });
}

absl::StatusOr<std::vector<ReplicaLoad>> PgMatchStore::ShareLoad(int64_t live_matches) {
  const int64_t epoch = epoch_.load();
  if (epoch == 0) return NotRegistered();
  return pool_.Run([&](pqxx::work& tx) {
    tx.exec_params0(absl::StrCat("UPDATE ", replicas_, " SET live_matches = $2 WHERE epoch = $1"),
                    epoch, live_matches);
    std::vector<ReplicaLoad> loads;
    for (const pqxx::row& row : tx.exec(absl::StrCat(
             "SELECT epoch, address, live_matches FROM ", replicas_,
             " WHERE fenced_time IS NULL AND lease_expires > clock_timestamp() ORDER BY epoch"))) {
      loads.push_back({.epoch = row[0].as<int64_t>(),
                       .address = row[1].as<std::string>(),
                       .live_matches = row[2].as<int64_t>()});
    }
    return loads;
  });
}

std::vector<std::string> PgMatchStore::TakeHandedIds(pqxx::work& tx, int64_t epoch, int limit) {
  std::vector<std::string> ids;
  for (const pqxx::row& row : tx.exec_params(
           absl::StrCat("UPDATE ", matches_, " SET handed_from = NULL WHERE id IN (SELECT id FROM ",
                        matches_,
                        " WHERE owner_epoch = $1 AND handed_from IS NOT NULL AND state = ", kActive,
                        " LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING id"),
           epoch, limit)) {
    ids.push_back(row[0].as<std::string>());
  }
  return ids;
}

absl::StatusOr<std::vector<ActiveMatch>> PgMatchStore::TakeHandedOver(int limit) {
  const int64_t epoch = epoch_.load();
  if (epoch == 0) return NotRegistered();
  if (limit <= 0) return std::vector<ActiveMatch>();
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<std::vector<ActiveMatch>> {
    std::vector<std::string> ids = TakeHandedIds(tx, epoch, limit);
    if (ids.empty()) return std::vector<ActiveMatch>();
    return ReadActive(tx, pg_text::TextArray(ids));
  });
}

absl::StatusOr<std::vector<ActiveMatch>> PgMatchStore::AdoptMatches(int limit) {
  const int64_t epoch = epoch_.load();
  if (epoch == 0) return NotRegistered();
  if (limit <= 0) return std::vector<ActiveMatch>();
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<std::vector<ActiveMatch>> {
    tx.exec0(absl::StrCat("SET LOCAL lock_timeout = '", kFenceLockTimeout, "'"));
    // A replica that cannot renew may not take over anyone else's matches.
    if (absl::Status s = HoldLease(tx, epoch); !s.ok()) return s;
    // The fence: waits for the lapsed replicas' writes in flight (their rows FOR SHARE).
    tx.exec_params0(absl::StrCat("UPDATE ", replicas_,
                                 " SET fenced_time = clock_timestamp()"
                                 " WHERE fenced_time IS NULL AND lease_expires < clock_timestamp()"
                                 " AND epoch <> $1"),
                    epoch);
    // Handed to this replica by a draining one; then orphans: owned by a fenced replica, or by
    // none. SKIP LOCKED: replicas adopting at once take different matches.
    std::vector<std::string> ids = TakeHandedIds(tx, epoch, limit);
    for (const pqxx::row& row : tx.exec_params(
             // handed_from cleared: a match handed to a replica that died before loading it is
             // this one's to load now, once.
             absl::StrCat("UPDATE ", matches_,
                          " SET owner_epoch = $1, handed_from = NULL WHERE id IN (SELECT id FROM ",
                          matches_, " WHERE state = ", kActive,
                          " AND (owner_epoch IS NULL OR owner_epoch IN (SELECT epoch FROM ",
                          replicas_,
                          " WHERE fenced_time IS NOT NULL)) ORDER BY create_time, id LIMIT $2"
                          " FOR UPDATE SKIP LOCKED) RETURNING id"),
             epoch, limit - static_cast<int>(ids.size()))) {
      ids.push_back(row[0].as<std::string>());
    }
    if (ids.empty()) return std::vector<ActiveMatch>();
    return ReadActive(tx, pg_text::TextArray(ids));
  });
}

}  // namespace boneyard::execution
