// Properties every Swiss round must have, checked on whole simulated events for both the Dutch
// system and the fast mode: everyone present is paired exactly once, nobody absent is, no
// rematch (C1), nobody gets a second pairing-allocated bye or one after a win without playing
// (C2), and — the absolute colour rule C3 enforces — no entrant's colour difference leaves
// [-2, 2] and no one gets a colour three times running (C.04.1 art. 6-7; topscorers in the
// last round excepted).
#include <gtest/gtest.h>

#include <initializer_list>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "services/matchmaking/tournament/dutch.h"
#include "services/matchmaking/tournament/fast_swiss.h"
#include "tests/services/matchmaking/tournament/swiss_simulation.h"

namespace boneyard::tournament {
namespace {

using testing::SimulationOptions;

void ExpectSwissProperties(const EventRecord& event, const std::string& label) {
  const int rounds = event.total_rounds;
  for (const Entrant& e : event.entrants) {
    std::set<int> met;
    int pabs = 0;
    bool won_unplayed = false;
    std::vector<Colour> colours;
    for (int r = 1; r <= rounds; ++r) {
      const RoundEntry& entry = e.rounds[r - 1];
      ASSERT_NE(entry.code, RoundCode::kNone) << label << " TPN " << e.tpn << " round " << r;
      if (entry.code == RoundCode::kPairingBye) {
        EXPECT_EQ(pabs, 0) << label << " TPN " << e.tpn << " second PAB in round " << r;
        EXPECT_FALSE(won_unplayed) << label << " TPN " << e.tpn << " PAB after a win unplayed";
        ++pabs;
      }
      if (entry.code == RoundCode::kForfeitWin || entry.code == RoundCode::kPairingBye) {
        won_unplayed = true;
      }
      if (!IsPlayed(entry.code)) continue;
      EXPECT_TRUE(met.insert(entry.opponent).second)
          << label << " rematch " << e.tpn << "-" << entry.opponent << " in round " << r;
      const RoundEntry& back = event.ByTpn(entry.opponent).rounds[r - 1];
      EXPECT_EQ(back.opponent, e.tpn);
      colours.push_back(entry.colour);
      if (r == rounds) continue;  // the last round's topscorers may break the colour rules
      int diff = 0;
      for (Colour c : colours) diff += c == Colour::kWhite ? 1 : -1;
      EXPECT_LE(std::abs(diff), 2) << label << " TPN " << e.tpn << " round " << r;
      const size_t k = colours.size();
      if (k >= 3) {
        EXPECT_FALSE(colours[k - 1] == colours[k - 2] && colours[k - 2] == colours[k - 3])
            << label << " TPN " << e.tpn << " same colour three times to round " << r;
      }
    }
  }
}

// Simulates events of each size with `seeds` seeds, paired by `pair`, and checks each.
void ExpectPropertiesOfSimulatedEvents(const std::string& system, const testing::PairRound& pair,
                                       std::initializer_list<int> sizes, unsigned seeds,
                                       int max_rounds, double half_bye_rate) {
  for (int entrants : sizes) {
    for (unsigned seed = 1; seed <= seeds; ++seed) {
      SimulationOptions o;
      o.entrants = entrants;
      o.rounds = std::min(max_rounds, std::max(3, entrants / 2));
      o.seed = seed;
      o.forfeit_rate = 0.05;
      o.half_bye_rate = half_bye_rate;
      const std::string label = absl::StrCat(system, " ", entrants, "/", seed);
      const auto event = testing::Simulate(o, pair);
      ASSERT_TRUE(event.ok()) << label << ": " << event.status();
      ExpectSwissProperties(*event, label);
    }
  }
}

TEST(SwissPropertiesTest, DutchRoundsKeepTheBasicRules) {
  ExpectPropertiesOfSimulatedEvents("dutch", PairDutchRound, {5, 8, 11, 16, 23, 30}, 4, 7, 0.03);
}

TEST(SwissPropertiesTest, FastModeRoundsKeepTheBasicRules) {
  ExpectPropertiesOfSimulatedEvents("fast", PairFastSwissRound, {5, 9, 16, 31, 64, 301}, 3, 9, 0.0);
}

}  // namespace
}  // namespace boneyard::tournament
