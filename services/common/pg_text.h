// Values written as PostgreSQL text parameters (libpqxx 6.4 binds every parameter as text):
// timestamps, bytea, arrays and doubles, each in the one spelling the stores use.
#ifndef BONEYARD_SERVICES_COMMON_PG_TEXT_H_
#define BONEYARD_SERVICES_COMMON_PG_TEXT_H_

#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace boneyard::pg_text {

// `t` as timestamptz text in UTC, to the microsecond (what a timestamptz column keeps).
inline std::string Timestamp(absl::Time t) {
  return absl::FormatTime("%Y-%m-%d %H:%M:%E6S+00", t, absl::UTCTimeZone());
}

// SQL reading a timestamptz column as epoch microseconds (absl::FromUnixMicros reads it).
inline std::string EpochMicros(absl::string_view column) {
  return absl::StrCat("(extract(epoch FROM ", column, ") * 1000000)::bigint");
}

// bytea input in hex format.
inline std::string Bytea(absl::string_view bytes) {
  return absl::StrCat("\\x", absl::BytesToHexString(bytes));
}

// A double as text that reads back as the same double.
inline std::string Float(double value) { return absl::StrFormat("%.17g", value); }

// An array literal of text, every element quoted: {"a","b \"c\""}.
inline std::string TextArray(const std::vector<std::string>& values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += '"';
    for (char c : values[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  out += '}';
  return out;
}

// An array literal of integers: {1,2,3}.
inline std::string IntArray(const std::vector<int>& values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    absl::StrAppend(&out, values[i]);
  }
  out += '}';
  return out;
}

}  // namespace boneyard::pg_text

#endif  // BONEYARD_SERVICES_COMMON_PG_TEXT_H_
