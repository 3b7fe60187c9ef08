// SPDX-License-Identifier: Apache-2.0
// gzip and zstd inputs: told by their first bytes, decompressed on a thread ahead of the
// reader, errors located in decompressed bytes; other binary formats are refused as not text.
// The test data is compressed here, with zlib and libzstd, so no command-line compressor is needed.
#include "reference/lineitem_reference.hpp"
#include "reference/stations_reference.hpp"

#include "support/cli_fixture.hpp"
#include "support/light_mode.hpp"

#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

/// Byte offsets are what these tests place: every rowscan they start adds them to its errors after the
/// column (`FILE:LINE:COLUMN: byte OFFSET: ...`, the testing aid ROWSCAN_ERROR_BYTE_OFFSETS).
bool const byte_offsets_in_errors = setenv("ROWSCAN_ERROR_BYTE_OFFSETS", "1", 1) == 0;

using support::read_file;
using support::write_file;

/// A gzip member holding text (zlib's deflate with a gzip header).
std::string gzip(std::string const& text) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, static_cast<uLong>(text.size())) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

/// A zstd frame holding text.
std::string zstd(std::string const& text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  std::size_t const size = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
  EXPECT_FALSE(ZSTD_isError(size));
  out.resize(size);
  return out;
}

/// Measurements lines, random but fixed by the seed.
std::string measurements(std::size_t lines, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::string text;
  for (std::size_t i = 0; i < lines; ++i) {
    int const tenths = static_cast<int>(rng() % 1999) - 999;
    text += "station " + std::to_string(rng() % 97) + ";" + (tenths < 0 ? "-" : "") + std::to_string(std::abs(tenths) / 10) +
            "." + std::to_string(std::abs(tenths) % 10) + "\n";
  }
  return text;
}

class CliCompressed : public support::cli_fixture {
 protected:
  /// Runs `producer | rowscan ARGS`.
  support::run_result run_piped(std::string const& producer, std::string const& args) const {
    std::string const command = producer + " | '" + ROWSCAN_EXE + "' " + args + " >'" + path("stdout") + "' 2>'" +
                                path("stderr") + "'";
    int const status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(path("stdout")), read_file(path("stderr"))};
  }
};

TEST_F(CliCompressed, GzipAndZstdGiveTheAnswerOfThePlainText) {
  // About 140 KB (light mode: 34 KB): the default chunk, and about 34 (light: 8) chunks of 4 KiB.
  std::string const text = measurements(support::light<std::size_t>(8000, 2000), 5);
  std::string const expected = reference::stations_answer(text);
  struct format {
    char const* name;
    std::string bytes;
  };
  // Several gzip members or zstd frames in a row are one text, as gzip -d and zstd -d read them.
  std::size_t const half = text.rfind('\n', text.size() / 2) + 1;
  for (auto const& f : {format{"gz", gzip(text)}, format{"zst", zstd(text)},
                        format{"gz", gzip(text.substr(0, half)) + gzip(text.substr(half))},
                        format{"zst", zstd(text.substr(0, half)) + zstd(text.substr(half))}}) {
    SCOPED_TRACE(f.name);
    std::string const file = path(std::string("m.") + f.name);
    write_file(file, f.bytes);
    for (char const* chunk : {"", "--chunk-size 4K "}) {
      auto r = run(std::string("stations ") + chunk + "'" + file + "'");
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.out, expected) << chunk;
      EXPECT_EQ(r.err, "");
      r = run_piped("cat '" + file + "'", std::string("stations ") + chunk + "-");
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.out, expected) << "pipe " << chunk;
    }
    // The name does not matter: the first bytes do.
    write_file(path("plain-name.txt"), f.bytes);
    EXPECT_EQ(run("stations '" + path("plain-name.txt") + "'").out, expected);
  }
}

TEST_F(CliCompressed, LineitemAndExplainReadCompressedInput) {
  std::string const row = "1|2|3|4|17|21168.23|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|x|\n";
  std::string const text = row + row;
  write_file(path("l.tbl.zst"), zstd(text));
  auto r = run("lineitem --suppkey-below 5 '" + path("l.tbl.zst") + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, reference::lineitem_answer(text, {5}));
  write_file(path("m.txt.gz"), gzip("b;1.0\na;-2.5\n"));
  r = run("stations --explain '" + path("m.txt.gz") + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("{a=-2.5/-2.5/-2.5, b=1.0/1.0/1.0}\n"), std::string::npos) << r.out;
}

TEST_F(CliCompressed, ErrorPositionsCountDecompressedBytes) {
  // The bad line is past the first chunks and far past the compressed file's size in bytes.
  std::string const text = measurements(400, 6) + "bad;1.00\n" + measurements(10, 7);
  std::size_t const line_start = text.find("bad;1.00");
  write_file(path("plain"), text);
  auto const plain = run("stations --chunk-size 1K '" + path("plain") + "'");
  ASSERT_EQ(plain.exit_code, 1);
  std::string const where = ":401:5: byte " + std::to_string(line_start + 4) + ": temperature must be";
  ASSERT_EQ(plain.err.rfind("rowscan: error: " + path("plain") + where, 0), 0u) << plain.err;
  for (auto const& [name, bytes] : {std::pair{"m.gz", gzip(text)}, std::pair{"m.zst", zstd(text)}}) {
    ASSERT_LT(bytes.size(), line_start);
    write_file(path(name), bytes);
    auto const r = run("stations --chunk-size 1K '" + path(name) + "'");
    EXPECT_EQ(r.exit_code, 1) << name;
    EXPECT_EQ(r.out, "") << name;
    EXPECT_EQ(r.err, "rowscan: error: " + path(name) + plain.err.substr(16 + path("plain").size())) << r.err;
  }
}

TEST_F(CliCompressed, TruncatedOrCorruptDataIsAnErrorAndNoAnswer) {
  // Long enough that a cut leaves whole lines before it: the decoder's failure must still win.
  std::string const text = measurements(20000, 8);
  std::string const gz = gzip(text);
  std::string const zs = zstd(text);
  struct broken {
    std::string name;
    std::string bytes;
    std::string message;
  };
  std::string corrupt = gz;
  for (std::size_t i = gz.size() / 2; i < gz.size() / 2 + 64; ++i) corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5a);
  std::string corrupt_zstd = zs;
  for (std::size_t i = zs.size() / 2; i < zs.size() / 2 + 64; ++i) corrupt_zstd[i] = static_cast<char>(corrupt_zstd[i] ^ 0x5a);
  for (auto const& b : {broken{"cut.gz", gz.substr(0, gz.size() / 2), "the gzip data ends early, after "},
                        broken{"cut.zst", zs.substr(0, zs.size() / 2), "the zstd data ends early, after "},
                        broken{"bad.gz", corrupt, "corrupt gzip data after "},
                        broken{"bad.zst", corrupt_zstd, "corrupt zstd data after "}}) {
    write_file(path(b.name), b.bytes);
    for (bool piped : {false, true}) {
      auto const r = piped ? run_piped("cat '" + path(b.name) + "'", "stations -") : run("stations '" + path(b.name) + "'");
      std::string const label = piped ? "<stdin>" : path(b.name);
      EXPECT_EQ(r.exit_code, 1) << b.name;
      EXPECT_EQ(r.out, "") << b.name;
      EXPECT_EQ(r.err.rfind("rowscan: error: " + label + ": cannot decompress: " + b.message, 0), 0u) << r.err;
    }
  }
}

TEST_F(CliCompressed, OtherBinaryFormatsAreNotText) {
  struct binary {
    std::string bytes;
    std::string what;
  };
  for (auto const& b : {binary{"BZh91AY&SY\x01\x02", "bzip2-compressed data"},
                        binary{std::string("\xfd" "7zXZ\x00\x00\x04", 8), "xz-compressed data"},
                        binary{"PK\x03\x04\x14", "a zip archive"}, binary{"\x7f" "ELF\x02\x01", "an ELF executable"},
                        binary{std::string("\xff\xfe" "a\x00;\x00", 6), "UTF-16 text"}}) {
    write_file(path("x.bin"), b.bytes + "\nrest;1.0\n");
    std::string const expected = ": not text: its first bytes say it is " + b.what +
                                 " (rowscan reads text, and decompresses gzip and zstd)\n";
    auto r = run("stations '" + path("x.bin") + "'");
    EXPECT_EQ(r.exit_code, 1) << b.what;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "rowscan: error: " + path("x.bin") + expected);
    r = run_piped("cat '" + path("x.bin") + "'", "lineitem --suppkey-below 5 -");
    EXPECT_EQ(r.exit_code, 1) << b.what;
    EXPECT_EQ(r.err, "rowscan: error: <stdin>" + expected);
  }
  // Text that merely starts like nothing known is read as text, by the input rules.
  EXPECT_EQ(run("stations -", "B;1.0\n").out, "{B=1.0/1.0/1.0}\n");
  EXPECT_EQ(run("stations -", std::string("\x1f;1.0\n")).out, "{\x1f=1.0/1.0/1.0}\n");
}

// Zstd's skippable frames, gzip's trailing zeros, and a pipe whose first write is shorter than
// the magic number.
TEST_F(CliCompressed, ZstdSkippableFramesAreRead) {
  std::string const text = measurements(300, 9);
  // A skippable frame: magic 0x184D2A50..5F (little-endian), a 4-byte size, then that many bytes.
  std::string const skippable = std::string("\x5a\x2a\x4d\x18\x05\x00\x00\x00hello", 13);
  write_file(path("s.zst"), skippable + zstd(text.substr(0, 100)) + skippable + zstd(text.substr(100)));
  auto const r = run("stations '" + path("s.zst") + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, reference::stations_answer(text));
  auto const piped = run_piped("cat '" + path("s.zst") + "'", "stations -");
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.out, r.out);
}

TEST_F(CliCompressed, GzipTrailingZerosAreAcceptedAsGzipAcceptsThem) {
  std::string const text = measurements(300, 10);
  write_file(path("z.gz"), gzip(text) + std::string(1000, '\0'));
  auto r = run("stations '" + path("z.gz") + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, reference::stations_answer(text));
  EXPECT_EQ(r.err, "");
  // Zeros, then anything else: not gzip any more, an error as before.
  write_file(path("zx.gz"), gzip(text) + std::string(10, '\0') + "x");
  r = run("stations '" + path("zx.gz") + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("rowscan: error: " + path("zx.gz") + ": cannot decompress: ", 0), 0u) << r.err;
}

TEST_F(CliCompressed, APipesShortFirstWriteIsStillRecognized) {
  std::string const text = measurements(300, 11);
  std::string const expected = reference::stations_answer(text);
  write_file(path("m.gz"), gzip(text));
  write_file(path("m.zst"), zstd(text));
  for (auto const& [name, head] : {std::pair{"m.gz", 1}, std::pair{"m.zst", 1}, std::pair{"m.zst", 3}}) {
    SCOPED_TRACE(std::string(name) + ", first write of " + std::to_string(head) + " bytes");
    // The rest comes 0.3 s later, long after rowscan has looked at what the pipe held.
    std::string const producer = "{ head -c " + std::to_string(head) + " '" + path(name) + "'; sleep 0.3; tail -c +" +
                                 std::to_string(head + 1) + " '" + path(name) + "'; }";
    auto const r = run_piped(producer, "stations -");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, expected);
  }
  // A byte order mark cut the same way is still one.
  write_file(path("bom.txt"), "\xef\xbb\xbf" + text);
  auto const r = run_piped("{ head -c 1 '" + path("bom.txt") + "'; sleep 0.3; tail -c +2 '" + path("bom.txt") + "'; }",
                           "stations -");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected);
}

// A leading UTF-8 byte order mark is not part of the first line, in compressed text too.
TEST_F(CliCompressed, AByteOrderMarkInsideCompressedTextIsStripped) {
  std::string const text = measurements(300, 12);
  std::string const expected = reference::stations_answer(text);
  write_file(path("b.gz"), gzip("\xef\xbb\xbf" + text));
  write_file(path("b.zst"), zstd("\xef\xbb\xbf" + text));
  for (char const* name : {"b.gz", "b.zst"}) {
    auto r = run("stations '" + path(name) + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, expected) << name;
    r = run_piped("cat '" + path(name) + "'", "stations -");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, expected) << name;
  }
  // Positions still count the decompressed file's bytes, the mark included.
  write_file(path("bad.gz"), gzip("\xef\xbb\xbf" "a;1.0\nb;x\n"));
  auto const r = run("stations '" + path("bad.gz") + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("rowscan: error: " + path("bad.gz") + ":2:3: byte 11: temperature must be", 0), 0u) << r.err;
  // --crlf on compressed CR LF text, with a mark: the LF file's answer.
  std::string crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  write_file(path("crlf.gz"), gzip("\xef\xbb\xbf" + crlf));
  auto const c = run("stations --crlf '" + path("crlf.gz") + "'");
  EXPECT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(c.out, expected);
}

// Host workers and a GPU on one queue read any input with one reader: a compressed file, one cut short
// and standard input give the bytes of one engine's run for every point the taker joins at
// (--gpu-joins-after; in the cpu build a second set of host workers plays the GPU).
TEST_F(CliCompressed, OneQueueGivesTheSameBytesForEverySplit) {
  std::string text = measurements(support::light<std::size_t>(6000, 2000), 11);
  text.insert(text.find('\n', text.size() / 2) + 1, "no separator\n");
  std::string const packed = gzip(text);
  write_file(path("bad.txt.gz"), packed);
  write_file(path("cut.txt.gz"), packed.substr(0, packed.size() / 2));
  for (std::string const& args : {"'" + path("bad.txt.gz") + "'", "--skip-invalid '" + path("bad.txt.gz") + "'",
                                  "'" + path("cut.txt.gz") + "'", std::string("--skip-invalid -")}) {
    support::run_result const plain = run("stations --chunk-size 4K " + args, text);
    EXPECT_NE(plain.err, "") << args << ": the input has a bad line or is cut short";
    for (int const k : {0, 1, 3, 1000}) {
      support::run_result const split = run("stations --chunk-size 4K --gpu-joins-after " + std::to_string(k) + " " + args, text);
      EXPECT_EQ(split.exit_code, plain.exit_code) << args << ", joining after " << k;
      EXPECT_EQ(split.out, plain.out) << args << ", joining after " << k;
      EXPECT_EQ(split.err, plain.err) << args << ", joining after " << k;
    }
  }
}

}  // namespace
