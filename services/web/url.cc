#include "services/web/url.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "services/common/validation.h"

namespace boneyard::web {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string PercentDecode(absl::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%' && i + 2 < text.size()) {
      const int high = HexValue(text[i + 1]);
      const int low = HexValue(text[i + 2]);
      if (high >= 0 && low >= 0) {
        out.push_back(static_cast<char>(high * 16 + low));
        i += 2;
        continue;
      }
    }
    out.push_back(plus_is_space && c == '+' ? ' ' : c);
  }
  return out;
}

std::map<std::string, std::string> ParseQuery(absl::string_view query) {
  std::map<std::string, std::string> out;
  for (absl::string_view pair : absl::StrSplit(query, '&', absl::SkipEmpty())) {
    const std::size_t equals = pair.find('=');
    std::string key = PercentDecode(pair.substr(0, equals), true);
    std::string value =
        equals == absl::string_view::npos ? "" : PercentDecode(pair.substr(equals + 1), true);
    out[std::move(key)] = std::move(value);
  }
  return out;
}

absl::Status CheckTarget(absl::string_view path, const std::map<std::string, std::string>& query) {
  // The byte limits are the HTTP parser's (it refuses a longer request line first); only the
  // characters are checked here. Tabs and line breaks are control characters in a target too.
  constexpr std::size_t kAnyLength = 1 << 20;
  const auto check = [](absl::string_view field, absl::string_view value) -> absl::Status {
    if (absl::Status s = validation::CheckText(field, value, kAnyLength); !s.ok()) return s;
    if (value.find_first_of("\t\n") != absl::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": ", validation::Quote(value), " holds a control character"));
    }
    return absl::OkStatus();
  };
  if (absl::Status s = check("path", path); !s.ok()) return s;
  for (const auto& [key, value] : query) {
    if (absl::Status s = check("a query parameter's name", key); !s.ok()) return s;
    if (absl::Status s = check(absl::StrCat("query parameter ", validation::Quote(key)), value);
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

std::optional<std::string> CookieValue(absl::string_view header, absl::string_view name) {
  for (absl::string_view part : absl::StrSplit(header, ';', absl::SkipEmpty())) {
    part = absl::StripAsciiWhitespace(part);
    const std::size_t equals = part.find('=');
    if (equals == absl::string_view::npos) continue;
    if (part.substr(0, equals) == name) return std::string(part.substr(equals + 1));
  }
  return std::nullopt;
}

}  // namespace boneyard::web
