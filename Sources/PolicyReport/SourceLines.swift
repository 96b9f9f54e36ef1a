import PolicySource
import PolicyCheck

extension Reporters {
    /// A file's lines as every position counts them (`LineIndex`: the editor's line breaks, line 1
    /// after a BOM), so that a diagnostic's line number finds the line it means.
    struct SourceLines {
        private let lines: LineIndex
        /// The last line decoded, for the other findings on it: findings come in line order, and
        /// a thousand of them may stand on one long line.
        private var decoded: (number: Int, scalars: [Unicode.Scalar])?
        private var lastExcerpt: (line: Int, column: Int, endColumn: Int?, excerpt: Excerpt?)?
        /// The widths of the scalars this report has shown.
        private var widths = Excerpt.Widths()

        /// `lines`: the checker's index of these bytes, when it has one.
        init(_ bytes: [UInt8], lines: LineIndex? = nil) {
            self.lines = lines.flatMap { $0.bytes == bytes ? $0 : nil } ?? LineIndex(bytes)
        }

        /// Line `n` (1-based) decoded as `String(decoding:as:)` decodes it (each maximal ill-formed
        /// sequence one U+FFFD), or nil when the file has no such line: past the last, and the
        /// empty line after a final line break, which has no excerpt.
        mutating func line(_ n: Int) -> [Unicode.Scalar]? {
            guard let range = lines.range(ofLine: n), range.lowerBound < lines.bytes.count else { return nil }
            if decoded?.number != n {
                decoded = (n, Array(String(decoding: lines.bytes[range], as: UTF8.self).unicodeScalars))
            }
            return decoded!.scalars
        }

        /// The excerpt of line `n` for a finding at `column`.
        mutating func excerpt(line n: Int, column: Int, endColumn: Int?) -> Excerpt? {
            // Findings often stand on one span (a profile lacking six keys): its excerpt is made once.
            if let last = lastExcerpt, last.line == n, last.column == column, last.endColumn == endColumn {
                return last.excerpt
            }
            var made: Excerpt?
            if let scalars = line(n) { made = Excerpt(line: scalars, column: column, endColumn: endColumn, widths: &widths) }
            lastExcerpt = (n, column, endColumn, made)
            return made
        }
    }
}
