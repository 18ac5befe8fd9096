// MatchmakingLogic's tickets and match history. A ticket is its players' (and the operator's):
// anyone else is PERMISSION_DENIED, and a seat token is shown only to the player it seats.
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "google/protobuf/util/message_differencer.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "services/common/engine_proto.h"
#include "services/common/tokens.h"
#include "services/common/validation.h"
#include "services/matchmaking/logic_helpers.h"
#include "services/matchmaking/matchmaking_logic.h"
#include "services/matchmaking/queue_settings.h"

namespace boneyard::matchmaking {
namespace {

v1::Ticket::State VisibleState(int stored) {
  // FORMING is SEARCHING to everyone outside: the match is not there to play yet.
  return stored == kTicketForming ? v1::Ticket::SEARCHING : static_cast<v1::Ticket::State>(stored);
}

v1::Assignment ToAssignment(const SeatingRow& seating, const std::optional<std::string>& viewer) {
  v1::Assignment assignment;
  assignment.set_player(absl::StrCat("players/", seating.player_id));
  assignment.set_match(seating.match_name);
  assignment.set_execution_target(seating.execution_target);
  assignment.set_seat(seating.seat);
  assignment.set_team(seating.team);
  if (viewer.has_value() && *viewer == seating.player_id) {
    assignment.set_seat_token(seating.seat_token);
  }
  assignment.set_win_chance(seating.win_chance);
  assignment.set_bots(seating.bots);
  return assignment;
}

v1::Ticket ToProto(const TicketRow& row, const std::optional<std::string>& viewer) {
  v1::Ticket ticket;
  ticket.set_name(absl::StrCat("tickets/", row.ticket_id));
  ticket.set_queue(absl::StrCat("queues/", row.queue_id));
  for (const std::string& player : row.players) {
    ticket.add_players(absl::StrCat("players/", player));
  }
  if (!row.party_id.empty()) ticket.set_party(absl::StrCat("parties/", row.party_id));
  ticket.set_state(VisibleState(row.state));
  if (row.state == kTicketMatched) {
    for (const std::string& player : row.players) {
      for (const SeatingRow& seating : row.seatings) {
        if (seating.player_id == player) *ticket.add_assignments() = ToAssignment(seating, viewer);
      }
    }
  }
  *ticket.mutable_create_time() = ToTimestamp(row.create_time);
  *ticket.mutable_update_time() = ToTimestamp(row.update_time);
  return ticket;
}

// What a repeat of CreateTicket must match to be the same request.
std::string TicketDigest(const std::string& queue_id, const std::string& party_id) {
  return absl::StrCat(queue_id.size(), ":", queue_id, party_id);
}

// The cursor of a match history: the last row's creation (epoch microseconds) and request id.
std::string HistoryCursor(const PlayerMatchRow& row) {
  return absl::StrCat(absl::ToUnixMicros(row.create_time), ":", row.seating.request_id);
}

}  // namespace

absl::StatusOr<std::optional<std::string>> MatchmakingLogic::TicketViewer(
    const std::optional<std::string>& token) {
  if (auth_.Classify(token) == Authenticator::Role::kOperator) return std::optional<std::string>();
  absl::StatusOr<std::string> player = CallingPlayer(token);
  if (!player.ok()) return player.status();
  return std::optional<std::string>(*std::move(player));
}

absl::StatusOr<TicketRow> MatchmakingLogic::ReadTicket(const std::string& name,
                                                       const std::optional<std::string>& viewer) {
  absl::StatusOr<std::string> id = ParseName(name, "tickets", "name");
  if (!id.ok()) return id.status();
  absl::StatusOr<std::optional<TicketRow>> row = store_.GetTicket(*id);
  if (!row.ok()) return row.status();
  if (!row->has_value()) {
    return absl::NotFoundError(absl::StrCat("no ticket ", validation::Quote(*id)));
  }
  const std::vector<std::string>& players = (*row)->players;
  if (viewer.has_value() && std::find(players.begin(), players.end(), *viewer) == players.end()) {
    return absl::PermissionDeniedError("a ticket is seen only by the players it seats");
  }
  return **std::move(row);
}

std::optional<SoloTicketRequest> MatchmakingLogic::SoloRequest(
    const std::optional<std::string>& token, const v1::CreateTicketRequest& request) const {
  if (!request.party().empty() || !token.has_value() || token->empty() ||
      auth_.Classify(token) == Authenticator::Role::kOperator) {
    return std::nullopt;
  }
  absl::StatusOr<std::string> queue_id = ParseName(request.queue(), "queues", "queue");
  if (!queue_id.ok() || !validation::CheckOptionalId("request_id", request.request_id(),
                                                     validation::kMaxRequestIdBytes)
                             .ok()) {
    return std::nullopt;
  }
  return SoloTicketRequest{.token_hash = TokenHash(*token),
                           .queue_id = *queue_id,
                           .request_id = request.request_id(),
                           .digest = TicketDigest(*queue_id, ""),
                           .ticket_id = absl::BytesToHexString(RandomBytes(8)),
                           .create_time = StoredNow()};
}

void MatchmakingLogic::CreateTicket(const std::optional<std::string>& token,
                                    const v1::CreateTicketRequest& request, TicketDone done) {
  std::optional<SoloTicketRequest> solo = SoloRequest(token, request);
  ticket_writer_.Submit(TicketJob{.token = token, .request = request, .solo = std::move(solo)},
                        std::move(done));
}

std::vector<absl::StatusOr<v1::Ticket>> MatchmakingLogic::CommitTickets(
    std::vector<TicketJob>& jobs) {
  std::vector<absl::StatusOr<v1::Ticket>> answers(jobs.size(),
                                                  absl::InternalError("not answered"));
  // The common case first, the batch's one-player tickets with one commit for them all.
  std::vector<SoloTicketRequest> solos;
  std::vector<size_t> solo_jobs;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!jobs[i].solo.has_value()) continue;
    solos.push_back(*jobs[i].solo);
    solo_jobs.push_back(i);
  }
  std::vector<bool> alone(jobs.size(), true);
  if (!solos.empty()) {
    absl::StatusOr<std::vector<absl::StatusOr<TicketRow>>> stored =
        store_.InsertSoloTickets(solos);
    // The batch's transaction failed (another process inserted one of its players' tickets
    // meanwhile, or the database): each request again on its own, with its own answer.
    for (size_t k = 0; stored.ok() && k < solo_jobs.size(); ++k) {
      alone[solo_jobs[k]] = false;
      const absl::StatusOr<TicketRow>& row = (*stored)[k];
      answers[solo_jobs[k]] =
          row.ok() ? absl::StatusOr<v1::Ticket>(ToProto(*row, row->players.front()))
                   : absl::StatusOr<v1::Ticket>(row.status());
    }
  }
  bool any = false;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (alone[i]) answers[i] = CreateTicketAlone(jobs[i].token, jobs[i].request);
    any = any || answers[i].ok();
  }
  if (any && options_.on_ticket) options_.on_ticket();
  return answers;
}

absl::StatusOr<v1::Ticket> MatchmakingLogic::CreateTicketAlone(
    const std::optional<std::string>& token, const v1::CreateTicketRequest& request) {
  absl::StatusOr<std::string> caller = CallingPlayer(token);
  if (!caller.ok()) return caller.status();
  absl::StatusOr<std::string> queue_id = ParseName(request.queue(), "queues", "queue");
  if (!queue_id.ok()) return queue_id.status();
  std::string party_id;
  if (!request.party().empty()) {
    absl::StatusOr<std::string> id = ParseName(request.party(), "parties", "party");
    if (!id.ok()) return id.status();
    party_id = *id;
  }
  if (absl::Status s = validation::CheckOptionalId("request_id", request.request_id(),
                                                   validation::kMaxRequestIdBytes);
      !s.ok()) {
    return s;
  }
  absl::StatusOr<std::optional<QueueRow>> queue_row = store_.GetQueue(*queue_id);
  if (!queue_row.ok()) return queue_row.status();
  if (!queue_row->has_value()) {
    return absl::NotFoundError(absl::StrCat("no queue ", validation::Quote(*queue_id)));
  }
  absl::StatusOr<v1::Queue> queue = QueueFromRow(**queue_row);
  if (!queue.ok()) return queue.status();

  std::vector<std::string> players = {*caller};
  if (!party_id.empty()) {
    absl::StatusOr<std::optional<PartyRow>> party = store_.GetParty(party_id);
    if (!party.ok()) return party.status();
    if (!party->has_value()) {
      return absl::NotFoundError(absl::StrCat("no party ", validation::Quote(party_id)));
    }
    if ((*party)->leader != *caller) {
      return absl::PermissionDeniedError("only the party's leader queues it");
    }
    players = (*party)->members;
  }
  const Format format = MatchingRulesOf(*queue).format;
  if (static_cast<int>(players.size()) > format.max_party()) {
    return Invalid("party", absl::StrCat("has ", players.size(), " members; this queue takes "
                                         "parties of at most ", format.max_party()));
  }
  const absl::Time now = StoredNow();
  const TicketRow row{.ticket_id = absl::BytesToHexString(RandomBytes(8)),
                      .queue_id = *queue_id,
                      .party_id = party_id,
                      .state = kTicketSearching,
                      .match_request = "",
                      .players = std::move(players),
                      .create_time = now,
                      .update_time = now,
                      .seatings = {}};
  absl::StatusOr<TicketRow> stored = store_.InsertTicket(
      row, *caller, request.request_id(), TicketDigest(*queue_id, party_id));
  if (!stored.ok()) return stored.status();
  return ToProto(*stored, *caller);
}

absl::StatusOr<v1::Ticket> MatchmakingLogic::GetTicket(const std::optional<std::string>& token,
                                                       const v1::GetTicketRequest& request) {
  absl::StatusOr<std::optional<std::string>> viewer = TicketViewer(token);
  if (!viewer.ok()) return viewer.status();
  absl::StatusOr<TicketRow> row = ReadTicket(request.name(), *viewer);
  if (!row.ok()) return row.status();
  return ToProto(*row, *viewer);
}

absl::StatusOr<v1::Ticket> MatchmakingLogic::CancelTicket(
    const std::optional<std::string>& token, const v1::CancelTicketRequest& request) {
  absl::StatusOr<std::optional<std::string>> viewer = TicketViewer(token);
  if (!viewer.ok()) return viewer.status();
  absl::StatusOr<TicketRow> row = ReadTicket(request.name(), *viewer);
  if (!row.ok()) return row.status();
  absl::StatusOr<TicketRow> cancelled = store_.CancelTicket(row->ticket_id, StoredNow());
  if (!cancelled.ok()) return cancelled.status();
  return ToProto(*cancelled, *viewer);
}

v1::TicketUpdate MatchmakingLogic::UpdateOf(const TicketRow& row,
                                            const std::optional<std::string>& viewer,
                                            const std::optional<QueueRow>& queue_row,
                                            int searching, absl::Time now) {
  v1::TicketUpdate update;
  *update.mutable_ticket() = ToProto(row, viewer);
  if (update.ticket().state() != v1::Ticket::SEARCHING) return update;
  if (!queue_row.has_value()) return update;  // deleted meanwhile: the ticket ends next
  absl::StatusOr<v1::Queue> queue = QueueFromRow(*queue_row);
  if (!queue.ok()) return update;  // unreadable settings: the ticket itself is still news
  const absl::Duration waited = now - row.create_time;
  v1::SearchProgress& search = *update.mutable_search();
  search.set_window(MatchingRulesOf(*queue).widening.At(waited));
  *search.mutable_waited() = ToDuration(waited);
  search.set_queue_size(searching);
  return update;
}

absl::StatusOr<std::unique_ptr<TicketWatch>> MatchmakingLogic::WatchTicket(
    const std::optional<std::string>& token, const v1::WatchTicketRequest& request) {
  absl::StatusOr<std::optional<std::string>> viewer = TicketViewer(token);
  if (!viewer.ok()) return viewer.status();
  absl::StatusOr<TicketRow> row = ReadTicket(request.name(), *viewer);
  if (!row.ok()) return row.status();
  std::optional<QueueRow> queue;
  int searching = 0;
  if (row->state == kTicketSearching) {
    absl::StatusOr<std::optional<QueueRow>> queue_row = store_.GetQueue(row->queue_id);
    if (!queue_row.ok()) return queue_row.status();
    queue = *std::move(queue_row);
    absl::StatusOr<int> count = store_.CountSearching(row->queue_id);
    if (!count.ok()) return count.status();
    searching = *count;
  }
  v1::TicketUpdate first = UpdateOf(*row, *viewer, queue, searching, absl::Now());
  return std::make_unique<TicketWatch>(*this, *std::move(viewer), *std::move(row),
                                       std::move(first), feed_);
}

TicketWatch::TicketWatch(MatchmakingLogic& logic, std::optional<std::string> viewer,
                         TicketRow row, v1::TicketUpdate first, TicketFeed& feed)
    : logic_(logic),
      viewer_(std::move(viewer)),
      row_(std::move(row)),
      last_(std::move(first)),
      last_sent_(absl::Now()),
      watch_(feed, row_.ticket_id) {}

absl::StatusOr<std::optional<v1::TicketUpdate>> TicketWatch::Next(absl::Time deadline) {
  const absl::Time progress_due = last_sent_ + kWatchProgressInterval;
  if (watch_.WaitForChange(std::min(deadline, progress_due))) {
    absl::StatusOr<TicketRow> row =
        logic_.ReadTicket(absl::StrCat("tickets/", row_.ticket_id), viewer_);
    if (!row.ok()) return row.status();
    const std::optional<QueueRow> queue = logic_.feed_.Queue(row->queue_id);
    v1::TicketUpdate update = MatchmakingLogic::UpdateOf(
        *row, viewer_, queue, logic_.feed_.Searching(row->queue_id).value_or(0), absl::Now());
    if (update.ticket().SerializeAsString() != last_.ticket().SerializeAsString()) {
      last_ = update;
      last_sent_ = absl::Now();
      return std::optional<v1::TicketUpdate>(std::move(update));
    }
  }
  if (done() || absl::Now() < progress_due) return std::optional<v1::TicketUpdate>();
  // Nothing changed: the search's progress from what the feed read, without a database read.
  const std::optional<QueueRow> queue = logic_.feed_.Queue(row_.queue_id);
  if (!queue.has_value()) return std::optional<v1::TicketUpdate>();  // not read yet, or gone
  TicketRow row = row_;
  row.state = kTicketSearching;
  v1::TicketUpdate update = MatchmakingLogic::UpdateOf(
      row, viewer_, queue,
      logic_.feed_.Searching(row_.queue_id).value_or(last_.search().queue_size()), absl::Now());
  *update.mutable_ticket() = last_.ticket();
  last_ = update;
  last_sent_ = absl::Now();
  return std::optional<v1::TicketUpdate>(std::move(update));
}

absl::StatusOr<v1::ListPlayerMatchesResponse> MatchmakingLogic::ListPlayerMatches(
    const v1::ListPlayerMatchesRequest& request) {
  absl::StatusOr<std::string> id = ParseName(request.name(), "players", "name");
  if (!id.ok()) return id.status();
  absl::StatusOr<ListPage> page =
      OpenPage(request.page_size(), request.page_token(), {"player_matches", *id});
  if (!page.ok()) return page.status();
  absl::StatusOr<std::optional<PlayerRow>> player = store_.GetPlayer(*id);
  if (!player.ok()) return player.status();
  if (!player->has_value()) {
    return absl::NotFoundError(absl::StrCat("no player ", validation::Quote(*id)));
  }
  std::optional<absl::Time> before;
  std::string before_request;
  if (!page->after.empty()) {
    // The cursor is ours (signed), so it parses; checked all the same.
    std::pair<std::string, std::string> parts =
        absl::StrSplit(page->after, absl::MaxSplits(':', 1));
    int64_t micros = 0;
    if (!absl::SimpleAtoi(parts.first, &micros)) return Invalid("page_token", "is not ours");
    before = absl::FromUnixMicros(micros);
    before_request = parts.second;
  }
  absl::StatusOr<std::vector<PlayerMatchRow>> rows =
      store_.PlayerMatches(*id, before, before_request, page->size + 1);
  if (!rows.ok()) return rows.status();
  const bool more = static_cast<int>(rows->size()) > page->size;
  if (more) rows->pop_back();
  v1::ListPlayerMatchesResponse response;
  for (const PlayerMatchRow& row : *rows) {
    v1::PlayerMatch& match = *response.add_matches();
    match.set_match(row.seating.match_name);
    match.set_queue(absl::StrCat("queues/", row.queue_id));
    match.set_game(row.game);
    match.set_seat(row.seating.seat);
    match.set_team(row.seating.team);
    match.set_win_chance(row.seating.win_chance);
    *match.mutable_create_time() = ToTimestamp(row.create_time);
    if (!row.result.empty() && !match.mutable_result()->ParseFromString(row.result)) {
      return absl::InternalError(
          absl::StrCat(row.seating.match_name, ": stored result unreadable"));
    }
    if (row.end_time.has_value()) *match.mutable_end_time() = ToTimestamp(*row.end_time);
  }
  if (more) response.set_next_page_token(NextPageToken(*page, HistoryCursor(rows->back())));
  return response;
}

absl::StatusOr<v1::RecordMatchResultResponse> MatchmakingLogic::RecordMatchResult(
    const std::optional<std::string>& token, const v1::RecordMatchResultRequest& request) {
  switch (auth_.Classify(token)) {
    case Authenticator::Role::kService:
      break;
    case Authenticator::Role::kNone:
      return absl::UnauthenticatedError("missing bearer token");
    case Authenticator::Role::kOperator:
      return absl::PermissionDeniedError("results come from execution, with the results token");
    case Authenticator::Role::kOther: {
      absl::StatusOr<std::optional<std::string>> player = PlayerOf(token);
      if (!player.ok()) return player.status();
      if (player->has_value()) {
        return absl::PermissionDeniedError(
            "results come from execution, with the results token");
      }
      return absl::UnauthenticatedError("unknown token");
    }
  }
  const v1::Match& match = request.match();
  absl::StatusOr<std::string> id = ParseName(match.name(), "matches", "match.name");
  if (!id.ok()) return id.status();
  if (match.state() != v1::Match::FINISHED || !match.has_result()) {
    return Invalid("match", "is not FINISHED with a result");
  }
  if (!match.has_end_time()) return Invalid("match.end_time", "is missing");
  absl::StatusOr<std::optional<std::string>> before =
      store_.RecordResult(match.name(), match.result().SerializeAsString(),
                          FromTimestamp(match.end_time()));
  if (absl::IsNotFound(before.status()) && options_.elsewhere_results) {
    before = options_.elsewhere_results(match.name(), match.result().SerializeAsString(),
                                         FromTimestamp(match.end_time()));
  }
  if (absl::IsNotFound(before.status())) {
    return absl::NotFoundError(
        absl::StrCat(match.name(), " was not formed here, or its creation is not recorded yet"));
  }
  if (!before.ok()) return before.status();
  v1::RecordMatchResultResponse response;
  if (before->has_value()) {
    v1::MatchResult recorded;
    // Compared as messages: a result's details (a Struct, a map) serialize in any order.
    if (!recorded.ParseFromString(**before) ||
        !google::protobuf::util::MessageDifferencer::Equals(recorded, match.result())) {
      return absl::AlreadyExistsError(
          absl::StrCat(match.name(), ": a different result was recorded before"));
    }
    response.set_already_recorded(true);
  }
  return response;
}

}  // namespace boneyard::matchmaking
