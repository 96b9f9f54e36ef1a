/// Exact parsers for the scalar types of SPEC §1. Each returns the value, or the reason it is
/// not one with the spelling that would be right — messages a user can act on.
public enum Values {
    public enum Parsed<T> {
        case value(T)
        /// `message` names what was found; `help` shows the right spelling when there is one.
        case invalid(message: String, help: String?)
    }

    /// Largest magnitude accepted anywhere: 2^53 - 1, exact as a double and in every JSON reader.
    public static let maxMagnitude: Int = (1 << 53) - 1

    // MARK: integer

    /// Plain decimal: `0`, `42`, `-3`. No signs of other bases, separators, exponents or fractions.
    public static func integer(_ text: String) -> Parsed<Int> {
        if let v = fastInteger(text) { return .value(v) }
        return fullInteger(text)
    }

    /// `integer` without the fast path: every spelling, and the messages.
    static func fullInteger(_ text: String) -> Parsed<Int> {
        let t = text
        if isPlainDecimal(t) {
            guard let v = Int(t), abs(v) <= maxMagnitude else {
                return .invalid(message: "'\(t)' is too large; integers go up to \(maxMagnitude)", help: nil)
            }
            return .value(v)
        }
        let lower = t.lowercased()
        let body = lower.hasPrefix("-") || lower.hasPrefix("+") ? String(lower.dropFirst()) : lower
        let sign = lower.hasPrefix("-") ? "-" : ""
        func suggest(_ v: Int?, _ what: String) -> Parsed<Int> {
            .invalid(message: "'\(t)' is \(what), not a plain decimal integer",
                     help: v.map { "write \($0)" })
        }
        if body.hasPrefix("0x") { return suggest(Int(body.dropFirst(2), radix: 16).map { sign == "-" ? -$0 : $0 }, "hexadecimal") }
        if body.hasPrefix("0o") { return suggest(Int(body.dropFirst(2), radix: 8).map { sign == "-" ? -$0 : $0 }, "octal") }
        if body.hasPrefix("0b") { return suggest(Int(body.dropFirst(2), radix: 2).map { sign == "-" ? -$0 : $0 }, "binary") }
        if body.contains("_") || body.contains(",") {
            let digits = body.filter { $0 != "_" && $0 != "," }
            return suggest(isPlainDecimal(digits) ? Int(sign + digits) : nil, "written with digit separators")
        }
        if lower.hasPrefix("+"), isPlainDecimal(body) { return suggest(Int(body), "written with a plus sign") }
        if t == "-0" { return suggest(0, "a negative zero") }
        if body.count > 1, body.hasPrefix("0"), body.allSatisfy(\.isASCIIDigit) {
            return suggest(Int(sign + body), "written with a leading zero (YAML 1.1 reads that as octal)")
        }
        if let d = Double(body), d.isFinite, body.contains(where: { $0 == "." || $0 == "e" }) {
            if d == d.rounded(), abs(d) <= Double(maxMagnitude) {
                return suggest(Int(d) * (sign == "-" ? -1 : 1), body.contains("e") ? "written with an exponent" : "a decimal fraction")
            }
            return .invalid(message: "'\(t)' is not a whole number", help: nil)
        }
        return .invalid(message: "'\(t)' is not an integer", help: nil)
    }

    /// Plain decimals within `maxMagnitude` read on bytes; nil for any other text, which
    /// `integer` then reads in full and explains. Parsing with `Int(_:)` after checking the digits
    /// cost several hundred instructions a value. Agrees with the full parser wherever it returns
    /// a value (see PerfFastPathTests).
    static func fastInteger(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { b -> Int? in
            let negative = b.first == UInt8(ascii: "-")
            let start = negative ? 1 : 0
            // At most 16 digits: maxMagnitude has 16, and more may overflow.
            guard b.count > start, b.count - start <= 16 else { return nil }
            // No leading zero, and no negative zero ("0" alone is fine).
            if b[start] == 0x30 && (b.count - start > 1 || negative) { return nil }
            var value = 0
            for i in start..<b.count {
                guard isDigit(b[i]) else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            guard value <= maxMagnitude else { return nil }
            return negative ? -value : value
        }
    }

    static func isPlainDecimal(_ t: String) -> Bool {
        let digits = t.hasPrefix("-") ? t.utf8.dropFirst() : t.utf8[...]
        guard let first = digits.first, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        if first == 0x30 { return digits.count == 1 && !t.hasPrefix("-") }
        return true
    }

    // MARK: boolean

    public static func boolean(_ text: String) -> Parsed<Bool> {
        switch text {
        case "true": return .value(true)
        case "false": return .value(false)
        default: break
        }
        switch text.lowercased() {
        case "yes", "y", "on", "true":
            return .invalid(message: "'\(text)' is a YAML 1.1 spelling of a boolean, not accepted here", help: "write true")
        case "no", "n", "off", "false":
            return .invalid(message: "'\(text)' is a YAML 1.1 spelling of a boolean, not accepted here", help: "write false")
        case "1": return .invalid(message: "'\(text)' is a number, not a boolean", help: "write true")
        case "0": return .invalid(message: "'\(text)' is a number, not a boolean", help: "write false")
        default: return .invalid(message: "'\(text)' is not a boolean", help: "write true or false")
        }
    }

    // MARK: duration

    /// `<number><unit>`, unit ms, s, m or h, a whole number of milliseconds: `500ms`, `1.5s`, `5m`.
    public static func duration(_ text: String) -> Parsed<Int> {
        if let ms = fastDuration(text) { return .value(ms) }
        return fullDuration(text)
    }

    /// `duration` without the fast path: every spelling, and the messages.
    static func fullDuration(_ text: String) -> Parsed<Int> {
        let t = text
        // Units spelled out ("10 seconds", "5min"): say which short unit was meant.
        let digits = t.prefix(while: { $0.isASCIIDigit || $0 == "." })
        let word = t.dropFirst(digits.count).trimmingSpaces.lowercased()
        if !digits.isEmpty, decimal(digits) != nil, let u = spelledUnits[word] {
            return .invalid(message: "'\(t)' has an unknown unit '\(word)'; units are ms, s, m and h", help: "write \(digits)\(u)")
        }
        let units: [(String, Int)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
        var numberPart = Substring(t)
        var factor: Int?
        var unit = ""
        for (u, f) in units where t.hasSuffix(u) {
            numberPart = t.dropLast(u.count)
            factor = f
            unit = u
            break
        }
        let trimmed = numberPart.hasSuffix(" ") ? numberPart.trimmingSpaces : numberPart
        if factor != nil, trimmed != numberPart, decimal(trimmed) != nil {
            return .invalid(message: "'\(t)' has a space before its unit", help: "write \(trimmed)\(unit)")
        }
        guard let factor else {
            if t != t.lowercased(), case .value = fullDuration(t.lowercased()) {
                return .invalid(message: "'\(t)' has its unit in capitals; units are ms, s, m and h",
                                help: "write \(t.lowercased())")
            }
            if decimal(Substring(t)) != nil || Int(t) != nil {
                return .invalid(message: "'\(t)' is a bare number; a duration needs a unit (its unit would be a guess)",
                                help: "write \(t)ms or \(t)s")
            }
            return .invalid(message: "'\(t)' is not a duration; write a number and a unit (ms, s, m or h)", help: "for example 500ms, 1.5s, 5m")
        }
        if numberPart.hasPrefix("-") {
            return .invalid(message: "'\(t)' is negative; a duration is 0 or more", help: nil)
        }
        guard let (whole, fraction) = decimal(numberPart) else {
            return .invalid(message: "'\(t)' is not a duration; write a number and a unit (ms, s, m or h)", help: "for example 500ms, 1.5s, 5m")
        }
        // Exact decimal arithmetic: whole * factor + fraction * factor / 10^digits.
        let frac = fraction.drop(while: { _ in false }).reversed().drop(while: { $0 == "0" }).reversed()
        let fracDigits = String(frac)
        guard whole.count <= 16, fracDigits.count <= 12,
              let w = Int(whole.isEmpty ? "0" : whole), let f = fracDigits.isEmpty ? 0 : Int(fracDigits) else {
            return .invalid(message: "'\(t)' is too long a duration", help: nil)
        }
        var scale = 1
        for _ in 0..<fracDigits.count { scale *= 10 }
        let (wholeMs, o1) = w.multipliedReportingOverflow(by: factor)
        let (fracScaled, o2) = f.multipliedReportingOverflow(by: factor)
        guard !o1, !o2, wholeMs <= maxMagnitude else {
            return .invalid(message: "'\(t)' is too long a duration", help: nil)
        }
        guard fracScaled % scale == 0 else {
            let below = wholeMs + fracScaled / scale
            return .invalid(message: "'\(t)' is not a whole number of milliseconds",
                            help: "write \(Format.duration(below)) or \(Format.duration(below + 1))")
        }
        return .value(wholeMs + fracScaled / scale)
    }

    /// Units written out, and the short unit meant.
    static let spelledUnits: [String: String] = [
        "sec": "s", "secs": "s", "second": "s", "seconds": "s",
        "min": "m", "mins": "m", "minute": "m", "minutes": "m",
        "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
        "msec": "ms", "msecs": "ms", "millis": "ms", "milliseconds": "ms", "millisecond": "ms",
    ]

    /// The usual spellings (`[0-9]+(.[0-9]+)?(ms|s|m|h)`, all ASCII) read on bytes; nil for any
    /// other text or any doubt, which `duration` then reads in full and explains. The Character-based
    /// reading cost about 10,000 instructions a value. Agrees with the full parser wherever it
    /// returns a value (see PerfFastPathTests).
    static func fastDuration(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { b -> Int? in
            let n = b.count
            guard n >= 2, n <= 40 else { return nil }
            var end = n - 1
            let factor: Int
            switch b[end] {
            case UInt8(ascii: "h"): factor = 3_600_000
            case UInt8(ascii: "m"): factor = 60_000
            case UInt8(ascii: "s"):
                if b[end - 1] == UInt8(ascii: "m") {
                    factor = 1
                    end -= 1
                } else {
                    factor = 1000
                }
            default: return nil
            }
            var i = 0, whole = 0
            while i < end, isDigit(b[i]) {
                whole = whole &* 10 &+ Int(b[i] &- 0x30)
                i += 1
            }
            // At most 16 whole digits, as the full parser (which says why past that).
            guard i > 0, i <= 16 else { return nil }
            var fraction = 0, scale = 1
            if i < end {
                guard b[i] == UInt8(ascii: "."), i + 1 < end else { return nil }
                var k = i + 1
                while k < end, isDigit(b[k]) { k += 1 }
                guard k == end else { return nil }
                // Trailing zeros do not count; at most 12 digits remain.
                var last = end - 1
                while last > i, b[last] == 0x30 { last -= 1 }
                guard last - i <= 12 else { return nil }
                k = i + 1
                while k <= last {
                    fraction = fraction * 10 + Int(b[k] - 0x30)
                    scale *= 10
                    k += 1
                }
            }
            let (wholeMs, o1) = whole.multipliedReportingOverflow(by: factor)
            let (fracScaled, o2) = fraction.multipliedReportingOverflow(by: factor)
            guard !o1, !o2, wholeMs <= maxMagnitude, fracScaled % scale == 0 else { return nil }
            return wholeMs + fracScaled / scale
        }
    }

    /// `123` or `1.5`: digits, optionally a point and more digits. Returns (whole, fraction) digits.
    static func decimal(_ s: Substring) -> (Substring, Substring)? {
        let parts = s.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit) else { return nil }
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].allSatisfy(\.isASCIIDigit) else { return nil }
            return (whole, parts[1])
        }
        return (whole, "")
    }

    // MARK: percent

    /// `<number>%`, greater than 0 and at most 100: `10%`, `2.5%`.
    public static func percent(_ text: String) -> Parsed<Percent> {
        if let p = fastPercent(text) { return .value(p) }
        return fullPercent(text)
    }

    /// `percent` without the fast path: every spelling, and the messages.
    static func fullPercent(_ text: String) -> Parsed<Percent> {
        let t = text
        guard t.hasSuffix("%") else {
            if let d = decimal(Substring(t)) {
                let number = String(d.0) + (d.1.isEmpty ? "" : "." + d.1)
                if let v = Double(number), v > 0, v < 1 {
                    return .invalid(message: "'\(t)' is a bare number; a percent needs a % sign",
                                    help: "write \(number)% (or \(formatPercent(v * 100))% if you meant the ratio \(number))")
                }
                return .invalid(message: "'\(t)' is a bare number; a percent needs a % sign", help: "write \(number)%")
            }
            return .invalid(message: "'\(t)' is not a percent", help: "write a number and %, like 10%")
        }
        var body = t.dropLast()
        if body.hasSuffix(" "), decimal(body.trimmingSpaces) != nil {
            return .invalid(message: "'\(t)' has a space before %", help: "write \(body.trimmingSpaces)%")
        }
        body = body.trimmingSpaces
        guard let (whole, fraction) = decimal(body), whole.count <= 16, fraction.count <= 16 else {
            return .invalid(message: "'\(t)' is not a percent", help: "write a number and %, like 10%")
        }
        let digitsWhole = whole.drop(while: { $0 == "0" })
        let digitsFraction = String(fraction.reversed().drop(while: { $0 == "0" }).reversed())
        let canonical = (digitsWhole.isEmpty ? "0" : String(digitsWhole))
            + (digitsFraction.isEmpty ? "" : "." + digitsFraction)
        guard let value = Double(canonical), value > 0 else {
            return .invalid(message: "'\(t)' is not greater than 0%; a percent here is more than 0 and at most 100", help: nil)
        }
        guard value <= 100 else {
            return .invalid(message: "'\(t)' is over 100%; a percent here is more than 0 and at most 100", help: nil)
        }
        return .value(Percent(canonical: canonical))
    }

    /// The usual spellings (`[0-9]+(.[0-9]+)?%`, under 100 or exactly 100) read on bytes; nil for
    /// any other text or doubt (a value near 100 is left to the full parser's double).
    static func fastPercent(_ text: String) -> Percent? {
        var text = text
        return text.withUTF8 { b -> Percent? in
            let n = b.count
            guard n >= 2, n <= 34, b[n - 1] == UInt8(ascii: "%") else { return nil }
            let end = n - 1
            var i = 0
            while i < end, isDigit(b[i]) { i += 1 }
            let wholeEnd = i
            guard wholeEnd > 0, wholeEnd <= 16 else { return nil }
            var fractionEnd = wholeEnd  // past the last nonzero fraction digit
            if i < end {
                guard b[i] == UInt8(ascii: "."), i + 1 < end, end - i - 1 <= 16 else { return nil }
                i += 1
                while i < end, isDigit(b[i]) {
                    if b[i] != 0x30 { fractionEnd = i + 1 }
                    i += 1
                }
                guard i == end else { return nil }
            }
            var wholeStart = 0
            while wholeStart < wholeEnd, b[wholeStart] == 0x30 { wholeStart += 1 }
            let wholeDigits = wholeEnd - wholeStart
            let hasFraction = fractionEnd > wholeEnd
            // Over 0: some digit is not zero. At most 100: under three whole digits, or exactly 100.
            guard wholeDigits > 0 || hasFraction else { return nil }
            if wholeDigits >= 3 {
                guard wholeDigits == 3, !hasFraction, b[wholeStart] == 0x31,
                      b[wholeStart + 1] == 0x30, b[wholeStart + 2] == 0x30 else { return nil }
            }
            var canonical = wholeDigits == 0 ? "0" : String(decoding: b[wholeStart..<wholeEnd], as: UTF8.self)
            if hasFraction { canonical += String(decoding: b[wholeEnd..<fractionEnd], as: UTF8.self) }
            return Percent(canonical: canonical)
        }
    }

    static func formatPercent(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : "\(v)"
    }

    // MARK: name

    public static let maxNameLength = 64

    /// `^[a-z][a-zA-Z0-9]*(-[a-z0-9]+)*$`, at most 64 characters.
    public static func isName(_ s: String) -> Bool {
        // On the contiguous bytes: copying them into an array cost an allocation a name.
        var s = s
        return s.withUTF8 { u in
            guard !u.isEmpty, u.count <= maxNameLength, isLower(u[0]) else { return false }
            var i = 1
            while i < u.count, isLower(u[i]) || isUpper(u[i]) || isDigit(u[i]) { i += 1 }
            while i < u.count {
                guard u[i] == 0x2D else { return false }
                i += 1
                let start = i
                while i < u.count, isLower(u[i]) || isDigit(u[i]) { i += 1 }
                if i == start { return false }
            }
            return true
        }
    }

    /// Why `s` is not a name, in words.
    public static func nameProblem(_ s: String) -> String {
        if s.isEmpty { return "a name cannot be empty" }
        if s.unicodeScalars.count > maxNameLength { return "it is \(s.unicodeScalars.count) characters long, over the limit of \(maxNameLength)" }
        if s.unicodeScalars.contains(where: { !$0.isASCII }) { return "it has characters outside ASCII letters, digits and '-'" }
        if let f = s.utf8.first, !isLower(f) { return "it must start with a lowercase letter" }
        if s.contains("_") { return "use '-' or camelCase instead of '_'" }
        if s.hasSuffix("-") || s.contains("--") { return "each '-' must be followed by lowercase letters or digits" }
        if s.contains("-") { return "after a '-' only lowercase letters and digits may follow" }
        return "it may hold only ASCII letters, digits and single '-' between words"
    }

    static func isLower(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }
    static func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
}

/// A percent as written, kept exact: `canonical` is the decimal number without the sign ("2.5").
public struct Percent: Sendable, Hashable {
    public var canonical: String

    public init(canonical: String) {
        self.canonical = canonical
    }

    /// The number of percent, 2.5 for `2.5%`.
    public var percent: Double { Double(canonical) ?? .nan }

    /// The fraction, 0.025 for `2.5%`: the decimal point moved by two, then read once, so the
    /// double is the one nearest the written number (no division rounding).
    public var ratio: Double {
        let parts = canonical.split(separator: ".", maxSplits: 1)
        var whole = String(parts[0])
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        while whole.count < 3 { whole = "0" + whole }
        let text = String(whole.dropLast(2)) + "." + String(whole.suffix(2)) + fraction
        // `canonical` holds digits and at most one point (see `Values.percent`), so this parses.
        return Double(text) ?? .nan
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }
}
