#include "services/common/page_token.h"

#include <algorithm>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace boneyard {
namespace {

// A MAC of 128 bits: enough that guessing one is hopeless, and the token stays short.
constexpr size_t kMacBytes = 16;

std::string Hmac(absl::string_view key, absl::string_view data) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &length);
  return std::string(reinterpret_cast<const char*>(mac), length);
}

absl::Status NotOurs() {
  return absl::InvalidArgumentError(
      "page_token: not issued by this service for this query, or altered; pass "
      "next_page_token unchanged");
}

}  // namespace

std::string PageTokenKey(absl::string_view secret) {
  return Hmac(secret, "boneyard page tokens v1");
}

std::string PageTokens::Encode(const std::vector<std::string>& parts) const {
  std::vector<std::string> encoded;
  encoded.reserve(parts.size());
  for (const std::string& part : parts) encoded.push_back(absl::WebSafeBase64Escape(part));
  const std::string payload = absl::StrJoin(encoded, ".");
  const std::string mac = Hmac(key_, payload).substr(0, kMacBytes);
  return absl::StrCat(payload, "~", absl::WebSafeBase64Escape(mac));
}

absl::StatusOr<std::vector<std::string>> PageTokens::Decode(absl::string_view token) const {
  const size_t tilde = token.rfind('~');
  if (tilde == absl::string_view::npos) return NotOurs();
  const absl::string_view payload = token.substr(0, tilde);
  std::string mac;
  // Canonical base64 only: the last character of a MAC's base64 carries unused bits, and a
  // token with one of those changed must be refused like any other altered token.
  if (!absl::WebSafeBase64Unescape(token.substr(tilde + 1), &mac) || mac.size() != kMacBytes ||
      absl::WebSafeBase64Escape(mac) != token.substr(tilde + 1)) {
    return NotOurs();
  }
  const std::string expected = Hmac(key_, payload).substr(0, kMacBytes);
  if (CRYPTO_memcmp(expected.data(), mac.data(), kMacBytes) != 0) return NotOurs();
  std::vector<std::string> parts;
  for (absl::string_view encoded : absl::StrSplit(payload, '.')) {
    std::string part;
    if (!absl::WebSafeBase64Unescape(encoded, &part)) return NotOurs();
    parts.push_back(std::move(part));
  }
  return parts;
}

absl::StatusOr<std::optional<std::vector<std::string>>> PageTokens::DecodeCursor(
    absl::string_view token, const std::vector<std::string>& identity,
    size_t cursor_parts) const {
  if (token.empty()) return std::optional<std::vector<std::string>>();
  absl::StatusOr<std::vector<std::string>> parts = Decode(token);
  if (!parts.ok()) return parts.status();
  if (parts->size() != identity.size() + cursor_parts ||
      (!identity.empty() && (*parts)[0] != identity[0])) {
    return NotOurs();
  }
  if (!std::equal(identity.begin(), identity.end(), parts->begin())) {
    return absl::InvalidArgumentError(
        "page_token: issued for another request; keep every other field the same across pages");
  }
  return std::optional<std::vector<std::string>>(
      std::vector<std::string>(parts->begin() + identity.size(), parts->end()));
}

}  // namespace boneyard
