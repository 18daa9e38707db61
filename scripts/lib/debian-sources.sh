# Sourced by the scripts that build Khronos components from Debian source packages
# (scripts/build-khronos-vulkan-loader.sh, scripts/build-khronos-openxr-loader.sh): the machine's
# Debian mirror, and a source package downloaded from it, checked against pinned SHA-256 sums.
# No mirror host is written in this repository: it is read from the machine's apt sources.

# The first Debian archive in the machine's apt sources: a one-line `deb` entry or a deb822 stanza
# (not `Enabled: no`) whose suites include a release codename or alias without a suffix (so the
# security archive, whose suites are all `<codename>-security`, is passed over). Prints the URI.
debian_mirror_from_apt_sources() {
  local suite_re='^(buster|bullseye|bookworm|trixie|forky|duke|sid|oldoldstable|oldstable|stable|testing|unstable)$'
  local file
  for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -r "$file" ] || continue
    if [[ "$file" == *.sources ]]; then
      # deb822: stanzas separated by blank lines; fields Types, URIs, Suites, Enabled.
      awk -v suite_re="$suite_re" '
        function flush() {
          if (types ~ /(^| )deb( |$)/ && enabled !~ /^(no|false)$/) {
            n = split(suites, s, " ")
            for (i = 1; i <= n; i++) if (s[i] ~ suite_re) { split(uris, u, " "); print u[1]; found = 1; exit }
          }
          types = ""; uris = ""; suites = ""; enabled = ""
        }
        /^[ \t]*#/ { next }
        /^[ \t]*$/ { flush(); next }
        /^[A-Za-z-]+:/ {
          key = tolower($1); sub(/:$/, "", key); value = $0; sub(/^[^:]*:[ \t]*/, "", value)
          if (key == "types") types = value; else if (key == "uris") uris = value
          else if (key == "suites") suites = value; else if (key == "enabled") enabled = tolower(value)
        }
        END { if (!found) flush() }' "$file"
    else
      # One-line form: deb [options] URI suite component...
      awk -v suite_re="$suite_re" '
        $1 == "deb" {
          i = 2
          if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
          if ($(i + 1) ~ suite_re) { print $i; exit }
        }' "$file"
    fi
  done | head -1
}

# debian_source_download PACKAGE VERSION SUITE MIRROR WORK DOWNLOAD SUMS_ARRAY_NAME
# Downloads the source package PACKAGE=VERSION of SUITE from MIRROR into DOWNLOAD. Through apt-get
# with a private configuration under WORK (a deb-src list of SUITE on MIRROR, its own lists and
# cache: nothing system-wide changes), so apt checks the archive's signature and the files'
# checksums; where apt-get cannot be used (no apt, no keyring) the same files come from the mirror's
# pool. Either way every file named in the associative array SUMS_ARRAY_NAME (file name -> SHA-256)
# is then checked against its pinned sum; a mismatch fails. Progress goes to stderr.
debian_source_download() {
  local package=$1 version=$2 suite=$3 mirror=$4 work=$5 download=$6
  local -n pinned_sums=$7
  local prefix=${package:0:1}
  [[ "$package" == lib* ]] && prefix=${package:0:4}
  local pool="$mirror/pool/main/$prefix/$package"
  local apt="$work/apt" file
  mkdir -p "$download" "$apt/lists/partial" "$apt/cache/archives/partial"
  echo "deb-src $mirror $suite main" >"$apt/sources.list"
  local options=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o Debug::NoLocking=1)
  if command -v apt-get >/dev/null && apt-get "${options[@]}" -qq update >&2 &&
    (cd "$download" && apt-get "${options[@]}" -qq source --download-only "$package=$version" >&2); then
    echo "$package: source from apt-get source ($suite, $mirror)" >&2
  else
    echo "$package: apt-get source unavailable; downloading from $pool" >&2
    for file in "${!pinned_sums[@]}"; do
      curl -fsSL -o "$download/$file" "$pool/$file" >&2
    done
  fi
  rm -rf "$apt"
  # apt checked the files against the signed Sources index; check them against the pinned sums too.
  for file in "${!pinned_sums[@]}"; do
    echo "${pinned_sums[$file]}  $download/$file" | sha256sum -c --quiet - >&2 || return 1
  done
}

# debian_mirror WHO: prints the Debian mirror to use (KHRONOS_LOADER_DEBIAN_MIRROR when set, else the
# first Debian archive of the apt sources), without a trailing slash; fails naming WHO when none.
debian_mirror() {
  local mirror=${KHRONOS_LOADER_DEBIAN_MIRROR:-$(debian_mirror_from_apt_sources)}
  mirror=${mirror%/}
  if [ -z "$mirror" ]; then
    echo "$1: no Debian archive found in the apt sources; set KHRONOS_LOADER_DEBIAN_MIRROR to a Debian mirror's URI" >&2
    return 1
  fi
  echo "$mirror"
}
