// PgMatchmakingStore's group commits: InsertSoloTickets (CreateTicket) and RecordCreatedMany
// (the matchmaker's confirmations of created matches). Each batch is one transaction of a few
// set-based statements (for tickets: whose tokens, which queues, who searches already, which
// request ids were used, then the inserts) instead of a transaction of several round trips per
// item, so one commit and one fsync serve every item in it (docs/performance.md, "Matchmaking
// through the service").
#include <map>
#include <set>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "services/common/pg_text.h"
#include "services/common/validation.h"
#include "services/matchmaking/pg_matchmaking_store.h"

namespace boneyard::matchmaking {
namespace {

using pg_text::TextArray;

// A batch's request that needs no insert: its answer, or the earlier ticket it repeats.
struct Settled {
  absl::Status error;        // not OK: the answer
  std::string repeat_of;     // else the ticket a repeated request_id made
};

std::vector<std::string> Hex(const std::vector<std::string>& bytes) {
  std::vector<std::string> hex;
  hex.reserve(bytes.size());
  for (const std::string& b : bytes) hex.push_back(absl::BytesToHexString(b));
  return hex;
}

absl::Status UnknownQueue(const std::string& queue_id) {
  return absl::NotFoundError(absl::StrCat("no queue ", validation::Quote(queue_id)));
}

absl::Status Searching(const std::string& player_id) {
  return absl::FailedPreconditionError(
      absl::StrCat("players/", player_id, " has a live ticket already"));
}

}  // namespace

absl::StatusOr<std::vector<absl::StatusOr<TicketRow>>> PgMatchmakingStore::InsertSoloTickets(
    const std::vector<SoloTicketRequest>& requests) {
  const size_t n = requests.size();
  std::vector<std::string> players(n);  // by request; empty: settled without a player
  std::vector<std::optional<Settled>> settled(n);
  absl::Status batch = pool_.Run([&](pqxx::work& tx) -> absl::Status {
    players.assign(n, "");
    settled.assign(n, std::nullopt);
    std::vector<std::string> hashes, queues;
    for (const SoloTicketRequest& r : requests) {
      hashes.push_back(r.token_hash);
      queues.push_back(r.queue_id);
    }
    std::map<std::string, std::string> player_of_hash;  // hex hash → player
    for (const pqxx::row& row : tx.exec_params(
             absl::StrCat("SELECT encode(token_hash, 'hex'), player_id FROM ", Table("players"),
                          " WHERE token_hash IN (SELECT decode(h, 'hex')"
                          " FROM unnest($1::text[]) AS h)"),
             TextArray(Hex(hashes)))) {
      player_of_hash[row[0].as<std::string>()] = row[1].as<std::string>();
    }
    // Shared locks: a queue deleted meanwhile waits for this commit, then cancels these too.
    std::set<std::string> known_queues;
    for (const pqxx::row& row : tx.exec_params(
             absl::StrCat("SELECT queue_id FROM ", Table("queues"),
                          " WHERE queue_id = ANY($1::text[]) FOR SHARE"),
             TextArray(queues))) {
      known_queues.insert(row[0].as<std::string>());
    }
    std::vector<std::string> callers, request_ids;
    for (size_t i = 0; i < n; ++i) {
      auto it = player_of_hash.find(absl::BytesToHexString(requests[i].token_hash));
      if (it == player_of_hash.end()) {
        settled[i] = Settled{absl::UnauthenticatedError("unknown token"), ""};
      } else if (!known_queues.contains(requests[i].queue_id)) {
        settled[i] = Settled{UnknownQueue(requests[i].queue_id), ""};
      } else {
        players[i] = it->second;
        callers.push_back(it->second);
        request_ids.push_back(requests[i].request_id);
      }
    }
    std::map<std::pair<std::string, std::string>, std::pair<std::string, std::string>> earlier;
    for (const pqxx::row& row : tx.exec_params(
             absl::StrCat("SELECT creator, request_id, ticket_id, request_digest FROM ",
                          Table("tickets"), " WHERE (creator, request_id) IN (SELECT c, r FROM"
                          " unnest($1::text[], $2::text[]) AS u(c, r) WHERE r <> '')"),
             TextArray(callers), TextArray(request_ids))) {
      earlier[{row[0].as<std::string>(), row[1].as<std::string>()}] = {
          row[2].as<std::string>(), pqxx::binarystring(row[3]).str()};
    }
    std::set<std::string> live;
    for (const pqxx::row& row : tx.exec_params(
             absl::StrCat("SELECT player_id FROM ", Table("ticket_players"),
                          " WHERE live AND player_id = ANY($1::text[])"),
             TextArray(callers))) {
      live.insert(row[0].as<std::string>());
    }
    // In order, so that a request sees the ones before it in the batch as committed.
    std::vector<std::string> ids, queue_ids, creators, request_id_column, digests, times;
    for (size_t i = 0; i < n; ++i) {
      if (settled[i].has_value()) continue;
      const SoloTicketRequest& r = requests[i];
      if (!r.request_id.empty()) {
        auto it = earlier.find({players[i], r.request_id});
        if (it != earlier.end()) {
          settled[i] = it->second.second == r.digest
                           ? Settled{absl::OkStatus(), it->second.first}
                           : Settled{absl::AlreadyExistsError(absl::StrCat(
                                         kRequestIdReused, " (tickets/", it->second.first, ")")),
                                     ""};
          continue;
        }
      }
      if (live.contains(players[i])) {
        settled[i] = Settled{Searching(players[i]), ""};
        continue;
      }
      live.insert(players[i]);
      if (!r.request_id.empty()) earlier[{players[i], r.request_id}] = {r.ticket_id, r.digest};
      ids.push_back(r.ticket_id);
      queue_ids.push_back(r.queue_id);
      creators.push_back(players[i]);
      request_id_column.push_back(r.request_id);
      digests.push_back(absl::BytesToHexString(r.digest));
      times.push_back(pg_text::Timestamp(r.create_time));
    }
    if (ids.empty()) return absl::OkStatus();
    tx.exec_params0(
        absl::StrCat("INSERT INTO ", Table("tickets"),
                     " (ticket_id, queue_id, party_id, state, creator, request_id,"
                     " request_digest, create_time, update_time)"
                     " SELECT t.id, t.queue, NULL, ", kTicketSearching,
                     ", t.creator, NULLIF(t.request, ''), decode(t.digest, 'hex'),"
                     " t.created::timestamptz, t.created::timestamptz"
                     " FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],"
                     " $6::text[]) AS t(id, queue, creator, request, digest, created)"),
        TextArray(ids), TextArray(queue_ids), TextArray(creators), TextArray(request_id_column),
        TextArray(digests), TextArray(times));
    tx.exec_params0(absl::StrCat("INSERT INTO ", Table("ticket_players"),
                                 " (ticket_id, position, player_id, live)"
                                 " SELECT t.id, 0, t.player, true"
                                 " FROM unnest($1::text[], $2::text[]) AS t(id, player)"),
                    TextArray(ids), TextArray(creators));
    return absl::OkStatus();
  });

  if (!batch.ok()) return batch;
  std::vector<absl::StatusOr<TicketRow>> outcomes;
  outcomes.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (!settled[i].has_value()) {
      outcomes.push_back(TicketRow{.ticket_id = requests[i].ticket_id,
                                   .queue_id = requests[i].queue_id,
                                   .party_id = "",
                                   .state = kTicketSearching,
                                   .match_request = "",
                                   .players = {players[i]},
                                   .create_time = requests[i].create_time,
                                   .update_time = requests[i].create_time,
                                   .seatings = {}});
    } else if (!settled[i]->error.ok()) {
      outcomes.push_back(settled[i]->error);
    } else {
      // A repeat: the ticket as it is now, after the batch.
      absl::StatusOr<std::optional<TicketRow>> stored = GetTicket(settled[i]->repeat_of);
      if (!stored.ok()) {
        outcomes.push_back(stored.status());
      } else if (!stored->has_value()) {
        outcomes.push_back(absl::InternalError("a repeated request's ticket is gone"));
      } else {
        outcomes.push_back(**std::move(stored));
      }
    }
  }
  return outcomes;
}

std::vector<absl::Status> PgMatchmakingStore::RecordCreatedMany(
    const std::vector<CreatedRecord>& records) {
  std::vector<std::string> requests, names, targets, times, seat_requests, tokens;
  std::vector<int> seats;
  for (const CreatedRecord& record : records) {
    requests.push_back(record.request_id);
    names.push_back(record.match_name);
    targets.push_back(record.execution_target);
    times.push_back(pg_text::Timestamp(record.now));
    for (size_t seat = 0; seat < record.seat_tokens.size(); ++seat) {
      if (record.seat_tokens[seat].empty()) continue;
      seat_requests.push_back(record.request_id);
      seats.push_back(static_cast<int>(seat));
      tokens.push_back(record.seat_tokens[seat]);
    }
  }
  absl::Status batch = pool_.Run([&](pqxx::work& tx) {
    tx.exec_params0(absl::StrCat("UPDATE ", Table("formed_matches"),
                                 " f SET match_name = c.name, execution_target = c.target"
                                 " FROM unnest($1::text[], $2::text[], $3::text[])"
                                 " AS c(request, name, target)"
                                 " WHERE f.request_id = c.request AND f.match_name IS NULL"),
                    TextArray(requests), TextArray(names), TextArray(targets));
    tx.exec_params0(absl::StrCat("UPDATE ", Table("seatings"),
                                 " s SET seat_token = t.token"
                                 " FROM unnest($1::text[], $2::int[], $3::text[])"
                                 " AS t(request, seat, token)"
                                 " WHERE s.request_id = t.request AND s.seat = t.seat"),
                    TextArray(seat_requests), pg_text::IntArray(seats), TextArray(tokens));
    tx.exec_params0(absl::StrCat("WITH matched AS (UPDATE ", Table("tickets"),
                                 " t SET state = ", kTicketMatched,
                                 ", update_time = c.time::timestamptz"
                                 " FROM unnest($1::text[], $2::text[]) AS c(request, time)"
                                 " WHERE t.match_request = c.request AND t.state = ",
                                 kTicketForming, " RETURNING t.ticket_id) UPDATE ",
                                 Table("ticket_players"),
                                 " SET live = false WHERE ticket_id IN"
                                 " (SELECT ticket_id FROM matched)"),
                    TextArray(requests), TextArray(times));
  });
  std::vector<absl::Status> outcomes;
  outcomes.reserve(records.size());
  for (const CreatedRecord& record : records) {
    outcomes.push_back(batch.ok() ? absl::OkStatus()
                                  : RecordCreated(record.request_id, record.match_name,
                                                  record.execution_target, record.seat_tokens,
                                                  record.now));
  }
  return outcomes;
}

}  // namespace boneyard::matchmaking
