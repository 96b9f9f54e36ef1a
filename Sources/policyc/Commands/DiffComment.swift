import PolicyKit

extension Diff {
    /// The command that prints the whole review a markdown comment had to cut: these arguments,
    /// without `--format markdown` (the text review is never cut).
    static func fullReviewCommand(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> String {
        var words: [String] = ["policyc"]
        var skip = false
        for a in arguments {
            if skip { skip = false; continue }
            if a == "--format" { skip = true; continue }
            if a.hasPrefix("--format=") { continue }
            words.append(shellWord(a))
        }
        return words.joined(separator: " ")
    }

    /// `a` as a shell reads it: as is when plain, else in single quotes.
    static func shellWord(_ a: String) -> String {
        let plain = !a.isEmpty && a.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == 0x2E || b == 0x2D || b == 0x2F || b == 0x3A || b == 0x5F || b == 0x3D || b == 0x40 || b == 0x5E || b == 0x7E
        }
        return plain ? a : "'" + a.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
