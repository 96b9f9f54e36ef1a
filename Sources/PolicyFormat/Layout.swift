/// One line of the formatted file, before trailing comments are aligned.
struct OutLine {
    enum Kind {
        /// YAML, which may carry a trailing comment.
        case content
        /// An own-line comment.
        case comment
        /// A blank line between items; runs of them become one.
        case blank
        /// Text of a block scalar or a multi-line scalar's empty line: written exactly, never merged.
        case verbatim
    }

    var kind: Kind
    var indent: Int
    var text: String
    var comment: String?

    static func content(_ indent: Int, _ text: String, comment: String? = nil) -> OutLine {
        OutLine(kind: .content, indent: indent, text: text, comment: comment)
    }

    static func comment(_ indent: Int, _ text: String) -> OutLine {
        OutLine(kind: .comment, indent: indent, text: text, comment: nil)
    }

    static let blank = OutLine(kind: .blank, indent: 0, text: "", comment: nil)

    static func verbatim(_ text: String) -> OutLine {
        OutLine(kind: .verbatim, indent: 0, text: text, comment: nil)
    }

    var width: Int { indent + text.unicodeScalars.count }
}

/// The lines made text: blank lines only between lines and one at most, trailing comments of
/// neighbouring lines aligned in one column, one line break at the end.
enum Layout {
    /// Where trailing comments start (0-based), as in the canonical policy that `init` writes,
    /// unless a line of their block is longer.
    static let commentColumn = 28

    static func render(_ lines: [OutLine], lineBreak: String) -> String {
        var kept: [OutLine] = []
        for line in lines {
            // Not after another, nor after a block scalar's own blank line (`|+` keeps them: one
            // more would be text of the scalar).
            if line.kind == .blank, kept.last.map({ $0.kind == .blank || ($0.kind == .verbatim && $0.text.isEmpty) }) ?? true { continue }
            kept.append(line)
        }
        while kept.last?.kind == .blank { kept.removeLast() }
        var out = ""
        var i = 0
        while i < kept.count {
            guard kept[i].kind == .content, kept[i].comment != nil else {
                out += text(of: kept[i]) + lineBreak
                i += 1
                continue
            }
            // A block: the lines with a trailing comment that follow one another.
            var j = i
            while j < kept.count, kept[j].kind == .content, kept[j].comment != nil { j += 1 }
            let column = max(commentColumn, kept[i..<j].map(\.width).max()! + 2)
            for line in kept[i..<j] {
                out += text(of: line) + String(repeating: " ", count: column - line.width) + line.comment! + lineBreak
            }
            i = j
        }
        return out
    }

    static func text(of line: OutLine) -> String {
        switch line.kind {
        case .blank: return ""
        case .verbatim: return line.text
        case .content, .comment: return String(repeating: " ", count: line.indent) + line.text
        }
    }
}
