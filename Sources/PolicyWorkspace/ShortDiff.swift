import PolicySource

/// A unified diff of a generated file against the one on disk, short enough for a CI log: three
/// lines of context, the common first and last lines found on the bytes (linear, whatever the
/// size), a shortest edit script (`UnifiedDiff`) for the changed middle and its context only.
package enum ShortDiff {
    /// At most this many lines of diff a file (hunk headers aside); then how many more there are.
    package static let lineLimit = 40
    /// A changed middle of more lines than this is shown replaced, not searched for a shortest
    /// diff: Myers' search costs (lines) × (differences), and the lines would all be held.
    package static let searchLimit = 20_000

    /// The bytes both sides share at the start (back to a line start) and at the end (back to
    /// where a line starts in both).
    struct Common {
        var start: Int
        var tail: Int
    }

    package static func render(old: [UInt8], new: [UInt8], path: String) -> String {
        let common = commonEnds(old, new)
        let (start, tail) = (common.start, common.tail)
        let header = "--- \(path)\n+++ \(path) (generated)\n"
        let oldMiddle = old[start..<(old.count - tail)], newMiddle = new[start..<(new.count - tail)]
        let linesBefore = old[..<start].count { $0 == 0x0A }
        let removed = lineCount(oldMiddle), added = lineCount(newMiddle)
        guard removed + added <= searchLimit else {
            // Shown replaced whole, the first lines of each side: still a correct account.
            var out = header + "@@ -\(UnifiedDiff.range(linesBefore + (removed == 0 ? 0 : 1), removed)) "
                + "+\(UnifiedDiff.range(linesBefore + (added == 0 ? 0 : 1), added)) @@\n"
            for (sign, middle, count) in [("-", oldMiddle, removed), ("+", newMiddle, added)] {
                let lines = UnifiedDiff.lines(Array(middle.prefix(1 << 16))).prefix(lineLimit / 2)
                for line in lines { out += sign + UnifiedDiff.shown(line) }
                if count > lines.count { out += "\(sign) … \(Wording.count(count - lines.count, "more line"))\n" }
            }
            return out
        }
        // Three lines of context each way, taken from the common parts.
        var from = start
        for _ in 0..<UnifiedDiff.context where from > 0 {
            from -= 1
            while !atLineStart(old, from) { from -= 1 }
        }
        var after = 0
        for _ in 0..<UnifiedDiff.context where after < tail {
            while after < tail, old[old.count - tail + after] != 0x0A { after += 1 }
            if after < tail { after += 1 }
        }
        let firstLine = linesBefore - old[from..<start].count { $0 == 0x0A }
        let a = UnifiedDiff.lines(Array(old[from..<(old.count - tail + after)]))
        let b = UnifiedDiff.lines(Array(new[from..<(new.count - tail + after)]))
        return header + hunks(a, b, firstLine: firstLine)
    }

    static func commonEnds(_ old: [UInt8], _ new: [UInt8]) -> Common {
        var start = 0
        let shorter = min(old.count, new.count)
        while start < shorter, old[start] == new[start] { start += 1 }
        while !atLineStart(old, start) { start -= 1 }
        var tail = 0
        while tail < old.count - start, tail < new.count - start, old[old.count - 1 - tail] == new[new.count - 1 - tail] { tail += 1 }
        while tail > 0, !(atLineStart(old, old.count - tail) && atLineStart(new, new.count - tail)) { tail -= 1 }
        return Common(start: start, tail: tail)
    }

    /// The hunks of the shortest edit script from `a` to `b`, whose first line is `firstLine` + 1
    /// of the file, cut after `lineLimit` lines.
    static func hunks(_ a: [ArraySlice<UInt8>], _ b: [ArraySlice<UInt8>], firstLine: Int) -> String {
        var out = ""
        let hunks = UnifiedDiff.hunks(UnifiedDiff.editScript(a, b))
        var shown = 0
        for (h, hunk) in hunks.enumerated() {
            let oldCount = hunk.count { $0.kind != .insert }
            let newCount = hunk.count { $0.kind != .delete }
            let oldStart = firstLine + (hunk.first { $0.kind != .insert }.map { $0.oldIndex + 1 } ?? hunk[0].oldIndex)
            let newStart = firstLine + (hunk.first { $0.kind != .delete }.map { $0.newIndex + 1 } ?? hunk[0].newIndex)
            out += "@@ -\(UnifiedDiff.range(oldStart, oldCount)) +\(UnifiedDiff.range(newStart, newCount)) @@\n"
            for (i, op) in hunk.enumerated() {
                guard shown < lineLimit else {
                    let rest = hunk.count - i + hunks[(h + 1)...].reduce(0) { $0 + $1.count }
                    return out + "… \(Wording.count(rest, "more line")) of diff\n"
                }
                switch op.kind {
                case .equal: out += " " + UnifiedDiff.shown(a[op.oldIndex])
                case .delete: out += "-" + UnifiedDiff.shown(a[op.oldIndex])
                case .insert: out += "+" + UnifiedDiff.shown(b[op.newIndex])
                }
                shown += 1
            }
        }
        return out
    }

    static func atLineStart(_ b: [UInt8], _ i: Int) -> Bool { i == 0 || b[i - 1] == 0x0A }

    static func lineCount(_ b: ArraySlice<UInt8>) -> Int {
        b.count { $0 == 0x0A } + (b.last.map { $0 == 0x0A ? 0 : 1 } ?? 0)
    }
}
