# SPDX-License-Identifier: Apache-2.0
# `cmake --install BUILD [--prefix PREFIX]`: the rowscan CLI, the library and its headers, and a package
# configuration, so that another project can use find_package(rowscan) and link rowscan::algorithms.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(rowscan_config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/rowscan)

install(TARGETS rowscan_core rowscan_algorithms EXPORT rowscanTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/algorithms/rowscan DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
if(TARGET rowscan)
  install(TARGETS rowscan RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  # Shell completions (completions/, issue 29), where bash-completion and zsh look for them.
  install(FILES ${PROJECT_SOURCE_DIR}/completions/rowscan.bash
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME rowscan)
  install(FILES ${PROJECT_SOURCE_DIR}/completions/_rowscan DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
endif()
if(TARGET rowscan_man_page)
  install(FILES ${PROJECT_BINARY_DIR}/rowscan.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/README.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/rowscan)

install(EXPORT rowscanTargets NAMESPACE rowscan:: DESTINATION ${rowscan_config_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/rowscanConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/rowscanConfig.cmake INSTALL_DESTINATION ${rowscan_config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/rowscanConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/rowscanConfig.cmake ${PROJECT_BINARY_DIR}/rowscanConfigVersion.cmake
        DESTINATION ${rowscan_config_dir})
