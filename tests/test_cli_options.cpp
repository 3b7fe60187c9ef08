// SPDX-License-Identifier: Apache-2.0
// One exit-code rule for every subcommand: 0 an answer, 1 bad input or a runtime error, 2 a
// usage error. Every option's bad value is a usage error whose message names the option.
#include "support/cli_fixture.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using support::write_file;
class CliOptions : public support::cli_fixture {
 protected:
  /// `rowscan ARGS` under `ulimit -v kib` and OMP_NUM_THREADS=1.
  support::run_result run_limited(std::string const& args, int kib) const {
    std::string const command = "ulimit -v " + std::to_string(kib) + "; OMP_NUM_THREADS=1 '" + ROWSCAN_EXE + "' " +
                                args + " </dev/null >'" + path("stdout") + "' 2>'" + path("stderr") + "'";
    int const status = std::system(command.c_str());  // sh -c: the limit holds for rowscan alone
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, support::read_file(path("stdout")),
            support::read_file(path("stderr"))};
  }
};

struct bad_value {
  std::string args;      ///< after `rowscan`; FILE stands for a valid input of the command
  std::string message;   ///< the whole stderr line
};

TEST_F(CliOptions, EveryBadValueIsAUsageErrorNamingItsOption) {
  write_file(path("m.txt"), "a;1.0\n");
  write_file(path("l.tbl"), "1|2|3|4|5|6.00|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|x|\n");
  std::string const m = " '" + path("m.txt") + "'";
  std::string const l = " '" + path("l.tbl") + "'";
  std::string const o = " -o '" + path("out.txt") + "'";
  std::string const help = " (see --help)\n";
  std::string const not_a_size = "is not a size (bytes, or with K, M or G: 64M; 1K is 1024)";
  std::vector<bad_value> const cases = {
      {"stations --chunk-size 1e6" + m, "--chunk-size: '1e6' " + not_a_size + help},
      {"stations --chunk-size 64X" + m, "--chunk-size: '64X' " + not_a_size + help},
      {"stations --chunk-size -5" + m, "--chunk-size: '-5' " + not_a_size + help},
      {"stations --chunk-size ''" + m, "--chunk-size: '' " + not_a_size + help},
      {"stations --chunk-size 1" + m, "--chunk-size: '1' is out of range (128 to 2G bytes, or 0 for the default)" + help},
      {"stations --chunk-size 127" + m, "--chunk-size: '127' is out of range (128 to 2G bytes, or 0 for the default)" + help},
      {"stations --chunk-size 2049M" + m, "--chunk-size: '2049M' is out of range (128 to 2G bytes, or 0 for the default)" + help},
      {"stations --chunk-size 99999999999999999999" + m,
       "--chunk-size: '99999999999999999999' " + not_a_size + help},
      {"stations --format xml" + m, "--format: 'xml' is not one of 1brc, json, csv" + help},
      {"stations --threads 0" + m, "--threads: '0' is out of range (1 to 64)" + help},
      {"stations --threads 100" + m, "--threads: '100' is out of range (1 to 64)" + help},
      {"stations --threads two" + m, "--threads: 'two' is not a whole number" + help},
      {"stations --key-bits 65" + m, "--key-bits: '65' is out of range (0 to 64)" + help},
      {"stations --no-such-option" + m, "unknown option '--no-such-option'" + help},
      {"stations --fromat json" + m, "unknown option '--fromat'; did you mean '--format'?" + help},
      {"stations" + m + " --format", "--format needs a value" + help},
      {"generate measurements --row 5" + o, "unknown option '--row'; did you mean '--rows'?" + help},
      {"generate measurements --rows 5 -o", "-o needs a value" + help},
      {"lineitem --suppkey-belw 5" + m, "unknown option '--suppkey-belw'; did you mean '--suppkey-below'?" + help},
      {"stations --explain --chunk-size 1K" + m, "--explain cannot be combined with --chunk-size" + help},
      {"stations --explain" + m + " extra", "--explain reads one FILE, not 2" + help},
      {"lineitem --suppkey-below 5 --chunk-size 1.5M" + l, "--chunk-size: '1.5M' " + not_a_size + help},
      {"lineitem --suppkey-below 5 --chunk-size 255" + l,
       "--chunk-size: '255' is out of range (256 to 2G bytes, or 0 for the default)" + help},
      {"lineitem --suppkey-below 5 --format xml" + l, "--format: 'xml' is not one of text, json" + help},
      {"lineitem --suppkey-below 5,x" + l,
       "--suppkey-below: 'x' is not a whole number from 0 to 18446744073709551615 (the list is Z1,Z2,...)" +
           help},
      {"lineitem" + l, "missing --suppkey-below Z" + help},
      {"generate measurements --rows 1.5e0" + o, "--rows: '1.5e0' is not a whole number" + help},
      {"generate measurements --rows 1e" + o, "--rows: '1e' is not a whole number (digits, or such as 1e9 or 2.5e6)" + help},
      {"generate measurements --rows 1e30" + o, "--rows: '1e30' is out of range (0 to 18446744073709551615)" + help},
      {"generate measurement --rows 5" + o,
       "generate: unknown kind 'measurement'; did you mean 'measurements'? (the kinds are measurements, lineitem and sales)" + help},
      {"generate", "generate needs a kind: measurements, lineitem or sales" + help},
      {"generate measurements --rows 10 --stations 0" + o,
       "--stations: '0' is out of range (1 to 1000000)" + help},
      {"generate measurements --rows 10 --stations 1000001" + o,
       "--stations: '1000001' is out of range (1 to 1000000)" + help},
      {"generate measurements --rows 10 --seed -1" + o, "--seed: '-1' is not a whole number" + help},
      {"generate measurements --stations 3" + o, "missing --rows" + help},
      {"generate lineitem --scale 0" + o, "--scale: '0' is out of range (0.0001 to 100000)" + help},
      {"generate lineitem --scale 100001" + o,
       "--scale: '100001' is out of range (0.0001 to 100000)" + help},
      {"generate lineitem --scale abc" + o, "--scale: 'abc' is not a number" + help},
      {"generate lineitem --scale nan" + o, "--scale: 'nan' is not a number" + help},
      {"generate lineitem --scale 0.01 --seed x" + o, "--seed: 'x' is not a whole number" + help},
  };
  for (auto const& c : cases) {
    auto const r = run(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args;
    EXPECT_EQ(r.out, "") << c.args;
    EXPECT_EQ(r.err, "rowscan: error: " + c.message) << c.args;
  }
  // No generate command ran to the point of creating its output.
  EXPECT_NE(::access(path("out.txt").c_str(), F_OK), 0);
}

TEST_F(CliOptions, SizesTakeBinarySuffixes) {
  std::string const text = "b;1.0\na;-2.5\nb;2.0\n";
  // Every suffix is binary: KB, MB and GB are the same units as K, M and G.
  for (char const* size : {"0", "128", "1K", "1k", "1KiB", "1KB", "1kb", "64M", "64MiB", "64MB", "64mb", "2G", "2GB",
                           "2147483648"}) {
    auto const r = run(std::string("stations --chunk-size ") + size + " -", text);
    EXPECT_EQ(r.exit_code, 0) << size << ": " << r.err;
    EXPECT_EQ(r.out, "{a=-2.5/-2.5/-2.5, b=1.0/1.5/2.0}\n") << size;
  }
  for (char const* threads : {"1", "64"}) {
    EXPECT_EQ(run(std::string("stations --threads ") + threads + " -", text).exit_code, 0) << threads;
  }
}

TEST_F(CliOptions, MegabytesAreMebibytes) {
  // 2G is the most --chunk-size takes: 2GB is the same 2^31 bytes, and 2049MB is past it.
  auto const r = run("stations --chunk-size 2049MB -", "a;1.0\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "rowscan: error: --chunk-size: '2049MB' is out of range (128 to 2G bytes, or 0 for the default) (see --help)\n");
  EXPECT_EQ(run("stations --chunk-size 2GB -", "a;1.0\n").exit_code, 0);
  EXPECT_EQ(run("stations --chunk-size 2GiB -", "a;1.0\n").exit_code, 0);
}

// The habits of other command-line tools.
TEST_F(CliOptions, CommandLineHabits) {
  write_file(path("m.txt"), "a;1.0\n");
  std::string const m = " '" + path("m.txt") + "'";
  // A mistyped command: did you mean.
  // A mistyped command: did you mean, in one line (the usage is --help's).
  auto r = run("staions" + m);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "rowscan: error: unknown command 'staions'; did you mean 'stations'? (see --help)\n");
  r = run("frobnicate");
  EXPECT_EQ(r.err, "rowscan: error: unknown command 'frobnicate' (see --help)\n");
  r = run("--rows 5");
  EXPECT_EQ(r.err, "rowscan: error: unknown command '--rows' (options come after the command) (see --help)\n");
  // No FILE: standard input, when it is not a terminal (here a file of the test's).
  EXPECT_EQ(run("stations", "b;1.0\na;-2.5\n").out, "{a=-2.5/-2.5/-2.5, b=1.0/1.0/1.0}\n");
  EXPECT_EQ(run("lineitem --suppkey-below 5", "").out, "0.00\n");
  // generate without -o: standard output (not a terminal here); --rows in e-notation.
  r = run("generate measurements --rows 2e1 --seed 3");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 20) << r.out;
  EXPECT_EQ(r.out, run("generate measurements --rows 20 --seed 3 -o -").out);
  // help COMMAND is COMMAND --help; -V is --version.
  for (char const* command : {"stations", "lineitem", "generate"}) {
    auto const help = run(std::string("help ") + command);
    EXPECT_EQ(help.exit_code, 0) << command;
    EXPECT_EQ(help.out, run(std::string(command) + " --help").out) << command;
    EXPECT_NE(help.out.find(std::string("rowscan ") + command), std::string::npos) << help.out;
  }
  r = run("help statoins");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "rowscan: error: help: unknown command 'statoins'; did you mean 'stations'? (see --help)\n");
  EXPECT_EQ(run("-V").out, run("--version").out);
  EXPECT_EQ(run("-V").out.rfind("rowscan ", 0), 0u);
  // Standard input can be read once.
  for (char const* args : {"stations - -", "lineitem --suppkey-below 5 - -"}) {
    r = run(args, "a;1.0\n");
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "rowscan: error: standard input (-) is named twice; it can be read only once (see --help)\n");
  }
}

// One setting for CPU use. --threads N (or ROWSCAN_THREADS=N) is N host workers and N
// readers; a bad value of it or of OMP_NUM_THREADS is a usage error.
TEST_F(CliOptions, ThreadsSetsEveryThreadAndBadValuesAreUsageErrors) {
  std::string text;
  for (int i = 0; i < 3000; ++i) text += "s" + std::to_string(i % 50) + ";" + std::to_string(i % 90) + ".5\n";
  write_file(path("m.txt"), text);
  std::string const m = " '" + path("m.txt") + "'";
  auto workers = [](std::string const& err) {
    std::size_t const at = err.find(" host worker(s)");
    if (at == std::string::npos) return std::string("none in: ") + err;
    std::size_t const start = err.rfind(' ', at - 1) + 1;
    return err.substr(start, at - start);
  };
  auto const run_env = [&](std::string const& env, std::string const& args) {
    std::string const command = env + " '" + ROWSCAN_EXE + "' " + args + " </dev/null >'" + path("stdout") + "' 2>'" +
                                path("stderr") + "'";
    int const status = std::system(command.c_str());
    return support::run_result{WIFEXITED(status) ? WEXITSTATUS(status) : -1, support::read_file(path("stdout")),
                               support::read_file(path("stderr"))};
  };
  auto r = run_env("OMP_NUM_THREADS=3", "stations --stats --chunk-size 1K --threads 1" + m);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(workers(r.err), "1");
  r = run_env("OMP_NUM_THREADS=1 ROWSCAN_THREADS=3", "stations --stats --chunk-size 1K" + m);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(workers(r.err), "3");
  r = run_env("OMP_NUM_THREADS=3 ROWSCAN_THREADS=3", "lineitem --suppkey-below 5 --format json --stats --threads 2 -");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_env("OMP_NUM_THREADS=2", "stations --stats --chunk-size 1K" + m);
  EXPECT_EQ(workers(r.err), "2");
  std::string const answer = run("stations" + m).out;
  for (char const* env : {"ROWSCAN_THREADS=1", "ROWSCAN_THREADS=4", "OMP_NUM_THREADS=3", "OMP_NUM_THREADS=4,2"}) {
    r = run_env(env, "stations --chunk-size 1K" + m);
    EXPECT_EQ(r.exit_code, 0) << env << r.err;
    EXPECT_EQ(r.out, answer) << env;
  }
  struct bad {
    std::string env;
    std::string message;
  };
  std::string const omp_tail = "' is not a number of threads from 1 to 64 (or a list such as 4,2); --threads N overrides it";
  for (auto const& b : {bad{"OMP_NUM_THREADS=abc", "OMP_NUM_THREADS: 'abc" + omp_tail},
                        bad{"OMP_NUM_THREADS=0", "OMP_NUM_THREADS: '0" + omp_tail},
                        bad{"OMP_NUM_THREADS=100000", "OMP_NUM_THREADS: '100000" + omp_tail},
                        bad{"OMP_NUM_THREADS=4,0", "OMP_NUM_THREADS: '4,0" + omp_tail},
                        bad{"ROWSCAN_THREADS=abc", "ROWSCAN_THREADS: 'abc' is not a number of threads from 1 to 64"},
                        bad{"ROWSCAN_THREADS=0", "ROWSCAN_THREADS: '0' is not a number of threads from 1 to 64"},
                        bad{"ROWSCAN_THREADS=65", "ROWSCAN_THREADS: '65' is not a number of threads from 1 to 64"}}) {
    for (std::string const& args : {"stations" + m, std::string("generate measurements --rows 10 -o -")}) {
      r = run_env(b.env, args);
      EXPECT_EQ(r.exit_code, 2) << b.env << " " << args;
      EXPECT_EQ(r.out, "");
      // One line, rowscan's: libgomp never sees a value rowscan cannot use, so it prints nothing.
      EXPECT_EQ(r.err, "rowscan: error: " + b.message + " (see --help)\n") << b.env;
    }
    // --threads wins over a bad OMP_NUM_THREADS, as the help says (not over a bad ROWSCAN_THREADS,
    // which is checked as the command starts).
    if (b.env.rfind("OMP", 0) == 0) {
      r = run_env(b.env, "stations --threads 2" + m);
      EXPECT_EQ(r.exit_code, 0) << b.env << r.err;
      EXPECT_EQ(r.err, "") << b.env;
      EXPECT_EQ(r.out, answer) << b.env;
      r = run_env(b.env + " ROWSCAN_THREADS=2", "generate measurements --rows 10 -o -");
      EXPECT_EQ(r.exit_code, 0) << b.env << r.err;
      EXPECT_EQ(r.err, "") << b.env;
    }
  }
}

TEST_F(CliOptions, InputAndRuntimeErrorsExitWithOne) {
  EXPECT_EQ(run("stations '" + path("missing.txt") + "'").exit_code, 1);
  EXPECT_EQ(run("stations -", "a;1.00\n").exit_code, 1);
  EXPECT_EQ(run("lineitem --suppkey-below 5 -", "1|2|\n").exit_code, 1);
  EXPECT_EQ(run("generate measurements --rows 1 -o '" + path("no/dir/x.txt") + "'").exit_code, 1);
}

// Too little memory for the process (ulimit -v from 20 MB to 400 MB): every outcome is the answer, or
// exit 1 with one `rowscan: error:` line (a refused thread, an allocation), never a crash or another
// library's message. OMP_NUM_THREADS=1: OpenMP then starts no threads of its own, whose refusal libgomp
// reports itself (context.cu starts the default team early to turn that into an error line too).
// Limits below what the binary needs to start at all (`--version` fails; the CUDA build's is larger)
// are skipped: no code of rowscan runs there.
TEST_F(CliOptions, ResourceFailuresAreErrorLines) {
  write_file(path("m.txt"), "Hamburg;12.0\nBulawayo;8.9\nHamburg;-3.4\n");
  write_file(path("l.tbl"), "1|2|3|4|5|6.00|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|x|\n");
  struct command {
    std::string args;
    std::string answer;
  };
  std::vector<command> const commands = {
      {"stations '" + path("m.txt") + "'", "{Bulawayo=8.9/8.9/8.9, Hamburg=-3.4/4.3/12.0}\n"},
      {"lineitem --suppkey-below 5 '" + path("l.tbl") + "'", "30.00\n"}};
  int tried = 0;
  for (int kib = 20000; kib <= 400000; kib += 20000) {
    if (run_limited("--version", kib).exit_code != 0) continue;
    ++tried;
    for (auto const& c : commands) {
      std::string const args = c.args + " --devices cpu";
      auto const r = run_limited(args, kib);
      SCOPED_TRACE("ulimit -v " + std::to_string(kib) + ": " + args);
      ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.exit_code << ' ' << r.err;
      if (r.exit_code == 0) {
        EXPECT_EQ(r.out, c.answer);
      } else {
        EXPECT_EQ(r.out, "");
        EXPECT_EQ(r.err.rfind("rowscan: error: ", 0), 0u) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
      }
    }
  }
  EXPECT_GE(tried, 10);  // rowscan starts under most of the limits, so the sweep checks its outcomes
}

}  // namespace
