import PolicySource

/// Why a recording cannot be read, with where: `line 3, column 14 (byte 52)`.
public struct HARError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var offset: Int
    public var line: Int
    public var column: Int
    /// `unreadable-input`, or `input-limit` for a recording over the size allowed.
    public var rule: String

    public init(message: String, offset: Int, line: Int, column: Int, rule: String = "unreadable-input") {
        self.rule = rule
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    public var description: String { "\(message) (line \(line), column \(column), byte \(offset))" }
}

/// Walks a HAR's text to `log.entries` and hands each entry over as a `JSON` value, one at a
/// time: a 150 MB recording is never a tree in memory, only its bytes and one entry. Everything
/// outside `log.entries` is skipped, checked only for being well formed.
struct HARScanner {
    let b: [UInt8]
    var i = 0
    /// Where the last line found so far starts, for the positions of entries (counted once).
    private var countedTo = 0
    private var line = 1
    private var lineStart = 0

    init(_ bytes: [UInt8]) {
        b = bytes
    }

    /// Calls `each` with every entry's index, value and (line, column) of its `{`.
    mutating func scan(_ each: (Int, JSON, Mark) throws(HARError) -> Void) throws(HARError) {
        skipSpace()
        guard i < b.count else { throw fail("the recording is empty; a HAR file is a JSON object with log.entries") }
        guard b[i] == UInt8(ascii: "{") else { throw fail("the recording is not JSON (a HAR file is a JSON object with log.entries)") }
        var found = false
        i += 1
        var first = true
        while let key = try nextKey(&first) {
            guard key == "log", b[i] == UInt8(ascii: "{") else { try skipValue(); continue }
            i += 1
            var firstInLog = true
            while let key = try nextKey(&firstInLog) {
                guard key == "entries" else { try skipValue(); continue }
                guard b[i] == UInt8(ascii: "[") else { throw fail("log.entries is not a list") }
                found = true
                try elements(each)
            }
        }
        skipSpace()
        if i < b.count { throw fail("unexpected text after the recording's JSON object") }
        if !found { throw HARError(message: "the recording has no log.entries list (is it a HAR file?)", offset: 0, line: 1, column: 1) }
    }

    /// The next member's key of an object whose `{` was read (its `:` read too, at its value),
    /// or nil at the object's end.
    private mutating func nextKey(_ first: inout Bool) throws(HARError) -> String? {
        skipSpace()
        guard i < b.count else { throw fail("the recording ends inside an object (truncated?)") }
        if b[i] == UInt8(ascii: "}") { i += 1; return nil }
        if !first {
            guard b[i] == UInt8(ascii: ",") else { throw fail("expected ',' or '}' in an object") }
            i += 1
            skipSpace()
        }
        first = false
        guard i < b.count else { throw fail("the recording ends inside an object (truncated?)") }
        guard b[i] == UInt8(ascii: "\"") else { throw fail("expected a key in quotes") }
        let key = try string()
        skipSpace()
        guard i < b.count else { throw fail("the recording ends inside an object (truncated?)") }
        guard b[i] == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
        i += 1
        skipSpace()
        guard i < b.count else { throw fail("the recording ends inside an object (truncated?)") }
        return key
    }

    private mutating func elements(_ each: (Int, JSON, Mark) throws(HARError) -> Void) throws(HARError) {
        i += 1
        var index = 0
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return }
        while true {
            skipSpace()
            guard i < b.count else { throw fail("the recording ends inside log.entries (truncated?)") }
            let start = i
            let mark = position(of: start)
            try skipValue()
            switch JSONParser.parse(Array(b[start..<i])) {
            case .success(let value): try each(index, value, mark)
            case .failure(let failure):
                throw fail("entry \(index) is not valid JSON: \(failure.message)", at: start + failure.offset)
            }
            index += 1
            skipSpace()
            guard i < b.count else { throw fail("the recording ends inside log.entries (truncated?)") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "]") { i += 1; return }
            throw fail("expected ',' or ']' between entries")
        }
    }

    /// Skips one value, nested ones included (a stack of closers, no recursion).
    private mutating func skipValue() throws(HARError) {
        var closers: [UInt8] = []
        repeat {
            skipSpace()
            guard i < b.count else { throw fail("the recording ends inside a value (truncated?)") }
            let c = b[i]
            switch c {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                closers.append(c == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard closers.last == c else { throw fail("unexpected '\(Character(Unicode.Scalar(c)))'") }
                closers.removeLast()
                i += 1
            case UInt8(ascii: "\""):
                try skipString()
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                guard !closers.isEmpty else { throw fail("unexpected '\(Character(Unicode.Scalar(c)))'") }
                i += 1
            default:
                let start = i
                while i < b.count, isScalarByte(b[i]) { i += 1 }
                if i == start { throw fail("unexpected character in JSON") }
            }
        } while !closers.isEmpty
    }

    private func isScalarByte(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
            || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") || c == UInt8(ascii: "E")
    }

    private mutating func skipString() throws(HARError) {
        let start = i
        i += 1
        while i < b.count {
            switch b[i] {
            case UInt8(ascii: "\""): i += 1; return
            case UInt8(ascii: "\\"): i += 2
            default: i += 1
            }
        }
        throw fail("the recording ends inside a string (truncated?)", at: start)
    }

    /// A key: plain bytes when it has no escape, else read by the JSON parser.
    private mutating func string() throws(HARError) -> String {
        let start = i
        try skipString()
        let body = b[(start + 1)..<(i - 1)]
        if !body.contains(UInt8(ascii: "\\")) { return String(decoding: body, as: UTF8.self) }
        if case .success(.string(let s)) = JSONParser.parse(Array(b[start..<i])) { return s }
        throw fail("a key is not a valid JSON string", at: start)
    }

    private mutating func skipSpace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    /// Line and column (in bytes, 1-based) of `offset`; entries come in order, so lines are
    /// counted once over the whole file.
    private mutating func position(of offset: Int) -> Mark {
        if offset < countedTo { (countedTo, line, lineStart) = (0, 1, 0) }
        var j = countedTo
        while j < offset {
            if b[j] == 0x0A { line += 1; lineStart = j + 1 }
            j += 1
        }
        countedTo = offset
        return Mark(line: line, column: offset - lineStart + 1)
    }

    private mutating func fail(_ message: String, at offset: Int? = nil) -> HARError {
        let at = min(offset ?? i, b.count)
        let mark = position(of: at)
        return HARError(message: message, offset: at, line: mark.line, column: mark.column)
    }
}
