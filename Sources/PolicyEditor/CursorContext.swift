import PolicySource
import PolicyCheck
import PolicyReport
import PolicyCodegen
import PolicySimulation
import PolicyReview

/// Where a cursor stands in a policy being typed, read from the text around it (see `Outline`):
/// at a key of a mapping, or at a value, with the path the language knows it by.
struct CursorContext {
    enum Kind: Equatable {
        /// A key of the mapping at `path` (being typed, or written: `hasColon`).
        case key(hasColon: Bool)
        /// The value at `path`: a key's scalar (the path ends with the key) or a list's item (the
        /// path ends with `.item`).
        case value
    }

    var kind: Kind
    var path: [PathStep]
    /// For a key: the keys the mapping already has. For a list item: the list's other items.
    var present: [String]
    /// The text at the cursor that an answer replaces or describes: a key, a scalar or an item of
    /// a flow list, as byte offsets on the cursor's line. Empty at a place where nothing is typed.
    var tokenStart: Int
    var tokenEnd: Int
    /// Whether the value at the cursor is a whole key's value written right after `key: `, rather
    /// than an item of a list (where a whole list could be offered).
    var isWholeValue = false
    /// Nothing typed yet and the cursor right after `key:`: a value needs a space before it.
    var afterColon = false

    /// The context at `offset` in a file of `kind`, nil inside a comment, a block scalar or
    /// anything not understood.
    static func at(_ offset: Int, in outline: Outline, kind: EditorFileKind) -> CursorContext? {
        guard !outline.lines.isEmpty else { return nil }
        let b = outline.bytes
        let index = outline.lineIndex(at: offset)
        let line = outline.lines[index]
        let o = max(line.start, min(offset, line.end))
        let column = o - line.start
        if !line.isContent {
            // A blank line (spaces up to the cursor): a key is about to be typed here.
            guard b[line.start..<o].allSatisfy({ $0 == 0x20 }) else { return nil }
            let rest = Outline.skipSpaces(b, o, line.end)
            guard rest == line.end else { return nil }
            let path = outline.ancestors(line: index, column: column, fromItem: false)
            return CursorContext(kind: .key(hasColon: false), path: path,
                                 present: outline.keys(around: index, column: column, startsHere: false),
                                 tokenStart: o, tokenEnd: o)
        }
        if isInComment(b, from: line.start, to: o) { return nil }

        let items = line.openers.filter { if case .item = $0.kind { return true }; return false }
        let key = line.openers.last.flatMap { $0.keyName != nil ? $0 : nil }
        // The path of the node the line's first opener starts, and the items of the line before it.
        let firstColumn = line.openers.first?.column ?? Outline.indent(b, line.start, line.end)
        let startsWithItem = !items.isEmpty
        var base = outline.ancestors(line: index, column: firstColumn, fromItem: startsWithItem)
        base += Array(repeating: PathStep.item, count: items.count)

        if let key, case .key(let name, let keyStart, let keyEnd, let colon, let valueStart) = key.kind {
            if o <= keyEnd || o <= colon {
                guard o >= line.start + key.column else { return nil }
                return CursorContext(kind: .key(hasColon: true), path: base,
                                     present: outline.keys(around: index, column: key.column, startsHere: startsWithItem),
                                     tokenStart: keyStart, tokenEnd: keyEnd)
            }
            return value(after: valueStart ?? Outline.skipSpaces(b, colon + 1, line.end), cursor: o, path: base + [.key(name)],
                         line: line, in: outline)
        }
        // No key on the line: a key being typed (`    maxRe`), or a list item (`  - net`).
        let textStart = items.last.map { Outline.skipSpaces(b, line.start + $0.column + 1, line.end) }
            ?? line.start + Outline.indent(b, line.start, line.end)
        // The cursor among the indentation or the dashes: nothing to say.
        guard o >= textStart else { return nil }
        if let last = items.last, let shape = LanguagePath.shape(at: base, in: kind), !shape.isMapping {
            guard var context = value(after: textStart, cursor: o, path: base, line: line, in: outline) else { return nil }
            if context.path.last == .item && context.isWholeValue {
                // A block list's item: the list's other items are on the lines around.
                context.present = outline.items(around: index, column: last.column)
                context.isWholeValue = false
            }
            return context
        }
        return CursorContext(kind: .key(hasColon: false), path: base,
                             present: outline.keys(around: index, column: textStart - line.start, startsHere: startsWithItem),
                             tokenStart: textStart, tokenEnd: wordEnd(b, from: o, line.end))
    }

    /// The value written from `valueStart` on the cursor's line: a scalar, or an item of a flow list.
    static func value(after valueStart: Int, cursor o: Int, path: [PathStep], line: Outline.Line, in outline: Outline) -> CursorContext? {
        let b = outline.bytes
        let start = min(valueStart, line.end)
        if start < line.end && b[start] == UInt8(ascii: "[") {
            guard o > start else { return nil }
            // Items of the flow list on this line, and the one at the cursor.
            var present: [String] = []
            var tokenStart = o, tokenEnd = o
            var i = start + 1
            while i <= line.end {
                let itemStart = Outline.skipSpaces(b, i, line.end)
                var j = itemStart
                while j < line.end && b[j] != UInt8(ascii: ",") && b[j] != UInt8(ascii: "]") { j += 1 }
                var itemEnd = j
                while itemEnd > itemStart && (b[itemEnd - 1] == 0x20 || b[itemEnd - 1] == 0x09) { itemEnd -= 1 }
                if o >= itemStart && o <= max(itemEnd, itemStart) && (o <= j) {
                    tokenStart = itemStart
                    tokenEnd = itemEnd
                } else if itemEnd > itemStart {
                    present.append(unquoted(b, itemStart, itemEnd))
                }
                if j >= line.end || b[j] == UInt8(ascii: "]") {
                    if o > j && j < line.end { return nil }  // after the list
                    break
                }
                i = j + 1
            }
            return CursorContext(kind: .value, path: path + [.item], present: present,
                                 tokenStart: tokenStart, tokenEnd: tokenEnd)
        }
        if start < line.end && b[start] == UInt8(ascii: "{") { return nil }
        // A scalar: up to a comment or the end of the line, trailing spaces left out.
        var end = start
        var i = start
        while i < line.end {
            if b[i] == UInt8(ascii: "#") && i > line.start && (b[i - 1] == 0x20 || b[i - 1] == 0x09) { break }
            if b[i] != 0x20 && b[i] != 0x09 { end = i + 1 }
            i += 1
        }
        // Nothing written yet: the value goes at the cursor.
        if end == start {
            return CursorContext(kind: .value, path: path, present: [], tokenStart: o, tokenEnd: o, isWholeValue: true,
                                 afterColon: o > line.start && b[o - 1] == UInt8(ascii: ":"))
        }
        return CursorContext(kind: .value, path: path, present: [], tokenStart: min(start, o), tokenEnd: max(end, o),
                             isWholeValue: true)
    }

    static func unquoted(_ b: [UInt8], _ start: Int, _ end: Int) -> String {
        var s = start, e = end
        if e - s >= 2 && (b[s] == UInt8(ascii: "\"") || b[s] == UInt8(ascii: "'")) && b[e - 1] == b[s] {
            s += 1
            e -= 1
        }
        return String(decoding: b[s..<e], as: UTF8.self)
    }

    /// Where the word at `from` ends (a key being typed: up to a space, colon or comment).
    static func wordEnd(_ b: [UInt8], from: Int, _ end: Int) -> Int {
        var i = from
        while i < end && b[i] != 0x20 && b[i] != 0x09 && b[i] != UInt8(ascii: ":") && b[i] != UInt8(ascii: "#") { i += 1 }
        return i
    }

    /// Whether a `#` outside quotes, at the line's start or after a space, comes before `end`.
    static func isInComment(_ b: [UInt8], from start: Int, to end: Int) -> Bool {
        var quote: UInt8?
        var i = start
        while i < end {
            let c = b[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                // A quote opens a scalar only where one starts.
                if i == start || b[i - 1] == 0x20 || b[i - 1] == UInt8(ascii: "[") || b[i - 1] == UInt8(ascii: ",") { quote = c }
            } else if c == UInt8(ascii: "#") && (i == start || b[i - 1] == 0x20 || b[i - 1] == 0x09) {
                return true
            }
            i += 1
        }
        return false
    }
}

extension Shape {
    /// A mapping with keys of the language (not a profile map, whose keys are names).
    var isMapping: Bool {
        if case .object = self { return true }
        return false
    }
}
