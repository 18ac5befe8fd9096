// Opaque, tamper-evident page tokens (AIP-158). A token carries parts — what must stay the
// same between pages (the request's filters) and the cursor — and an HMAC-SHA256 of them under
// the deployment's key, so a client can neither read a token's meaning into its own requests
// nor alter one (a changed character is INVALID_ARGUMENT, not a page of someone else's query).
//
//   PageTokens tokens(PageTokenKey(operator_token));
//   std::string token = tokens.Encode({"v1", game, cursor});
//   absl::StatusOr<std::vector<std::string>> parts = tokens.Decode(token);
//
// The key is derived from a secret every replica of a deployment shares (the operator token),
// so tokens stay valid across restarts and replicas, and change when that secret is rotated.
#ifndef BONEYARD_SERVICES_COMMON_PAGE_TOKEN_H_
#define BONEYARD_SERVICES_COMMON_PAGE_TOKEN_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace boneyard {

// The page-token key of a deployment whose secret is `secret`.
std::string PageTokenKey(absl::string_view secret);

class PageTokens {
 public:
  explicit PageTokens(std::string key) : key_(std::move(key)) {}

  std::string Encode(const std::vector<std::string>& parts) const;
  // The parts of a token this key signed; INVALID_ARGUMENT naming `page_token` for anything
  // else (altered, truncated, signed under another key, not a token at all).
  absl::StatusOr<std::vector<std::string>> Decode(absl::string_view token) const;

  // A list's page token, whose leading parts are the request's `identity` (what must stay the
  // same between pages, its first part a tag such as "v1" or the list's name) followed by
  // `cursor_parts` parts of cursor: the cursor, or nullopt for an empty token (the first
  // page). INVALID_ARGUMENT naming `page_token` when it is not ours, altered, or was issued
  // for another request.
  absl::StatusOr<std::optional<std::vector<std::string>>> DecodeCursor(
      absl::string_view token, const std::vector<std::string>& identity,
      size_t cursor_parts) const;

 private:
  std::string key_;
};

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_PAGE_TOKEN_H_
