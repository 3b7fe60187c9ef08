# Runs `rowscan stations INPUT` and compares its stdout with EXPECTED, byte for byte.
execute_process(COMMAND ${ROWSCAN} stations ${INPUT} OUTPUT_VARIABLE actual RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "rowscan stations ${INPUT} exited with ${rc}")
endif()
file(READ ${EXPECTED} expected)
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "output differs from ${EXPECTED}:\n${actual}")
endif()
