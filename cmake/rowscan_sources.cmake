# SPDX-License-Identifier: Apache-2.0
# Sources with the .cu suffix hold code that runs on the Thrust device system. Under CUDA nvcc
# compiles them; under OMP/CPP the host compiler does (CMake passes -x c++ for LANGUAGE CXX).
# Source properties are per directory: a directory that adds .cu files to a target of its own calls
# rowscan_device_sources(FILES...); one that adds them to a target made elsewhere names it:
# rowscan_device_sources(FILES... TARGET target).
function(rowscan_device_sources)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET" "")
  if(NOT ROWSCAN_BACKEND STREQUAL "CUDA")
    if(arg_TARGET)
      set_source_files_properties(${arg_UNPARSED_ARGUMENTS} TARGET_DIRECTORY ${arg_TARGET} PROPERTIES LANGUAGE CXX)
    else()
      set_source_files_properties(${arg_UNPARSED_ARGUMENTS} PROPERTIES LANGUAGE CXX)
    endif()
  endif()
endfunction()

# Adds a component's sources (algorithms/src/<component>/CMakeLists.txt) to the library:
# rowscan_component(DEVICE files compiled per Thrust system, into each engine... HOST plain C++ files,
# compiled once into rowscan_core...).
function(rowscan_component)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "" "DEVICE;HOST")
  if(arg_DEVICE)
    rowscan_device_sources(${arg_DEVICE} TARGET rowscan_algorithms)
    target_sources(rowscan_algorithms PRIVATE ${arg_DEVICE})
  endif()
  if(arg_HOST)
    target_sources(rowscan_core PRIVATE ${arg_HOST})
  endif()
endfunction()

# Warnings for rowscan's own code (CCCL's headers are system headers and stay quiet).
function(rowscan_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --expt-relaxed-constexpr>)
endfunction()
