/// A JSON value and its one writer: keys sorted, so every output is byte-for-byte stable.
public indirect enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])
    /// An exact integer beyond `Int`, as decimal digits (explain's sums of huge profiles).
    case bigInt(String)

    /// Two-space indented with a trailing newline when `pretty`, else one line.
    public func rendered(pretty: Bool = true) -> String {
        var out = ""
        write(to: &out, pretty: pretty, indent: 0)
        if pretty { out += "\n" }
        return out
    }

    func write(to out: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .bigInt(let digits): out += digits.isEmpty || !digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) ? "null" : digits
        case .double(let d): out += JSON.number(d)
        case .string(let s): JSON.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                if pretty { JSON.lineBreak(indent + 1, into: &out) }
                item.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { JSON.lineBreak(indent, into: &out) }
            out += "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            // The members sorted, values and all: sorting the keys and looking each up again
            // hashed every key twice.
            for (i, member) in members.sorted(by: { utf8Precedes($0.key, $1.key) }).enumerated() {
                if i > 0 { out += "," }
                if pretty { JSON.lineBreak(indent + 1, into: &out) }
                JSON.quote(member.key, into: &out)
                out += pretty ? ": " : ":"
                member.value.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { JSON.lineBreak(indent, into: &out) }
            out += "}"
        }
    }

    /// A line break and two spaces a level, made once for each depth: made for every line, they
    /// were a tenth of writing a SARIF report.
    private static let lineBreaks: [String] = (0..<16).map { "\n" + String(repeating: "  ", count: $0) }

    static func lineBreak(_ indent: Int, into out: inout String) {
        if indent < lineBreaks.count {
            out += lineBreaks[indent]
        } else {
            out += "\n" + String.spaces(2 * indent)
        }
    }

    /// Shortest round-trip form; integral values without a fraction (`10`, not `10.0`).
    public static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        return "\(d)"
    }

    /// A JSON string literal: quotes, backslashes and all control characters escaped, and U+2028,
    /// U+2029 too so that the output is also safe inside JavaScript.
    public static func quote(_ s: String, into out: inout String) {
        out += "\""
        // Printable ASCII without quotes or backslashes, the usual text, goes as it is.
        if allUTF8(s, { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
            out += s
            out += "\""
            return
        }
        // Byte by byte into a buffer made a String once: appending scalar by scalar is slow, and
        // many deeply indented fixes make long texts.
        // Every byte past ASCII is copied but those of LS and PS (E2 80 A8/A9), which JavaScript
        // reads as line breaks.
        var text = s
        let quoted: [UInt8] = text.withUTF8 { b in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(b.count + b.count / 8 + 8)
            /// A backslash, then `escaped`; `\u` escapes end in four hex digits (lowercase).
            func escape(_ escaped: UInt8, hex: UInt32 = 0) {
                bytes.append(0x5C)
                bytes.append(escaped)
                guard escaped == 0x75 else { return }
                for shift in [12, 8, 4, 0] as [UInt32] {
                    let digit = UInt8((hex >> shift) & 0xF)
                    bytes.append(digit < 10 ? 0x30 + digit : 0x57 + digit)
                }
            }
            var i = 0
            while i < b.count {
                let c = b[i]
                i += 1
                switch c {
                case 0x22, 0x5C: escape(c)
                case 0x0A: escape(0x6E)
                case 0x0D: escape(0x72)
                case 0x09: escape(0x74)
                case 0x00..<0x20, 0x7F: escape(0x75, hex: UInt32(c))
                case 0xE2 where i + 1 < b.count && b[i] == 0x80 && (b[i + 1] == 0xA8 || b[i + 1] == 0xA9):
                    escape(0x75, hex: b[i + 1] == 0xA8 ? 0x2028 : 0x2029)
                    i += 2
                default:
                    bytes.append(c)
                }
            }
            return bytes
        }
        out += String(decoding: quoted, as: UTF8.self)
        out += "\""
    }

    public static func quote(_ s: String) -> String {
        var out = ""
        quote(s, into: &out)
        return out
    }
}

extension JSON {
    /// As JSON readers compare: strings and keys by their bytes (see `sameText`), not by Swift's
    /// canonical equivalence — `diff` decides "changed" with this.
    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.bigInt(let x), .bigInt(let y)): return sameText(x, y)
        case (.string(let x), .string(let y)): return sameText(x, y)
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            for (key, value) in x {
                // A lookup finds a canonically equivalent key too: the key found must be the same bytes.
                guard let i = y.index(forKey: key), sameText(y[i].key, key), y[i].value == value else { return false }
            }
            return true
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .int(let i): hasher.combine(i)
        case .double(let d): hasher.combine(d)
        case .bigInt(let s), .string(let s): hasher.combine(ExactText(s))
        case .array(let items): hasher.combine(items)
        // Entries in any order: their count (equal objects have equal counts).
        case .object(let members): hasher.combine(members.count)
        }
    }
}
