import PolicySource
import PolicyCheck

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
        String(decoding: textBytes(files, color: color), as: UTF8.self)
    }

    /// `text`'s UTF-8, as it is made: every piece of it comes from a String (an excerpt's
    /// scalars are decoded from the source), so it is valid, and checking it again to make it a
    /// String would be wasted work, heavy on lines of accented letters.
    public static func textBytes(_ files: [CheckedFile], color: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        for file in sortedFiles(files, where: { !$0.diagnostics.isEmpty }) {
            write(file.diagnostics, source: file.source, lines: file.lines, inheritance: file.inheritance, color: color, to: &out)
        }
        return out
    }

    /// The findings of one source, in the format of `text(_:color:)`: for files that are not
    /// policies but are read the same way (the project file).
    public static func text(_ diagnostics: [Diagnostic], source bytes: [UInt8], color: Bool = false) -> String {
        var out: [UInt8] = []
        write(diagnostics, source: bytes, color: color, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The report is written as bytes: joining Strings piece by piece (each finding with a
    /// canonical profile of several lines as its help) is far slower.
    /// `inheritance`: the files a policy extends, whose lines its findings in them quote.
    static func write(_ diagnostics: [Diagnostic], source bytes: [UInt8], lines: LineIndex? = nil,
                      inheritance: Inheritance? = nil, color: Bool, to out: inout [UInt8]) {
        var source = SourceLines(bytes, lines: lines)
        var quoted = inheritance?.child
        // A file name is echoed input too: a newline or an escape in it must not reach the
        // terminal. Made printable once for the findings that share it, as all of a file's do.
        var shown: (file: String, printable: String)?
        var guide: (rule: RuleID, line: [UInt8])?
        for d in diagnostics.sortedForReport() {
            if shown?.file != d.file { shown = (d.file, printable(d.file)) }
            if let inheritance, d.file != quoted {
                quoted = d.file
                source = SourceLines(d.file == inheritance.child ? bytes : inheritance.source(of: d.file) ?? [],
                                     lines: d.file == inheritance.child ? lines : nil)
            }
            writeHeadline(d, file: shown!.printable, color: color, to: &out)
            out.append(0x0A)
            let endColumn = d.span.end.line == d.line ? d.span.end.column : nil
            if let excerpt = source.excerpt(line: d.line, column: d.column, endColumn: endColumn) {
                out += excerpt.text.utf8
                out.append(0x0A)
                if color { out += ANSI.caret.utf8 }
                out += excerpt.caret.utf8
                if color { out += ANSI.reset.utf8 }
                out.append(0x0A)
            }
            if let help = d.help {
                // A help of several lines (a section to paste) keeps its lines, indented under it.
                writeLines(help, firstPrefix: "  help: ", prefix: "        ", to: &out)
            }
            if let accepted = d.acceptance {
                out += "  ".utf8
                out += printable(accepted).utf8
                out.append(0x0A)
            }
            for related in d.related {
                out += "  note: \(printable(related.file)):\(related.span.start.line):\(related.span.start.column): ".utf8
                out += printable(related.message).utf8
                out.append(0x0A)
            }
            // The guide's line of the rule, made once for the findings of a rule in a row: the
            // rule's lookup and the text are too dear to repeat for each finding.
            if guide?.rule != d.rule {
                guide = (d.rule, reference(of: d.rule).map { Array("  guide: \(printable($0.text))\n".utf8) } ?? [])
            }
            out += guide!.line
            // Last, so that the lines above read as they always have.
            if let fix = d.fix {
                out += "  fix: ".utf8
                out += printable(fix.description).utf8
                out += (fix.safety == .safe ? " (safe: lint --fix)\n" : " (unsafe: lint --unsafe-fixes)\n").utf8
            }
        }
    }

    /// Each line of `text` (split at LF) after its prefix, made printable, each ending in a
    /// newline. A line of printable ASCII, as help lines are, is copied as it is.
    static func writeLines(_ text: String, firstPrefix: String, prefix: String, to out: inout [UInt8]) {
        let lines = LineIndex(text, breaks: .lineFeed)
        for number in 1...lines.lineCount {
            out += (number == 1 ? firstPrefix : prefix).utf8
            let line = lines.bytes[lines.range(ofLine: number)!]
            if line.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                out += line
            } else {
                out += printable(String(decoding: line, as: UTF8.self)).utf8
            }
            out.append(0x0A)
        }
    }

    /// `Diagnostic.headline` with `file` for its file, coloured as compilers do: bold location and
    /// message, red `error:`, yellow `warning:`. Written as bytes: interpolating the headline
    /// is a large share of the report's cost.
    static func writeHeadline(_ d: Diagnostic, file: String, color: Bool, to out: inout [UInt8]) {
        if color { out += ANSI.bold.utf8 }
        out += file.utf8
        out.append(0x3A)
        writeDecimal(d.line, to: &out)
        out.append(0x3A)
        writeDecimal(d.column, to: &out)
        out.append(0x3A)
        if color { out += ANSI.reset.utf8 }
        out.append(0x20)
        if color { out += (d.severity == .error ? ANSI.error : d.severity == .warning ? ANSI.warning : ANSI.note).utf8 }
        out += d.severity.rawValue.utf8
        out.append(0x3A)
        if color { out += ANSI.reset.utf8 }
        out.append(0x20)
        if color { out += ANSI.bold.utf8 }
        out += printable(d.message).utf8
        out += " [".utf8
        out += d.rule.rawValue.utf8
        out.append(0x5D)
        if color { out += ANSI.reset.utf8 }
    }

    /// `n` in decimal, as `"\(n)"` writes it.
    static func writeDecimal(_ n: Int, to out: inout [UInt8]) {
        guard n >= 0 else {
            out += String(n).utf8
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0, rest = n
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[19 - count] = UInt8(0x30 + rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            out += d[(20 - count)...]
        }
    }
}

extension Reporters {
    /// The escape sequences of the coloured text format.
    enum ANSI {
        static let bold = "\u{1B}[1m"
        static let error = "\u{1B}[1;31m"
        static let warning = "\u{1B}[1;33m"
        static let note = "\u{1B}[1;36m"
        static let caret = "\u{1B}[1;32m"
        static let reset = "\u{1B}[0m"
    }
}
