// The fuzz targets without libFuzzer: runs every file of the given corpus folders (or the given
// files) through the target's LLVMFuzzerTestOneInput once. Each target's committed corpus
// (tests/fuzz/corpus/) is a ctest test this way in every build, so the inputs that once crashed
// a target stay fixed even where no fuzzer is built. A target signals a failed property by
// aborting.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
    return 2;
  }
  int inputs = 0;
  auto run = [&inputs](const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // Named before it runs, so a crash says which input it was.
    std::fprintf(stderr, "%s\n", path.c_str());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    ++inputs;
  };
  for (int i = 1; i < argc; ++i) {
    std::error_code error;
    if (std::filesystem::is_regular_file(argv[i], error)) {  // one input, to reproduce a crash
      run(argv[i]);
      continue;
    }
    for (const auto& entry : std::filesystem::recursive_directory_iterator(argv[i], error)) {
      if (entry.is_regular_file()) run(entry.path());
    }
    if (error) {
      std::fprintf(stderr, "cannot read %s: %s\n", argv[i], error.message().c_str());
      return 1;
    }
  }
  if (inputs == 0) {
    std::fprintf(stderr, "no inputs: an empty corpus tests nothing\n");
    return 1;
  }
  std::printf("%d inputs ran\n", inputs);
  return 0;
}
