# SPDX-License-Identifier: Apache-2.0
# Sources with the .cu suffix hold code that runs on the Thrust device system. Under CUDA nvcc
# compiles them; under OMP/CPP the host compiler does (CMake passes -x c++ for LANGUAGE CXX).
# Source properties are per directory, so every directory that adds .cu files calls this.
function(rowscan_device_sources)
  if(NOT ROWSCAN_BACKEND STREQUAL "CUDA")
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE CXX)
  endif()
endfunction()

# Warnings for rowscan's own code (CCCL's headers are system headers and stay quiet).
function(rowscan_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --expt-relaxed-constexpr>)
endfunction()
