# SPDX-License-Identifier: Apache-2.0
# The CUDA build's second system: the same sources compiled again by the host compiler for Thrust's
# OpenMP system, so that one binary runs on the GPU or on the host's cores (--devices, chosen at run
# time; rowscan/job/devices.hpp). No name may mean two things in one binary, so that copy's rowscan::
# is rowscan_host:: (-Drowscan=rowscan_host) and its Thrust and CUB live in rowscan_host_cccl::
# (THRUST_CUB_WRAPPED_NAMESPACE; rowscan/host_system_prelude.hpp keeps thrust:: and cub:: working).

thrust_create_target(rowscan_thrust_host HOST CPP DEVICE OMP)

# The flags that make a target's sources the host system's copy (PUBLIC: they follow the library).
function(rowscan_host_system_flags target scope)
  target_compile_definitions(${target} ${scope} rowscan=rowscan_host THRUST_CUB_WRAPPED_NAMESPACE=rowscan_host_cccl
                                                ROWSCAN_SECOND_SYSTEM=1)
  target_compile_options(${target} ${scope}
                         "SHELL:-include ${PROJECT_SOURCE_DIR}/algorithms/rowscan/host_system_prelude.hpp")
endfunction()

# rowscan_host_system_copy(NEW_TARGET FROM_TARGET): NEW_TARGET, a static library of FROM_TARGET's sources
# compiled as the host system's copy. A source file has one language per directory, so each .cu source
# is reached through a generated .cpp that includes it.
function(rowscan_host_system_copy new_target from_target)
  get_target_property(sources ${from_target} SOURCES)
  get_target_property(source_dir ${from_target} SOURCE_DIR)
  set(copies "")
  foreach(source IN LISTS sources)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${source_dir}")
    cmake_path(RELATIVE_PATH source BASE_DIRECTORY "${PROJECT_SOURCE_DIR}" OUTPUT_VARIABLE relative)
    set(copy "${CMAKE_CURRENT_BINARY_DIR}/host_system/${relative}.cpp")
    file(CONFIGURE OUTPUT "${copy}" CONTENT "#include \"${source}\"\n")
    list(APPEND copies "${copy}")
  endforeach()
  add_library(${new_target} STATIC ${copies})
  rowscan_host_system_flags(${new_target} PUBLIC)
  rowscan_warnings(${new_target})
endfunction()
