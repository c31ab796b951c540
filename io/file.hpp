// A read-only memory-mapped file. Parameter files run to tens of GB; mapping them lets the
// kernel page them in on demand (and in parallel, from many decoding threads) instead of
// copying them through a buffer first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "common/result.hpp"

namespace cuzk {

class MappedFile {
 public:
  // Maps the whole file read-only. An empty file maps to an empty span (mmap refuses length 0).
  static Result<MappedFile> open(const std::filesystem::path& path);

  MappedFile() = default;
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  size_t size() const { return size_; }

  // Tells the kernel that readers walk the file front to back (each decoding thread walks its own
  // contiguous range), so it reads ahead aggressively and drops pages behind.
  void advise_sequential() const;

 private:
  MappedFile(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  void unmap();

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

// Writes a file through a buffer, to a fresh "<path>.tmp-<random>" first (created exclusively, never
// through a link); commit() flushes, syncs and renames it to the real name, so that a crash or an
// error never leaves a half-written key under that name. Destroying an uncommitted writer removes
// the temporary file.
//
// What is at the name decides how: a symbolic link is followed (the link stays, its target gets
// the file); an existing special file (a device, a FIFO) is written through in place, never
// replaced by a regular file; a folder is an error.
class FileWriter {
 public:
  static Result<FileWriter> create(const std::filesystem::path& path);

  FileWriter() = default;
  FileWriter(FileWriter&& other) noexcept;
  FileWriter& operator=(FileWriter&& other) noexcept;
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;
  ~FileWriter();

  Status write(std::span<const uint8_t> bytes);
  Status commit();

 private:
  Status flush();
  Status write_all(std::span<const uint8_t> bytes);
  void abandon();

  int fd_ = -1;
  bool through_ = false;  // writing an existing special file in place
  std::filesystem::path path_, tmp_;
  std::vector<uint8_t> buffer_;
};

// Opens `path` for reading without blocking on a FIFO or a device, and only when it is a regular
// file; the descriptor (close it) or an error naming the path.
Result<int> open_regular_file(const std::filesystem::path& path);

// Reads a whole (small) file into memory; for JSON and other files that are parsed once.
Result<std::vector<uint8_t>> read_file_bytes(const std::filesystem::path& path);
// Writes bytes to a file, replacing it. Writes to "<path>.tmp" first and renames, so that a
// crash never leaves a half-written key or proof under the real name.
Status write_file_bytes(const std::filesystem::path& path, std::span<const uint8_t> bytes);

}  // namespace cuzk
