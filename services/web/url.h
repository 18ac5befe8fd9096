// The small parsers HTTP needs: percent-decoding, query strings and Cookie
// headers.
#ifndef BONEYARD_SERVICES_WEB_URL_H_
#define BONEYARD_SERVICES_WEB_URL_H_

#include <map>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace boneyard::web {

// "%2F" → "/"; a malformed escape ("%zz", "%2") is kept as written. With
// `plus_is_space` (query strings), '+' is a space.
std::string PercentDecode(absl::string_view text, bool plus_is_space = false);

// "a=1&b=x%20y" → {a: "1", b: "x y"}; a key without '=' has an empty value; a
// repeated key keeps its last value.
std::map<std::string, std::string> ParseQuery(absl::string_view query);

// A decoded request target the API can use: the path and every query key and value valid
// UTF-8 without control characters. INVALID_ARGUMENT naming the part otherwise ("path",
// "query parameter \"game\""): such a value could only fail later, further from its cause.
absl::Status CheckTarget(absl::string_view path, const std::map<std::string, std::string>& query);

// The value of cookie `name` in a Cookie header ("a=1; b=2"), if present.
std::optional<std::string> CookieValue(absl::string_view header, absl::string_view name);

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_URL_H_
