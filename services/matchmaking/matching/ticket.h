// A ticket: one player, or a party matched whole, waiting in a queue.
#ifndef BONEYARD_SERVICES_MATCHMAKING_MATCHING_TICKET_H_
#define BONEYARD_SERVICES_MATCHMAKING_MATCHING_TICKET_H_

#include <string>
#include <vector>

#include "absl/time/time.h"
#include "services/ratings/model/weng_lin.h"

namespace boneyard::matchmaking {

struct Member {
  std::string player_id;
  ratings::SkillRating rating;
  // Whom the player partnered lately (the service keeps the history): a team split avoids
  // pairing them again when an almost as even split does not (team_split.h).
  std::vector<std::string> recent_partners = {};
};

struct Ticket {
  std::string id;
  // At least one; a party's members are never split between matches (nor, in a team format,
  // between teams).
  std::vector<Member> members;
  absl::Time enqueued;

  int size() const { return static_cast<int>(members.size()); }
  // Where the ticket stands in the queue: its members' mean skill (mu).
  double Skill() const {
    double total = 0;
    for (const Member& member : members) total += member.rating.mu;
    return members.empty() ? 0 : total / members.size();
  }
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_MATCHING_TICKET_H_
