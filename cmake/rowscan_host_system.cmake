# SPDX-License-Identifier: Apache-2.0
# The CUDA build's second engine: the compositions' sources compiled again by the host compiler for
# Thrust's OpenMP system, so that one binary runs on the GPU or on the host's cores (--devices, chosen at
# run time: rowscan/engine.hpp). Only the per-system sources are compiled twice; the CLI and everything
# of rowscan_core once. No name means two things in the binary: rowscan's per-system code sits in an
# inline namespace named for its system (rowscan/system.hpp), and this copy's Thrust and CUB are wrapped
# in rowscan_host_cccl:: (THRUST_CUB_WRAPPED_NAMESPACE), which rowscan::thrust follows.

thrust_create_target(rowscan_thrust_host HOST CPP DEVICE OMP)

# rowscan_host_system_copy(NEW_TARGET FROM_TARGET): NEW_TARGET, a static library of FROM_TARGET's sources
# compiled for the host system. A source file has one language per directory, so each .cu source is
# reached through a generated .cpp that includes it.
function(rowscan_host_system_copy new_target from_target)
  get_target_property(sources ${from_target} SOURCES)
  get_target_property(source_dir ${from_target} SOURCE_DIR)
  set(copies "")
  foreach(source IN LISTS sources)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${source_dir}")
    # A source the build made (rowscan_unity_sources' batches) is named from the build tree.
    cmake_path(IS_PREFIX PROJECT_BINARY_DIR "${source}" NORMALIZE generated)
    if(generated)
      cmake_path(RELATIVE_PATH source BASE_DIRECTORY "${PROJECT_BINARY_DIR}" OUTPUT_VARIABLE relative)
    else()
      cmake_path(RELATIVE_PATH source BASE_DIRECTORY "${PROJECT_SOURCE_DIR}" OUTPUT_VARIABLE relative)
    endif()
    set(copy "${CMAKE_CURRENT_BINARY_DIR}/host_system/${relative}.cpp")
    file(CONFIGURE OUTPUT "${copy}" CONTENT "#include \"${source}\"\n")
    list(APPEND copies "${copy}")
  endforeach()
  add_library(${new_target} STATIC ${copies})
  target_compile_definitions(${new_target} PRIVATE THRUST_CUB_WRAPPED_NAMESPACE=rowscan_host_cccl)
  get_target_property(pool ${from_target} JOB_POOL_COMPILE)
  if(pool)   # batched sources (rowscan_unity_sources): as many at once as there
    set_property(TARGET ${new_target} PROPERTY JOB_POOL_COMPILE ${pool})
  endif()
  rowscan_warnings(${new_target})
endfunction()
