// Fuzz target: the record reader and the referee (ParseRecord, Replay), which read records a
// person hands to `boneyard replay`/`verify` and the services keep.
//
// Input: a record's JSON text. Properties: nothing crashes; a record that replays writes out as
// JSON that reads back as the same record.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "absl/strings/string_view.h"
#include "engine/records/record.h"
#include "engine/records/referee.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace boneyard;
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<Record> record = ParseRecord(text);
  if (!record.ok()) return 0;
  absl::StatusOr<std::unique_ptr<State>> state = Replay(*record);
  if (!state.ok()) return 0;
  absl::StatusOr<Record> again = ParseRecord(RecordToJson(*record).dump());
  if (!again.ok() || !(*again == *record)) std::abort();
  return 0;
}
