// SPDX-License-Identifier: Apache-2.0
// app/commands.hpp: the rowscan subcommands. Each parses its own options and returns an exit code;
// errors are thrown and reported once, in main.
#pragma once

namespace rowscan::app {

/// Exit codes, the same for every command: 0 an answer, 1 bad input or a runtime error (a missing file,
/// a failed write, a failing device), 2 a usage error (a missing, unknown or bad option: app::usage_error).
enum exit_code : int { success = 0, failure = 1, usage = 2 };

/// The tool: dispatches argv[1] to its command, reports every error as one `rowscan: error:` line on
/// stderr, and returns the exit code.
int run_command_line(int argc, char** argv);

int stations_command(int argc, char** argv);
int generate_command(int argc, char** argv);
int lineitem_command(int argc, char** argv);
int group_command(int argc, char** argv);

}  // namespace rowscan::app
