import PolicySource
import PolicyCheck
import PolicyReport
import PolicyCodegen
import PolicySimulation
import PolicyReview

/// A step of a path in a policy: a key of a mapping, or an item of a list.
public enum PathStep: Sendable, Hashable {
    case key(String)
    case item
}

/// What a file's language (a policy's, a scenario's, the project file's) says stands at a path
/// (nil for a path it does not have). A key under a named map (a profile's name) is a value of the
/// map's shape.
enum LanguagePath {
    static func shape(at path: [PathStep], in kind: EditorFileKind) -> Shape? {
        var shape = Shape.object(kind.fields)
        for step in path {
            switch (step, shape) {
            case (.key(let key), .object(let fields)):
                guard let field = fields.first(where: { sameText($0.key, key) }) else { return nil }
                shape = field.shape
            case (.key, .namedMap(let inner, _)):
                shape = inner
            case (.item, .list(let inner, _)):
                shape = inner
            default:
                return nil
            }
        }
        return shape
    }

    /// The field a path's last key names, when it is a key of the language.
    static func field(at path: [PathStep], in kind: EditorFileKind) -> Field? {
        guard case .key(let key)? = path.last, case .object(let fields)? = shape(at: Array(path.dropLast()), in: kind) else { return nil }
        return fields.first { sameText($0.key, key) }
    }

    /// Whether the path's last key is a profile's name (a key of `retry.profiles`).
    static func isProfileName(_ path: [PathStep], in kind: EditorFileKind) -> Bool {
        guard kind == .policy, case .key? = path.last, path.count == 3 else { return false }
        return path[0] == .key("retry") && path[1] == .key("profiles")
    }

    /// `retry.profiles.<name>.timeout`, `retry.retryOn[]`: how a path reads in hovers.
    static func dotted(_ path: [PathStep]) -> String {
        var out = ""
        for step in path {
            switch step {
            case .key(let k): out += (out.isEmpty ? "" : ".") + k
            case .item: out += "[]"
            }
        }
        return out
    }
}

/// The block structure of a YAML text, line by line, read without a parser: what is typed in an
/// editor is often not YAML yet (`    maxRe` has no colon), and completion and hover must still
/// know where the cursor stands. Indentation tells the mappings and lists apart; flow collections
/// are read only on the cursor's own line.
struct Outline {
    /// Something that opens a node at a column of a line: `- ` (a list item) or `key:`.
    struct Opener {
        enum Kind {
            case item
            /// `key` as written (quotes taken off), where its text stands, where its value starts
            /// (nil when nothing follows the colon but a comment), and the colon's offset.
            case key(String, keyStart: Int, keyEnd: Int, colon: Int, valueStart: Int?)
        }

        /// Bytes from the start of the line: the text before it is spaces and `- `, all ASCII.
        var column: Int
        var kind: Kind

        var keyName: String? {
            if case .key(let name, _, _, _, _) = kind { return name }
            return nil
        }
    }

    struct Line {
        var start: Int
        var end: Int
        var openers: [Opener]
        /// Blank, a comment, a directive or document marker, or the inside of a block scalar or
        /// of a quoted scalar that spans lines: nothing of the structure.
        var isContent: Bool
    }

    let bytes: [UInt8]
    let lines: [Line]

    init(_ text: LineIndex) {
        bytes = text.bytes
        var lines: [Line] = []
        lines.reserveCapacity(text.lineCount)
        // Lines more indented than this belong to a block scalar (`|`, `>`) or to a quoted scalar
        // that goes on over lines (YAML wants those lines indented too, so a quote left open while
        // typing ends at the next line that is not).
        var blockIndent: Int?
        var openQuote: UInt8?
        for number in 1...text.lineCount {
            let range = text.range(ofLine: number)!
            let (start, end) = (range.lowerBound, range.upperBound)
            let indent = Outline.indent(bytes, start, end)
            let blank = start + indent >= end || bytes[start + indent] == UInt8(ascii: "#")
            if let b = blockIndent {
                if let quote = openQuote, indent > b || start + indent >= end {
                    lines.append(Line(start: start, end: end, openers: [], isContent: false))
                    if Outline.closesQuote(bytes, start, end, quote) {
                        openQuote = nil
                        blockIndent = nil
                    }
                    continue
                }
                if openQuote == nil && (blank || indent > b) {
                    lines.append(Line(start: start, end: end, openers: [], isContent: false))
                    continue
                }
                blockIndent = nil
                openQuote = nil
            }
            if blank || Outline.isMarker(bytes, start, end) {
                lines.append(Line(start: start, end: end, openers: [], isContent: false))
                continue
            }
            let openers = Outline.openers(bytes, start, end)
            lines.append(Line(start: start, end: end, openers: openers, isContent: true))
            // What the line's last opener holds decides how the next lines are read.
            guard let last = openers.last else { continue }
            var valueStart: Int?
            switch last.kind {
            case .key(_, _, _, _, let v): valueStart = v
            case .item:
                let after = start + last.column + 1
                let v = Outline.skipSpaces(bytes, after, end)
                valueStart = v < end && bytes[v] != UInt8(ascii: "#") ? v : nil
            }
            guard let v = valueStart else { continue }
            let c = bytes[v]
            if c == UInt8(ascii: "|") || c == UInt8(ascii: ">") {
                blockIndent = last.column
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                if !Outline.closesQuote(bytes, v + 1, end, c) {
                    openQuote = c
                    blockIndent = last.column
                }
            }
        }
        self.lines = lines
    }

    // MARK: reading a line

    static func indent(_ b: [UInt8], _ start: Int, _ end: Int) -> Int {
        var i = start
        while i < end && b[i] == 0x20 { i += 1 }
        return i - start
    }

    static func skipSpaces(_ b: [UInt8], _ from: Int, _ end: Int) -> Int {
        var i = from
        while i < end && (b[i] == 0x20 || b[i] == 0x09) { i += 1 }
        return i
    }

    /// `---`, `...` and `%` directives at the start of a line.
    static func isMarker(_ b: [UInt8], _ start: Int, _ end: Int) -> Bool {
        if start < end && b[start] == UInt8(ascii: "%") { return true }
        guard end - start >= 3 else { return false }
        let three = (b[start], b[start + 1], b[start + 2])
        let isMarker = three == (0x2D, 0x2D, 0x2D) || three == (0x2E, 0x2E, 0x2E)
        return isMarker && (end - start == 3 || b[start + 3] == 0x20 || b[start + 3] == 0x09)
    }

    /// Whether the quote `quote` is closed between `from` and `end` (`''` and `\"` stay open).
    static func closesQuote(_ b: [UInt8], _ from: Int, _ end: Int, _ quote: UInt8) -> Bool {
        var i = from
        while i < end {
            if quote == UInt8(ascii: "\"") && b[i] == UInt8(ascii: "\\") {
                i += 2
                continue
            }
            if b[i] == quote {
                if quote == UInt8(ascii: "'") && i + 1 < end && b[i + 1] == quote {
                    i += 2
                    continue
                }
                return true
            }
            i += 1
        }
        return false
    }

    /// The items and the key that open nodes on a line: `  - - key: value` has two items and a key.
    static func openers(_ b: [UInt8], _ start: Int, _ end: Int) -> [Opener] {
        var out: [Opener] = []
        var p = start + indent(b, start, end)
        while p < end && b[p] == UInt8(ascii: "-") && (p + 1 == end || b[p + 1] == 0x20 || b[p + 1] == 0x09) {
            out.append(Opener(column: p - start, kind: .item))
            p = skipSpaces(b, p + 1, end)
        }
        if let key = key(b, at: p, end) {
            out.append(Opener(column: p - start, kind: key))
        }
        return out
    }

    /// `key:` at `p`: a plain or quoted scalar followed by a colon that ends the line or is
    /// followed by a space.
    static func key(_ b: [UInt8], at p: Int, _ end: Int) -> Opener.Kind? {
        guard p < end else { return nil }
        let first = b[p]
        var keyStart = p, keyEnd: Int
        var i: Int
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            i = p + 1
            while i < end && b[i] != first {
                i += (first == UInt8(ascii: "\"") && b[i] == UInt8(ascii: "\\")) ? 2 : 1
            }
            guard i < end else { return nil }
            keyStart = p + 1
            keyEnd = i
            i = skipSpaces(b, i + 1, end)
            guard i < end, b[i] == UInt8(ascii: ":") else { return nil }
        } else {
            // Indicators that cannot start a plain key.
            if "#[]{},&*!|>%@`".utf8.contains(first) { return nil }
            i = p
            while i < end {
                if b[i] == UInt8(ascii: ":") && (i + 1 == end || b[i + 1] == 0x20 || b[i + 1] == 0x09) { break }
                if b[i] == UInt8(ascii: "#") && i > p && (b[i - 1] == 0x20 || b[i - 1] == 0x09) { return nil }
                i += 1
            }
            guard i < end else { return nil }
            keyEnd = i
            while keyEnd > keyStart && (b[keyEnd - 1] == 0x20 || b[keyEnd - 1] == 0x09) { keyEnd -= 1 }
        }
        let colon = i
        let v = skipSpaces(b, colon + 1, end)
        let valueStart: Int? = v < end && b[v] != UInt8(ascii: "#") ? v : nil
        let name = String(decoding: b[keyStart..<keyEnd], as: UTF8.self)
        return .key(name, keyStart: keyStart, keyEnd: keyEnd, colon: colon, valueStart: valueStart)
    }

    // MARK: structure

    /// The line that holds `offset`.
    func lineIndex(at offset: Int) -> Int {
        var lo = 0, hi = lines.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lines[mid].start <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The path of the node that a node opened at `column` of line `index` stands in: the keys and
    /// items of the lines above that are less indented, innermost last. An item's key may stand at
    /// the column of its dash (`key:` then `- item` without indentation): `fromItem` says that the
    /// node at `column` is such an item.
    func ancestors(line index: Int, column: Int, fromItem: Bool) -> [PathStep] {
        var steps: [PathStep] = []
        var col = column
        var afterItem = fromItem
        var l = index - 1
        while l >= 0 && (col > 0 || afterItem) {
            let line = lines[l]
            l -= 1
            guard line.isContent else { continue }
            for opener in line.openers.reversed() {
                switch opener.kind {
                case .item where opener.column < col:
                    steps.append(.item)
                    col = opener.column
                    afterItem = true
                case .key(let name, _, _, _, _) where opener.column < col || (afterItem && opener.column == col):
                    steps.append(.key(name))
                    col = opener.column
                    afterItem = false
                default:
                    break
                }
            }
        }
        return steps.reversed()
    }

    /// The keys written at `column` in the mapping around line `index` (that line left out): the
    /// lines above and below up to the first one less indented. The line of the mapping's first
    /// key, when it starts with `- `, counts; when line `index` itself starts with `- `
    /// (`startsHere`), the mapping starts there and the lines above belong to other items.
    func keys(around index: Int, column: Int, startsHere: Bool) -> [String] {
        var found: [String] = []
        var l = startsHere ? -1 : index - 1
        while l >= 0 {
            let line = lines[l]
            l -= 1
            guard line.isContent, let first = line.openers.first else { continue }
            if first.column < column {
                // The dash line of this mapping's item (`- status: 503`) holds its first key.
                if let last = line.openers.last, last.column == column, let name = last.keyName,
                   line.openers.dropLast().allSatisfy({ if case .item = $0.kind { return true }; return false }) {
                    found.append(name)
                }
                break
            }
            if first.column == column, let name = first.keyName { found.append(name) }
        }
        l = index + 1
        while l < lines.count {
            let line = lines[l]
            l += 1
            guard line.isContent, let first = line.openers.first else { continue }
            if first.column < column { break }
            if first.column == column, let name = first.keyName { found.append(name) }
        }
        return found
    }

    /// The scalar items of the block list whose dashes stand at `column` around line `index`.
    func items(around index: Int, column: Int) -> [String] {
        var found: [String] = []
        func item(_ line: Line) -> String? {
            guard let first = line.openers.first, first.column == column, case .item = first.kind,
                  line.openers.count == 1 else { return nil }
            let v = Outline.skipSpaces(bytes, line.start + column + 1, line.end)
            return Outline.scalar(bytes, v, line.end)
        }
        var l = index - 1
        while l >= 0 {
            let line = lines[l]
            l -= 1
            guard line.isContent, let first = line.openers.first else { continue }
            if first.column < column || (first.column == column && first.keyName != nil) { break }
            if let s = item(line) { found.append(s) }
        }
        l = index + 1
        while l < lines.count {
            let line = lines[l]
            l += 1
            guard line.isContent, let first = line.openers.first else { continue }
            if first.column < column || (first.column == column && first.keyName != nil) { break }
            if let s = item(line) { found.append(s) }
        }
        return found
    }

    /// The scalar written from `from` to the line's end: without a trailing comment, spaces and
    /// quotes. Nil for nothing, or a flow collection.
    static func scalar(_ b: [UInt8], _ from: Int, _ end: Int) -> String? {
        let start = skipSpaces(b, from, end)
        guard start < end else { return nil }
        let first = b[start]
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") || first == UInt8(ascii: "#") { return nil }
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            var i = start + 1
            while i < end && b[i] != first { i += 1 }
            return String(decoding: b[(start + 1)..<i], as: UTF8.self)
        }
        var stop = start
        var i = start
        while i < end {
            if b[i] == UInt8(ascii: "#") && (b[i - 1] == 0x20 || b[i - 1] == 0x09) { break }
            if b[i] != 0x20 && b[i] != 0x09 { stop = i + 1 }
            i += 1
        }
        return String(decoding: b[start..<stop], as: UTF8.self)
    }
}
