// The one validation layer at every service's edge (shared/ARCHITECTURE.md, "hostile input"):
// each request field is checked here before logic, storage or another client sees it. Every
// string has a length limit and a character set, every enum must be a value the schema knows,
// every Duration must be valid. An error is INVALID_ARGUMENT naming the field and quoting at
// most a short prefix of the value (Quote), so a bad request never gets an answer larger than
// itself. The limits are documented with the fields (docs/api.md, "Limits").
//
// No gRPC here: the services' logic classes call these on the schema's messages.
#ifndef BONEYARD_SERVICES_COMMON_VALIDATION_H_
#define BONEYARD_SERVICES_COMMON_VALIDATION_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "google/protobuf/duration.pb.h"
#include "google/protobuf/timestamp.pb.h"
#include "google/protobuf/generated_enum_reflection.h"

namespace boneyard::validation {

// Ids a person or an operator chooses and everyone else sees: player ids, bot kinds, game and
// rule option names, rule text values.
inline constexpr std::size_t kMaxIdBytes = 64;
// A request_id: a client's idempotency key.
inline constexpr std::size_t kMaxRequestIdBytes = 128;
// A resource name ("matches/{id}", "matches/{id}/record").
inline constexpr std::size_t kMaxNameBytes = 128;
// One action in the notation: the longest any game writes is about 20 bytes.
inline constexpr std::size_t kMaxActionBytes = 64;
// Free text a person writes for the record: an abort's reason.
inline constexpr std::size_t kMaxReasonBytes = 512;
// A page token as the services issue them.
inline constexpr std::size_t kMaxPageTokenBytes = 512;
// A list's page size: 0 asks for the default; more than the maximum is read as the maximum.
inline constexpr int kDefaultPageSize = 50;
inline constexpr int kMaxPageSize = 1000;
// The longest a move may be given (ClockSettings.per_move): a week, for games by correspondence.
inline constexpr absl::Duration kMaxPerMove = absl::Hours(7 * 24);
// How much of a bad value an error message quotes.
inline constexpr std::size_t kQuotedBytes = 32;

// `value` for an error message: at most kQuotedBytes of it (cut at a character boundary), in
// double quotes, with control characters and invalid UTF-8 escaped, and its size when it was
// cut: "abc…" (4000 bytes).
std::string Quote(absl::string_view value);

// An identifier: 1 to `max_bytes` bytes of valid UTF-8 without control characters (C0, DEL,
// C1) or white space, which would make it look like another id in a list or a log.
absl::Status CheckId(absl::string_view field, absl::string_view value,
                     std::size_t max_bytes = kMaxIdBytes);

// Like CheckId, but empty is allowed (an optional filter, an unset request_id).
absl::Status CheckOptionalId(absl::string_view field, absl::string_view value,
                             std::size_t max_bytes = kMaxIdBytes);

// Free text: at most `max_bytes` bytes of valid UTF-8 without control characters other than
// tab and newline; may be empty.
absl::Status CheckText(absl::string_view field, absl::string_view value, std::size_t max_bytes);

// An id that appears in paths and URLs ("tournaments/{id}"): 1 to `max_bytes` of
// [A-Za-z0-9_-], so that it needs no escaping anywhere and cannot look like a path.
absl::Status CheckResourceId(absl::string_view field, absl::string_view value,
                             std::size_t max_bytes = kMaxIdBytes);

// A name people read (a display name): 1 to `max_chars` characters of valid UTF-8, no control
// characters (tab and newline included), and no white space at either end (so never blank).
absl::Status CheckDisplayName(absl::string_view field, absl::string_view value,
                              std::size_t max_chars);

// Free text of at most `max_chars` characters (code points), as CheckText otherwise.
absl::Status CheckTextChars(absl::string_view field, absl::string_view value,
                            std::size_t max_chars);

// A value of an enum field is one the schema declares (open enums carry any number).
absl::Status CheckEnum(absl::string_view field, int value,
                       const google::protobuf::EnumDescriptor* type);
template <typename E>
absl::Status CheckEnum(absl::string_view field, E value) {
  return CheckEnum(field, static_cast<int>(value), google::protobuf::GetEnumDescriptor<E>());
}

// The page size a list serves for `requested` (its request's page_size): kDefaultPageSize for
// 0, at most kMaxPageSize; INVALID_ARGUMENT naming page_size when negative.
absl::StatusOr<int> PageSize(int requested);

// A valid google.protobuf.Duration: |seconds| <= 315,576,000,000 (10,000 years), |nanos| <
// 10^9, and both of one sign.
absl::Status CheckDuration(absl::string_view field, const google::protobuf::Duration& value);

// A google.protobuf.Timestamp the services can store and print: from 0001-01-01T00:00:00Z to
// 9999-12-31T23:59:59.999999999Z, with 0 <= nanos < 10^9 (what RFC 3339 can write).
absl::Status CheckTimestamp(absl::string_view field, const google::protobuf::Timestamp& value);

// A Duration that is valid (CheckDuration), not negative and at most `max`.
absl::Status CheckNonNegativeDuration(absl::string_view field,
                                      const google::protobuf::Duration& value,
                                      absl::Duration max);

// A repeated field of at most `max_items` items.
absl::Status CheckCount(absl::string_view field, int count, int max_items);

}  // namespace boneyard::validation

#endif  // BONEYARD_SERVICES_COMMON_VALIDATION_H_
