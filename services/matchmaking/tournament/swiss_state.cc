#include "services/matchmaking/tournament/swiss_state.h"

#include <algorithm>
#include <cstdlib>

#include "absl/strings/str_cat.h"

namespace boneyard::tournament {
namespace {

double ScoreBefore(const EventRecord& event, const Entrant& e, int round) {
  double score = 0;
  for (int r = 1; r < round && r <= static_cast<int>(e.rounds.size()); ++r) {
    score += event.points.PointsFor(e.rounds[r - 1].code);
  }
  return score;
}

Float FloatIn(const EventRecord& event, const Entrant& e, int r) {
  if (r < 1 || r > static_cast<int>(e.rounds.size())) return Float::kNone;
  const RoundEntry& entry = e.rounds[r - 1];
  if (!IsPlayed(entry.code)) {
    return event.points.PointsFor(entry.code) > event.points.loss ? Float::kDown : Float::kNone;
  }
  const double mine = ScoreBefore(event, e, r);
  const double theirs = ScoreBefore(event, event.ByTpn(entry.opponent), r);
  if (mine > theirs) return Float::kDown;
  if (mine < theirs) return Float::kUp;
  return Float::kNone;
}

void SetPreference(SwissEntrant& s) {
  int whites = 0;
  for (Colour c : s.colours) whites += c == Colour::kWhite;
  const int games = static_cast<int>(s.colours.size());
  s.colour_difference = whites - (games - whites);
  if (games == 0) return;
  const Colour last = s.colours.back();
  const bool repeated = games >= 2 && s.colours[games - 2] == last;
  const int cd = s.colour_difference;
  if (cd > 1 || cd < -1) {
    s.preference = cd > 1 ? Colour::kBlack : Colour::kWhite;
    s.strength = Strength::kAbsolute;
  } else if (repeated) {
    s.preference = Opposite(last);
    s.strength = Strength::kAbsolute;
  } else if (cd != 0) {
    s.preference = cd > 0 ? Colour::kBlack : Colour::kWhite;
    s.strength = Strength::kStrong;
  } else {
    s.preference = Opposite(last);
    s.strength = Strength::kMild;
  }
}

bool BeforeInPairingOrder(const SwissEntrant& a, const SwissEntrant& b) {
  if (a.score != b.score) return a.score > b.score;
  return a.tpn < b.tpn;
}

}  // namespace

bool ToBePaired(const Entrant& e, int round) {
  if (e.withdrawn || round < 1) return false;
  return static_cast<int>(e.rounds.size()) < round || e.rounds[round - 1].code == RoundCode::kNone;
}

absl::StatusOr<SwissRound> PrepareSwissRound(const EventRecord& event, int round) {
  if (round < 1) return absl::InvalidArgumentError("round: must be at least 1");
  if (event.total_rounds > 0 && round > event.total_rounds) {
    return absl::FailedPreconditionError(
        absl::StrCat("round: ", round, " is past the event's ", event.total_rounds, " rounds"));
  }
  const int count = static_cast<int>(event.entrants.size());
  double max_per_round = std::max(event.points.win, event.points.draw);
  SwissRound out;
  out.round = round;
  std::vector<int> pairing_number(count + 1, 0);
  for (int i = 0, next = 1; i < count; ++i) {
    const Entrant& e = event.entrants[i];
    bool in_event =
        static_cast<int>(e.rounds.size()) < round || e.rounds[round - 1].code == RoundCode::kNone;
    for (int r = 1; r < round && r <= static_cast<int>(e.rounds.size()); ++r) {
      const RoundCode code = e.rounds[r - 1].code;
      in_event = in_event || IsPaired(code) || code == RoundCode::kPairingBye;
    }
    if (in_event) pairing_number[i + 1] = next++;
  }
  out.initial_colour = event.initial_colour;
  for (int i = 0; i < count; ++i) {
    const Entrant& e = event.entrants[i];
    if (e.tpn != i + 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("entrants: entrant ", i + 1, " has TPN ", e.tpn));
    }
    if (!ToBePaired(e, round)) continue;
    SwissEntrant s;
    s.tpn = e.tpn;
    s.pairing_number = pairing_number[e.tpn];
    s.score = ScoreBefore(event, e, round);
    for (int r = 1; r < round; ++r) {
      const RoundEntry entry =
          r <= static_cast<int>(e.rounds.size()) ? e.rounds[r - 1] : RoundEntry{};
      if (IsPlayed(entry.code)) {
        if (entry.opponent < 1 || entry.opponent > count) {
          return absl::InvalidArgumentError(absl::StrCat("entrants: TPN ", e.tpn, " round ", r,
                                                         " names opponent ", entry.opponent));
        }
        if (entry.colour == Colour::kNone) {
          return absl::InvalidArgumentError(
              absl::StrCat("entrants: TPN ", e.tpn, " round ", r, " was played without a colour"));
        }
        s.colours.push_back(entry.colour);
        s.met.push_back(entry.opponent);
      } else {
        ++s.unplayed_rounds;
        const bool pairing_bye = entry.code == RoundCode::kPairingBye;
        if (pairing_bye || event.points.PointsFor(entry.code) >= event.points.win) {
          s.bye_eligible = false;
        }
      }
    }
    SetPreference(s);
    s.float_last = FloatIn(event, e, round - 1);
    s.float_before = FloatIn(event, e, round - 2);
    if (event.total_rounds > 0 && round == event.total_rounds) {
      s.topscorer = s.score > (round - 1) * max_per_round / 2;
    }
    out.entrants.push_back(std::move(s));
  }
  for (const auto& [a, b] : event.forbidden_pairs) {
    for (auto& s : out.entrants) {
      if (s.tpn == a) s.met.push_back(b);
      if (s.tpn == b) s.met.push_back(a);
    }
  }
  for (auto& s : out.entrants) std::sort(s.met.begin(), s.met.end());
  std::sort(out.entrants.begin(), out.entrants.end(), BeforeInPairingOrder);
  return out;
}

bool MayMeet(const SwissEntrant& a, const SwissEntrant& b) {
  if (std::binary_search(a.met.begin(), a.met.end(), b.tpn)) return false;
  if (a.strength == Strength::kAbsolute && b.strength == Strength::kAbsolute &&
      a.preference == b.preference && !a.topscorer && !b.topscorer) {
    return false;
  }
  return true;
}

namespace {

// C.04.3 5.2.3: going back through both colour histories from the latest game, the most
// recent game in which they had different colours; each gets the other's colour of then.
Colour AlternateFromDifference(const SwissEntrant& a, const SwissEntrant& b) {
  auto ia = a.colours.rbegin();
  auto ib = b.colours.rbegin();
  while (ia != a.colours.rend() && ib != b.colours.rend()) {
    if (*ia != *ib) return *ib;  // a takes b's colour of that round
    ++ia;
    ++ib;
  }
  return Colour::kNone;
}

// The colour `a` gets by 5.2.1-5.2.3, or kNone when those rules do not decide.
Colour NeutralColour(const SwissEntrant& a, const SwissEntrant& b) {
  const bool compatible = a.preference == Colour::kNone || b.preference == Colour::kNone ||
                          a.preference != b.preference;
  if (compatible) {
    if (a.preference != Colour::kNone) return a.preference;
    if (b.preference != Colour::kNone) return Opposite(b.preference);
    return Colour::kNone;
  }
  const int wide_a = std::abs(a.colour_difference);
  const int wide_b = std::abs(b.colour_difference);
  const bool abs_a = a.strength == Strength::kAbsolute;
  const bool abs_b = b.strength == Strength::kAbsolute;
  if (abs_a && (!abs_b || wide_a > wide_b)) return a.preference;
  if (abs_b && (!abs_a || wide_b > wide_a)) return Opposite(b.preference);
  const bool strong_a = a.strength == Strength::kStrong;
  const bool strong_b = b.strength == Strength::kStrong;
  if (strong_a && !strong_b) return a.preference;
  if (strong_b && !strong_a) return Opposite(b.preference);
  return AlternateFromDifference(a, b);
}

}  // namespace

Board AllocateColours(const SwissEntrant& higher, const SwissEntrant& lower,
                      Colour initial_colour) {
  Colour c = NeutralColour(higher, lower);
  if (c == Colour::kNone) {
    if (higher.preference != Colour::kNone) {
      c = higher.preference;  // 5.2.4
    } else {
      const int number = higher.pairing_number > 0 ? higher.pairing_number : higher.tpn;
      c = number % 2 == 1 ? initial_colour : Opposite(initial_colour);  // 5.2.5
    }
  }
  return c == Colour::kWhite ? Board{higher.tpn, lower.tpn} : Board{lower.tpn, higher.tpn};
}

EventRecord RecordBeforeRound(const EventRecord& event, int round) {
  EventRecord before = event;
  for (Entrant& e : before.entrants) {
    for (int r = round; r <= static_cast<int>(e.rounds.size()); ++r) {
      RoundEntry& entry = e.rounds[r - 1];
      const bool absence = r == round && entry.opponent == 0 &&
                           entry.code != RoundCode::kPairingBye && entry.code != RoundCode::kNone;
      if (!absence) entry = RoundEntry{};
    }
  }
  return before;
}

std::vector<Board> BoardsInOrder(const SwissRound& round, std::vector<std::pair<int, int>> pairs,
                                 int bye) {
  const auto& at = round.entrants;
  std::sort(pairs.begin(), pairs.end(), [&](const auto& x, const auto& y) {
    const SwissEntrant& xa = at[x.first];
    const SwissEntrant& ya = at[y.first];
    if (xa.score != ya.score) return xa.score > ya.score;
    const double xs = xa.score + at[x.second].score;
    const double ys = ya.score + at[y.second].score;
    if (xs != ys) return xs > ys;
    return xa.tpn < ya.tpn;
  });
  std::vector<Board> boards;
  for (const auto& [hi, lo] : pairs) {
    boards.push_back(AllocateColours(at[hi], at[lo], round.initial_colour));
  }
  if (bye >= 0) boards.push_back({at[bye].tpn, 0});
  return boards;
}

}  // namespace boneyard::tournament
