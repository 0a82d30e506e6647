# What `cmake --install` puts where, and the Debian package CPack builds
# from it (docs/install.md):
#
#   bin/lbsim
#   share/man/man1/lbsim.1
#   share/bash-completion/completions/lbsim
#   share/zsh/vendor-completions/_lbsim
#   share/fish/vendor_completions.d/lbsim.fish
#
# The completion scripts are written at build time by the lbsim just built
# (`lbsim completions SHELL`), so they list exactly its commands and options.

include(GNUInstallDirs)

set(completions_dir ${CMAKE_CURRENT_BINARY_DIR}/completions)
set(completion_files ${completions_dir}/lbsim ${completions_dir}/_lbsim
  ${completions_dir}/lbsim.fish)
add_custom_command(OUTPUT ${completion_files}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${completions_dir}
  COMMAND lbsim completions bash -o ${completions_dir}/lbsim
  COMMAND lbsim completions zsh -o ${completions_dir}/_lbsim
  COMMAND lbsim completions fish -o ${completions_dir}/lbsim.fish
  DEPENDS lbsim
  COMMENT "Writing lbsim's shell completions"
  VERBATIM)
add_custom_target(lbsim_completions ALL DEPENDS ${completion_files})

install(TARGETS lbsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES docs/lbsim.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${completions_dir}/lbsim
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${completions_dir}/_lbsim DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${completions_dir}/lbsim.fish
  DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME lbsim)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "lbsim maintainers <lbsim@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "replays request traces through CacheRoute Proxy routing strategies")
set(CPACK_PACKAGE_DESCRIPTION
  "lbsim replays a trace of Instance load and request arrivals through the CacheRoute Proxy's Instance-selection strategies, as a pinned Proxy version runs them, and reports where every request went, how fair the spread was, which hazards fired and, in what-if runs, the latency requests would see.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The shared libraries lbsim links, as Debian 12 names them (what
# dpkg-shlibdeps finds; written out so that a build without dpkg-dev makes
# the same package). CLI11, nlohmann-json and doctest are header-only.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libc6 (>= 2.34), libfmt9 (>= 9.1.0+ds1), libgcc-s1 (>= 3.0), libstdc++6 (>= 12), libzstd1 (>= 1.5.2), zlib1g (>= 1:1.1.4)")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion")
set(CPACK_STRIP_FILES ON)
include(CPack)
