# Scripts/lib.sh — what the scripts share: policyc's version and the release architecture.
# Sourced (`. "$root/Scripts/lib.sh"`), never run. Defines:
#   policyc_version   the version in Sources/PolicySource/Version.swift (empty when unreadable)
#   policyc_arch      x86_64 or aarch64, the name a release tarball carries (empty on others)
#   policyc_tarball   dist/policyc-<version>-linux-<arch>.tar.gz, relative to the repository
_policyc_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
policyc_version=$(sed -n 's/^ *public static let string = "\([^"]*\)".*/\1/p' "$_policyc_root/Sources/PolicySource/Version.swift" 2>/dev/null)
case "$(uname -m)" in
    x86_64|amd64) policyc_arch=x86_64 ;;
    aarch64|arm64) policyc_arch=aarch64 ;;
    *) policyc_arch= ;;
esac
policyc_tarball="dist/policyc-$policyc_version-linux-$policyc_arch.tar.gz"
