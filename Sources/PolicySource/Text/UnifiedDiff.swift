/// A unified diff of two texts, as `diff -u` and `git diff` print it: `--- a/PATH`, `+++ b/PATH`,
/// hunks of changed lines with three lines of context. Lines are compared as bytes and end at LF
/// (a CR before it is part of the line); `\ No newline at end of file` marks a last line without
/// one. Control characters are shown escaped, as everywhere policyc echoes a file, but for tabs
/// and a line's CR, so that a diff of an ordinary policy applies with `patch` or `git apply`.
public enum UnifiedDiff {
    public static let context = 3

    /// Empty when the texts are the same bytes.
    public static func render(old: [UInt8], new: [UInt8], path: String) -> String {
        guard old != new else { return "" }
        let a = lines(old), b = lines(new)
        let script = editScript(a, b)
        var out = "--- a/\(printable(path))\n+++ b/\(printable(path))\n"
        for hunk in hunks(script) {
            let oldCount = hunk.filter { $0.kind != .insert }.count
            let newCount = hunk.filter { $0.kind != .delete }.count
            let oldStart = hunk.first { $0.kind != .insert }.map { $0.oldIndex + 1 } ?? (hunk[0].oldIndex)
            let newStart = hunk.first { $0.kind != .delete }.map { $0.newIndex + 1 } ?? (hunk[0].newIndex)
            out += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
            for op in hunk {
                switch op.kind {
                case .equal: out += " " + shown(a[op.oldIndex])
                case .delete: out += "-" + shown(a[op.oldIndex])
                case .insert: out += "+" + shown(b[op.newIndex])
                }
            }
        }
        return out
    }

    /// `start,count`, the count left out when it is 1 (as GNU diff writes it).
    package static func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "\(start)" : "\(start),\(count)"
    }

    // MARK: lines

    /// The lines of a text, each with its LF (the last may have none; an empty one after a last
    /// LF is no line).
    package static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        let index = LineIndex(bytes, breaks: .lineFeed)
        return (1...index.lineCount).map { bytes[index.rangeWithBreak(ofLine: $0)!] }.filter { !$0.isEmpty }
    }

    /// A line as the diff prints it: escaped but for tabs and a CR before its LF, and marked when
    /// it has no LF.
    package static func shown(_ line: ArraySlice<UInt8>) -> String {
        var body = line
        let hasNewline = body.last == 0x0A
        if hasNewline { body = body.dropLast() }
        let hasCR = body.last == 0x0D
        if hasCR { body = body.dropLast() }
        var out = ""
        for scalar in String(decoding: body, as: UTF8.self).unicodeScalars {
            if scalar == "\t" { out.unicodeScalars.append(scalar) } else { appendPrintable(scalar, to: &out) }
        }
        if hasCR { out += "\r" }
        return out + (hasNewline ? "\n" : "\n\\ No newline at end of file\n")
    }

    // MARK: the edit script

    package struct Op {
        package enum Kind { case equal, delete, insert }
        package var kind: Kind
        /// The line's index in the old text (for an insert: the old line it goes before).
        package var oldIndex: Int
        /// The line's index in the new text (for a delete: the new line it stands before).
        package var newIndex: Int
    }

    /// The lines to keep, delete and insert: common first and last lines, and Myers' shortest edit
    /// script for the middle (a fix changes a few lines; past `maxDifferences` the whole middle
    /// is shown replaced, which is still a correct diff).
    package static func editScript(_ a: [ArraySlice<UInt8>], _ b: [ArraySlice<UInt8>]) -> [Op] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        var ops: [Op] = (0..<prefix).map { Op(kind: .equal, oldIndex: $0, newIndex: $0) }
        let midA = Array(a[prefix..<(a.count - suffix)]), midB = Array(b[prefix..<(b.count - suffix)])
        for op in middle(midA, midB) {
            ops.append(Op(kind: op.kind, oldIndex: op.oldIndex + prefix, newIndex: op.newIndex + prefix))
        }
        for k in 0..<suffix {
            ops.append(Op(kind: .equal, oldIndex: a.count - suffix + k, newIndex: b.count - suffix + k))
        }
        return ops
    }

    static let maxDifferences = 1000

    static func middle(_ a: [ArraySlice<UInt8>], _ b: [ArraySlice<UInt8>]) -> [Op] {
        let n = a.count, m = b.count
        let offset = n + m + 1
        var v = [Int](repeating: 0, count: 2 * offset + 1)
        // The frontier before each step d, only its part that step d reads (k from -d-1 to d+1):
        // memory grows with the square of the differences, not with the size of the texts.
        var trace: [[Int]] = []
        var found = false
        search: for d in 0...min(n + m, maxDifferences) {
            trace.append(Array(v[(offset - d - 1)...(offset + d + 1)]))
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n, y >= m {
                    found = true
                    break search
                }
            }
        }
        guard found else {
            return (0..<n).map { Op(kind: .delete, oldIndex: $0, newIndex: 0) } + (0..<m).map { Op(kind: .insert, oldIndex: n, newIndex: $0) }
        }
        // Back from the end through the saved frontiers.
        var ops: [Op] = []
        var x = n, y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let saved = trace[d]
            func v(_ k: Int) -> Int { saved[k + d + 1] }
            let k = x - y
            let previousK = (k == -d || (k != d && v(k - 1) < v(k + 1))) ? k + 1 : k - 1
            let previousX = d == 0 ? 0 : v(previousK)
            let previousY = previousX - previousK
            while x > previousX && y > previousY {
                x -= 1
                y -= 1
                ops.append(Op(kind: .equal, oldIndex: x, newIndex: y))
            }
            if d > 0 {
                if x == previousX {
                    y -= 1
                    ops.append(Op(kind: .insert, oldIndex: x, newIndex: y))
                } else {
                    x -= 1
                    ops.append(Op(kind: .delete, oldIndex: x, newIndex: y))
                }
            }
        }
        return ops.reversed()
    }

    /// The script cut into hunks: each change with `context` equal lines around it, changes closer
    /// than twice that sharing a hunk.
    package static func hunks(_ script: [Op]) -> [[Op]] {
        var hunks: [[Op]] = []
        let changed = script.indices.filter { script[$0].kind != .equal }
        guard var start = changed.first else { return [] }
        var end = start
        func close() {
            hunks.append(Array(script[max(0, start - context)...min(script.count - 1, end + context)]))
        }
        for i in changed.dropFirst() {
            if i - end > 2 * context {
                close()
                start = i
            }
            end = i
        }
        close()
        return hunks
    }
}
