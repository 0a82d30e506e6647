# The core's folders are layers (docs/architecture.md): a file may include
# only files of the layers its own layer is allowed to see. This scans every
# #include "..." of every .h, .cc and .inc under base/ (with base/json/
# and base/input/), strategies/, traces/ and sim/, and fails listing each
# include that breaks the rule.
# cli/ and tests/ sit on top and may include anything.
#
# -DSOURCE_DIR=<the project's source directory>

cmake_minimum_required(VERSION 3.25)

# The layer a path (relative to SOURCE_DIR) belongs to, or "" when none.
function(layer_of path out)
  if(path MATCHES "^base/(json|input)/")
    set(layer base/${CMAKE_MATCH_1})
  elseif(path MATCHES "^base/")
    set(layer base)
  elseif(path MATCHES "^strategies/exec/")
    set(layer strategies/exec)
  elseif(path MATCHES "^strategies/")
    set(layer strategies)
  elseif(path MATCHES "^traces/")
    set(layer traces)
  elseif(path MATCHES "^sim/(io|replay|report|check|sweep|fit)/")
    set(layer sim/${CMAKE_MATCH_1})
  elseif(path MATCHES "^cli/")
    set(layer cli)
  else()
    set(layer "")
  endif()
  set(${out} "${layer}" PARENT_SCOPE)
endfunction()

# What each layer may include, itself included. base/json/ (bounded JSON
# scanning, parsing and writing) and base/input/ (files and standard input
# as bytes, decompressed) see only base/ and themselves; every layer above
# them sees both.
set(allowed_base            base)
set(allowed_base/json       base base/json)
set(allowed_base/input      base base/input)
set(generic                 base base/json base/input)
set(allowed_strategies      ${generic} strategies)
set(allowed_traces          ${generic} strategies traces)
set(allowed_strategies/exec ${generic} strategies strategies/exec)
set(allowed_sim/io          ${generic} strategies traces sim/io)
set(allowed_sim/replay      ${generic} strategies traces sim/replay)
set(allowed_sim/report      ${generic} strategies traces sim/io sim/replay sim/report)
set(allowed_sim/check       ${generic} strategies traces sim/io sim/replay sim/report sim/check)
set(allowed_sim/sweep       ${generic} strategies traces sim/io sim/replay sim/report sim/sweep)
set(allowed_sim/fit         ${generic} strategies traces sim/io sim/replay sim/fit)

if(NOT IS_DIRECTORY "${SOURCE_DIR}/base" OR NOT IS_DIRECTORY "${SOURCE_DIR}/sim")
  message(FATAL_ERROR "SOURCE_DIR (${SOURCE_DIR}) is not lbsim's source directory")
endif()
file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}"
     "${SOURCE_DIR}/base/*" "${SOURCE_DIR}/strategies/*"
     "${SOURCE_DIR}/traces/*" "${SOURCE_DIR}/sim/*")
list(FILTER sources INCLUDE REGEX "\\.(h|cc|inc)$")

set(bad)
set(scanned 0)
foreach(file IN LISTS sources)
  math(EXPR scanned "${scanned} + 1")
  layer_of("${file}" layer)
  if(layer STREQUAL "")
    string(APPEND bad "\n  ${file}: a core file outside every layer "
                      "(sim/ files go in sim/io, replay, report, check, sweep or fit)")
    continue()
  endif()
  file(STRINGS "${SOURCE_DIR}/${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*$" "\\1" included "${line}")
    layer_of("${included}" target)
    if(target STREQUAL "")
      string(APPEND bad "\n  ${file}: #include \"${included}\": not a path from the "
                        "source root into a layer")
    elseif(NOT target IN_LIST allowed_${layer})
      string(REPLACE ";" ", " may "${allowed_${layer}}")
      string(APPEND bad "\n  ${file}: #include \"${included}\": ${layer}/ may include "
                        "only ${may}; not ${target}/")
    endif()
  endforeach()
endforeach()

if(scanned LESS 100)
  message(FATAL_ERROR "only ${scanned} core files found under ${SOURCE_DIR}; expected more")
endif()
if(bad)
  message(FATAL_ERROR "includes that break the layering (docs/architecture.md):${bad}")
endif()
message(STATUS "${scanned} core files: every include respects the layering")
