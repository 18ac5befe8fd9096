#include "services/matchmaking/matching/pass.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "services/matchmaking/matching/pairing.h"
#include "services/matchmaking/matching/team_split.h"

namespace boneyard::matchmaking {
namespace {

using ratings::SkillRating;

std::vector<double> Chances(const QueueRules& rules,
                            const std::vector<std::vector<SeatFill>>& sides) {
  std::vector<std::vector<SkillRating>> teams;
  teams.reserve(sides.size());
  for (const std::vector<SeatFill>& side : sides) {
    std::vector<SkillRating>& team = teams.emplace_back();
    for (const SeatFill& seat : side) team.push_back(seat.rating);
  }
  absl::StatusOr<std::vector<double>> chances = ratings::PredictWin(rules.model, teams);
  // PredictWin refuses only non-finite ratings, which ratings never stores: a pass shows such
  // a match with no chances rather than fail every other match beside it.
  return chances.ok() ? *std::move(chances) : std::vector<double>(sides.size(), 0.0);
}

// A bot stands in for the humans it plays with: their mean skill and uncertainty.
SkillRating BotRating(std::span<const Ticket> tickets, const std::vector<int>& chosen) {
  double mu = 0;
  double sigma = 0;
  int members = 0;
  for (int t : chosen) {
    for (const Member& member : tickets[t].members) {
      mu += member.rating.mu;
      sigma += member.rating.sigma;
      ++members;
    }
  }
  return {.mu = mu / members, .sigma = sigma / members};
}

// Skips tickets already seated, in either direction along the rating order, in amortised
// constant time (a union-find over "the next free position").
class FreeList {
 public:
  explicit FreeList(int n) : right_(n + 2), left_(n + 2) {
    // Positions are shifted by one so that 0 and n+1 are sentinels.
    std::iota(right_.begin(), right_.end(), 0);
    std::iota(left_.begin(), left_.end(), 0);
  }
  // The first free position >= p, or n when none.
  int NextAtOrAfter(int p) { return Find(right_, p + 1) - 1; }
  // The last free position <= p, or -1 when none.
  int NextAtOrBefore(int p) { return Find(left_, p + 1) - 1; }
  void Take(int p) {
    right_[p + 1] = p + 2;
    left_[p + 1] = p;
  }

 private:
  static int Find(std::vector<int>& parent, int x) {
    int root = x;
    while (parent[root] != root) root = parent[root];
    while (parent[x] != root) x = std::exchange(parent[x], root);
    return root;
  }
  std::vector<int> right_;
  std::vector<int> left_;
};

class TableFormer {
 public:
  TableFormer(const QueueRules& rules, std::span<const Ticket> tickets, absl::Time now)
      : rules_(rules), tickets_(tickets), now_(now), window_(tickets.size()) {
    const int max_party = rules.format.max_party();
    for (int t = 0; t < static_cast<int>(tickets.size()); ++t) {
      if (tickets[t].size() < 1 || tickets[t].size() > max_party) continue;
      window_[t] = rules.widening.At(now - tickets[t].enqueued);
      order_.push_back(t);
    }
    std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) {
      return tickets[a].Skill() < tickets[b].Skill();
    });
    position_.assign(tickets.size(), -1);
    for (int p = 0; p < static_cast<int>(order_.size()); ++p) position_[order_[p]] = p;
  }

  std::vector<FormedMatch> Run() {
    std::vector<int> by_age = order_;
    std::stable_sort(by_age.begin(), by_age.end(), [&](int a, int b) {
      return tickets_[a].enqueued < tickets_[b].enqueued;
    });
    FreeList free(static_cast<int>(order_.size()));
    std::vector<FormedMatch> matches;
    for (int anchor : by_age) {
      const int p = position_[anchor];
      if (free.NextAtOrAfter(p) != p) continue;  // seated already
      std::vector<int> chosen = Gather(anchor, free);
      std::optional<FormedMatch> match = Form(chosen);
      if (!match) continue;
      for (int t : match->tickets) free.Take(position_[t]);
      matches.push_back(*std::move(match));
    }
    return matches;
  }

 private:
  // The anchor and the tickets nearest it in skill that fit, until the table is full.
  std::vector<int> Gather(int anchor, FreeList& free) {
    const int n = static_cast<int>(order_.size());
    const int target = rules_.format.seats();
    const double skill = tickets_[anchor].Skill();
    std::vector<int> chosen = {anchor};
    std::vector<int> sizes = {tickets_[anchor].size()};
    int seats = tickets_[anchor].size();
    int left = free.NextAtOrBefore(position_[anchor] - 1);
    int right = free.NextAtOrAfter(position_[anchor] + 1);
    while (seats < target && (left >= 0 || right < n)) {
      const double left_gap = left >= 0 ? skill - tickets_[order_[left]].Skill() : INFINITY;
      const double right_gap = right < n ? tickets_[order_[right]].Skill() - skill : INFINITY;
      const bool take_left = left_gap <= right_gap;
      const double gap = take_left ? left_gap : right_gap;
      if (gap > window_[anchor]) break;  // every further ticket is farther still
      const int candidate = order_[take_left ? left : right];
      if (take_left) {
        left = left > 0 ? free.NextAtOrBefore(left - 1) : -1;
      } else {
        right = free.NextAtOrAfter(right + 1);
      }
      const int size = tickets_[candidate].size();
      if (gap > window_[candidate] || seats + size > target) continue;
      if (rules_.format.kind == FormatKind::kTeams) {
        sizes.push_back(size);
        if (!Packs(sizes, rules_.format.teams, rules_.format.team_size)) {
          sizes.pop_back();
          continue;
        }
      }
      chosen.push_back(candidate);
      seats += size;
    }
    return chosen;
  }

  // The match `chosen` makes now, if it makes one.
  std::optional<FormedMatch> Form(std::vector<int> chosen) {
    const Format& format = rules_.format;
    int seats = 0;
    absl::Duration oldest;
    for (int t : chosen) {
      seats += tickets_[t].size();
      oldest = std::max(oldest, now_ - tickets_[t].enqueued);
    }
    const bool short_table = format.kind == FormatKind::kFreeForAll &&
                             seats >= format.min_players && oldest >= format.short_table_after;
    int bots = 0;
    if (seats < format.seats() && !short_table) {
      if (!rules_.bot_fill.enabled || oldest < rules_.bot_fill.after) return std::nullopt;
      // Bots fill a table to full, a free-for-all only up to its minimum.
      const int wanted = format.kind == FormatKind::kFreeForAll
                             ? std::max(format.min_players, seats)
                             : format.seats();
      bots = wanted - seats;
    }
    std::sort(chosen.begin(), chosen.end());
    FormedMatch match;
    match.tickets = chosen;
    const SkillRating bot_rating = BotRating(tickets_, chosen);
    if (format.kind == FormatKind::kTeams) {
      std::vector<SplitTicket> split_tickets;
      std::vector<std::vector<SeatFill>> seats_of;  // per split ticket
      for (int t : chosen) {
        SplitTicket& ratings_of = split_tickets.emplace_back();
        std::vector<SeatFill>& fills = seats_of.emplace_back();
        for (int m = 0; m < tickets_[t].size(); ++m) {
          ratings_of.push_back(tickets_[t].members[m].rating);
          fills.push_back({.ticket = t, .member = m, .rating = tickets_[t].members[m].rating});
        }
      }
      for (int b = 0; b < bots; ++b) {
        split_tickets.push_back({bot_rating});
        seats_of.push_back({SeatFill{.rating = bot_rating}});
      }
      auto recent = [&](int a, int b) {
        int repeats = 0;
        for (const SeatFill& x : seats_of[a]) {
          if (x.bot()) continue;
          const Member& member = tickets_[x.ticket].members[x.member];
          for (const SeatFill& y : seats_of[b]) {
            if (y.bot()) continue;
            const std::string& other = tickets_[y.ticket].members[y.member].player_id;
            repeats += std::count(member.recent_partners.begin(),
                                  member.recent_partners.end(), other);
          }
        }
        return repeats;
      };
      std::optional<TeamSplit> split =
          BestSplit(rules_.model, split_tickets, format.teams, format.team_size, recent);
      if (!split) return std::nullopt;
      for (const std::vector<int>& team : split->teams) {
        std::vector<SeatFill>& side = match.sides.emplace_back();
        for (int i : team) side.insert(side.end(), seats_of[i].begin(), seats_of[i].end());
      }
      match.win_chance = std::move(split->win_chance);
      return match;
    }
    for (int t : chosen) {
      for (int m = 0; m < tickets_[t].size(); ++m) {
        match.sides.push_back(
            {SeatFill{.ticket = t, .member = m, .rating = tickets_[t].members[m].rating}});
      }
    }
    for (int b = 0; b < bots; ++b) match.sides.push_back({SeatFill{.rating = bot_rating}});
    match.win_chance = Chances(rules_, match.sides);
    return match;
  }

  const QueueRules& rules_;
  std::span<const Ticket> tickets_;
  const absl::Time now_;
  std::vector<double> window_;  // by ticket
  std::vector<int> order_;      // eligible tickets by skill
  std::vector<int> position_;   // ticket -> its place in order_, -1 if not eligible
};

std::vector<FormedMatch> PairHeadToHead(const QueueRules& rules, std::span<const Ticket> tickets,
                                        absl::Time now) {
  std::vector<int> eligible;
  std::vector<PairingPoint> points;
  for (int t = 0; t < static_cast<int>(tickets.size()); ++t) {
    if (tickets[t].size() != 1) continue;
    eligible.push_back(t);
    points.push_back({.skill = tickets[t].Skill(),
                      .window = rules.widening.At(now - tickets[t].enqueued)});
  }
  std::vector<FormedMatch> matches;
  std::vector<char> paired(eligible.size(), 0);
  auto seat = [&](int t) {
    return SeatFill{.ticket = t, .member = 0, .rating = tickets[t].members[0].rating};
  };
  for (const auto& [a, b] : PairNeighbours(points)) {
    paired[a] = paired[b] = 1;
    FormedMatch match;
    match.tickets = {std::min(eligible[a], eligible[b]), std::max(eligible[a], eligible[b])};
    match.sides = {{seat(eligible[a])}, {seat(eligible[b])}};
    match.win_chance = Chances(rules, match.sides);
    matches.push_back(std::move(match));
  }
  if (!rules.bot_fill.enabled) return matches;
  for (size_t i = 0; i < eligible.size(); ++i) {
    const int t = eligible[i];
    if (paired[i] || now - tickets[t].enqueued < rules.bot_fill.after) continue;
    FormedMatch match;
    match.tickets = {t};
    match.sides = {{seat(t)}, {SeatFill{.rating = tickets[t].members[0].rating}}};
    match.win_chance = Chances(rules, match.sides);
    matches.push_back(std::move(match));
  }
  return matches;
}

}  // namespace

int FormedMatch::bots() const {
  int count = 0;
  for (const std::vector<SeatFill>& side : sides) {
    for (const SeatFill& seat : side) count += seat.bot();
  }
  return count;
}

std::vector<FormedMatch> RunPass(const QueueRules& rules, std::span<const Ticket> tickets,
                                 absl::Time now) {
  if (rules.format.kind == FormatKind::kHeadToHead) return PairHeadToHead(rules, tickets, now);
  return TableFormer(rules, tickets, now).Run();
}

}  // namespace boneyard::matchmaking
