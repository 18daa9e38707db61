# Sourced by the scripts that build Khronos loaders into an output folder they reuse.
#
# already_built WHO LIBRARY STAMP TEXT: true (and LIBRARY printed on stdout, a note on stderr) when
# LIBRARY exists and the STAMP file holds exactly TEXT, the description of what the build was made
# from; the caller then exits without building.
already_built() {
  local who=$1 library=$2 stamp=$3 text=$4
  if [ -f "$library" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$text" ]; then
    echo "$who: already built in $(dirname "$(dirname "$library")") ($text)" >&2
    echo "$library"
    return 0
  fi
  return 1
}
