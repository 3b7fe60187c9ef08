# SPDX-License-Identifier: Apache-2.0
# Runs EXE with ARGS (one string, shell words) and fails unless its standard output equals the file
# EXPECTED: the --explain outputs that docs/*.md quote. On a difference, the output is kept next to
# the build's other files for a diff.
#   cmake -DEXE=rowscan "-DARGS=stations --explain FILE" -DEXPECTED=FILE -DACTUAL=FILE -P compare_output.cmake
separate_arguments(args UNIX_COMMAND "${ARGS}")
execute_process(COMMAND "${EXE}" ${args} OUTPUT_VARIABLE actual ERROR_VARIABLE errors RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${EXE} ${ARGS} exited with ${status}: ${errors}")
endif()
file(READ "${EXPECTED}" expected)
if(NOT actual STREQUAL expected)
  file(WRITE "${ACTUAL}" "${actual}")
  message(FATAL_ERROR "the output differs from ${EXPECTED}; see: diff ${EXPECTED} ${ACTUAL}")
endif()
