#include "services/matchmaking/matchmaker.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "services/common/engine_proto.h"
#include "services/matchmaking/logic_helpers.h"
#include "services/matchmaking/matching/pass.h"
#include "services/matchmaking/matchmaking_logic.h"
#include "services/matchmaking/queue_settings.h"
#include "spdlog/spdlog.h"

namespace boneyard::matchmaking {
namespace {

// The matching library's tickets, each member at their known rating or the model's initial one,
// with their recent partners.
std::vector<Ticket> MatchingTickets(
    const std::vector<TicketRow>& rows, const QueueRules& rules,
    const std::map<std::string, ratings::SkillRating>& known,
    const std::map<std::string, std::vector<std::string>>& partners) {
  std::vector<Ticket> tickets;
  tickets.reserve(rows.size());
  for (const TicketRow& row : rows) {
    Ticket ticket{.id = row.ticket_id, .members = {}, .enqueued = row.create_time};
    for (const std::string& player : row.players) {
      auto it = known.find(player);
      auto recent = partners.find(player);
      ticket.members.push_back(
          {.player_id = player,
           .rating = it != known.end() ? it->second : ratings::InitialRating(rules.model),
           .recent_partners =
               recent != partners.end() ? recent->second : std::vector<std::string>()});
    }
    tickets.push_back(std::move(ticket));
  }
  return tickets;
}

// The formed match as execution's request and as the store's row: seat by seat, a team
// format's sides sat in the engine's team seats (`teams`, read once per pass), the other
// formats' in order.
// The mean skill (mu) of a formed match's human players: what its bots are chosen by.
double PlayersSkill(const FormedMatch& formed, const std::vector<Ticket>& tickets) {
  double sum = 0;
  int humans = 0;
  for (const std::vector<SeatFill>& side : formed.sides) {
    for (const SeatFill& fill : side) {
      if (fill.bot()) continue;
      sum += tickets[fill.ticket].members[fill.member].rating.mu;
      ++humans;
    }
  }
  return humans > 0 ? sum / humans : 0;
}

absl::StatusOr<FormedMatchRow> Seat(const FormedMatch& formed, const v1::Queue& queue,
                                    const Teams& teams, const QueueRow& queue_row,
                                    const std::vector<TicketRow>& tickets,
                                    const std::vector<Ticket>& matching, absl::Time now) {
  int players = 0;
  for (const std::vector<SeatFill>& side : formed.sides) players += static_cast<int>(side.size());
  const bool team_format = queue.format().has_teams();
  if (team_format && teams.size() != formed.sides.size()) {
    return absl::InternalError("the engine's teams do not fit the formed sides");
  }

  FormedMatchRow row{.request_id = "",
                     .queue_id = queue_row.queue_id,
                     .game = queue.game(),
                     .request = "",
                     .tickets = {},
                     .seatings = std::vector<SeatingRow>(players),
                     .create_time = now};
  for (int index : formed.tickets) row.tickets.push_back(tickets[index].ticket_id);
  row.request_id = FormedMatchRequestId(row.tickets);

  v1::CreateMatchRequest request;
  request.set_game(queue.game());
  *request.mutable_rules() = queue.rules();
  if (queue.has_clock()) *request.mutable_clock() = queue.clock();
  request.set_request_id(row.request_id);
  // A casual queue's matches skip ratings, and so do matches with bots unless the queue's bot
  // fill says they count; every match's result comes back here.
  request.set_casual(!queue.rated() || (formed.bots() > 0 && !queue.bot_fill().rated()));
  request.set_queue(absl::StrCat("queues/", queue_row.queue_id));
  std::vector<v1::Seat> seats(players);
  const std::string bot_kind =
      formed.bots() > 0 ? FillBotKind(queue, PlayersSkill(formed, matching)) : "";
  int next_seat = 0;
  for (size_t side = 0; side < formed.sides.size(); ++side) {
    for (size_t k = 0; k < formed.sides[side].size(); ++k) {
      const SeatFill& fill = formed.sides[side][k];
      const int seat = team_format ? teams[side][k] : next_seat++;
      SeatingRow& seating = row.seatings[seat];
      seating.request_id = row.request_id;
      seating.seat = seat;
      seating.team = team_format ? static_cast<int>(side) : -1;
      seating.win_chance = formed.win_chance[side];
      seating.bots = formed.bots();
      if (fill.bot()) {
        seats[seat].mutable_bot()->set_kind(bot_kind);
      } else {
        const TicketRow& ticket = tickets[fill.ticket];
        seating.ticket_id = ticket.ticket_id;
        seating.player_id = ticket.players[fill.member];
        seats[seat].mutable_player()->set_player_id(seating.player_id);
      }
    }
  }
  for (v1::Seat& seat : seats) *request.add_seats() = std::move(seat);
  row.request = request.SerializeAsString();
  return row;
}

}  // namespace

bool RefusedForGood(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kOutOfRange:
      return true;
    default:
      // Unavailable, deadline, resource exhausted, a wrong token (fixed by the operator): the
      // match waits for the next pass.
      return false;
  }
}

std::string FormedMatchRequestId(std::vector<std::string> ticket_ids) {
  std::sort(ticket_ids.begin(), ticket_ids.end());
  // 128 bits of the tickets' digest: as unique as the tickets, within execution's 128 bytes.
  return absl::StrCat(
      "mm-", absl::BytesToHexString(TokenHash(absl::StrJoin(ticket_ids, "\n"))).substr(0, 32));
}

Matchmaker::Matchmaker(PgMatchmakingStore& store, MatchCreator& creator, MatchmakerOptions options)
    : store_(store),
      creator_(creator),
      options_(options),
      own_registry_(options_.metrics != nullptr ? nullptr
                                                : std::make_unique<prometheus::Registry>()),
      own_metrics_(options_.metrics != nullptr
                       ? nullptr
                       : std::make_unique<MatchmakerMetrics>(*own_registry_)),
      metrics_(options_.metrics != nullptr ? *options_.metrics : *own_metrics_),
      created_records_(
          [this](std::vector<CreatedRecord>& batch) { return store_.RecordCreatedMany(batch); },
          absl::UnavailableError("the matchmaker is stopping"), {.max_batch = 256}),
      loop_(options_.interval, [this](absl::Time started) {
        absl::StatusOr<PassReport> report = RunPass(started);
        if (!report.ok()) spdlog::warn("matchmaker: pass failed: {}", report.status().ToString());
      }) {}

Matchmaker::~Matchmaker() { Stop(); }

absl::Status Matchmaker::MatchQueue(const QueueRow& queue_row, absl::Time now, PassReport& report) {
  absl::StatusOr<v1::Queue> queue = QueueFromRow(queue_row);
  if (!queue.ok()) return queue.status();
  absl::Time phase_start = absl::Now();
  if (queue->has_max_wait() && FromDuration(queue->max_wait()) > absl::ZeroDuration()) {
    absl::StatusOr<int> expired =
        store_.ExpireTickets(queue_row.queue_id, now - FromDuration(queue->max_wait()), now);
    if (!expired.ok()) return expired.status();
    report.expired += *expired;
    metrics_.Expired(queue_row.queue_id, *expired);
  }
  absl::StatusOr<std::vector<TicketRow>> rows = store_.SearchingTickets(queue_row.queue_id);
  if (!rows.ok()) return rows.status();
  report.searching += static_cast<int>(rows->size());
  // Rows come oldest first.
  metrics_.Waiting(queue_row.queue_id, static_cast<int>(rows->size()),
                   rows->empty() ? absl::ZeroDuration() : now - rows->front().create_time);
  if (rows->empty()) return absl::OkStatus();
  const QueueRules rules = MatchingRulesOf(*queue);
  std::vector<std::string> players;
  for (const TicketRow& row : *rows) {
    players.insert(players.end(), row.players.begin(), row.players.end());
  }
  std::map<std::string, ratings::SkillRating> known;
  // A table of one (solitaire) balances nothing, and such games have no ratings to read.
  if (options_.ratings != nullptr && rules.format.seats() > 1) {
    known = options_.ratings->Ratings(queue->game(), players);
  }
  // Partners are kept apart only in team formats, so only they read the history.
  std::map<std::string, std::vector<std::string>> partners;
  if (queue->format().has_teams()) {
    absl::StatusOr<std::map<std::string, std::vector<std::string>>> recent =
        store_.RecentPartners(queue_row.queue_id, players, kRecentPartnerMatches);
    if (!recent.ok()) return recent.status();
    partners = *std::move(recent);
  }
  const std::vector<Ticket> tickets = MatchingTickets(*rows, rules, known, partners);
  // A team table's seats come from the engine: one Game for the pass, not one per match.
  Teams teams;
  if (queue->format().has_teams()) {
    absl::StatusOr<Teams> engine_teams = SeatTeams(*queue, rules.format.seats());
    if (!engine_teams.ok()) return engine_teams.status();
    teams = *std::move(engine_teams);
  }
  metrics_.Timed(MatchmakerMetrics::Phase::kRead, absl::Now() - phase_start);
  phase_start = absl::Now();
  const std::vector<FormedMatch> matches = matchmaking::RunPass(rules, tickets, now);
  std::vector<FormedMatchRow> formed;
  for (const FormedMatch& match : matches) {
    absl::StatusOr<FormedMatchRow> row = Seat(match, *queue, teams, queue_row, *rows, tickets, now);
    if (!row.ok()) return row.status();
    formed.push_back(*std::move(row));
  }
  metrics_.Timed(MatchmakerMetrics::Phase::kMatch, absl::Now() - phase_start);
  metrics_.Matches(queue_row.queue_id, MatchmakerMetrics::Outcome::kFormed,
                   static_cast<int>(formed.size()));
  report.formed += static_cast<int>(formed.size());
  if (formed.empty()) return absl::OkStatus();
  phase_start = absl::Now();
  absl::StatusOr<std::vector<bool>> claimed = store_.ClaimMatches(formed);
  if (!claimed.ok()) return claimed.status();
  int claimed_count = 0;
  for (bool ok : *claimed) {
    // Not claimed: a ticket went meanwhile; the match is dropped, its other tickets search on.
    ++(ok ? report.claimed : report.lost);
    claimed_count += ok ? 1 : 0;
  }
  metrics_.Timed(MatchmakerMetrics::Phase::kClaim, absl::Now() - phase_start);
  metrics_.Matches(queue_row.queue_id, MatchmakerMetrics::Outcome::kClaimed, claimed_count);
  metrics_.Matches(queue_row.queue_id, MatchmakerMetrics::Outcome::kLost,
                   static_cast<int>(formed.size()) - claimed_count);
  RecordClaimed(queue_row.queue_id, matches, *claimed, *rows, now);
  return absl::OkStatus();
}

void Matchmaker::RecordClaimed(const std::string& queue_id, const std::vector<FormedMatch>& formed,
                               const std::vector<bool>& claimed, const std::vector<TicketRow>& rows,
                               absl::Time now) {
  for (size_t i = 0; i < formed.size(); ++i) {
    if (!claimed[i]) continue;
    const FormedMatch& match = formed[i];
    for (int index : match.tickets) {
      metrics_.TicketMatched(queue_id, now - rows[index].create_time);
    }
    if (match.sides.size() == 2) metrics_.Balance(queue_id, match.win_chance[0]);
    int bots = 0;
    for (const std::vector<SeatFill>& side : match.sides) {
      for (const SeatFill& fill : side) bots += fill.bot() ? 1 : 0;
    }
    metrics_.BotSeats(queue_id, bots);
  }
}

absl::Status Matchmaker::CreateOne(const FormedMatchRow& match, absl::Time now,
                                   PassReport& report) {
  v1::CreateMatchRequest request;
  if (!request.ParseFromString(match.request)) {
    return absl::InternalError(absl::StrCat(match.request_id, ": stored request unreadable"));
  }
  absl::StatusOr<CreatedMatch> created = creator_.CreateMatch(request);
  if (created.ok()) {
    if (absl::Status s = created_records_.Submit({.request_id = match.request_id,
                                                  .match_name = created->name,
                                                  .execution_target = creator_.target(),
                                                  .seat_tokens = created->seat_tokens,
                                                  .now = now});
        !s.ok()) {
      return s;
    }
    metrics_.Matches(match.queue_id, MatchmakerMetrics::Outcome::kCreated, 1);
    absl::MutexLock lock(&report_mu_);
    ++report.created;
    return absl::OkStatus();
  }
  if (RefusedForGood(created.status())) {
    spdlog::error(
        "matchmaker: execution refused the match {} of queue {} for good ({}); "
        "its tickets are cancelled",
        match.request_id, match.queue_id, created.status().ToString());
    if (absl::Status s = store_.AbandonMatch(match.request_id, now); !s.ok()) return s;
    metrics_.Matches(match.queue_id, MatchmakerMetrics::Outcome::kRefused, 1);
    absl::MutexLock lock(&report_mu_);
    ++report.refused;
    return absl::OkStatus();
  }
  metrics_.CreationRetried();
  absl::MutexLock lock(&report_mu_);
  if (report.retry++ == 0) {
    spdlog::warn("matchmaker: creating {} failed ({}); retried next pass", match.request_id,
                 created.status().ToString());
  }
  return absl::UnavailableError("execution is out of reach");
}

absl::Status Matchmaker::CreatePending(const std::vector<std::string>& queue_ids, absl::Time now,
                                       PassReport& report) {
  absl::StatusOr<std::vector<FormedMatchRow>> pending =
      store_.PendingMatches(options_.max_creations_per_pass, queue_ids);
  if (!pending.ok()) return pending.status();
  // Several creations at once: each is a round trip to execution and a commit here, and
  // matches are independent. Once one finds execution out of reach, the rest wait for the
  // next pass instead of failing one by one.
  std::atomic<size_t> next = 0;
  std::atomic<bool> unreachable = false;
  absl::Mutex error_mu;
  absl::Status error;
  auto work = [&] {
    for (size_t i = next++; i < pending->size() && !unreachable; i = next++) {
      absl::Status s = CreateOne((*pending)[i], now, report);
      if (absl::IsUnavailable(s)) {
        unreachable = true;
      } else if (!s.ok()) {
        absl::MutexLock lock(&error_mu);
        if (error.ok()) error = s;
      }
    }
  };
  const size_t threads =
      std::min(pending->size(), static_cast<size_t>(std::max(1, options_.parallel_creations)));
  std::vector<std::thread> workers;
  for (size_t t = 1; t < threads; ++t) workers.emplace_back(work);
  work();
  for (std::thread& worker : workers) worker.join();
  return error;
}

absl::StatusOr<PassReport> Matchmaker::RunPass(absl::Time now) {
  const absl::Time started = absl::Now();
  absl::StatusOr<PassReport> report = PassOverQueues(now);
  metrics_.PassRan(report.ok());
  metrics_.Timed(MatchmakerMetrics::Phase::kTotal, absl::Now() - started);
  return report;
}

absl::StatusOr<PassReport> Matchmaker::PassOverQueues(absl::Time now) {
  PassReport report;
  absl::StatusOr<std::vector<QueueRow>> queues = store_.ListQueues("", "", 1 << 30);
  if (!queues.ok()) return queues.status();
  std::vector<std::string> ids;
  for (const QueueRow& queue : *queues) ids.push_back(queue.queue_id);
  // One pass per queue at a time across the replicas (docs/scaling.md): the queues another
  // process is matching now are its own this time; held until the matches formed are sent.
  absl::StatusOr<std::unique_ptr<PgMatchmakingStore::QueueClaim>> claim = store_.ClaimQueues(ids);
  if (!claim.ok()) return claim.status();
  const std::set<std::string> mine((*claim)->queues().begin(), (*claim)->queues().end());
  report.queues = static_cast<int>(mine.size());
  std::set<std::string> queue_ids;
  for (const QueueRow& queue : *queues) {
    if (!mine.contains(queue.queue_id)) continue;
    queue_ids.insert(queue.queue_id);
    // One queue's failure (its settings unreadable) does not hold up the others.
    if (absl::Status s = MatchQueue(queue, now, report); !s.ok()) {
      if (absl::IsUnavailable(s)) return s;  // the database: the next pass tries again
      spdlog::error("matchmaker: queue {}: {}", queue.queue_id, s.ToString());
    }
  }
  metrics_.KeepQueues(queue_ids);
  const absl::Time creations = absl::Now();
  if (absl::Status s = CreatePending((*claim)->queues(), now, report); !s.ok()) return s;
  metrics_.Timed(MatchmakerMetrics::Phase::kCreate, absl::Now() - creations);
  return report;
}

void Matchmaker::Start() { loop_.Start(); }

void Matchmaker::Stop() { loop_.Stop(); }

void Matchmaker::Wake() { loop_.Wake(); }

}  // namespace boneyard::matchmaking
