#include "services/common/validation.h"

#include <algorithm>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "google/protobuf/descriptor.h"

namespace boneyard::validation {
namespace {

// The length of the UTF-8 sequence starting at `s[i]`, or 0 when it is not a valid one.
std::size_t Utf8SequenceLength(absl::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  uint32_t code = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code = lead & 0x07;
  } else {
    return 0;  // a continuation byte, an overlong 2-byte lead (C0, C1) or past U+10FFFF
  }
  if (i + length > s.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  const bool overlong = (length == 3 && code < 0x800) || (length == 4 && code < 0x10000);
  const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
  if (overlong || surrogate || code > 0x10FFFF) return 0;
  return length;
}

// The code point of the valid sequence of `length` bytes at `s[i]`.
uint32_t CodePoint(absl::string_view s, std::size_t i, std::size_t length) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  if (length == 1) return byte(i);
  uint32_t code = byte(i) & (0xFF >> (length + 1));
  for (std::size_t k = 1; k < length; ++k) code = (code << 6) | (byte(i + k) & 0x3F);
  return code;
}

bool IsControl(uint32_t code) { return code < 0x20 || (code >= 0x7F && code <= 0x9F); }

bool IsSpace(uint32_t code) {
  return code == ' ' || code == 0xA0 || code == 0x1680 || (code >= 0x2000 && code <= 0x200B) ||
         code == 0x2028 || code == 0x2029 || code == 0x202F || code == 0x205F || code == 0x3000 ||
         code == 0xFEFF;
}

absl::Status Invalid(absl::string_view field, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", what));
}

enum class Charset { kId, kText };

// Checks length and characters; the first problem found, naming the field.
absl::Status CheckChars(absl::string_view field, absl::string_view value, std::size_t max_bytes,
                        Charset charset) {
  if (value.size() > max_bytes) {
    return Invalid(field, absl::StrCat(Quote(value), " is longer than ", max_bytes, " bytes"));
  }
  for (std::size_t i = 0; i < value.size();) {
    const std::size_t length = Utf8SequenceLength(value, i);
    if (length == 0) {
      return Invalid(field, absl::StrCat(Quote(value), " is not valid UTF-8 (byte ", i, ")"));
    }
    const uint32_t code = CodePoint(value, i, length);
    const bool allowed_control = charset == Charset::kText && (code == '\t' || code == '\n');
    if (IsControl(code) && !allowed_control) {
      return Invalid(field, absl::StrFormat("%s holds the control character U+%04X (byte %d)",
                                            Quote(value), code, i));
    }
    if (charset == Charset::kId && IsSpace(code)) {
      return Invalid(field, absl::StrCat(Quote(value), " holds white space (byte ", i,
                                         "); ids are single words"));
    }
    i += length;
  }
  return absl::OkStatus();
}

}  // namespace

std::string Quote(absl::string_view value) {
  std::string out = "\"";
  std::size_t i = 0;
  while (i < value.size()) {
    const std::size_t length = Utf8SequenceLength(value, i);
    if (i + std::max<std::size_t>(length, 1) > kQuotedBytes) break;
    if (length == 0) {
      absl::StrAppendFormat(&out, "\\x%02x", static_cast<unsigned char>(value[i]));
      ++i;
      continue;
    }
    const uint32_t code = CodePoint(value, i, length);
    if (IsControl(code)) {
      absl::StrAppendFormat(&out, "\\u%04x", code);
    } else if (code == '"' || code == '\\') {
      absl::StrAppend(&out, "\\", value.substr(i, 1));
    } else {
      absl::StrAppend(&out, value.substr(i, length));
    }
    i += length;
  }
  out += '"';
  if (i < value.size()) absl::StrAppend(&out, "… (", value.size(), " bytes)");
  return out;
}

absl::Status CheckId(absl::string_view field, absl::string_view value, std::size_t max_bytes) {
  if (value.empty()) return Invalid(field, "is empty");
  return CheckChars(field, value, max_bytes, Charset::kId);
}

absl::Status CheckOptionalId(absl::string_view field, absl::string_view value,
                             std::size_t max_bytes) {
  if (value.empty()) return absl::OkStatus();
  return CheckChars(field, value, max_bytes, Charset::kId);
}

absl::Status CheckText(absl::string_view field, absl::string_view value, std::size_t max_bytes) {
  return CheckChars(field, value, max_bytes, Charset::kText);
}

absl::Status CheckResourceId(absl::string_view field, absl::string_view value,
                             std::size_t max_bytes) {
  const auto allowed = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
  };
  if (value.empty() || value.size() > max_bytes ||
      !std::all_of(value.begin(), value.end(), allowed)) {
    return Invalid(field, absl::StrCat(Quote(value), " is not 1-", max_bytes,
                                       " characters of [A-Za-z0-9_-]"));
  }
  return absl::OkStatus();
}

absl::Status CheckDisplayName(absl::string_view field, absl::string_view value,
                              std::size_t max_chars) {
  // Four bytes a character at most: the byte limit refuses a huge value before it is counted.
  if (absl::Status s = CheckChars(field, value, 4 * max_chars, Charset::kText);
      !s.ok()) {
    return s;
  }
  std::size_t characters = 0;
  uint32_t first = 0;
  uint32_t last = 0;
  for (std::size_t i = 0; i < value.size();) {
    const std::size_t length = Utf8SequenceLength(value, i);
    const uint32_t code = CodePoint(value, i, length);
    if (code == '\t' || code == '\n') {
      return Invalid(field, absl::StrCat(Quote(value), " holds a tab or a line break"));
    }
    if (characters == 0) first = code;
    last = code;
    ++characters;
    i += length;
  }
  if (characters < 1 || characters > max_chars) {
    return Invalid(field, absl::StrCat("must have 1 to ", max_chars, " characters, not ",
                                       characters));
  }
  if (IsSpace(first) || IsSpace(last)) {
    return Invalid(field, absl::StrCat(Quote(value), " starts or ends with white space"));
  }
  return absl::OkStatus();
}

absl::Status CheckTextChars(absl::string_view field, absl::string_view value,
                            std::size_t max_chars) {
  if (absl::Status s = CheckChars(field, value, 4 * max_chars, Charset::kText); !s.ok()) {
    return s;
  }
  std::size_t characters = 0;
  for (std::size_t i = 0; i < value.size(); i += Utf8SequenceLength(value, i)) ++characters;
  if (characters > max_chars) {
    return Invalid(field, absl::StrCat(Quote(value), " is longer than ", max_chars,
                                       " characters (", characters, ")"));
  }
  return absl::OkStatus();
}

absl::Status CheckEnum(absl::string_view field, int value,
                       const google::protobuf::EnumDescriptor* type) {
  if (type->FindValueByNumber(value) != nullptr) return absl::OkStatus();
  return Invalid(field, absl::StrCat(value, " is not a ", type->name(), " value"));
}

absl::StatusOr<int> PageSize(int requested) {
  if (requested < 0) return Invalid("page_size", absl::StrCat(requested, " is negative"));
  return requested == 0 ? kDefaultPageSize : std::min(requested, kMaxPageSize);
}

absl::Status CheckDuration(absl::string_view field, const google::protobuf::Duration& value) {
  constexpr int64_t kMaxSeconds = 315'576'000'000;
  const int64_t seconds = value.seconds();
  const int32_t nanos = value.nanos();
  if (seconds < -kMaxSeconds || seconds > kMaxSeconds) {
    return Invalid(field, absl::StrCat("seconds ", seconds, " is out of range (at most ",
                                       kMaxSeconds, " either way)"));
  }
  if (nanos <= -1'000'000'000 || nanos >= 1'000'000'000) {
    return Invalid(field, absl::StrCat("nanos ", nanos, " is out of range (|nanos| < 10^9)"));
  }
  if ((seconds > 0 && nanos < 0) || (seconds < 0 && nanos > 0)) {
    return Invalid(field, absl::StrCat("seconds ", seconds, " and nanos ", nanos,
                                       " have different signs"));
  }
  return absl::OkStatus();
}

absl::Status CheckTimestamp(absl::string_view field, const google::protobuf::Timestamp& value) {
  // 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in seconds since the Unix epoch.
  constexpr int64_t kMinSeconds = -62'135'596'800;
  constexpr int64_t kMaxSeconds = 253'402'300'799;
  if (value.seconds() < kMinSeconds || value.seconds() > kMaxSeconds) {
    return Invalid(field, absl::StrCat("seconds ", value.seconds(),
                                       " is outside the years 0001 to 9999"));
  }
  if (value.nanos() < 0 || value.nanos() >= 1'000'000'000) {
    return Invalid(field, absl::StrCat("nanos ", value.nanos(), " is out of range (0 to 10^9 - 1)"));
  }
  return absl::OkStatus();
}

absl::Status CheckNonNegativeDuration(absl::string_view field,
                                      const google::protobuf::Duration& value,
                                      absl::Duration max) {
  if (absl::Status s = CheckDuration(field, value); !s.ok()) return s;
  const absl::Duration d = absl::Seconds(value.seconds()) + absl::Nanoseconds(value.nanos());
  if (d < absl::ZeroDuration()) {
    return Invalid(field, absl::StrCat(absl::FormatDuration(d), " is negative"));
  }
  if (d > max) {
    return Invalid(field, absl::StrCat(absl::FormatDuration(d), " is longer than ",
                                       absl::FormatDuration(max)));
  }
  return absl::OkStatus();
}

absl::Status CheckCount(absl::string_view field, int count, int max_items) {
  if (count > max_items) {
    return Invalid(field, absl::StrCat(count, " items; at most ", max_items));
  }
  return absl::OkStatus();
}

}  // namespace boneyard::validation
