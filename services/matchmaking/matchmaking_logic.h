// The matchmaking service's logic, with no gRPC in it: token checks, request validation, page
// tokens and the store. The gRPC handlers (matchmaking_service.cc) only decode, call and
// encode; tests drive this class directly as well.
//
// Tokens are the call's bearer token (nullopt when it had none). A player's token is stored
// only as its SHA-256: a stolen database holds no usable token. A missing or unknown token is
// UNAUTHENTICATED, a known one that does not grant the call PERMISSION_DENIED.
#ifndef BONEYARD_SERVICES_MATCHMAKING_MATCHMAKING_LOGIC_H_
#define BONEYARD_SERVICES_MATCHMAKING_MATCHMAKING_LOGIC_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "boneyard/v1/matchmaking.pb.h"
#include "services/common/batch_queue.h"
#include "services/common/page_token.h"
#include "services/common/tokens.h"
#include "services/matchmaking/pg_matchmaking_store.h"
#include "services/matchmaking/ticket_feed.h"

namespace boneyard::matchmaking {

// The most members a party has.
inline constexpr int kMaxPartyMembers = 8;

// A display name: 1 to this many characters (Unicode code points).
inline constexpr int kMaxDisplayNameChars = 40;

struct MatchmakingOptions {
  std::string operator_token;
  // Anyone may create a HUMAN account (CreatePlayer without a token).
  bool open_registration = false;
  // The token execution presents with finished matches' results; empty: none is accepted.
  std::string results_token;
  // Called after each new ticket is stored (the matchmaker's Wake); may be empty.
  std::function<void()> on_ticket = nullptr;
  // Records a result for a match no queue formed: a tournament's game
  // (TournamentLogic::RecordGameResult) or a ladder challenge's (LadderLogic::RecordGameResult),
  // whichever knows it (main.cc asks both): nullopt when recorded now, the result recorded
  // before otherwise, NOT_FOUND when neither formed it. May be empty.
  std::function<absl::StatusOr<std::optional<std::string>>(
      const std::string& match_name, const std::string& result, absl::Time end_time)>
      elsewhere_results = nullptr;
};

// The SHA-256 of a token, as stored.
std::string TokenHash(absl::string_view token);

// The display name folded for uniqueness: ASCII letters lowered, everything else as written.
std::string FoldDisplayName(absl::string_view name);

// OK, or INVALID_ARGUMENT naming `display_name`: 1-40 characters of valid UTF-8, no control
// characters (tab and newline included), no white space at either end.
absl::Status CheckDisplayName(absl::string_view name);

class MatchmakingLogic;

// How often a WatchTicket stream, while its ticket searches, sends the search's progress even
// when nothing else changed.
inline constexpr absl::Duration kWatchProgressInterval = absl::Seconds(1);

// One WatchTicket stream between its messages. The ticket is read again only when the change
// feed (ticket_feed.h) saw it change; the progress in between is built from what the feed read.
class TicketWatch {
 public:
  TicketWatch(MatchmakingLogic& logic, std::optional<std::string> viewer, TicketRow row,
              v1::TicketUpdate first, TicketFeed& feed);

  // The first message: the ticket as it is, with its progress while it searches.
  const v1::TicketUpdate& first() const { return last_; }
  // The next message, if there is one by `deadline`: the ticket after a change, or the search's
  // progress once kWatchProgressInterval has passed since the last message. The stream ends
  // after a message whose ticket no longer searches (done()).
  absl::StatusOr<std::optional<v1::TicketUpdate>> Next(absl::Time deadline);
  bool done() const { return last_.ticket().state() != v1::Ticket::SEARCHING; }

 private:
  MatchmakingLogic& logic_;
  const std::optional<std::string> viewer_;
  const TicketRow row_;  // as first read: its id, queue and creation
  v1::TicketUpdate last_;
  absl::Time last_sent_;
  TicketFeed::Watch watch_;
};

class MatchmakingLogic {
 public:
  // `store` must outlive the logic.
  MatchmakingLogic(PgMatchmakingStore& store, MatchmakingOptions options);

  MatchmakingLogic(const MatchmakingLogic&) = delete;
  MatchmakingLogic& operator=(const MatchmakingLogic&) = delete;

  // All of them block on the database.
  absl::StatusOr<v1::CreatePlayerResponse> CreatePlayer(const std::optional<std::string>& token,
                                                        const v1::CreatePlayerRequest& request);
  // Public, but "players/me" needs the player's own token.
  absl::StatusOr<v1::PlayerAccount> GetPlayer(const std::optional<std::string>& token,
                                              const v1::GetPlayerRequest& request);
  absl::StatusOr<v1::ListPlayersResponse> ListPlayers(const v1::ListPlayersRequest& request);
  absl::StatusOr<v1::RotatePlayerTokenResponse> RotatePlayerToken(
      const std::optional<std::string>& token, const v1::RotatePlayerTokenRequest& request);

  // Queues: the writes are the operator's.
  absl::StatusOr<v1::Queue> CreateQueue(const std::optional<std::string>& token,
                                        const v1::CreateQueueRequest& request);
  absl::StatusOr<v1::Queue> GetQueue(const v1::GetQueueRequest& request);
  absl::StatusOr<v1::ListQueuesResponse> ListQueues(const v1::ListQueuesRequest& request);
  absl::StatusOr<v1::Queue> UpdateQueue(const std::optional<std::string>& token,
                                        const v1::UpdateQueueRequest& request);
  absl::Status DeleteQueue(const std::optional<std::string>& token,
                           const v1::DeleteQueueRequest& request);

  // Parties: a player's (the operator may look and remove members).
  absl::StatusOr<v1::Party> CreateParty(const std::optional<std::string>& token);
  absl::StatusOr<v1::Party> JoinParty(const std::optional<std::string>& token,
                                      const v1::JoinPartyRequest& request);
  absl::StatusOr<v1::Party> LeaveParty(const std::optional<std::string>& token,
                                       const v1::LeavePartyRequest& request);
  absl::StatusOr<v1::Party> GetParty(const std::optional<std::string>& token,
                                     const v1::GetPartyRequest& request);

  // Tickets (ticket_calls.cc): the players' own (the operator may look and cancel). A seat
  // token is shown only to the player it seats.
  //
  // CreateTicket never blocks: `done` gets the answer on the ticket writer's thread once the
  // ticket is committed, with the others that arrived meanwhile (one-player tickets in one
  // transaction; a party's on its own).
  using TicketDone = std::function<void(absl::StatusOr<v1::Ticket>)>;
  void CreateTicket(const std::optional<std::string>& token,
                    const v1::CreateTicketRequest& request, TicketDone done);
  absl::StatusOr<v1::Ticket> GetTicket(const std::optional<std::string>& token,
                                       const v1::GetTicketRequest& request);
  absl::StatusOr<v1::Ticket> CancelTicket(const std::optional<std::string>& token,
                                          const v1::CancelTicketRequest& request);
  // A WatchTicket stream: checks the caller and reads the ticket (its first message).
  absl::StatusOr<std::unique_ptr<TicketWatch>> WatchTicket(
      const std::optional<std::string>& token, const v1::WatchTicketRequest& request);
  // A player's matches, newest first (public, as ratings' history is).
  absl::StatusOr<v1::ListPlayerMatchesResponse> ListPlayerMatches(
      const v1::ListPlayerMatchesRequest& request);
  // A finished match's result from execution's outbox (the results token).
  absl::StatusOr<v1::RecordMatchResultResponse> RecordMatchResult(
      const std::optional<std::string>& token, const v1::RecordMatchResultRequest& request);

 private:
  // A list's page, by id: the page size and the id the page starts after ("" for the first),
  // from a request's page_size and page_token issued for `identity` (its filters).
  struct ListPage {
    int size = 0;
    std::string after;
    std::vector<std::string> identity;
  };
  absl::StatusOr<ListPage> OpenPage(int page_size, const std::string& page_token,
                                    std::vector<std::string> identity) const;
  // The token of the page after `page`, whose last row is `last_id`.
  std::string NextPageToken(const ListPage& page, const std::string& last_id) const;

  // OK for the operator token; UNAUTHENTICATED or PERMISSION_DENIED (a player's token).
  absl::Status RequireOperator(const std::optional<std::string>& token);
  // The player whose token it is: UNAUTHENTICATED for none or an unknown one,
  // PERMISSION_DENIED for the operator's (who is no player).
  absl::StatusOr<std::string> CallingPlayer(const std::optional<std::string>& token);
  // Who may see a ticket: the operator (nullopt) or the player whose token it is.
  absl::StatusOr<std::optional<std::string>> TicketViewer(const std::optional<std::string>& token);
  // The ticket `name` names, if `viewer` (nullopt: the operator) may see it.
  absl::StatusOr<TicketRow> ReadTicket(const std::string& name,
                                       const std::optional<std::string>& viewer);
  // The player a token belongs to; nullopt for none (or no token).
  absl::StatusOr<std::optional<std::string>> PlayerOf(const std::optional<std::string>& token);
  friend class TicketWatch;
  // The ticket and, while it searches, its progress: from the queue's settings, the wait at
  // `now`, and `searching` tickets in the queue.
  static v1::TicketUpdate UpdateOf(const TicketRow& row, const std::optional<std::string>& viewer,
                                   const std::optional<QueueRow>& queue, int searching,
                                   absl::Time now);
  // A CreateTicket waiting for the ticket writer: `solo` when it is a well-formed one-player
  // request (committed with the others), else it is answered on its own by CreateTicketAlone.
  struct TicketJob {
    std::optional<std::string> token;
    v1::CreateTicketRequest request;
    std::optional<SoloTicketRequest> solo;
  };
  // The ticket writer's batch: the one-player tickets in one transaction, the others each alone.
  std::vector<absl::StatusOr<v1::Ticket>> CommitTickets(std::vector<TicketJob>& jobs);
  // CreateTicket with every check in order and a transaction of its own.
  absl::StatusOr<v1::Ticket> CreateTicketAlone(const std::optional<std::string>& token,
                                               const v1::CreateTicketRequest& request);
  // A one-player CreateTicket as the batch takes it; nullopt when the request is not one, or
  // is malformed (CreateTicketAlone's checks then answer it, in their order).
  std::optional<SoloTicketRequest> SoloRequest(const std::optional<std::string>& token,
                                               const v1::CreateTicketRequest& request) const;

  PgMatchmakingStore& store_;
  const MatchmakingOptions options_;
  const Authenticator auth_;
  const PageTokens page_tokens_;
  // What WatchTicket streams wait on.
  TicketFeed feed_;
  // CreateTicket's writer: one-player tickets many to a transaction
  // (PgMatchmakingStore::InsertSoloTickets).
  BatchQueue<TicketJob, absl::StatusOr<v1::Ticket>> ticket_writer_;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_MATCHMAKING_LOGIC_H_
