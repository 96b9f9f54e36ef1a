extension Reporters {
    /// Compiler style, one block per finding:
    ///
    ///     Policies/playback.yaml:9:19: error: interactive profile … [interactive-retries-max]
    ///           maxRetries: 4
    ///                       ^
    ///       help: …
    ///       guide: "At most 3 retries per interactive request" (Checklist)
    ///
    /// The summary is not part of it: the CLI writes `ReportSummary.text` to stderr.
    public static func text(_ files: [CheckedFile], color: Bool = false) -> String {
        var out = ""
        for file in sortedFiles(files, where: { !$0.diagnostics.isEmpty }) {
            out += text(file.diagnostics, source: file.source, color: color)
        }
        return out
    }

    /// The findings of one source, in the format of `text(_:color:)`: for files that are not
    /// policies but are read the same way (the project file).
    public static func text(_ diagnostics: [Diagnostic], source bytes: [UInt8], color: Bool = false) -> String {
        var out = ""
        let source = SourceLines(bytes)
        for var d in diagnostics.sorted(by: Diagnostic.inReportOrder) {
            // A file name is echoed input too: a newline or an escape in it must not reach
            // the terminal.
            d.file = printable(d.file)
            out += headline(d, color: color) + "\n"
            if let line = source.line(d.line) {
                let endColumn = d.span.end.line == d.line ? d.span.end.column : nil
                let excerpt = Excerpt(line: line, column: d.column, endColumn: endColumn)
                out += excerpt.text + "\n"
                out += (color ? ANSI.caret + excerpt.caret + ANSI.reset : excerpt.caret) + "\n"
            }
            if let help = d.help {
                // A help of several lines (a section to paste) keeps its lines, indented under it.
                var lines = help.split(separator: "\n", omittingEmptySubsequences: false)[...]
                out += "  help: \(printable(String(lines.removeFirst())))\n"
                for line in lines { out += "        \(printable(String(line)))\n" }
            }
            for related in d.related {
                out += "  note: \(printable(related.file)):\(related.span.start.line):\(related.span.start.column): \(printable(related.message))\n"
            }
            if let reference = reference(of: d.rule) {
                out += "  guide: \(printable(reference.text))\n"
            }
            // Last, so that the lines above read as they always have.
            if let fix = d.fix {
                out += "  fix: \(printable(fix.description)) (\(fix.safety == .safe ? "safe: lint --fix" : "unsafe: lint --unsafe-fixes"))\n"
            }
        }
        return out
    }

    /// `Diagnostic.headline`, coloured as compilers do: bold location and message, red `error:`,
    /// yellow `warning:`. Without colour it is the headline itself.
    static func headline(_ d: Diagnostic, color: Bool) -> String {
        guard color else { return d.headline }
        let severity = d.severity == .error ? ANSI.error : ANSI.warning
        return "\(ANSI.bold)\(d.file):\(d.line):\(d.column):\(ANSI.reset) "
            + "\(severity)\(d.severity.rawValue):\(ANSI.reset) "
            + "\(ANSI.bold)\(printable(d.message)) [\(d.rule)]\(ANSI.reset)"
    }
}

extension Reporters {
    /// The escape sequences of the coloured text format.
    enum ANSI {
        static let bold = "\u{1B}[1m"
        static let error = "\u{1B}[1;31m"
        static let warning = "\u{1B}[1;33m"
        static let caret = "\u{1B}[1;32m"
        static let reset = "\u{1B}[0m"
    }

    /// A file's lines, split where libyaml counts a new line (LF, CR, CRLF, NEL, LS, PS) so that a
    /// diagnostic's line number finds the line it means. A leading BOM is not part of line 1.
    struct SourceLines {
        private var lines: [Substring.UnicodeScalarView] = []

        init(_ bytes: [UInt8]) {
            guard !bytes.isEmpty else { return }
            let text = String(decoding: bytes, as: UTF8.self)
            var scalars = Substring(text).unicodeScalars
            if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
            var start = scalars.startIndex
            var i = start
            while i < scalars.endIndex {
                let s = scalars[i]
                switch s {
                case "\n", "\u{85}", "\u{2028}", "\u{2029}":
                    lines.append(scalars[start..<i])
                    i = scalars.index(after: i)
                    start = i
                case "\r":
                    lines.append(scalars[start..<i])
                    i = scalars.index(after: i)
                    if i < scalars.endIndex, scalars[i] == "\n" { i = scalars.index(after: i) }
                    start = i
                default:
                    i = scalars.index(after: i)
                }
            }
            if start < scalars.endIndex { lines.append(scalars[start...]) }
        }

        /// Line `n` (1-based), or nil when the file has no such line (a finding at the very end).
        func line(_ n: Int) -> Substring.UnicodeScalarView? {
            n >= 1 && n <= lines.count ? lines[n - 1] : nil
        }
    }

    /// A source line made safe to print, and the caret line under it.
    ///
    /// Tabs are kept (and repeated in the caret line, so the caret lines up however wide a tab is);
    /// control and bidi characters are shown escaped, as `printable` does; very long lines are cut to
    /// a window around the column.
    struct Excerpt {
        var text = ""
        var caret = ""

        static let window = 160

        init(line: Substring.UnicodeScalarView, column: Int, endColumn: Int?) {
            let scalars = Array(line)
            let at = max(0, min(column - 1, scalars.count))
            var lower = 0, upper = scalars.count
            if scalars.count > Excerpt.window {
                lower = max(0, min(at - Excerpt.window / 3, scalars.count - Excerpt.window))
                upper = min(scalars.count, lower + Excerpt.window)
            }
            // The caret stands under the start; `~` runs to the span's end when it is on this line.
            let end = endColumn.map { max(at + 1, min($0 - 1, upper)) } ?? at + 1
            if lower > 0 {
                text += "…"
                caret += " "
            }
            for i in lower..<upper {
                let (shown, width) = Excerpt.display(scalars[i])
                text += shown
                if i < at {
                    caret += scalars[i] == "\t" ? "\t" : String(repeating: " ", count: width)
                } else if i == at {
                    caret += "^" + String(repeating: "~", count: max(0, width - 1))
                } else if i < end {
                    caret += String(repeating: "~", count: max(1, width))
                }
            }
            if at >= upper { caret += "^" }  // the end of the line (a missing value, say)
            if upper < scalars.count { text += "…" }
        }

        /// How a character is shown, and how many columns it takes on a terminal.
        static func display(_ s: Unicode.Scalar) -> (String, Int) {
            if s == "\t" { return ("\t", 1) }
            if isUnsafeScalar(s) {
                let shown = printable(String(s))
                return (shown, shown.unicodeScalars.count)
            }
            return (String(s), width(s))
        }

        /// Terminal columns of a printable scalar: 0 for combining marks, 2 for East Asian wide
        /// characters and emoji, else 1. An approximation of `wcwidth` without a locale.
        static func width(_ s: Unicode.Scalar) -> Int {
            switch s.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: return 0
            default: break
            }
            switch s.value {
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
                return 2
            default:
                return s.properties.isEmojiPresentation ? 2 : 1
            }
        }
    }
}
