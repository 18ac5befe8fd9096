// mmsim: the matchmaking library in a simulated world. A population with hidden true skills
// joins a queue over time; the real matcher (services/matchmaking/matching) forms matches once
// a second; each match's outcome is drawn from the true skills; the real Weng-Lin update
// (services/ratings/model) rates it. Reports waits, how even the formed matches were predicted
// to be, how often the favourite won, and how fast the ratings learn the true order.
//
//   build/bin/mmsim --format=2x2 --players=2000 --minutes=60
//
// A benchmark of quality, not speed: nothing here is timed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "services/matchmaking/matching/pass.h"
#include "services/ratings/model/weng_lin.h"

ABSL_FLAG(std::string, format, "2x2",
          "h2h, 2x2, 2x3, 2x4 (teams x players) or ffa2-8 (a free-for-all table of 2 to 8)");
ABSL_FLAG(int, players, 2000, "The population.");
ABSL_FLAG(int, minutes, 60, "Simulated time; one matchmaking pass a second.");
ABSL_FLAG(double, join_rate, 0.02, "An idle player's chance to queue in a given second.");
ABSL_FLAG(int, match_seconds, 300, "How long a match keeps its players busy.");
ABSL_FLAG(double, skill_spread, 8, "The true skills' standard deviation (mean 25).");
ABSL_FLAG(uint32_t, seed, 1, "The simulation's random seed.");

namespace boneyard::matchmaking {
namespace {

struct Person {
  double true_skill = 25;
  ratings::SkillRating rating;
  enum { kIdle, kWaiting, kPlaying } state = kIdle;
  absl::Time queued;
  absl::Time busy_until;
};

QueueRules RulesFor(const std::string& format) {
  QueueRules rules;
  if (format == "h2h") return rules;
  if (format == "ffa2-8") {
    rules.format = {.kind = FormatKind::kFreeForAll, .min_players = 2, .max_players = 8};
    return rules;
  }
  rules.format = {.kind = FormatKind::kTeams, .teams = 2,
                  .team_size = format == "2x3" ? 3 : format == "2x4" ? 4 : 2};
  return rules;
}

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[static_cast<size_t>(p * (values.size() - 1))];
}

// Spearman's rank correlation between the true skills and the displayed ratings (ordinals).
double RankCorrelation(const std::vector<Person>& people) {
  const size_t n = people.size();
  auto ranks = [&](auto key) {
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
    std::vector<double> rank(n);
    for (size_t r = 0; r < n; ++r) rank[order[r]] = static_cast<double>(r);
    return rank;
  };
  const std::vector<double> truth = ranks([&](size_t i) { return people[i].true_skill; });
  const std::vector<double> shown = ranks([&](size_t i) { return people[i].rating.Ordinal(); });
  double d2 = 0;
  for (size_t i = 0; i < n; ++i) d2 += (truth[i] - shown[i]) * (truth[i] - shown[i]);
  const double nd = static_cast<double>(n);
  return 1 - 6 * d2 / (nd * (nd * nd - 1));
}

int Run() {
  const std::string format = absl::GetFlag(FLAGS_format);
  const QueueRules rules = RulesFor(format);
  std::mt19937_64 random(absl::GetFlag(FLAGS_seed));
  std::normal_distribution<double> skill(25, absl::GetFlag(FLAGS_skill_spread));
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<Person> people(absl::GetFlag(FLAGS_players));
  for (Person& person : people) {
    person.true_skill = skill(random);
    person.rating = ratings::InitialRating(rules.model);
  }
  const double performance_noise = rules.model.beta;
  const absl::Time start = absl::FromUnixSeconds(1'800'000'000);
  const int seconds = absl::GetFlag(FLAGS_minutes) * 60;

  std::vector<double> waits;
  std::vector<double> favourite_chance;
  int matches = 0;
  int even = 0;
  // Two-sided matches formed in passes with at least 100 tickets waiting, and the even ones.
  int crowded = 0;
  int crowded_even = 0;
  int favourite_won = 0;
  int decided = 0;
  std::printf("%s, %zu players, %d min; every 10 %% of the time:\n", format.c_str(),
              people.size(), seconds / 60);
  std::printf("%8s %8s %9s %9s %12s\n", "minute", "matches", "wait p50", "wait p95",
              "rank corr.");
  for (int second = 0; second < seconds; ++second) {
    const absl::Time now = start + absl::Seconds(second);
    std::vector<Ticket> tickets;
    std::vector<int> owner;
    for (int p = 0; p < static_cast<int>(people.size()); ++p) {
      Person& person = people[p];
      if (person.state == Person::kPlaying && now >= person.busy_until) person.state = Person::kIdle;
      if (person.state == Person::kIdle && unit(random) < absl::GetFlag(FLAGS_join_rate)) {
        person.state = Person::kWaiting;
        person.queued = now;
      }
      if (person.state != Person::kWaiting) continue;
      tickets.push_back({.id = absl::StrCat(p),
                         .members = {{.player_id = absl::StrCat(p), .rating = person.rating}},
                         .enqueued = person.queued});
      owner.push_back(p);
    }
    const bool crowded_pass = tickets.size() >= 100;
    for (const FormedMatch& match : RunPass(rules, tickets, now)) {
      ++matches;
      std::vector<std::vector<ratings::SkillRating>> before;
      std::vector<double> performance;
      std::vector<std::vector<int>> members;
      for (const std::vector<SeatFill>& side : match.sides) {
        before.emplace_back();
        members.emplace_back();
        double total = 0;
        for (const SeatFill& seat : side) {
          Person& person = people[owner[seat.ticket]];
          before.back().push_back(person.rating);
          members.back().push_back(owner[seat.ticket]);
          std::normal_distribution<double> noise(person.true_skill, performance_noise);
          total += noise(random);
          waits.push_back(absl::ToDoubleSeconds(now - person.queued));
          person.state = Person::kPlaying;
          person.busy_until = now + absl::Seconds(absl::GetFlag(FLAGS_match_seconds));
        }
        performance.push_back(total);
      }
      // Lower rank is better: rank each side by its drawn performance.
      std::vector<double> ranks(performance.size());
      for (size_t s = 0; s < performance.size(); ++s) {
        ranks[s] = 1 + std::count_if(performance.begin(), performance.end(),
                                     [&](double other) { return other > performance[s]; });
      }
      const size_t favourite = std::max_element(match.win_chance.begin(), match.win_chance.end()) -
                               match.win_chance.begin();
      favourite_won += ranks[favourite] == 1;
      ++decided;
      if (match.sides.size() == 2) {
        const bool is_even = match.win_chance[0] >= 0.45 && match.win_chance[0] <= 0.55;
        even += is_even;
        crowded += crowded_pass;
        crowded_even += crowded_pass && is_even;
        favourite_chance.push_back(match.win_chance[favourite]);
      }
      absl::StatusOr<std::vector<std::vector<ratings::SkillRating>>> after =
          ratings::Rate(rules.model, before, ranks);
      if (!after.ok()) continue;
      for (size_t s = 0; s < members.size(); ++s) {
        for (size_t m = 0; m < members[s].size(); ++m) people[members[s][m]].rating = (*after)[s][m];
      }
    }
    if ((second + 1) % (seconds / 10) == 0) {
      std::printf("%8d %8d %8.0fs %8.0fs %12.3f\n", (second + 1) / 60, matches,
                  Percentile(waits, 0.5), Percentile(waits, 0.95), RankCorrelation(people));
    }
  }
  std::printf("matches formed: %d; players seated: %zu\n", matches, waits.size());
  std::printf("wait p50 %.0f s, p95 %.0f s\n", Percentile(waits, 0.5), Percentile(waits, 0.95));
  if (!favourite_chance.empty()) {
    double mean = std::accumulate(favourite_chance.begin(), favourite_chance.end(), 0.0) /
                  favourite_chance.size();
    std::printf("two-sided matches predicted within [0.45, 0.55]: %.1f %%\n",
                100.0 * even / favourite_chance.size());
    if (crowded > 0) {
      std::printf("  of those formed with >= 100 tickets waiting (%d): %.1f %%\n", crowded,
                  100.0 * crowded_even / crowded);
    }
    std::printf("the favourite's mean predicted chance %.3f; it won %.1f %% of the time\n", mean,
                100.0 * favourite_won / std::max(decided, 1));
  } else {
    std::printf("the favourite (highest predicted chance) won %.1f %% of matches\n",
                100.0 * favourite_won / std::max(decided, 1));
  }
  std::printf("rank correlation of true skill and rating at the end: %.3f\n",
              RankCorrelation(people));
  return 0;
}

}  // namespace
}  // namespace boneyard::matchmaking

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  return boneyard::matchmaking::Run();
}
