# Installation layout and the Debian package (`cpack -G DEB` in the build folder). Desktop integration: the .desktop
# file, the hicolor icons, the AppStream metainfo and the MIME type of *.fp8cmp, all named by the application id.
# Debian's shared-mime-info, desktop-file-utils and hicolor-icon-theme refresh their caches through dpkg file
# triggers, so the package needs no maintainer scripts.
if(NOT TARGET fp8dash)
  return()  # the GPU-only build has no application to package
endif()
include(GNUInstallDirs)

set(FP8DASH_APP_ID "io.github.fp8dash.Fp8dash")
set(fp8dash_packaging_dir "${CMAKE_SOURCE_DIR}/packaging")
set(fp8dash_icons_dir "${CMAKE_SOURCE_DIR}/resources/icons")

# The man page, with the version filled in; gzip'ed as Debian policy wants when gzip is there.
configure_file("${fp8dash_packaging_dir}/fp8dash.1" "${CMAKE_BINARY_DIR}/packaging/fp8dash.1" @ONLY)
find_program(FP8DASH_GZIP gzip)
if(FP8DASH_GZIP)
  # -n leaves out the name and time stamp, so the package is reproducible.
  add_custom_command(OUTPUT "${CMAKE_BINARY_DIR}/packaging/fp8dash.1.gz"
    COMMAND "${FP8DASH_GZIP}" -9nf -k "${CMAKE_BINARY_DIR}/packaging/fp8dash.1"
    DEPENDS "${CMAKE_BINARY_DIR}/packaging/fp8dash.1"
    COMMENT "Compressing the man page"
    VERBATIM)
  add_custom_target(fp8dash_man_page ALL DEPENDS "${CMAKE_BINARY_DIR}/packaging/fp8dash.1.gz")
  if(TARGET fp8dash_release_checks)
    add_dependencies(fp8dash_release_checks fp8dash_man_page)  # the package test of CI's Release build installs it
  endif()
  install(FILES "${CMAKE_BINARY_DIR}/packaging/fp8dash.1.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
else()
  install(FILES "${CMAKE_BINARY_DIR}/packaging/fp8dash.1" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
endif()

# The binary's own install rule is in app/CMakeLists.txt. The desktop files only come with the GUI.
if(FP8DASH_BUILD_GUI)
  install(FILES "${fp8dash_packaging_dir}/${FP8DASH_APP_ID}.desktop"
    DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
  configure_file("${fp8dash_packaging_dir}/${FP8DASH_APP_ID}.metainfo.xml.in"
    "${CMAKE_BINARY_DIR}/packaging/${FP8DASH_APP_ID}.metainfo.xml" @ONLY)
  install(FILES "${CMAKE_BINARY_DIR}/packaging/${FP8DASH_APP_ID}.metainfo.xml"
    DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
  install(FILES "${fp8dash_packaging_dir}/fp8dash-mime.xml"
    DESTINATION "${CMAKE_INSTALL_DATADIR}/mime/packages" RENAME fp8dash.xml)
  foreach(size 48 128 256)
    install(FILES "${fp8dash_icons_dir}/fp8dash-${size}.png"
      DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps" RENAME "${FP8DASH_APP_ID}.png")
  endforeach()
  install(FILES "${fp8dash_icons_dir}/fp8dash.svg"
    DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps" RENAME "${FP8DASH_APP_ID}.svg")
endif()

# CPack: the Debian package fp8dash_<version>_<arch>.deb.
set(FP8DASH_PACKAGE_MAINTAINER "fp8dash maintainers <maintainers@fp8dash.invalid>"
  CACHE STRING "Maintainer field of the Debian package")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME fp8dash)
set(CPACK_PACKAGE_VENDOR "fp8dash")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "${FP8DASH_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # fp8dash_<version>_<arch>.deb (no release number is set)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${FP8DASH_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Debian's synopsis line (lower case, no full stop); CPack puts it first and indents the extended description below.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "decide with data whether an LLM deployment should run in FP8")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "fp8dash compares the lm-evaluation-harness results of a BF16 baseline and of an
FP8 run of a vLLM deployment task by task and gives a GO / MONITOR / INVESTIGATE
verdict with its reasons and statistical confidence, beside LLM-as-judge scores,
the production timeline from Prometheus or Langfuse, KV-cache capacity and FP8
benchmarks.

It is a Qt desktop application and a command-line tool for CI gates; results
are saved in comparison files (*.fp8cmp) that open offline.")
# A font for reports and headless PDF export on minimal systems; the portal lets "follow the system" see dark mode.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
  "shared-mime-info, desktop-file-utils, hicolor-icon-theme, fonts-dejavu-core, xdg-desktop-portal")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "gnome-keyring | kwalletmanager")
find_program(FP8DASH_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(FP8DASH_DPKG_SHLIBDEPS)
  # dpkg-dev (a dependency of build-essential) computes the exact library packages and versions.
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  # Debian 12's runtime packages of what the binary links.
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, libstdc++6, libgcc-s1, libcurl4, libsimdjson14, libcpp-httplib0.11, libyaml-cpp0.7")
  if(FP8DASH_BUILD_GUI)
    string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libqt6core6, libqt6gui6, libqt6widgets6, libqt6charts6, "
      "libqt6network6, libqt6concurrent6, libqt6keychain1, libqt6svg6, libqt6dbus6")
  endif()
endif()
include(CPack)
