#include "services/matchmaking/tournament/trf.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace boneyard::tournament {
namespace {

constexpr int kMaxTpn = 9999;
constexpr int kMaxRounds = 9999;
constexpr int kFirstRoundColumn = 92;
constexpr int kRoundWidth = 10;
// XXP lists expand to every pair; past this a file is more likely hostile than a tournament.
constexpr std::size_t kMaxForbiddenPairs = 1 << 20;
constexpr std::string_view kLineEnd = "\r\n";

// The system Abseil has its own string_view; these let std::string_view into StrCat.
template <typename T>
decltype(auto) Piece(const T& value) {
  if constexpr (std::is_same_v<T, std::string_view>) {
    return absl::string_view(value.data(), value.size());
  } else {
    return (value);
  }
}

template <typename... Args>
std::string Cat(const Args&... args) {
  return absl::StrCat(Piece(args)...);
}

template <typename... Args>
void Append(std::string* out, const Args&... args) {
  out->append(Cat(args...));
}

// Error text quotes at most this many bytes of a bad value.
constexpr std::size_t kQuoteLimit = 16;

std::string Quote(std::string_view value) {
  const bool cut = value.size() > kQuoteLimit;
  return Cat("\"", absl::CHexEscape(Piece(value.substr(0, kQuoteLimit))), cut ? "...\"" : "\"");
}

absl::Status LineError(int line, std::string_view what) {
  return absl::InvalidArgumentError(Cat("TRF line ", line, ": ", what));
}

bool IsBlank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' '; });
}

std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Digits only, no sign, at most `max`.
std::optional<int> ParseCount(std::string_view s, int max) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  int value = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (value > max) return std::nullopt;
  return value;
}

// "12", "12.5", ".5", "3." — no sign, exponent or hex, so a value means what it shows, and at
// most four decimals, so FormatDecimal writes it back as it was read (a point system needs no
// more). The digits are read as an integer and divided once, so "0.25" is the double the
// literal 0.25 is.
std::optional<double> ParseDecimal(std::string_view s) {
  if (s.empty() || s.size() > 12) return std::nullopt;
  std::int64_t mantissa = 0;
  int decimals = -1;  // -1 before the point
  bool digits = false;
  for (char c : s) {
    if (c == '.') {
      if (decimals >= 0) return std::nullopt;
      decimals = 0;
    } else if (c >= '0' && c <= '9') {
      digits = true;
      mantissa = mantissa * 10 + (c - '0');
      if (decimals >= 0) ++decimals;
    } else {
      return std::nullopt;
    }
  }
  if (!digits || decimals > 4) return std::nullopt;
  double scale = 1;
  for (int i = 0; i < decimals; ++i) scale *= 10;
  const double value = static_cast<double>(mantissa) / scale;
  if (value > 9999) return std::nullopt;
  return value;
}

// Plain decimals, never an exponent, as ParseDecimal reads them (found by the TRF fuzzer: a
// point value of 0.00008 was written as "8e-05").
std::string FormatDecimal(double value) {
  std::string text = absl::StrFormat("%.4f", value);
  while (!text.empty() && text.back() == '0') text.pop_back();
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text;
}

// One decimal as "pp.p" when that is exact, else as many as needed.
std::string FormatPoints4(double value) {
  const double tenths = value * 10;
  if (std::abs(tenths) < 1e15 && tenths == static_cast<double>(static_cast<std::int64_t>(tenths))) {
    return absl::StrFormat("%4.1f", value);
  }
  return FormatDecimal(value);
}

// The length in bytes of the UTF-8 sequence starting at s[i], or 0 if it is not valid (overlong
// forms, surrogates and code points past U+10FFFF included).
std::size_t Utf8SequenceLength(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  std::size_t length;
  std::uint32_t code;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
    code = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    code = b0 & 0x0F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    code = b0 & 0x07;
  } else {
    return 0;
  }
  if (i + length > s.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  if ((length == 3 && code < 0x800) || (length == 4 && code < 0x10000) || code > 0x10FFFF ||
      (code >= 0xD800 && code <= 0xDFFF)) {
    return 0;
  }
  return length;
}

// A line's text addressed by 1-based columns counted in code points. Columns past the end read
// as nothing, which the callers treat as blanks.
class Columns {
 public:
  explicit Columns(std::string_view text) : text_(text) {
    // A stray byte counts as one column (lines are validated before, so this only keeps the
    // loop finite).
    for (std::size_t i = 0; i < text.size();
         i += std::max<std::size_t>(1, Utf8SequenceLength(text, i))) {
      starts_.push_back(i);
    }
    starts_.push_back(text.size());
  }

  int size() const { return static_cast<int>(starts_.size()) - 1; }

  std::string_view Get(int first, int last) const {
    const int n = size();
    if (first > n || last < first) return {};
    const std::size_t begin = starts_[first - 1];
    const std::size_t end = starts_[std::min(last, n)];
    return text_.substr(begin, end - begin);
  }

  char At(int column) const {
    const std::string_view c = Get(column, column);
    return c.size() == 1 ? c[0] : (c.empty() ? ' ' : '\x80');
  }

 private:
  std::string_view text_;
  std::vector<std::size_t> starts_;
};

// The first `width` code points of `s`, padded with blanks to `width` on the right or left.
std::string Fit(std::string_view s, int width, bool right_align) {
  std::size_t end = 0;
  int count = 0;
  while (end < s.size() && count < width) {
    const std::size_t length = Utf8SequenceLength(s, end);
    end += length == 0 ? 1 : length;
    ++count;
  }
  const std::string pad(width - count, ' ');
  return right_align ? Cat(pad, s.substr(0, end)) : Cat(s.substr(0, end), pad);
}

struct Line {
  int number = 0;
  std::string_view text;
};

absl::StatusOr<std::vector<Line>> SplitLines(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<Line> lines;
  int number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find_first_of("\r\n", pos);
    if (end == std::string_view::npos) end = text.size();
    ++number;
    const std::string_view line = text.substr(pos, end - pos);
    pos = end;
    if (pos < text.size() && text[pos] == '\r') ++pos;
    if (pos < text.size() && text[pos] == '\n') ++pos;  // LF alone, or the LF of CRLF
    for (std::size_t i = 0; i < line.size();) {
      const std::size_t length = Utf8SequenceLength(line, i);
      if (length == 0) {
        return LineError(number, Cat("not valid UTF-8 at byte ", i + 1));
      }
      const unsigned char c = static_cast<unsigned char>(line[i]);
      if ((c < 0x20 && c != '\t') || c == 0x7F) {
        return LineError(number, absl::StrFormat("control character 0x%02X at byte %d", c, i + 1));
      }
      // A byte-order mark belongs only before the first line; inside the text it would be
      // taken for one when the file is written out and read again.
      if (line.substr(i, 3) == "\xEF\xBB\xBF") {
        return LineError(number, Cat("byte-order mark at byte ", i + 1));
      }
      i += length;
    }
    if (IsBlank(TrimSpaces(line))) continue;
    lines.push_back({number, line});
  }
  return lines;
}

// Whitespace-separated tokens after a line's three-character code.
std::vector<std::string_view> Tokens(std::string_view line) {
  std::vector<std::string_view> tokens;
  std::string_view rest = line.substr(std::min<std::size_t>(3, line.size()));
  while (true) {
    rest = TrimSpaces(rest);
    if (rest.empty()) break;
    const std::size_t end = std::min(rest.find(' '), rest.find('\t'));
    tokens.push_back(rest.substr(0, end));
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end);
  }
  return tokens;
}

char Upper(char c) { return absl::ascii_toupper(static_cast<unsigned char>(c)); }

struct ParsedCell {
  RoundEntry entry;
  bool empty = true;  // blank throughout
};

absl::StatusOr<ParsedCell> ParseCell(const Columns& columns, int line, int round, int tpn) {
  const int start = kFirstRoundColumn + kRoundWidth * (round - 1);
  const auto field = [&](std::string_view what) {
    return Cat("round ", round, " (columns ", start, "-", start + 7, ") ", what);
  };
  for (int gap : {4, 6, 8, 9}) {
    if (columns.At(start + gap) != ' ') {
      return LineError(line, field(Cat("has ", Quote(columns.Get(start + gap, start + gap)),
                                       " in column ", start + gap, ", which must be blank")));
    }
  }
  ParsedCell cell;
  const std::string_view opponent_text = columns.Get(start, start + 3);
  const char colour_char = columns.At(start + 5);
  const char result_char = Upper(columns.At(start + 7));
  cell.empty = IsBlank(opponent_text) && colour_char == ' ' && result_char == ' ';
  if (cell.empty) return cell;

  RoundEntry& e = cell.entry;
  const std::string_view opponent_trimmed = TrimSpaces(opponent_text);
  if (!opponent_trimmed.empty()) {
    const std::optional<int> opponent = ParseCount(opponent_trimmed, kMaxTpn);
    if (!opponent.has_value()) {
      return LineError(line, field(Cat("opponent ", Quote(opponent_text), " is not a TPN")));
    }
    if (*opponent == tpn) return LineError(line, field("lists the entrant as its own opponent"));
    e.opponent = *opponent;
  }
  switch (colour_char) {
    case 'w':
    case 'W':
      e.colour = Colour::kWhite;
      break;
    case 'b':
    case 'B':
      e.colour = Colour::kBlack;
      break;
    case '-':
    case ' ':
      break;
    default:
      return LineError(line, field(Cat("colour ", Quote(columns.Get(start + 5, start + 5)),
                                       " is not w, b or -")));
  }
  switch (result_char) {
    case '1':
      e.code = RoundCode::kWin;
      break;
    case '=':
      e.code = RoundCode::kDraw;
      break;
    case '0':
      e.code = RoundCode::kLoss;
      break;
    case 'W':
      e.code = RoundCode::kWin;
      e.rated = false;
      break;
    case 'D':
      e.code = RoundCode::kDraw;
      e.rated = false;
      break;
    case 'L':
      e.code = RoundCode::kLoss;
      e.rated = false;
      break;
    case '+':
      e.code = RoundCode::kForfeitWin;
      break;
    case '-':
      e.code = RoundCode::kForfeitLoss;
      break;
    case 'U':
      e.code = RoundCode::kPairingBye;
      break;
    case 'F':
      e.code = RoundCode::kFullBye;
      break;
    case 'H':
      e.code = RoundCode::kHalfBye;
      break;
    case 'Z':
      e.code = RoundCode::kZeroBye;
      break;
    case ' ':
      e.code = RoundCode::kNone;
      break;
    default:
      return LineError(line, field(Cat("result ", Quote(columns.Get(start + 7, start + 7)),
                                       " is not a TRF result code")));
  }

  if (e.opponent != 0) {
    if (!IsPaired(e.code)) {
      return LineError(line,
                       field(Cat("has opponent ", e.opponent, " but no game or forfeit result")));
    }
    if (IsPlayed(e.code) && e.colour == Colour::kNone) {
      return LineError(line, field("is a played game without a colour"));
    }
    return cell;
  }
  if (e.colour != Colour::kNone) return LineError(line, field("has a colour but no opponent"));
  // No opponent. A blank result is TRF-26's zero-point bye; '-', '+' and '=' are the older
  // spellings of an unpaired round, the bye and a half-point bye, read as bbpPairings reads
  // them.
  switch (e.code) {
    case RoundCode::kNone:
    case RoundCode::kForfeitLoss:
      e.code = RoundCode::kZeroBye;
      break;
    case RoundCode::kForfeitWin:
      e.code = RoundCode::kPairingBye;
      break;
    case RoundCode::kDraw:
      if (!e.rated) return LineError(line, field("is a played result without an opponent"));
      e.code = RoundCode::kHalfBye;
      break;
    case RoundCode::kWin:
    case RoundCode::kLoss:
      return LineError(line, field("is a played result without an opponent"));
    default:
      break;
  }
  return cell;
}

// Where an entrant came from: its 001 line, and the rank that line gave.
struct PlayerSource {
  int line = 0;
  int rank = 0;
};

absl::Status ParsePlayer(const Line& line, std::vector<Entrant>& entrants,
                         std::vector<PlayerSource>& sources) {
  const int n = line.number;
  if (line.text.find('\t') != std::string_view::npos) {
    return LineError(n, "a tab in a fixed-column 001 line (columns cannot be counted)");
  }
  const Columns columns(line.text);
  for (int gap : {4, 9, 53, 85, 90}) {
    if (columns.At(gap) != ' ') {
      return LineError(n, Cat("column ", gap, " must be blank (found ",
                              Quote(columns.Get(gap, gap)), "): a field overflows into it"));
    }
  }
  const std::string_view tpn_text = columns.Get(5, 8);
  const std::optional<int> tpn = ParseCount(TrimSpaces(tpn_text), kMaxTpn);
  if (!tpn.has_value() || *tpn == 0) {
    return LineError(n,
                     Cat("TPN (columns 5-8) ", Quote(tpn_text), " is not a number from 1 to 9999"));
  }
  if (static_cast<int>(entrants.size()) < *tpn) {
    entrants.resize(*tpn);
    sources.resize(*tpn);
  }
  if (sources[*tpn - 1].line != 0) {
    return LineError(n,
                     Cat("TPN ", *tpn, " repeats the 001 line on line ", sources[*tpn - 1].line));
  }
  Entrant& entrant = entrants[*tpn - 1];
  PlayerSource& source = sources[*tpn - 1];
  source.line = n;
  entrant.tpn = *tpn;
  entrant.trf.sex = std::string(TrimSpaces(columns.Get(10, 10)));
  entrant.trf.title = std::string(TrimSpaces(columns.Get(11, 13)));
  entrant.name = std::string(TrimSpaces(columns.Get(15, 47)));
  entrant.trf.federation = std::string(TrimSpaces(columns.Get(54, 56)));
  entrant.trf.fide_id = std::string(TrimSpaces(columns.Get(58, 68)));
  entrant.trf.birth_date = std::string(TrimSpaces(columns.Get(70, 79)));

  const std::string_view rating_text = TrimSpaces(columns.Get(49, 52));
  if (!rating_text.empty()) {
    const std::optional<int> rating = ParseCount(rating_text, 9999);
    if (!rating.has_value()) {
      return LineError(n, Cat("rating (columns 49-52) ", Quote(rating_text), " is not a number"));
    }
    entrant.rating = *rating;
  }
  const std::string_view points_text = TrimSpaces(columns.Get(81, 84));
  if (!points_text.empty() && !ParseDecimal(points_text).has_value()) {
    return LineError(n, Cat("points (columns 81-84) ", Quote(points_text), " is not a number"));
  }
  const std::string_view rank_text = TrimSpaces(columns.Get(86, 89));
  if (!rank_text.empty()) {
    const std::optional<int> rank = ParseCount(rank_text, 9999);
    if (!rank.has_value()) {
      return LineError(n, Cat("rank (columns 86-89) ", Quote(rank_text), " is not a number"));
    }
    source.rank = *rank;
  }

  for (int round = 1; kFirstRoundColumn + kRoundWidth * (round - 1) <= columns.size(); ++round) {
    if (round > kMaxRounds) {
      return LineError(n, Cat("more than ", kMaxRounds, " rounds"));
    }
    absl::StatusOr<ParsedCell> cell = ParseCell(columns, n, round, *tpn);
    if (!cell.ok()) return cell.status();
    entrant.rounds.push_back(cell->entry);
  }
  while (!entrant.rounds.empty() && entrant.rounds.back().code == RoundCode::kNone) {
    entrant.rounds.pop_back();
  }
  return absl::OkStatus();
}

struct PointsState {
  PointSystem points;
  bool pairing_bye_given = false;  // BBU/PAB/P said it, so BBW no longer moves it
};

absl::StatusOr<double> SingleDecimal(const Line& line, std::string_view code) {
  const std::vector<std::string_view> tokens = Tokens(line.text);
  if (tokens.size() != 1) {
    return LineError(line.number, Cat(code, " takes one number"));
  }
  const std::optional<double> value = ParseDecimal(tokens[0]);
  if (!value.has_value()) {
    return LineError(line.number, Cat(code, " value ", Quote(tokens[0]), " is not a number"));
  }
  return *value;
}

// What one value of a BB* or 162 line sets. A win's value also moves the results scored as a
// win (forfeit win, full-point bye, and the PAB until a line names the PAB's own), a draw's the
// half-point bye, as bbpPairings reads them.
enum class PointsOf { kWin, kDraw, kLoss, kZeroBye, kForfeitLoss, kUnplayed, kPairingBye };

void SetPoints(PointsState& state, PointsOf what, double value) {
  PointSystem& p = state.points;
  switch (what) {
    case PointsOf::kWin:
      p.win = p.forfeit_win = p.full_bye = value;
      if (!state.pairing_bye_given) p.pairing_bye = value;
      break;
    case PointsOf::kDraw:
      p.draw = p.half_bye = value;
      break;
    case PointsOf::kLoss:
      p.loss = value;
      break;
    case PointsOf::kZeroBye:
      p.zero_bye = value;
      break;
    case PointsOf::kForfeitLoss:
      p.forfeit_loss = value;
      break;
    case PointsOf::kUnplayed:  // TRF-26's 'A': a forfeit loss and a zero-point bye alike
      p.forfeit_loss = p.zero_bye = value;
      break;
    case PointsOf::kPairingBye:
      p.pairing_bye = value;
      state.pairing_bye_given = true;
      break;
  }
}

absl::Status ParseBbLine(const Line& line, std::string_view code, PointsState& state) {
  absl::StatusOr<double> value = SingleDecimal(line, code);
  if (!value.ok()) return value.status();
  constexpr std::pair<char, PointsOf> kCodes[] = {
      {'W', PointsOf::kWin},     {'D', PointsOf::kDraw},        {'L', PointsOf::kLoss},
      {'Z', PointsOf::kZeroBye}, {'F', PointsOf::kForfeitLoss}, {'U', PointsOf::kPairingBye}};
  for (const auto& [letter, what] : kCodes) {
    if (code[2] == letter) SetPoints(state, what, *value);
  }
  return absl::OkStatus();
}

absl::Status ParseXxs(const Line& line, PointsState& state) {
  // Colour-dependent results: [0] white, [1] black. PointSystem has one value for both, so they
  // are collected first and must agree.
  struct Coloured {
    std::string_view what;
    double PointSystem::*field;
    std::optional<double> by_colour[2];
  };
  Coloured results[] = {{"win", &PointSystem::win, {}},
                        {"draw", &PointSystem::draw, {}},
                        {"loss", &PointSystem::loss, {}}};
  struct ColouredKey {
    std::string_view key;
    int result;  // index into results
    bool white;
    bool black;
  };
  constexpr ColouredKey kColouredKeys[] = {
      {"WW", 0, true, false}, {"BW", 0, false, true}, {"W", 0, true, true},
      {"WD", 1, true, false}, {"BD", 1, false, true}, {"D", 1, true, true},
      {"WL", 2, true, false}, {"BL", 2, false, true}, {"L", 2, true, true},
  };
  constexpr std::pair<std::string_view, double PointSystem::*> kOthers[] = {
      {"FW", &PointSystem::forfeit_win}, {"FL", &PointSystem::forfeit_loss},
      {"ZPB", &PointSystem::zero_bye},   {"HPB", &PointSystem::half_bye},
      {"FPB", &PointSystem::full_bye},   {"PAB", &PointSystem::pairing_bye},
  };
  for (std::string_view token : Tokens(line.text)) {
    const std::size_t eq = token.find('=');
    if (eq == std::string_view::npos) {
      return LineError(line.number, Cat("XXS token ", Quote(token), " is not KEY=value"));
    }
    const std::string key = absl::AsciiStrToUpper(Piece(token.substr(0, eq)));
    const std::optional<double> value = ParseDecimal(token.substr(eq + 1));
    if (!value.has_value()) {
      return LineError(line.number, Cat("XXS ", key, " value ", Quote(token.substr(eq + 1)),
                                        " is not a number"));
    }
    for (const ColouredKey& k : kColouredKeys) {
      if (key != k.key) continue;
      if (k.white) results[k.result].by_colour[0] = value;
      if (k.black) results[k.result].by_colour[1] = value;
    }
    for (const auto& [name, field] : kOthers) {
      if (key != name) continue;
      state.points.*field = *value;
      if (name == "PAB") state.pairing_bye_given = true;
    }
  }
  for (const Coloured& result : results) {
    const std::optional<double>& white = result.by_colour[0];
    const std::optional<double>& black = result.by_colour[1];
    if (white.has_value() && black.has_value() && *white != *black) {
      return LineError(line.number, Cat("XXS gives white and black different points for a ",
                                        result.what, ", which a PointSystem cannot hold"));
    }
    if (white.has_value()) state.points.*result.field = *white;
    if (black.has_value()) state.points.*result.field = *black;
  }
  return absl::OkStatus();
}

absl::Status Parse162(const Line& line, PointsState& state) {
  const Columns columns(line.text);
  for (int column = 6; column <= columns.size(); column += 9) {
    const char code = Upper(columns.At(column));
    const std::string_view value_text = TrimSpaces(columns.Get(column + 1, column + 4));
    const std::optional<double> value = ParseDecimal(value_text);
    if (!value.has_value()) {
      return LineError(line.number, Cat("162 value in columns ", column + 1, "-", column + 4, " ",
                                        Quote(value_text), " is not a number"));
    }
    constexpr std::pair<char, PointsOf> kCodes[] = {{'W', PointsOf::kWin},
                                                    {'D', PointsOf::kDraw},
                                                    {'L', PointsOf::kLoss},
                                                    {'A', PointsOf::kUnplayed},
                                                    {'P', PointsOf::kPairingBye}};
    const auto it = std::find_if(std::begin(kCodes), std::end(kCodes),
                                 [code](const auto& entry) { return entry.first == code; });
    if (it != std::end(kCodes)) {
      SetPoints(state, it->second, *value);
    } else if (code != 'X') {  // 'X' (an unused slot) sets nothing
      return LineError(line.number,
                       Cat("162 result code in column ", column, " ",
                           Quote(columns.Get(column, column)), " is not W, D, L, A, P or X"));
    }
  }
  return absl::OkStatus();
}

struct ByeRequest {
  int line = 0;
  RoundCode code = RoundCode::kNone;
  int round = 0;
  int tpn = 0;
};

absl::Status Parse240(const Line& line, std::vector<ByeRequest>& byes) {
  const Columns columns(line.text);
  RoundCode code;
  switch (Upper(columns.At(5))) {
    case 'F':
      code = RoundCode::kFullBye;
      break;
    case 'H':
      code = RoundCode::kHalfBye;
      break;
    case 'Z':
      code = RoundCode::kZeroBye;
      break;
    default:
      return LineError(line.number, Cat("240 bye type (column 5) ", Quote(columns.Get(5, 5)),
                                        " is not F, H or Z"));
  }
  const std::string_view round_text = TrimSpaces(columns.Get(7, 9));
  const std::optional<int> round = ParseCount(round_text, kMaxRounds);
  if (!round.has_value() || *round == 0) {
    return LineError(line.number,
                     Cat("240 round (columns 7-9) ", Quote(round_text), " is not a round number"));
  }
  for (int column = 11; column <= columns.size(); column += 5) {
    const std::string_view tpn_text = TrimSpaces(columns.Get(column, column + 3));
    const std::optional<int> tpn = ParseCount(tpn_text, kMaxTpn);
    if (!tpn.has_value() || *tpn == 0) {
      return LineError(line.number, Cat("240 TPN in columns ", column, "-", column + 3, " ",
                                        Quote(tpn_text), " is not a TPN"));
    }
    byes.push_back({line.number, code, *round, *tpn});
  }
  return absl::OkStatus();
}

struct Setting {
  int line = 0;
  int value = 0;
};

// Two lines may repeat a setting but not contradict it.
absl::Status Set(Setting& setting, int value, const Line& line, std::string_view what) {
  if (setting.line != 0 && setting.value != value) {
    return LineError(line.number, Cat(what, " contradicts line ", setting.line));
  }
  setting = {line.number, value};
  return absl::OkStatus();
}

bool ResultsAgree(const RoundEntry& a, const RoundEntry& b) {
  if (IsPlayed(a.code) != IsPlayed(b.code) || a.rated != b.rated) return false;
  switch (a.code) {
    case RoundCode::kWin:
      return b.code == RoundCode::kLoss;
    case RoundCode::kLoss:
      return b.code == RoundCode::kWin;
    case RoundCode::kDraw:
      return b.code == RoundCode::kDraw;
    case RoundCode::kForfeitWin:
      return b.code == RoundCode::kForfeitLoss;
    case RoundCode::kForfeitLoss:
      return b.code == RoundCode::kForfeitWin || b.code == RoundCode::kForfeitLoss;
    default:
      return false;
  }
}

char ResultChar(const RoundEntry& e) {
  switch (e.code) {
    case RoundCode::kNone:
      return ' ';
    case RoundCode::kWin:
      return e.rated ? '1' : 'W';
    case RoundCode::kDraw:
      return e.rated ? '=' : 'D';
    case RoundCode::kLoss:
      return e.rated ? '0' : 'L';
    case RoundCode::kForfeitWin:
      return '+';
    case RoundCode::kForfeitLoss:
      return '-';
    case RoundCode::kPairingBye:
      return 'U';
    case RoundCode::kFullBye:
      return 'F';
    case RoundCode::kHalfBye:
      return 'H';
    case RoundCode::kZeroBye:
      return 'Z';
  }
  return ' ';
}

absl::Status CheckPairings(const EventRecord& event, const std::vector<PlayerSource>& sources) {
  const int n = static_cast<int>(event.entrants.size());
  for (const Entrant& p : event.entrants) {
    for (int r = 1; r <= static_cast<int>(p.rounds.size()); ++r) {
      const RoundEntry& e = p.rounds[r - 1];
      if (e.opponent == 0) continue;
      const int line = sources[p.tpn - 1].line;
      const std::string where = Cat("round ", r, " (TPN ", p.tpn, "): ");
      if (e.opponent > n) {
        return LineError(
            line, Cat(where, "opponent ", e.opponent, " is not in the file (TPNs run to ", n, ")"));
      }
      const Entrant& q = event.ByTpn(e.opponent);
      const RoundEntry* back = r <= static_cast<int>(q.rounds.size()) ? &q.rounds[r - 1] : nullptr;
      if (back == nullptr || back->opponent != p.tpn) {
        return LineError(line,
                         Cat(where, "opponent ", e.opponent, " (line ", sources[q.tpn - 1].line,
                             ") does not list ", p.tpn, " in that round"));
      }
      const bool clash =
          e.colour != Colour::kNone && back->colour != Colour::kNone && e.colour == back->colour;
      if (clash) {
        return LineError(line, Cat(where, "the same colour as opponent ", e.opponent));
      }
      if (!ResultsAgree(e, *back)) {
        return LineError(
            line, Cat(where, "result '", std::string(1, ResultChar(e)), "' does not fit opponent ",
                      e.opponent, "'s '", std::string(1, ResultChar(*back)), "'"));
      }
    }
  }
  return absl::OkStatus();
}

// bbpPairings' inference: in the first round with colours, the colour of the first paired
// entrant (TPN order) that has one, flipped for each paired entrant above it.
Colour InferInitialColour(const EventRecord& event) {
  std::size_t first = 0;
  bool found = false;
  for (std::size_t r = 0; !found; ++r) {
    bool any_round = false;
    for (const Entrant& e : event.entrants) {
      if (r >= e.rounds.size()) continue;
      any_round = true;
      if (e.rounds[r].colour != Colour::kNone) {
        first = r;
        found = true;
        break;
      }
    }
    if (!any_round) break;
  }
  if (!found) return Colour::kWhite;
  int above = 0;
  for (const Entrant& e : event.entrants) {
    if (first >= e.rounds.size()) continue;
    const RoundEntry& entry = e.rounds[first];
    if (!IsPaired(entry.code) && entry.code != RoundCode::kPairingBye) continue;
    if (entry.colour != Colour::kNone) {
      return above % 2 == 0 ? entry.colour : Opposite(entry.colour);
    }
    ++above;
  }
  return Colour::kWhite;
}

double PointsThrough(const Entrant& entrant, const PointSystem& points, int rounds) {
  double total = 0;
  const int n = std::min(rounds, static_cast<int>(entrant.rounds.size()));
  for (int r = 0; r < n; ++r) total += points.PointsFor(entrant.rounds[r].code);
  return total;
}

bool SamePoints(const PointSystem& a, const PointSystem& b) {
  return a.win == b.win && a.draw == b.draw && a.loss == b.loss && a.forfeit_win == b.forfeit_win &&
         a.forfeit_loss == b.forfeit_loss && a.pairing_bye == b.pairing_bye &&
         a.full_bye == b.full_bye && a.half_bye == b.half_bye && a.zero_bye == b.zero_bye;
}

std::string Cell(const RoundEntry& e) {
  if (e.code == RoundCode::kNone && e.opponent == 0) return std::string(8, ' ');
  const std::string opponent =
      e.opponent == 0 ? std::string("0000") : absl::StrFormat("%4d", e.opponent);
  const char colour = e.colour == Colour::kWhite ? 'w' : (e.colour == Colour::kBlack ? 'b' : '-');
  return Cat(opponent, " ", std::string(1, colour), " ", std::string(1, ResultChar(e)));
}

// Text from the caller made safe for one fixed-column line: a line break or other control
// character in a name must not start a line of its own, and bytes that are not UTF-8 would make
// the file unreadable.
std::string Sanitize(std::string_view s, bool keep_tabs) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t length = Utf8SequenceLength(s, i);
    if (length == 0) {
      out.push_back('?');
      ++i;
      continue;
    }
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && !(keep_tabs && c == '\t')) || c == 0x7F) {
      out.push_back(' ');
    } else {
      out.append(s.substr(i, length));
    }
    i += length;
  }
  return out;
}

// Generated lines drop trailing blanks; lines kept from a file go back as they came.
void AppendLine(std::string& out, std::string_view line) {
  std::size_t end = line.size();
  while (end > 0 && line[end - 1] == ' ') --end;
  Append(&out, line.substr(0, end), kLineEnd);
}

void AppendKeptLine(std::string& out, std::string_view line) {
  Append(&out, Sanitize(line, /*keep_tabs=*/true), kLineEnd);
}

// Points in four columns: "%4.1f", losing the decimal (then clamping) only past 99.9.
std::string PointsColumn(double points) {
  if (!(points >= 0)) return "   0";  // negative or NaN: no TRF spelling, show nothing earned
  std::string text = absl::StrFormat("%4.1f", points);
  if (text.size() > 4) text = absl::StrFormat("%4.0f", points);
  if (text.size() > 4) text = "9999";
  return text;
}

}  // namespace

absl::StatusOr<TrfFile> ParseTrfFile(std::string_view text) {
  absl::StatusOr<std::vector<Line>> lines = SplitLines(text);
  if (!lines.ok()) return lines.status();
  if (lines->empty()) return absl::InvalidArgumentError("TRF: the file is empty");

  TrfFile file;
  EventRecord& event = file.event;
  std::vector<PlayerSource> sources;
  std::vector<ByeRequest> byes;
  std::vector<std::pair<int, std::vector<int>>> forbidden;  // line, TPNs
  PointsState points;
  Setting rounds_setting, colour_setting;
  bool have_name = false;
  bool seen_player = false;

  for (const Line& line : *lines) {
    const std::string_view code = line.text.substr(0, 3);
    const std::string upper = absl::AsciiStrToUpper(Piece(code));
    absl::Status status;
    if (code == "001") {
      seen_player = true;
      status = ParsePlayer(line, event.entrants, sources);
    } else if (code == "012" && !have_name) {
      // An empty name line names nothing: were it taken, a later 012 line kept verbatim would
      // become the name once the file is written (without the empty line) and read again
      // (found by the TRF fuzzer).
      event.name = std::string(TrimSpaces(line.text.substr(3)));
      have_name = !event.name.empty();
    } else if (upper == "XXR" || code == "142") {
      const std::vector<std::string_view> tokens = Tokens(line.text);
      const std::optional<int> rounds =
          tokens.size() == 1 ? ParseCount(tokens[0], kMaxRounds) : std::nullopt;
      if (!rounds.has_value() || *rounds == 0) {
        status = LineError(line.number, Cat(code, " needs one round count from 1 to ", kMaxRounds));
      } else {
        status = Set(rounds_setting, *rounds, line, "the number of rounds");
      }
    } else if (upper == "XXC" || code == "152") {
      // JaVaFo's XXC also takes `rank` (pair by rank, which we always do); any other word is
      // not a colour we know, and must not leave the default colour standing unseen.
      bool named = false;
      for (std::string_view token : Tokens(line.text)) {
        const std::string t = absl::AsciiStrToLower(Piece(token));
        Colour colour = Colour::kNone;
        if (t == "white1" || (code == "152" && t == "w")) colour = Colour::kWhite;
        if (t == "black1" || (code == "152" && t == "b")) colour = Colour::kBlack;
        if (colour == Colour::kNone && (code == "152" || t != "rank")) {
          status = LineError(line.number, Cat(code, " names no colour we know: ", Quote(token),
                                              code == "152" ? " (W or B)" : " (white1 or black1)"));
          break;
        }
        if (colour != Colour::kNone) {
          named = true;
          status = Set(colour_setting, static_cast<int>(colour), line, "the initial colour");
          if (!status.ok()) break;
        }
      }
      if (status.ok() && !named) {
        status = LineError(line.number, Cat(code, " names no initial colour"));
      }
    } else if (upper == "XXS") {
      status = ParseXxs(line, points);
    } else if (upper == "BBW" || upper == "BBD" || upper == "BBL" || upper == "BBZ" ||
               upper == "BBF" || upper == "BBU") {
      status = ParseBbLine(line, upper, points);
    } else if (code == "162") {
      status = Parse162(line, points);
    } else if (code == "240") {
      status = Parse240(line, byes);
    } else if (upper == "XXP") {
      std::vector<int> tpns;
      for (std::string_view token : Tokens(line.text)) {
        const std::optional<int> tpn = ParseCount(token, kMaxTpn);
        if (!tpn.has_value() || *tpn == 0) {
          status = LineError(line.number, Cat("XXP entry ", Quote(token), " is not a TPN"));
          break;
        }
        tpns.push_back(*tpn);
      }
      forbidden.emplace_back(line.number, std::move(tpns));
    } else {
      (seen_player ? file.trailer_lines : file.header_lines).emplace_back(line.text);
    }
    if (!status.ok()) return status;
  }

  const int n = static_cast<int>(event.entrants.size());
  for (int tpn = 1; tpn <= n; ++tpn) {
    if (sources[tpn - 1].line == 0) {
      return absl::InvalidArgumentError(
          Cat("TRF: no 001 line for TPN ", tpn, " (TPNs must run from 1 to ", n, ")"));
    }
  }
  for (const ByeRequest& bye : byes) {
    if (bye.tpn > n) {
      return LineError(bye.line, Cat("240 names TPN ", bye.tpn, ", not in the file"));
    }
    std::vector<RoundEntry>& rounds = event.ByTpn(bye.tpn).rounds;
    if (static_cast<int>(rounds.size()) < bye.round) rounds.resize(bye.round);
    RoundEntry& cell = rounds[bye.round - 1];
    if (cell.code != RoundCode::kNone && cell.code != bye.code) {
      return LineError(bye.line,
                       Cat("240 bye for TPN ", bye.tpn, " in round ", bye.round,
                           " contradicts its 001 line (line ", sources[bye.tpn - 1].line, ")"));
    }
    cell = RoundEntry{};
    cell.code = bye.code;
  }
  event.total_rounds = rounds_setting.value;
  if (event.total_rounds > 0) {
    for (const Entrant& e : event.entrants) {
      if (static_cast<int>(e.rounds.size()) > event.total_rounds) {
        return LineError(sources[e.tpn - 1].line,
                         Cat("round ", e.rounds.size(), " recorded, but the event has ",
                             event.total_rounds, " rounds (line ", rounds_setting.line, ")"));
      }
    }
  }
  if (absl::Status status = CheckPairings(event, sources); !status.ok()) return status;

  event.points = points.points;
  event.initial_colour = colour_setting.line != 0 ? static_cast<Colour>(colour_setting.value)
                                                  : InferInitialColour(event);
  std::set<std::pair<int, int>> pairs;
  for (const auto& [line, tpns] : forbidden) {
    for (int tpn : tpns) {
      if (tpn > n) {
        return LineError(line, Cat("XXP names TPN ", tpn, ", not in the file"));
      }
    }
    for (std::size_t i = 0; i < tpns.size(); ++i) {
      for (std::size_t j = i + 1; j < tpns.size(); ++j) {
        if (tpns[i] == tpns[j]) continue;
        pairs.insert(std::minmax(tpns[i], tpns[j]));
        if (pairs.size() > kMaxForbiddenPairs) {
          return LineError(line, Cat("more than ", kMaxForbiddenPairs, " forbidden pairs"));
        }
      }
    }
  }
  event.forbidden_pairs.assign(pairs.begin(), pairs.end());
  file.ranks.reserve(n);
  for (const PlayerSource& source : sources) file.ranks.push_back(source.rank);
  return file;
}

absl::StatusOr<EventRecord> ParseTrf(std::string_view text) {
  absl::StatusOr<TrfFile> file = ParseTrfFile(text);
  if (!file.ok()) return file.status();
  return std::move(file->event);
}

std::string WriteTrf(const TrfFile& file) {
  const EventRecord& event = file.event;
  const int n = static_cast<int>(event.entrants.size());
  const int played = RoundsPlayed(event);
  std::vector<double> points(n);
  for (int i = 0; i < n; ++i) points[i] = PointsThrough(event.entrants[i], event.points, played);
  std::vector<int> ranks = file.ranks;
  if (static_cast<int>(ranks.size()) != n) {
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return points[a] > points[b]; });
    ranks.assign(n, 0);
    for (int place = 0; place < n; ++place) ranks[order[place]] = place + 1;
  }

  std::string out;
  if (!event.name.empty()) {
    AppendLine(out, Cat("012 ", Sanitize(event.name, /*keep_tabs=*/true)));
  }
  for (const std::string& line : file.header_lines) AppendKeptLine(out, line);
  for (int i = 0; i < n; ++i) {
    const Entrant& e = event.entrants[i];
    const int rating = std::clamp(e.rating, 0, 9999);
    const auto field = [](std::string_view text, int width, bool right_align) {
      return Fit(Sanitize(text, /*keep_tabs=*/false), width, right_align);
    };
    const int rank = std::clamp(ranks[i], 0, 9999);
    std::string line =
        Cat("001 ", absl::StrFormat("%4d", i + 1), " ", field(e.trf.sex, 1, false),
            field(e.trf.title, 3, true), " ", field(e.name, 33, false), " ",
            rating == 0 ? std::string(4, ' ') : absl::StrFormat("%4d", rating), " ",
            field(e.trf.federation, 3, false), " ", field(e.trf.fide_id, 11, true), " ",
            field(e.trf.birth_date, 10, false), " ", PointsColumn(points[i]), " ",
            rank == 0 ? std::string(4, ' ') : absl::StrFormat("%4d", rank), " ");
    for (const RoundEntry& entry : e.rounds) Append(&line, " ", Cell(entry), " ");
    AppendLine(out, line);
  }
  for (const std::string& line : file.trailer_lines) AppendKeptLine(out, line);
  if (event.total_rounds > 0) AppendLine(out, Cat("XXR ", event.total_rounds));
  AppendLine(out, event.initial_colour == Colour::kBlack ? "XXC black1" : "XXC white1");
  const PointSystem& p = event.points;
  if (!SamePoints(p, PointSystem{})) {
    AppendLine(out, Cat("BBW ", FormatPoints4(p.win)));
    AppendLine(out, Cat("BBD ", FormatPoints4(p.draw)));
    AppendLine(out, Cat("BBL ", FormatPoints4(p.loss)));
    AppendLine(out, Cat("BBZ ", FormatPoints4(p.zero_bye)));
    AppendLine(out, Cat("BBF ", FormatPoints4(p.forfeit_loss)));
    AppendLine(out, Cat("BBU ", FormatPoints4(p.pairing_bye)));
    const std::string win = FormatDecimal(p.win);
    const std::string draw = FormatDecimal(p.draw);
    const std::string loss = FormatDecimal(p.loss);
    AppendLine(out, Cat("XXS WW=", win, " BW=", win, " WD=", draw, " BD=", draw, " WL=", loss,
                        " BL=", loss, " ZPB=", FormatDecimal(p.zero_bye),
                        " HPB=", FormatDecimal(p.half_bye), " FPB=", FormatDecimal(p.full_bye),
                        " PAB=", FormatDecimal(p.pairing_bye), " FW=", FormatDecimal(p.forfeit_win),
                        " FL=", FormatDecimal(p.forfeit_loss)));
  }
  for (const auto& [a, b] : event.forbidden_pairs) AppendLine(out, Cat("XXP ", a, " ", b));
  return out;
}

std::string WriteTrf(const EventRecord& event) {
  TrfFile file;
  file.event = event;
  return WriteTrf(file);
}

int RoundsPlayed(const EventRecord& event) {
  int played = 0;
  for (const Entrant& e : event.entrants) {
    for (int r = static_cast<int>(e.rounds.size()); r > played; --r) {
      const RoundCode code = e.rounds[r - 1].code;
      if (IsPaired(code) || code == RoundCode::kPairingBye) {
        played = r;
        break;
      }
    }
  }
  return played;
}

}  // namespace boneyard::tournament
