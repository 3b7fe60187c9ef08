// SPDX-License-Identifier: Apache-2.0
// The forms text comes in. A leading UTF-8 byte order mark is stripped from every input;
// directories skip dot-files and name the subdirectories they leave out (read with --recursive), and
// no input file at all is an error; --crlf reads CR LF files with the LF file's answer.
#include "reference/lineitem_reference.hpp"
#include "reference/stations_reference.hpp"

#include "support/cli_fixture.hpp"
#include "support/stations_text.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace {

/// Byte offsets are what these tests place: every rowscan they start adds them to its errors after the
/// column (`FILE:LINE:COLUMN: byte OFFSET: ...`, the testing aid ROWSCAN_ERROR_BYTE_OFFSETS).
bool const byte_offsets_in_errors = setenv("ROWSCAN_ERROR_BYTE_OFFSETS", "1", 1) == 0;

using support::read_file;
using support::run_result;
using support::write_file;

constexpr char const* bom = "\xef\xbb\xbf";

std::string with_crlf(std::string const& text) {
  std::string out;
  for (char c : text) out += c == '\n' ? std::string("\r\n") : std::string(1, c);
  return out;
}

class CliTextForms : public support::cli_fixture {
 protected:
  /// Runs `producer | rowscan ARGS` (standard input a pipe).
  run_result run_piped(std::string const& producer, std::string const& args) const {
    std::string const command = producer + " | '" + ROWSCAN_EXE + "' " + args + " >'" + path("stdout") + "' 2>'" +
                                path("stderr") + "'";
    int const status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(path("stdout")), read_file(path("stderr"))};
  }
  std::string q(std::string const& name) const { return "'" + path(name) + "'"; }
};

TEST_F(CliTextForms, AByteOrderMarkLeavesTheStationsAnswerUnchanged) {
  std::string const text = support::random_measurements(29, 40, 3000, 20);
  std::string const expected = reference::stations_answer(text);
  write_file(path("bom.txt"), bom + text);
  write_file(path("plain.txt"), text);
  // The example: one station A, not "\ufeffA" beside A.
  write_file(path("a.txt"), std::string(bom) + "A;1.0\nA;2.0\n");
  EXPECT_EQ(run("stations " + q("a.txt")).out, "{A=1.0/1.5/2.0}\n");
  for (std::string const& args : {"stations " + q("bom.txt"), "stations " + q("bom.txt") + " --chunk-size 128",
                                 "stations " + q("bom.txt") + " --threads 3 --chunk-size 1K",
                                 "stations " + q("bom.txt") + " --gpu-joins-after 1 --chunk-size 1K"}) {
    run_result const r = run(args);
    EXPECT_EQ(r.exit_code, 0) << args << r.err;
    EXPECT_EQ(r.out, expected) << args;
    EXPECT_EQ(r.err, "") << args;
  }
  // Standard input, a regular file or a pipe.
  EXPECT_EQ(run("stations -", bom + text).out, expected);
  run_result const piped = run_piped("cat " + q("bom.txt"), "stations -");
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.out, expected);
  // Each file of a list, and of a directory: every file may start with its own mark.
  std::size_t const cut = text.find('\n', text.size() / 2) + 1;
  write_file(path("one"), bom + text.substr(0, cut));
  write_file(path("two"), bom + text.substr(cut));
  EXPECT_EQ(run("stations " + q("one") + " " + q("two")).out, expected);
  ASSERT_EQ(::mkdir(path("d").c_str(), 0755), 0);
  write_file(path("d/1"), bom + text.substr(0, cut));
  write_file(path("d/2"), bom + text.substr(cut));
  EXPECT_EQ(run("stations " + q("d")).out, expected);
  // --explain too.
  write_file(path("small.txt"), std::string(bom) + "b;1.0\na;-2.5\n");
  run_result const explain = run("stations --explain " + q("small.txt"));
  EXPECT_EQ(explain.exit_code, 0) << explain.err;
  EXPECT_NE(explain.out.find("{a=-2.5/-2.5/-2.5, b=1.0/1.0/1.0}\n"), std::string::npos) << explain.out;
}

TEST_F(CliTextForms, AByteOrderMarkLeavesTheLineitemAnswerUnchanged) {
  ASSERT_EQ(run("generate lineitem --scale 0.001 --seed 3 -o " + q("l.tbl")).exit_code, 0);
  std::string const text = read_file(path("l.tbl"));
  write_file(path("bom.tbl"), bom + text);
  run_result const plain = run("lineitem " + q("l.tbl") + " --suppkey-below 3,40");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out, reference::lineitem_answer(text, {3, 40}));
  for (std::string const& args : {"lineitem " + q("bom.tbl") + " --suppkey-below 3,40",
                                 "lineitem " + q("bom.tbl") + " --suppkey-below 3,40 --chunk-size 256",
                                 std::string("lineitem - --suppkey-below 3,40")}) {
    run_result const r = run(args, bom + text);
    EXPECT_EQ(r.exit_code, 0) << args << r.err;
    EXPECT_EQ(r.out, plain.out) << args;
  }
}

TEST_F(CliTextForms, PositionsAfterAByteOrderMarkCountTheFilesBytes) {
  // Lines count from the mark's end; byte offsets are the file's, the mark's 3 bytes included.
  write_file(path("bad1"), std::string(bom) + ";1.0\n");
  run_result r = run("stations " + q("bad1"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "rowscan: error: " + path("bad1") + ":1:1: byte 3: empty station name: \";1.0\"\n");
  write_file(path("bad2"), std::string(bom) + "a;1.0\nb;x\n");
  for (char const* how : {"", " --chunk-size 128", " --gpu-joins-after 1"}) {
    r = run("stations " + q("bad2") + how);
    EXPECT_EQ(r.exit_code, 1) << how;
    EXPECT_EQ(r.err.rfind("rowscan: error: " + path("bad2") + ":2:3: byte 11: temperature must be", 0), 0u) << how << r.err;
    r = run("stations " + q("bad2") + how + " --skip-invalid");
    EXPECT_EQ(r.exit_code, 0) << how;
    EXPECT_EQ(r.err.rfind("rowscan: skipped 1 invalid line: " + path("bad2") + ":2:3: byte 11: ", 0), 0u) << how << r.err;
  }
  // A mark anywhere else is bytes of a name, as before.
  write_file(path("later"), std::string("a;1.0\n") + bom + "a;2.0\n");
  EXPECT_EQ(run("stations " + q("later")).out, "{a=1.0/1.0/1.0, \xef\xbb\xbf" "a=2.0/2.0/2.0}\n");
}

TEST_F(CliTextForms, DirectoriesSkipDotFilesAndNameTheirSubdirectories) {
  ASSERT_EQ(::mkdir(path("d").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir(path("d/sub").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir(path("d/sub/deeper").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir(path("d/.git").c_str(), 0755), 0);
  write_file(path("d/a"), "a;1.0\n");
  write_file(path("d/.hidden"), "hidden;9.0\n");
  write_file(path("d/.git/x"), "git;9.0\n");
  write_file(path("d/sub/b"), "b;2.0\n");
  write_file(path("d/sub/deeper/c"), "c;3.0\n");
  run_result r = run("stations " + q("d"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{a=1.0/1.0/1.0}\n");
  EXPECT_EQ(r.err, "rowscan: warning: skipped 1 subdirectory (read them with --recursive): " + path("d/sub") + "\n");
  r = run("stations " + q("d") + " --recursive");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{a=1.0/1.0/1.0, b=2.0/2.0/2.0, c=3.0/3.0/3.0}\n");
  EXPECT_EQ(r.err, "");
  // Recursion keeps name order: d/a, then d/sub/b, then d/sub/deeper/c; errors name the file.
  write_file(path("d/sub/deeper/c"), "c;x\n");
  r = run("stations " + q("d") + " --recursive");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("rowscan: error: " + path("d/sub/deeper/c") + ":1:3: byte 2: ", 0), 0u) << r.err;
  // A dot-file named as an operand is read: only a directory's listing skips them.
  r = run("lineitem " + q("d/.hidden") + " --suppkey-below 5");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("rowscan: error: " + path("d/.hidden") + ":1:", 0), 0u) << r.err;
}

// A symbolic link to a directory is never followed, with or without --recursive, and its warning says
// so instead of naming --recursive. Names in messages are one line whatever their bytes.
TEST_F(CliTextForms, LinksToDirectoriesAreNamedApartAndNamesAreEscaped) {
  ASSERT_EQ(::mkdir(path("d").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir(path("real").c_str(), 0755), 0);
  write_file(path("d/a"), "a;1.0\n");
  write_file(path("real/b"), "b;2.0\n");
  ASSERT_EQ(::symlink(path("real").c_str(), path("d/link").c_str()), 0);
  std::string const warning = "rowscan: warning: skipped 1 symbolic link to a directory (links to directories are not "
                              "followed, even with --recursive; name the directory itself): " + path("d/link") + "\n";
  for (char const* recursive : {"", " --recursive"}) {
    run_result const r = run("stations " + q("d") + recursive);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "{a=1.0/1.0/1.0}\n");
    EXPECT_EQ(r.err, warning) << recursive;
  }
  // A name with a newline, an escape byte and a byte that is not UTF-8, in an error and in a warning.
  std::string const odd = "x\ny\x1b\xff\xc3\xbc";
  std::string const shown = "x\\ny\\x1b\\xff\xc3\xbc";
  write_file(path(odd), "c;bad\n");
  run_result r = run("stations " + q(odd));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("rowscan: error: " + path(shown) + ":1:3: byte 2: temperature", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  r = run("stations " + q("missing" + odd));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "rowscan: error: " + path("missing" + shown) + ": cannot open: No such file or directory\n");
  ASSERT_EQ(::mkdir(path("d/" + odd).c_str(), 0755), 0);
  r = run("stations " + q("d"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("(read them with --recursive): " + path("d/" + shown) + "\n"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;
}

TEST_F(CliTextForms, NoInputFileAtAllIsAnError) {
  ASSERT_EQ(::mkdir(path("empty").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir(path("dots").c_str(), 0755), 0);
  write_file(path("dots/.a"), "a;1.0\n");
  ASSERT_EQ(::mkdir(path("dots/.b").c_str(), 0755), 0);
  for (std::string const command : {"stations", "lineitem --suppkey-below 5"}) {
    for (char const* dir : {"empty", "dots"}) {
      run_result const r = run(command + " " + q(dir));
      EXPECT_EQ(r.exit_code, 1) << command << " " << dir;
      EXPECT_EQ(r.out, "");
      EXPECT_EQ(r.err, "rowscan: error: no input file: " + path(dir) +
                           " holds no file to read (names that start with '.' are skipped)\n");
    }
  }
  ASSERT_EQ(::mkdir(path("only_sub").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir(path("only_sub/s").c_str(), 0755), 0);
  run_result const r = run("stations " + q("only_sub") + " " + q("empty"));
  EXPECT_EQ(r.exit_code, 1);
  // One line: the error, which says where the skipped subdirectories would have been read.
  EXPECT_EQ(r.err, "rowscan: error: no input file: the operands hold no file to read (names that start with '.' "
                   "are skipped) (subdirectories are read with --recursive)\n");
}

TEST_F(CliTextForms, CrlfReadsWindowsLineEndingsWithTheLfAnswer) {
  std::string const text = support::random_measurements(31, 60, 4000, 20);
  std::string const expected = reference::stations_answer(text);
  write_file(path("crlf.txt"), with_crlf(text));
  run_result r = run("stations " + q("crlf.txt"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("line ends with CR LF (a Windows line ending); read it with --crlf, or convert the file to LF "
                       "line endings: \""),
            std::string::npos)
      << r.err;
  write_file(path("lf.txt"), text);
  for (char const* how : {"", " --chunk-size 128", " --threads 2 --chunk-size 1K", " --format json"}) {
    run_result const lf = run("stations " + q("lf.txt") + how);
    ASSERT_EQ(lf.exit_code, 0) << how << lf.err;
    r = run("stations --crlf " + q("crlf.txt") + how);
    EXPECT_EQ(r.exit_code, 0) << how << r.err;
    EXPECT_EQ(r.out, lf.out) << how;
  }
  EXPECT_EQ(r.out.empty(), false);
  EXPECT_EQ(run("stations --crlf " + q("crlf.txt")).out, expected);
  // Standard input, a mark before the first line, a last line without LF but with its CR, and mixed endings.
  EXPECT_EQ(run("stations --crlf -", with_crlf(text)).out, expected);
  EXPECT_EQ(run("stations --crlf -", std::string(bom) + "a;1.0\r\nb;2.0\nc;3.0\r").out,
            "{a=1.0/1.0/1.0, b=2.0/2.0/2.0, c=3.0/3.0/3.0}\n");
  // A CR that does not end a line stays a byte of the line (here, of a bad temperature). Lines,
  // columns and byte offsets are the file's: line 1's dropped CR is counted again (byte 9, not 8).
  r = run("stations --crlf -", "a;1.0\r\nb;2\r.0\r\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "rowscan: error: <stdin>:2:3: byte 9: temperature must be -99.9 to 99.9 with exactly one fractional "
                   "digit (-?[0-9]{1,2}.[0-9]): \"b;2\\r.0\"\n");
  // Mixed endings, a mark, --skip-invalid, several files, small chunks, the hand-over's pieces: every
  // offset is the file's.
  std::string const mixed = std::string(bom) + "a;1.0\r\nb;2.0\nbad\r\nc;3.0\r\nd;x\n" + with_crlf(text) + "e;\r\n";
  write_file(path("mixed.txt"), mixed);
  std::size_t const bad = mixed.find("bad"), d = mixed.find("d;x") + 2, e = mixed.find("e;\r") + 2;
  for (char const* how : {"", " --chunk-size 128", " --gpu-joins-after 1 --chunk-size 1K"}) {
    r = run("stations --crlf --skip-invalid " + q("lf.txt") + " " + q("mixed.txt") + how);
    EXPECT_EQ(r.exit_code, 0) << how << r.err;
    EXPECT_EQ(r.err, "rowscan: skipped 3 invalid lines: " + path("mixed.txt") + ":3:1: byte " + std::to_string(bad) +
                         ": missing ';' between station name and temperature: \"bad\"; " + path("mixed.txt") +
                         ":5:3: byte " + std::to_string(d) +
                         ": temperature must be -99.9 to 99.9 with exactly one fractional digit (-?[0-9]{1,2}.[0-9]): "
                         "\"d;x\"; " + path("mixed.txt") + ":" + std::to_string(6 + 4000) + ":3: byte " + std::to_string(e) +
                         ": temperature must be -99.9 to 99.9 with exactly one fractional digit (-?[0-9]{1,2}.[0-9]): "
                         "\"e;\"\n")
        << how;
    r = run("stations --crlf " + q("mixed.txt") + how);
    EXPECT_EQ(r.exit_code, 1) << how;
    EXPECT_EQ(r.err.rfind("rowscan: error: " + path("mixed.txt") + ":3:1: byte " + std::to_string(bad) + ": ", 0), 0u)
        << how << r.err;
  }
  // --explain reads with --crlf too.
  r = run("stations --crlf --explain -", "b;1.0\r\na;-2.5\r\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("{a=-2.5/-2.5/-2.5, b=1.0/1.0/1.0}\n"), std::string::npos) << r.out;
}

TEST_F(CliTextForms, CrlfReadsLineitemWithTheLfAnswer) {
  ASSERT_EQ(run("generate lineitem --scale 0.001 --seed 5 -o " + q("l.tbl")).exit_code, 0);
  std::string const text = read_file(path("l.tbl"));
  write_file(path("crlf.tbl"), with_crlf(text));
  run_result const plain = run("lineitem " + q("l.tbl") + " --suppkey-below 7,50 --format json");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  run_result r = run("lineitem " + q("crlf.tbl") + " --suppkey-below 7,50");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("read it with --crlf"), std::string::npos) << r.err;
  for (char const* how : {"", " --chunk-size 256"}) {
    r = run("lineitem --crlf " + q("crlf.tbl") + " --suppkey-below 7,50 --format json" + how);
    EXPECT_EQ(r.exit_code, 0) << how << r.err;
    EXPECT_EQ(r.out, plain.out) << how;
  }
}

}  // namespace
