# Sourced by the scripts that build Khronos components from source archives
# (scripts/build-khronos-vulkan-loader-release.sh): a content checksum of an unpacked tree.
#
# tree_content_sha256 DIR [EXCLUDED_GLOB...]: the SHA-256 of a listing of every regular file under
# DIR (path relative to DIR, byte order) with the SHA-256 of its content, carriage returns removed.
# It pins what an archive holds, not the archive's bytes: the same release tag packed twice
# (a compressor of another version, GitHub's on-the-fly tarball, another top folder name) gives
# other archive bytes but the same files. Carriage returns are removed because the tags'
# .gitattributes ask for CRLF in some files (*.bat), which one archiver applies and another does not.
# Files whose path matches an EXCLUDED_GLOB (find -path syntax, relative to DIR, e.g. './x/*.hpp')
# are left out of the listing (files an archive may lack and the build does not use).
tree_content_sha256() {
  local dir=$1
  shift
  local exclude=() glob
  for glob in "$@"; do exclude+=(! -path "$glob"); done
  (
    cd "$dir" &&
      find . -type f "${exclude[@]}" -print0 | LC_ALL=C sort -z |
      while IFS= read -r -d '' file; do
        printf '%s  %s\n' "$(tr -d '\r' <"$file" | sha256sum | cut -d' ' -f1)" "${file#./}"
      done
  ) | sha256sum | cut -d' ' -f1
}
