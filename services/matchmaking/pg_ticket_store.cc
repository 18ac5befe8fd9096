// PgMatchmakingStore's tickets, formed matches and seatings (tables: migrations/0004_tickets.sql).
//
// No ticket is ever in two matches: a pass claims its matches' tickets (SEARCHING → FORMING) in
// one transaction that first locks those still SEARCHING, and a match is written only if every
// one of its tickets is among them. Row locks make that hold between passes in one process,
// between processes, and against a concurrent CancelTicket (which changes only a SEARCHING
// ticket).
#include <map>
#include <set>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "services/common/pg_text.h"
#include "services/matchmaking/pg_matchmaking_store.h"
#include "spdlog/spdlog.h"

namespace boneyard::matchmaking {
namespace {

using pg_text::Bytea;
using pg_text::EpochMicros;
using pg_text::IntArray;
using pg_text::TextArray;
using pg_text::Timestamp;

std::string Bytes(const pqxx::field& field) { return pqxx::binarystring(field).str(); }

std::string TextOrEmpty(const pqxx::field& field) {
  return field.is_null() ? std::string() : field.as<std::string>();
}

std::optional<absl::Time> OptionalTime(const pqxx::field& micros) {
  if (micros.is_null()) return std::nullopt;
  return absl::FromUnixMicros(micros.as<int64_t>());
}

std::string TicketColumns() {
  return absl::StrCat("ticket_id, queue_id, party_id, state, match_request, ",
                      EpochMicros("create_time"), ", ", EpochMicros("update_time"));
}

TicketRow ReadTicketRow(const pqxx::row& row) {
  return {.ticket_id = row[0].as<std::string>(),
          .queue_id = row[1].as<std::string>(),
          .party_id = TextOrEmpty(row[2]),
          .state = row[3].as<int>(),
          .match_request = TextOrEmpty(row[4]),
          .players = {},
          .create_time = absl::FromUnixMicros(row[5].as<int64_t>()),
          .update_time = absl::FromUnixMicros(row[6].as<int64_t>()),
          .seatings = {}};
}

// Columns of seatings joined with formed_matches (as f), in ReadSeating's order.
constexpr char kSeatingColumns[] =
    "s.request_id, s.seat, s.ticket_id, s.player_id, s.team, s.win_chance, s.bots, "
    "s.seat_token, f.match_name, f.execution_target";

SeatingRow ReadSeating(const pqxx::row& row) {
  return {.request_id = row[0].as<std::string>(),
          .seat = row[1].as<int>(),
          .ticket_id = row[2].as<std::string>(),
          .player_id = row[3].as<std::string>(),
          .team = row[4].as<int>(),
          .win_chance = row[5].as<double>(),
          .bots = row[6].as<int>(),
          .seat_token = TextOrEmpty(row[7]),
          .match_name = TextOrEmpty(row[8]),
          .execution_target = TextOrEmpty(row[9])};
}

}  // namespace

void PgMatchmakingStore::ReadTicketDetails(pqxx::work& tx, TicketRow& ticket) const {
  for (const pqxx::row& row :
       tx.exec_params(absl::StrCat("SELECT player_id FROM ", Table("ticket_players"),
                                   " WHERE ticket_id = $1 ORDER BY position"),
                      ticket.ticket_id)) {
    ticket.players.push_back(row[0].as<std::string>());
  }
  for (const pqxx::row& row : tx.exec_params(
           absl::StrCat("SELECT ", kSeatingColumns, " FROM ", Table("seatings"), " s JOIN ",
                        Table("formed_matches"),
                        " f USING (request_id) WHERE s.ticket_id = $1 ORDER BY s.seat"),
           ticket.ticket_id)) {
    ticket.seatings.push_back(ReadSeating(row));
  }
}

bool PgMatchmakingStore::HasLiveTicket(pqxx::work& tx, const std::string& player_id) const {
  return !tx.exec_params(absl::StrCat("SELECT 1 FROM ", Table("ticket_players"),
                                      " WHERE player_id = $1 AND live"),
                         player_id)
              .empty();
}

bool PgMatchmakingStore::PartyHasLiveTicket(pqxx::work& tx, const std::string& party_id) const {
  return !tx.exec_params(absl::StrCat("SELECT 1 FROM ", Table("tickets"),
                                      " WHERE party_id = $1 AND state IN (",
                                      kTicketSearching, ", ", kTicketForming, ")"),
                         party_id)
              .empty();
}

int PgMatchmakingStore::EndSearchingTickets(pqxx::work& tx, const char* column,
                                            const std::string& value, int to_state,
                                            absl::Time now,
                                            std::optional<absl::Time> created_before) const {
  // Ended tickets free their players (one live ticket each) in the same statement.
  return tx
      .exec_params1(
          absl::StrCat("WITH ended AS (UPDATE ", Table("tickets"),
                       " SET state = $2, update_time = $3::timestamptz WHERE ", column,
                       " = $1 AND state = ", kTicketSearching,
                       " AND create_time < $4::timestamptz RETURNING ticket_id),"
                       " freed AS (UPDATE ",
                       Table("ticket_players"),
                       " SET live = false WHERE ticket_id IN (SELECT ticket_id FROM ended)"
                       " RETURNING 1)"
                       " SELECT count(*) FROM ended"),
          value, to_state, Timestamp(now),
          created_before.has_value() ? Timestamp(*created_before) : std::string("infinity"))[0]
      .as<int>();
}

absl::StatusOr<TicketRow> PgMatchmakingStore::InsertTicket(const TicketRow& ticket,
                                                           const std::string& creator,
                                                           const std::string& request_id,
                                                           const std::string& digest) {
  auto insert = [&](pqxx::work& tx) -> absl::StatusOr<TicketRow> {
    if (!request_id.empty()) {
      const pqxx::result earlier = tx.exec_params(
          absl::StrCat("SELECT ticket_id, request_digest FROM ", Table("tickets"),
                       " WHERE creator = $1 AND request_id = $2"),
          creator, request_id);
      if (!earlier.empty()) {
        const std::string id = earlier[0][0].as<std::string>();
        if (Bytes(earlier[0][1]) != digest) {
          return absl::AlreadyExistsError(absl::StrCat(kRequestIdReused, " (tickets/", id, ")"));
        }
        TicketRow stored = ReadTicketRow(tx.exec_params1(
            absl::StrCat("SELECT ", TicketColumns(), " FROM ", Table("tickets"),
                         " WHERE ticket_id = $1"),
            id));
        ReadTicketDetails(tx, stored);
        return stored;
      }
    }
    if (!ticket.party_id.empty()) {
      // Locked, so that nobody joins or leaves between this check and the commit.
      tx.exec_params(absl::StrCat("SELECT 1 FROM ", Table("parties"),
                                  " WHERE party_id = $1 FOR UPDATE"),
                     ticket.party_id);
      std::optional<PartyRow> party = ReadParty(tx, ticket.party_id);
      if (!party.has_value() || party->members != ticket.players) {
        return absl::AbortedError("party: it changed meanwhile; try again");
      }
    }
    for (const std::string& player : ticket.players) {
      if (HasLiveTicket(tx, player)) {
        return absl::FailedPreconditionError(
            absl::StrCat("players/", player, " has a live ticket already"));
      }
    }
    tx.exec_params0(
        absl::StrCat("INSERT INTO ", Table("tickets"),
                     " (ticket_id, queue_id, party_id, state, creator, request_id,"
                     " request_digest, create_time, update_time) VALUES ($1, $2, $3, $4, $5,"
                     " $6, $7::bytea, $8::timestamptz, $8::timestamptz)"),
        ticket.ticket_id, ticket.queue_id,
        ticket.party_id.empty() ? nullptr : ticket.party_id.c_str(), kTicketSearching, creator,
        request_id.empty() ? nullptr : request_id.c_str(), Bytea(digest),
        Timestamp(ticket.create_time));
    tx.exec_params0(
        absl::StrCat("INSERT INTO ", Table("ticket_players"),
                     " (ticket_id, position, player_id, live)"
                     " SELECT $1, p.ord - 1, p.player_id, true"
                     " FROM unnest($2::text[]) WITH ORDINALITY AS p(player_id, ord)"),
        ticket.ticket_id, TextArray(ticket.players));
    TicketRow stored = ticket;
    stored.state = kTicketSearching;
    stored.update_time = ticket.create_time;
    return stored;
  };
  absl::StatusOr<TicketRow> inserted = pool_.Run(insert);
  if (absl::IsAlreadyExists(inserted.status()) &&
      !absl::StartsWith(inserted.status().message(), kRequestIdReused)) {
    // A unique index answered a concurrent insert; run again to see what it committed.
    inserted = pool_.Run(insert);
    if (absl::IsAlreadyExists(inserted.status()) &&
        !absl::StartsWith(inserted.status().message(), kRequestIdReused)) {
      return absl::FailedPreconditionError("a player of the ticket has a live ticket already");
    }
  }
  return inserted;
}

absl::StatusOr<std::optional<TicketRow>> PgMatchmakingStore::GetTicket(
    const std::string& ticket_id) {
  return pool_.Run([&](pqxx::work& tx) -> std::optional<TicketRow> {
    const pqxx::result rows =
        tx.exec_params(absl::StrCat("SELECT ", TicketColumns(), " FROM ", Table("tickets"),
                                    " WHERE ticket_id = $1"),
                       ticket_id);
    if (rows.empty()) return std::nullopt;
    TicketRow ticket = ReadTicketRow(rows[0]);
    ReadTicketDetails(tx, ticket);
    return ticket;
  });
}

absl::StatusOr<TicketRow> PgMatchmakingStore::CancelTicket(const std::string& ticket_id,
                                                           absl::Time now) {
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<TicketRow> {
    const pqxx::result rows =
        tx.exec_params(absl::StrCat("SELECT ", TicketColumns(), " FROM ", Table("tickets"),
                                    " WHERE ticket_id = $1 FOR UPDATE"),
                       ticket_id);
    if (rows.empty()) return absl::NotFoundError("no such ticket");
    TicketRow ticket = ReadTicketRow(rows[0]);
    switch (ticket.state) {
      case kTicketSearching:
        EndSearchingTickets(tx, "ticket_id", ticket_id, kTicketCancelled, now);
        ticket.state = kTicketCancelled;
        ticket.update_time = now;
        break;
      case kTicketCancelled:
        break;
      case kTicketForming:
        return absl::FailedPreconditionError(
            "the ticket is being seated in a match already; it can no longer be cancelled");
      case kTicketMatched:
        return absl::FailedPreconditionError("the ticket is MATCHED already");
      default:
        return absl::FailedPreconditionError("the ticket is EXPIRED already");
    }
    ReadTicketDetails(tx, ticket);
    return ticket;
  });
}

absl::StatusOr<std::vector<TicketRow>> PgMatchmakingStore::SearchingTickets(
    const std::string& queue_id) {
  return pool_.Run([&](pqxx::work& tx) {
    std::vector<TicketRow> tickets;
    std::map<std::string, size_t> index;
    for (const pqxx::row& row : tx.exec_params(
             absl::StrCat("SELECT ", TicketColumns(), " FROM ", Table("tickets"),
                          " WHERE queue_id = $1 AND state = ", kTicketSearching,
                          " ORDER BY create_time, ticket_id"),
             queue_id)) {
      index[row[0].as<std::string>()] = tickets.size();
      tickets.push_back(ReadTicketRow(row));
    }
    for (const pqxx::row& row : tx.exec_params(
             absl::StrCat("SELECT p.ticket_id, p.player_id FROM ", Table("ticket_players"),
                          " p JOIN ", Table("tickets"),
                          " t USING (ticket_id) WHERE t.queue_id = $1 AND t.state = ",
                          kTicketSearching, " ORDER BY p.ticket_id, p.position"),
             queue_id)) {
      // A ticket claimed between the two reads is missing from `index`: skipped.
      auto it = index.find(row[0].as<std::string>());
      if (it != index.end()) tickets[it->second].players.push_back(row[1].as<std::string>());
    }
    // And one that appeared between them has no players yet: left for the next pass.
    std::erase_if(tickets, [](const TicketRow& t) { return t.players.empty(); });
    return tickets;
  });
}

absl::StatusOr<std::map<std::string, std::vector<std::string>>>
PgMatchmakingStore::RecentPartners(const std::string& queue_id,
                                   const std::vector<std::string>& players, int last_matches) {
  return pool_.Run([&](pqxx::work& tx) {
    std::map<std::string, std::vector<std::string>> partners;
    for (const pqxx::row& row : tx.exec_params(
             absl::StrCat("WITH recent AS (SELECT s.player_id, s.request_id, s.team,"
                          " row_number() OVER (PARTITION BY s.player_id"
                          " ORDER BY f.create_time DESC, s.request_id) AS n FROM ",
                          Table("seatings"), " s JOIN ", Table("formed_matches"),
                          " f USING (request_id) WHERE s.player_id = ANY($1::text[])"
                          " AND f.queue_id = $2 AND s.team >= 0)"
                          " SELECT r.player_id, p.player_id FROM recent r JOIN ",
                          Table("seatings"),
                          " p ON p.request_id = r.request_id AND p.team = r.team"
                          " AND p.player_id <> r.player_id WHERE r.n <= $3"
                          " ORDER BY r.player_id, r.n"),
             TextArray(players), queue_id, last_matches)) {
      partners[row[0].as<std::string>()].push_back(row[1].as<std::string>());
    }
    return partners;
  });
}

absl::StatusOr<std::map<std::string, std::string>> PgMatchmakingStore::TicketVersions(
    const std::vector<std::string>& ticket_ids) {
  return pool_.Run([&](pqxx::work& tx) {
    std::map<std::string, std::string> versions;
    for (const pqxx::row& row : tx.exec_params(
             absl::StrCat("SELECT ticket_id, xmin::text FROM ", Table("tickets"),
                          " WHERE ticket_id = ANY($1::text[])"),
             TextArray(ticket_ids))) {
      versions[row[0].as<std::string>()] = row[1].as<std::string>();
    }
    return versions;
  });
}

absl::StatusOr<std::map<std::string, int>> PgMatchmakingStore::SearchingCounts() {
  return pool_.Run([&](pqxx::work& tx) {
    std::map<std::string, int> counts;
    for (const pqxx::row& row :
         tx.exec(absl::StrCat("SELECT queue_id, count(*) FROM ", Table("tickets"),
                              " WHERE state = ", kTicketSearching, " GROUP BY queue_id"))) {
      counts[row[0].as<std::string>()] = row[1].as<int>();
    }
    return counts;
  });
}

absl::StatusOr<int> PgMatchmakingStore::CountSearching(const std::string& queue_id) {
  return pool_.Run([&](pqxx::work& tx) {
    return tx
        .exec_params1(absl::StrCat("SELECT count(*) FROM ", Table("tickets"),
                                   " WHERE queue_id = $1 AND state = ", kTicketSearching),
                      queue_id)[0]
        .as<int>();
  });
}

absl::StatusOr<int> PgMatchmakingStore::ExpireTickets(const std::string& queue_id,
                                                      absl::Time created_before,
                                                      absl::Time now) {
  return pool_.Run([&](pqxx::work& tx) {
    return EndSearchingTickets(tx, "queue_id", queue_id, kTicketExpired, now, created_before);
  });
}

absl::StatusOr<std::vector<bool>> PgMatchmakingStore::ClaimMatches(
    const std::vector<FormedMatchRow>& matches) {
  return pool_.Run([&](pqxx::work& tx) {
    // Set-based, so a pass's claims are a handful of statements and one commit however many
    // matches it formed. The tickets still searching are locked first, in ticket order (so two
    // processes claiming overlapping tickets queue rather than deadlock); a match is claimed
    // only if every one of its tickets is among them, and nothing of a match that is not
    // claimed is written.
    std::vector<std::string> wanted;
    for (const FormedMatchRow& match : matches) {
      wanted.insert(wanted.end(), match.tickets.begin(), match.tickets.end());
    }
    std::set<std::string> searching;
    for (const pqxx::row& row : tx.exec_params(
             absl::StrCat("SELECT ticket_id FROM ", Table("tickets"),
                          " WHERE ticket_id = ANY($1::text[]) AND state = ", kTicketSearching,
                          " ORDER BY ticket_id FOR UPDATE"),
             TextArray(wanted))) {
      searching.insert(row[0].as<std::string>());
    }
    std::vector<bool> claimed;
    claimed.reserve(matches.size());
    std::vector<std::string> ticket_ids, ticket_requests, ticket_times;
    std::vector<std::string> requests, queues, games, bodies, times;
    std::vector<std::string> seat_requests, seat_tickets, seat_players, chances;
    std::vector<int> seats, teams, bots;
    for (const FormedMatchRow& match : matches) {
      bool ok = !match.tickets.empty();
      for (const std::string& ticket : match.tickets) ok = ok && searching.contains(ticket);
      claimed.push_back(ok);
      if (!ok) continue;
      const std::string time = Timestamp(match.create_time);
      for (const std::string& ticket : match.tickets) {
        searching.erase(ticket);  // never in two matches, even if the caller asked
        ticket_ids.push_back(ticket);
        ticket_requests.push_back(match.request_id);
        ticket_times.push_back(time);
      }
      requests.push_back(match.request_id);
      queues.push_back(match.queue_id);
      games.push_back(match.game);
      bodies.push_back(absl::BytesToHexString(match.request));
      times.push_back(time);
      for (const SeatingRow& seat : match.seatings) {
        if (seat.ticket_id.empty()) continue;  // a bot's seat
        seat_requests.push_back(match.request_id);
        seats.push_back(seat.seat);
        seat_tickets.push_back(seat.ticket_id);
        seat_players.push_back(seat.player_id);
        teams.push_back(seat.team);
        chances.push_back(pg_text::Float(seat.win_chance));
        bots.push_back(seat.bots);
      }
    }
    if (requests.empty()) return claimed;
    tx.exec_params0(absl::StrCat("UPDATE ", Table("tickets"),
                                 " t SET state = $4, match_request = c.request,"
                                 " update_time = c.time::timestamptz"
                                 " FROM unnest($1::text[], $2::text[], $3::text[])"
                                 " AS c(ticket, request, time) WHERE t.ticket_id = c.ticket"),
                    TextArray(ticket_ids), TextArray(ticket_requests), TextArray(ticket_times),
                    kTicketForming);
    tx.exec_params0(absl::StrCat("INSERT INTO ", Table("formed_matches"),
                                 " (request_id, queue_id, game, request, create_time)"
                                 " SELECT r, q, g, decode(b, 'hex'), t::timestamptz FROM"
                                 " unnest($1::text[], $2::text[], $3::text[], $4::text[],"
                                 " $5::text[]) AS m(r, q, g, b, t)"),
                    TextArray(requests), TextArray(queues), TextArray(games), TextArray(bodies),
                    TextArray(times));
    tx.exec_params0(
        absl::StrCat("INSERT INTO ", Table("seatings"),
                     " (request_id, seat, ticket_id, player_id, team, win_chance, bots)"
                     " SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[],"
                     " $5::int[], $6::float8[], $7::int[])"),
        TextArray(seat_requests), IntArray(seats), TextArray(seat_tickets),
        TextArray(seat_players), IntArray(teams), TextArray(chances), IntArray(bots));
    return claimed;
  });
}

absl::Status PgMatchmakingStore::ClaimMatch(const FormedMatchRow& match) {
  absl::StatusOr<std::vector<bool>> claimed = ClaimMatches({match});
  if (!claimed.ok()) return claimed.status();
  if (!(*claimed)[0]) return absl::AbortedError("a ticket of the match is no longer searching");
  return absl::OkStatus();
}

absl::StatusOr<std::vector<FormedMatchRow>> PgMatchmakingStore::PendingMatches(
    int limit, const std::vector<std::string>& queue_ids) {
  return pool_.Run([&](pqxx::work& tx) {
    std::vector<FormedMatchRow> matches;
    for (const pqxx::row& row : tx.exec_params(
             absl::StrCat("SELECT request_id, queue_id, game, request, ",
                          EpochMicros("create_time"), " FROM ", Table("formed_matches"),
                          " f WHERE match_name IS NULL AND (queue_id = ANY($2::text[]) OR NOT"
                          " EXISTS (SELECT 1 FROM ",
                          Table("queues"),
                          " q WHERE q.queue_id = f.queue_id)) ORDER BY create_time LIMIT $1"),
             limit, pg_text::TextArray(queue_ids))) {
      matches.push_back({.request_id = row[0].as<std::string>(),
                         .queue_id = row[1].as<std::string>(),
                         .game = row[2].as<std::string>(),
                         .request = Bytes(row[3]),
                         .tickets = {},
                         .seatings = {},
                         .create_time = absl::FromUnixMicros(row[4].as<int64_t>())});
    }
    return matches;
  });
}

PgMatchmakingStore::QueueClaim::~QueueClaim() {
  try {
    pqxx::nontransaction tx(lease_.conn());
    tx.exec("SELECT pg_advisory_unlock_all()");
  } catch (const std::exception& e) {
    // Back in the pool still holding the locks, the connection would keep the queues from the
    // other processes for good: it goes, and its session's locks with it.
    spdlog::warn("matchmaker: releasing the queues failed ({}); dropping the connection", e.what());
    lease_.conn().disconnect();
  }
}

absl::StatusOr<std::unique_ptr<PgMatchmakingStore::QueueClaim>> PgMatchmakingStore::ClaimQueues(
    const std::vector<std::string>& queue_ids) {
  absl::StatusOr<PgPool::Lease> lease = pool_.Acquire(PgPool::kDefaultAcquireTimeout);
  if (!lease.ok()) return lease.status();
  std::vector<std::string> won;
  try {
    pqxx::nontransaction tx(lease->conn());
    // The schema in the first key keeps two systems on one database apart.
    for (const pqxx::row& row : tx.exec_params("SELECT q FROM unnest($1::text[]) AS q WHERE"
                                               " pg_try_advisory_lock(hashtext($2), hashtext(q))",
                                               pg_text::TextArray(queue_ids),
                                               absl::StrCat(schema_, ":matchmaker-queue"))) {
      won.push_back(row[0].as<std::string>());
    }
  } catch (const std::exception& e) {
    lease->conn().disconnect();  // whatever it took goes with the session
    return absl::UnavailableError(absl::StrCat("claiming the queues: ", e.what()));
  }
  return std::make_unique<QueueClaim>(*std::move(lease), std::move(won));
}

absl::Status PgMatchmakingStore::RecordCreated(const std::string& request_id,
                                               const std::string& match_name,
                                               const std::string& execution_target,
                                               const std::vector<std::string>& seat_tokens,
                                               absl::Time now) {
  std::vector<int> seats;
  std::vector<std::string> tokens;
  for (size_t seat = 0; seat < seat_tokens.size(); ++seat) {
    if (seat_tokens[seat].empty()) continue;
    seats.push_back(static_cast<int>(seat));
    tokens.push_back(seat_tokens[seat]);
  }
  return pool_.Run([&](pqxx::work& tx) {
    tx.exec_params0(absl::StrCat("UPDATE ", Table("formed_matches"),
                                 " SET match_name = $2, execution_target = $3"
                                 " WHERE request_id = $1 AND match_name IS NULL"),
                    request_id, match_name, execution_target);
    tx.exec_params0(absl::StrCat("UPDATE ", Table("seatings"),
                                 " s SET seat_token = t.token"
                                 " FROM unnest($2::int[], $3::text[]) AS t(seat, token)"
                                 " WHERE s.request_id = $1 AND s.seat = t.seat"),
                    request_id, IntArray(seats), TextArray(tokens));
    tx.exec_params(absl::StrCat("WITH matched AS (UPDATE ", Table("tickets"),
                                " SET state = $2, update_time = $3::timestamptz"
                                " WHERE match_request = $1 AND state = ",
                                kTicketForming, " RETURNING ticket_id) UPDATE ",
                                Table("ticket_players"),
                                " SET live = false WHERE ticket_id IN"
                                " (SELECT ticket_id FROM matched)"),
                   request_id, kTicketMatched, Timestamp(now));
  });
}

absl::Status PgMatchmakingStore::AbandonMatch(const std::string& request_id, absl::Time now) {
  return pool_.Run([&](pqxx::work& tx) {
    // Only a match still not created: another process may have created it meanwhile (its
    // creation recorded first), and then its seatings and tickets stay as they are.
    if (tx.exec_params(absl::StrCat("SELECT 1 FROM ", Table("formed_matches"),
                                    " WHERE request_id = $1 AND match_name IS NULL FOR UPDATE"),
                       request_id)
            .empty()) {
      return;
    }
    tx.exec_params(absl::StrCat("WITH ended AS (UPDATE ", Table("tickets"),
                                " SET state = $2, update_time = $3::timestamptz,"
                                " match_request = NULL WHERE match_request = $1 AND state = ",
                                kTicketForming, " RETURNING ticket_id) UPDATE ",
                                Table("ticket_players"),
                                " SET live = false WHERE ticket_id IN"
                                " (SELECT ticket_id FROM ended)"),
                   request_id, kTicketCancelled, Timestamp(now));
    tx.exec_params0(
        absl::StrCat("DELETE FROM ", Table("seatings"), " WHERE request_id = $1"), request_id);
    tx.exec_params0(absl::StrCat("DELETE FROM ", Table("formed_matches"),
                                 " WHERE request_id = $1 AND match_name IS NULL"),
                    request_id);
  });
}

absl::StatusOr<std::vector<PlayerMatchRow>> PgMatchmakingStore::PlayerMatches(
    const std::string& player_id, std::optional<absl::Time> before,
    const std::string& before_request, int limit) {
  return pool_.Run([&](pqxx::work& tx) {
    std::vector<PlayerMatchRow> matches;
    for (const pqxx::row& row : tx.exec_params(
             absl::StrCat("SELECT ", kSeatingColumns, ", f.queue_id, f.game, ",
                          EpochMicros("f.create_time"), ", f.result, ",
                          EpochMicros("f.end_time"), " FROM ", Table("seatings"), " s JOIN ",
                          Table("formed_matches"),
                          " f USING (request_id) WHERE s.player_id = $1"
                          " AND f.match_name IS NOT NULL"
                          " AND (f.create_time, s.request_id) < ($2::timestamptz, $3)"
                          " ORDER BY f.create_time DESC, s.request_id DESC LIMIT $4"),
             player_id, before.has_value() ? Timestamp(*before) : std::string("infinity"),
             before_request, limit)) {
      matches.push_back(
          {.seating = ReadSeating(row),
           .queue_id = row[10].as<std::string>(),
           .game = row[11].as<std::string>(),
           .create_time = absl::FromUnixMicros(row[12].as<int64_t>()),
           .result = row[13].is_null() ? std::string() : Bytes(row[13]),
           .end_time = OptionalTime(row[14])});
    }
    return matches;
  });
}

absl::StatusOr<std::optional<std::string>> PgMatchmakingStore::RecordResult(
    const std::string& match_name, const std::string& result, absl::Time end_time) {
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<std::optional<std::string>> {
    // Locked: two deliveries of one result at once record it once.
    const pqxx::result rows = tx.exec_params(
        absl::StrCat("SELECT result FROM ", Table("formed_matches"),
                     " WHERE match_name = $1 FOR UPDATE"),
        match_name);
    if (rows.empty()) return absl::NotFoundError("no such match formed here");
    if (!rows[0][0].is_null()) return std::optional<std::string>(Bytes(rows[0][0]));
    tx.exec_params0(absl::StrCat("UPDATE ", Table("formed_matches"),
                                 " SET result = $2::bytea, end_time = $3::timestamptz"
                                 " WHERE match_name = $1"),
                    match_name, Bytea(result), Timestamp(end_time));
    return std::optional<std::string>();
  });
}

}  // namespace boneyard::matchmaking
