/// JSON text → `JSON`, for messages from outside (the language server's client). Built for hostile
/// input: no recursion (open arrays and objects wait on a stack of their own, so nesting costs
/// heap, and no more than `maxDepth` of it), a text over `maxBytes` is refused unread, the input is
/// checked to be UTF-8 before anything is read, every index is checked, and nothing is allocated
/// beyond what the text itself holds.
public enum JSONParser {
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// Byte offset in the text where it went wrong.
        public var offset: Int
        public var message: String

        public var description: String { "\(message) at byte \(offset)" }
    }

    /// Deeper than any message of the Language Server Protocol nests (capabilities nest ~8 deep).
    public static let defaultMaxDepth = 128

    /// The language server's limit on a message (see its framing), and more than any it takes.
    public static let defaultMaxBytes = 64 << 20

    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth,
                             maxBytes: Int = defaultMaxBytes) -> Result<JSON, Failure> {
        guard bytes.count <= maxBytes else {
            return .failure(Failure(offset: maxBytes, message: "the text is \(bytes.count) bytes, over the limit of \(maxBytes)"))
        }
        return bytes.withUnsafeBufferPointer { buffer in
            if let bad = Encoding.firstInvalidUTF8(buffer) {
                return .failure(Failure(offset: bad, message: "the text is not valid UTF-8"))
            }
            var reader = Reader(b: buffer, maxDepth: maxDepth)
            do throws(JSONParser.Failure) {
                return .success(try reader.document())
            } catch {
                return .failure(error)
            }
        }
    }

    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth, maxBytes: Int = defaultMaxBytes) -> Result<JSON, Failure> {
        parse(Array(text.utf8), maxDepth: maxDepth, maxBytes: maxBytes)
    }
}

private struct Reader {
    let b: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var i = 0

    /// An array or object still open, with what it holds so far. Taken off the stack to add to it
    /// and put back, so its storage is never shared and never copied.
    enum Open {
        case array([JSON])
        case object([String: JSON], key: String)
    }

    init(b: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.b = b
        self.maxDepth = maxDepth
    }

    func fail(_ message: String, at offset: Int? = nil) -> JSONParser.Failure {
        JSONParser.Failure(offset: offset ?? i, message: message)
    }

    mutating func document() throws(JSONParser.Failure) -> JSON {
        var stack: [Open] = []
        next: while true {
            // A value starts here.
            skipSpace()
            guard i < b.count else { throw fail("the text ends where a value should be") }
            var value: JSON
            switch b[i] {
            case UInt8(ascii: "{"):
                guard stack.count < maxDepth else { throw fail("nesting is deeper than \(maxDepth) levels") }
                i += 1
                skipSpace()
                if i < b.count && b[i] == UInt8(ascii: "}") {
                    i += 1
                    value = .object([:])
                } else {
                    stack.append(.object([:], key: try memberKey()))
                    continue next
                }
            case UInt8(ascii: "["):
                guard stack.count < maxDepth else { throw fail("nesting is deeper than \(maxDepth) levels") }
                i += 1
                skipSpace()
                if i < b.count && b[i] == UInt8(ascii: "]") {
                    i += 1
                    value = .array([])
                } else {
                    stack.append(.array([]))
                    continue next
                }
            default:
                value = try scalar()
            }
            // The value is whole: add it to the innermost open container, closing containers as
            // their ends come, until a comma asks for another value or the text ends.
            while true {
                guard let open = stack.popLast() else {
                    skipSpace()
                    guard i == b.count else { throw fail("unexpected text after the value") }
                    return value
                }
                skipSpace()
                switch open {
                case .array(var items):
                    items.append(value)
                    guard i < b.count else { throw fail("the text ends inside an array") }
                    if b[i] == UInt8(ascii: ",") {
                        i += 1
                        stack.append(.array(items))
                        continue next
                    }
                    guard b[i] == UInt8(ascii: "]") else { throw fail("expected ',' or ']' in an array") }
                    i += 1
                    value = .array(items)
                case .object(var members, let key):
                    members[key] = value
                    guard i < b.count else { throw fail("the text ends inside an object") }
                    if b[i] == UInt8(ascii: ",") {
                        i += 1
                        skipSpace()
                        stack.append(.object(members, key: try memberKey()))
                        continue next
                    }
                    guard b[i] == UInt8(ascii: "}") else { throw fail("expected ',' or '}' in an object") }
                    i += 1
                    value = .object(members)
                }
            }
        }
    }

    /// A string, number, `true`, `false` or `null`; `i` stands at its first byte.
    mutating func scalar() throws(JSONParser.Failure) -> JSON {
        switch b[i] {
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number()
        default:
            throw fail("unexpected character '\(shown(b[i]))' where a value should be")
        }
    }

    /// `"key"` and the colon after it; `i` stands at the key's quote.
    mutating func memberKey() throws(JSONParser.Failure) -> String {
        guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw fail("expected a quoted key in an object") }
        let key = try string()
        skipSpace()
        guard i < b.count, b[i] == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
        i += 1
        return key
    }

    mutating func skipSpace() {
        while i < b.count {
            switch b[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParser.Failure) {
        let n = word.utf8CodeUnitCount
        guard i + n <= b.count else { throw fail("unexpected end of the text") }
        let p = word.utf8Start
        for k in 0..<n where b[i + k] != p[k] {
            throw fail("unexpected character '\(shown(b[i + k]))'", at: i + k)
        }
        i += n
    }

    /// A number as RFC 8259 writes it. Integers that fit are `.int`; larger whole non-negative
    /// numbers keep their digits (`.bigInt`, so an id is echoed exactly); the rest are doubles.
    mutating func number() throws(JSONParser.Failure) -> JSON {
        let start = i
        if b[i] == UInt8(ascii: "-") { i += 1 }
        guard i < b.count, isDigit(b[i]) else { throw fail("a number needs digits") }
        if b[i] == UInt8(ascii: "0") {
            i += 1
            if i < b.count && isDigit(b[i]) { throw fail("a number cannot have a leading zero") }
        } else {
            while i < b.count && isDigit(b[i]) { i += 1 }
        }
        var integral = true
        if i < b.count && b[i] == UInt8(ascii: ".") {
            integral = false
            i += 1
            guard i < b.count, isDigit(b[i]) else { throw fail("a fraction needs digits") }
            while i < b.count && isDigit(b[i]) { i += 1 }
        }
        if i < b.count && (b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")) {
            integral = false
            i += 1
            if i < b.count && (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")) { i += 1 }
            guard i < b.count, isDigit(b[i]) else { throw fail("an exponent needs digits") }
            while i < b.count && isDigit(b[i]) { i += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
        if integral {
            if let v = Int(text) { return .int(v) }
            if b[start] != UInt8(ascii: "-") { return .bigInt(text) }
        }
        return .double(Double(text) ?? .nan)
    }

    /// A string; `i` stands at its opening quote. Runs of plain bytes are taken whole (eight at a
    /// time while no byte of the word is a quote, a backslash or a control character): a document's
    /// text is one string of up to megabytes.
    mutating func string() throws(JSONParser.Failure) -> String {
        i += 1
        let start = i
        skipPlain()
        if i < b.count && b[i] == UInt8(ascii: "\"") {
            let s = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
            i += 1
            return s
        }
        var out: [UInt8] = []
        out.reserveCapacity(i - start + 16)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: b[start..<i]))
        while true {
            guard i < b.count else { throw fail("the text ends inside a string") }
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if c < 0x20 { throw fail("a control character (0x\(String(c, radix: 16))) must be escaped in a string") }
            if c != UInt8(ascii: "\\") {
                let runStart = i
                skipPlain()
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[runStart..<i]))
                continue
            }
            i += 1
            guard i < b.count else { throw fail("the text ends inside an escape") }
            let e = b[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var unit = try hex4()
                var scalar: Unicode.Scalar?
                if unit >= 0xD800 && unit < 0xDC00 {
                    // A high surrogate pairs with a low one; alone it is no character.
                    if i + 1 < b.count, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") {
                        let save = i
                        i += 2
                        let low = try hex4()
                        if low >= 0xDC00 && low < 0xE000 {
                            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                            scalar = Unicode.Scalar(unit)
                        } else {
                            i = save
                        }
                    }
                } else {
                    scalar = Unicode.Scalar(unit)
                }
                // A lone surrogate becomes U+FFFD, as decoders of UTF-16 do.
                for byte in UTF8.encode(scalar ?? "\u{FFFD}")! { out.append(byte) }
            default:
                throw fail("unknown escape '\\\(shown(e))' in a string", at: i - 2)
            }
        }
    }

    mutating func hex4() throws(JSONParser.Failure) -> UInt32 {
        guard i + 4 <= b.count else { throw fail("a \\u escape needs four hexadecimal digits") }
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = b[i + k]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - 0x30
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - 0x61 + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - 0x41 + 10
            default: throw fail("a \\u escape needs four hexadecimal digits", at: i + k)
            }
            v = v << 4 | UInt32(d)
        }
        i += 4
        return v
    }

    /// Moves `i` past bytes that stand for themselves in a string.
    mutating func skipPlain() {
        let n = b.count
        if let base = b.baseAddress {
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            while i + 8 <= n {
                let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                let quote = w ^ (ones &* 0x22), slash = w ^ (ones &* 0x5C)
                // A zero byte in `quote` or `slash`, or a byte under 0x20 in `w` (exact as a test
                // for any such byte in the word).
                let found = ((quote &- ones) & ~quote) | ((slash &- ones) & ~slash) | ((w &- ones &* 0x20) & ~w)
                if found & highs != 0 { break }
                i += 8
            }
        }
        while i < n {
            let c = b[i]
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { return }
            i += 1
        }
    }

    func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    func shown(_ c: UInt8) -> String {
        c >= 0x20 && c < 0x7F ? String(UnicodeScalar(c)) : "0x" + String(c, radix: 16)
    }
}

extension JSON {
    /// The member `key` of an object; nil for anything else.
    public subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// An integer, also when written as a whole double (`3.0`).
    public var intValue: Int? {
        switch self {
        case .int(let v): return v
        case .double(let d) where d == d.rounded() && abs(d) < 9.0e15: return Int(d)
        default: return nil
        }
    }

    public var boolValue: Bool? {
        if case .bool(let v) = self { return v }
        return nil
    }

    public var arrayValue: [JSON]? {
        if case .array(let items) = self { return items }
        return nil
    }

    public var objectValue: [String: JSON]? {
        if case .object(let members) = self { return members }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
