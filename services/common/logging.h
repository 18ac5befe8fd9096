// Structured logs: spdlog's default logger writes one logfmt line per event to stderr,
//
//   ts=2026-11-21T10:00:00.123Z level=info service=execution msg="match created" match=8f3c game=fives
//
// Log with spdlog as usual and put the key=value fields last, through LogFields:
//
//   spdlog::info("match created {}", Fields().Add("match", id).Add("game", game));
//
// The formatter quotes the message, and passes the fields through as they are: LogFields
// quotes a value that needs it (empty, or holding spaces, '=', '"', '\' or control characters).
// Everything before the fields is the message; text after them is dropped into the fields'
// tail, so keep them last. With another formatter (e.g. spdlog's default, before InitLogging)
// the fields still print, after an invisible separator character.
//
// InitLogging also routes gRPC's own log lines (gpr_log) into the same logger, and
// protobuf's, at most a few a minute: protobuf writes a line for every request that holds
// invalid UTF-8, which anyone can send without a token.
#ifndef BONEYARD_SERVICES_COMMON_LOGGING_H_
#define BONEYARD_SERVICES_COMMON_LOGGING_H_

#include <memory>
#include <string>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "spdlog/common.h"
#include "spdlog/fmt/fmt.h"
#include "spdlog/formatter.h"

namespace boneyard {

// Configures spdlog's default logger: logfmt lines on stderr, tagged service=<service>, at the
// given level: trace, debug, info, warn, error or off (any case). An unknown level is
// INVALID_ARGUMENT and changes nothing.
absl::Status InitLogging(absl::string_view service, absl::string_view level);

// The level named by trace, debug, info, warn, error or off (any case); else INVALID_ARGUMENT.
absl::StatusOr<spdlog::level::level_enum> ParseLogLevel(absl::string_view level);

// The logfmt formatter InitLogging installs (exposed for tests and for extra sinks).
std::unique_ptr<spdlog::formatter> NewLogfmtFormatter(absl::string_view service);

// A program's start-up failure ("cannot connect to the database"), logged at error level with
// the status as a field or, when the log level hides errors, written to stderr as
// "<program>: <what>: <status>", so it is never lost. The caller exits (status 1).
void LogStartupFailure(absl::string_view program, absl::string_view what,
                       const absl::Status& status);

// Lets at most `limit` events through per `window`; counts the others, so the next one let
// through can say how many were dropped. Not thread-safe: guard it.
class LogRateLimiter {
 public:
  LogRateLimiter(int limit, absl::Duration window) : limit_(limit), window_(window) {}
  // Whether an event at `now` may be logged; when it may, `suppressed` is set to how many were
  // dropped since the last one that was.
  bool Admit(absl::Time now, int64_t& suppressed);

 private:
  const int limit_;
  const absl::Duration window_;
  absl::Time window_start_ = absl::InfinitePast();
  int admitted_ = 0;
  int64_t suppressed_ = 0;
};

// `value` as a logfmt value: as it is, or double-quoted with \" \\ \n \r \t and \xNN escapes
// when it is empty or holds spaces, '=', '"', '\' or control characters.
std::string LogfmtValue(absl::string_view value);

// key=value fields for a log line; format it with "{}" as the last thing in the message.
class LogFields {
 public:
  LogFields& Add(absl::string_view key, absl::string_view value);
  LogFields& Add(absl::string_view key, const char* value) {
    return Add(key, absl::string_view(value == nullptr ? "" : value));
  }
  LogFields& Add(absl::string_view key, const std::string& value) {
    return Add(key, absl::string_view(value));
  }
  LogFields& Add(absl::string_view key, bool value) {
    return Add(key, absl::string_view(value ? "true" : "false"));
  }
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T> &&
                                                    !std::is_same_v<T, bool>>>
  LogFields& Add(absl::string_view key, T value) {
    return Add(key, absl::string_view(absl::StrCat(value)));
  }
  // A duration as absl writes it ("1.5s", "250ms").
  LogFields& Add(absl::string_view key, absl::Duration value) {
    return Add(key, absl::string_view(absl::FormatDuration(value)));
  }
  // A status as "CODE: message" ("OK" when ok).
  LogFields& Add(absl::string_view key, const absl::Status& value) {
    return Add(key, absl::string_view(value.ToString()));
  }

  // " key=value key=value": each field with a leading space.
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

inline LogFields Fields() { return LogFields(); }

// Separates a log message from its fields inside spdlog's payload.
inline constexpr char kLogFieldsMarker = '\x1f';

}  // namespace boneyard

template <>
struct fmt::formatter<boneyard::LogFields> : fmt::formatter<fmt::string_view> {
  template <typename FormatContext>
  auto format(const boneyard::LogFields& fields, FormatContext& ctx) const
      -> decltype(ctx.out()) {
    auto out = ctx.out();
    *out++ = boneyard::kLogFieldsMarker;
    for (char c : fields.text()) *out++ = c;
    return out;
  }
};

#endif  // BONEYARD_SERVICES_COMMON_LOGGING_H_
