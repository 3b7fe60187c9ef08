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

# rowscan_unity_sources(TARGET BATCH_SIZE): TARGET's engine sources (.cu) compiled about BATCH_SIZE to a
# translation unit, through generated files that include them; 0 or 1 leaves them one to a unit. nvcc
# parses Thrust and CUB again for every unit, which is most of a small unit's time (docs/data/ci_times.csv),
# and CMake does not batch CUDA sources itself. Sources are dealt to the units in turn, so that the heavy
# files of one folder, listed together, land in different units; at most two units compile at once (each
# takes 1.5-3 GB). CI's compile-only check of the cuda preset uses it (ROWSCAN_UNITY_BATCH_SIZE); the
# builds people run and edit keep one unit per file, so that a file lacking an include of its own still
# fails to compile there.
function(rowscan_unity_sources target batch_size)
  if(batch_size LESS 2)
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  if(ROWSCAN_BACKEND STREQUAL "CUDA")
    set(suffix cu)
  else()
    set(suffix cpp)   # the host compiler reads it as C++, as it does the .cu files themselves
  endif()
  set(kept "")
  set(batched "")
  foreach(source IN LISTS sources)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${source_dir}")
    if(source MATCHES "\\.cu$")
      list(APPEND batched "${source}")
    else()
      list(APPEND kept "${source}")
    endif()
  endforeach()
  list(LENGTH batched count)
  if(count EQUAL 0)
    return()
  endif()
  math(EXPR units "(${count} + ${batch_size} - 1) / ${batch_size}")
  math(EXPR last "${units} - 1")
  set(files "")
  foreach(unit RANGE ${last})
    set(content "")
    set(index ${unit})
    while(index LESS count)
      list(GET batched ${index} source)
      string(APPEND content "#include \"${source}\"\n")
      math(EXPR index "${index} + ${units}")
    endwhile()
    set(file "${CMAKE_CURRENT_BINARY_DIR}/unity/${target}_${unit}.${suffix}")
    file(CONFIGURE OUTPUT "${file}" CONTENT "${content}")
    list(APPEND files "${file}")
  endforeach()
  set_property(TARGET ${target} PROPERTY SOURCES ${kept} ${files})
  set_property(GLOBAL APPEND PROPERTY JOB_POOLS rowscan_unity=2)
  set_property(TARGET ${target} PROPERTY JOB_POOL_COMPILE rowscan_unity)
endfunction()
