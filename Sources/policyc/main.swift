#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PolicyKit

/// policyc COMMAND [OPTIONS] [PATH ...] — the thin shell over PolicyKit: arguments, files, exit codes.
exit(CommandLine.main(Array(CommandLine.arguments.dropFirst())))
