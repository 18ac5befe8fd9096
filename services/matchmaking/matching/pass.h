// One matchmaking pass over a queue's waiting tickets: which matches to form now. The service
// runs a pass per queue at least once a second; a pass knows no gRPC, no database and no clock
// of its own (it is given `now`), so it is tested and benchmarked alone.
//
//   QueueRules rules;  rules.format = {.kind = FormatKind::kTeams, .teams = 2, .team_size = 2};
//   std::vector<FormedMatch> matches = RunPass(rules, tickets, absl::Now());
//   // Each FormedMatch names its tickets (indices into `tickets`, each in at most one match),
//   // its sides with every seat's player or bot, and each side's predicted chance to win.
//
// The formats:
// - Head-to-head (pairing.h): the most pairs whose players are within each other's rating
//   window, and among those the least total rating distance, by dynamic programming over the
//   tickets in rating order.
// - Teams and free-for-all: tickets are served oldest first; each gathers the tickets nearest
//   to it in rating (within both windows) until the table is full, and a team table is then
//   split into the teams whose predicted win chances are closest to even, over every split
//   that keeps parties whole (team_split.h). A free-for-all table short of max_players forms
//   once its oldest ticket has waited short_table_after; any table short of players is filled
//   with bots once its oldest ticket has waited bot_fill.after.
#ifndef BONEYARD_SERVICES_MATCHMAKING_MATCHING_PASS_H_
#define BONEYARD_SERVICES_MATCHMAKING_MATCHING_PASS_H_

#include <span>
#include <vector>

#include "absl/time/time.h"
#include "services/matchmaking/matching/queue_rules.h"
#include "services/matchmaking/matching/ticket.h"
#include "services/ratings/model/weng_lin.h"

namespace boneyard::matchmaking {

// A seat of a formed match: a ticket's member, or a bot.
struct SeatFill {
  int ticket = -1;  // index into the pass's tickets; -1 for a bot
  int member = -1;  // index into that ticket's members
  ratings::SkillRating rating;

  bool bot() const { return ticket < 0; }
};

struct FormedMatch {
  // The tickets it seats, each once, ascending.
  std::vector<int> tickets;
  // Head-to-head and free-for-all: one side per player. Teams: one side per team.
  std::vector<std::vector<SeatFill>> sides;
  // Each side's predicted chance to win (ratings::PredictWin); they add up to 1.
  std::vector<double> win_chance;
  int bots() const;
};

// The matches to form from `tickets` at `now`. Tickets larger than the format's max_party, or
// empty, are never matched (the service refuses them before they queue). Rules are assumed
// valid (ValidateRules).
std::vector<FormedMatch> RunPass(const QueueRules& rules, std::span<const Ticket> tickets,
                                 absl::Time now);

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_MATCHING_PASS_H_
