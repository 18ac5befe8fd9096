// Errors whose text is for operators, not for clients: a database's or a library's own words
// (SQLSTATE codes, fragments of stored rows, "unnamed portal parameter $4"). Where such an
// error arises it is marked (MarkInternal: PgPool marks everything it converts); at the edge,
// PublicStatus keeps its code and replaces its text with a plain sentence and an error id,
// logging the full text under that id, so an operator can find what a client reports.
#ifndef BONEYARD_SERVICES_COMMON_INTERNAL_ERROR_H_
#define BONEYARD_SERVICES_COMMON_INTERNAL_ERROR_H_

#include <string>

#include "absl/status/status.h"

namespace boneyard {

// `status` (not OK) marked as holding internal text.
absl::Status MarkInternal(absl::Status status);
bool IsMarkedInternal(const absl::Status& status);

// What a client may see of `status`: itself when it is not marked; otherwise the same code
// with a plain message naming a fresh error id ("the database could not store this; error id
// 5e0c2a91"), after logging the full status under that id (at warning level).
absl::Status PublicStatus(const absl::Status& status);

// Whether `status` is an error of the data sent or stored (INVALID_ARGUMENT, FAILED_PRECONDITION,
// ALREADY_EXISTS, OUT_OF_RANGE): the same request would fail again, so it is not retried — a
// batch is split around it, an undeliverable result is parked.
bool IsPermanentDataError(const absl::Status& status);

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_INTERNAL_ERROR_H_
