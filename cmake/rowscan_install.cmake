# SPDX-License-Identifier: Apache-2.0
# `cmake --install BUILD [--prefix PREFIX]`: the rowscan CLI, the library and its headers, and a package
# configuration, so that another project can use find_package(rowscan) and link rowscan::algorithms.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(rowscan_config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/rowscan)

# rowscan::workloads and rowscan::session too where they link only exported engines (the CUDA build's host engine is not one).
set(rowscan_exported rowscan_core rowscan_algorithms)
if(NOT TARGET rowscan_algorithms_host)
  list(APPEND rowscan_exported rowscan_workloads rowscan_session)
endif()
install(TARGETS ${rowscan_exported} EXPORT rowscanTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/algorithms/rowscan DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
if(TARGET rowscan)
  install(TARGETS rowscan RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  # The man page and the shell completions, which building the rowscan target makes (app/CMakeLists.txt),
  # where man, bash-completion and zsh look for them. Without python3 there are none, and the install
  # says so instead of failing.
  if(ROWSCAN_HELP_PAGES)
    install(FILES ${PROJECT_BINARY_DIR}/rowscan.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 OPTIONAL)
    install(FILES ${PROJECT_BINARY_DIR}/completions/rowscan.bash
            DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME rowscan OPTIONAL)
    install(FILES ${PROJECT_BINARY_DIR}/completions/_rowscan DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions
            OPTIONAL)
    install(CODE "if(NOT EXISTS \"${PROJECT_BINARY_DIR}/rowscan.1\")
                    message(STATUS \"rowscan: no man page or completions in ${PROJECT_BINARY_DIR}: build the rowscan target first\")
                  endif()")
  else()
    install(CODE "message(STATUS \"rowscan: no man page or shell completions: python3 was not found when configuring\")")
  endif()
endif()
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/README.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/rowscan)
# The walkthroughs beside the README, as the README links them (docs/...): the help and the man page
# point to docs/ pages, and an installed tool should carry what it points to.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/rowscan/docs)

install(EXPORT rowscanTargets NAMESPACE rowscan:: DESTINATION ${rowscan_config_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/rowscanConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/rowscanConfig.cmake INSTALL_DESTINATION ${rowscan_config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/rowscanConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/rowscanConfig.cmake ${PROJECT_BINARY_DIR}/rowscanConfigVersion.cmake
        DESTINATION ${rowscan_config_dir})
