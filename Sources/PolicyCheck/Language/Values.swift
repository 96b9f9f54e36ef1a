import PolicySource

/// Exact parsers for the scalar types of SPEC §1. Each returns the value, or the reason it is
/// not one with the spelling that would be right — messages a user can act on.
public enum Values {
    public enum Parsed<T> {
        case value(T)
        /// `message` names what was found; `help` shows the right spelling when there is one, and
        /// `correction` is that spelling when it is one text (the fix of the finding).
        case invalid(message: String, help: String?, correction: Correction? = nil)
    }

    /// The text that replaces a wrong spelling: `safe` when it is certain (the same value spelt
    /// the accepted way), `unsafe` when it is a choice (a unit for a bare number).
    public struct Correction: Sendable, Hashable {
        public var text: String
        public var safety: Fix.Safety

        public init(_ text: String, _ safety: Fix.Safety) {
            self.text = text
            self.safety = safety
        }
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
                return .invalid(message: "'\(excerpt(t))' is too large; integers go up to \(maxMagnitude)", help: nil)
            }
            return .value(v)
        }
        // No spelling explained below is this long (see `fullDuration`), and lowering a very
        // long value and reading it by Characters is slow.
        if t.utf8.count > longestExplained {
            return .invalid(message: "'\(excerpt(t))' is not an integer", help: nil)
        }
        let lower = t.lowercased()
        let body = lower.hasPrefix("-") || lower.hasPrefix("+") ? String(lower.dropFirst()) : lower
        let sign = lower.hasPrefix("-") ? "-" : ""
        // Each of these spellings has one value, so its plain decimal is certain: but for a
        // leading zero, which YAML 1.1 reads as octal, and commas that may be a decimal comma.
        func suggest(_ v: Int?, _ what: String, _ safety: Fix.Safety = .safe) -> Parsed<Int> {
            .invalid(message: "'\(excerpt(t))' is \(what), not a plain decimal integer",
                     help: v.map { "write \($0)" }, correction: v.map { Correction(String($0), safety) })
        }
        if body.hasPrefix("0x") { return suggest(Int(body.dropFirst(2), radix: 16).map { sign == "-" ? -$0 : $0 }, "hexadecimal") }
        if body.hasPrefix("0o") { return suggest(Int(body.dropFirst(2), radix: 8).map { sign == "-" ? -$0 : $0 }, "octal") }
        if body.hasPrefix("0b") { return suggest(Int(body.dropFirst(2), radix: 2).map { sign == "-" ? -$0 : $0 }, "binary") }
        if body.contains("_") || body.contains(",") {
            let digits = body.filter { $0 != "_" && $0 != "," }
            return suggest(isPlainDecimal(digits) ? Int(sign + digits) : nil, "written with digit separators",
                           body.contains(",") && !isThousands(body) ? .unsafe : .safe)
        }
        if lower.hasPrefix("+"), isPlainDecimal(body) { return suggest(Int(body), "written with a plus sign") }
        if t == "-0" { return suggest(0, "a negative zero") }
        if body.count > 1, body.hasPrefix("0"), body.allSatisfy(\.isASCIIDigit) {
            return suggest(Int(sign + body), "written with a leading zero (YAML 1.1 reads that as octal)", .unsafe)
        }
        if let d = Double(body), d.isFinite, body.contains(where: { $0 == "." || $0 == "e" }) {
            if d == d.rounded(), abs(d) <= Double(maxMagnitude) {
                return suggest(Int(d) * (sign == "-" ? -1 : 1), body.contains("e") ? "written with an exponent" : "a decimal fraction")
            }
            return .invalid(message: "'\(excerpt(t))' is not a whole number", help: nil)
        }
        return .invalid(message: "'\(excerpt(t))' is not an integer", help: nil)
    }

    /// Plain decimals within `maxMagnitude` read on bytes; nil for any other text, which
    /// `integer` then reads in full and explains. Parsing with `Int(_:)` after checking the digits
    /// is slower. Agrees with the full parser wherever it returns
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

    /// `1,000` or `12,345,678`: commas between groups of three digits, as thousands are written.
    static func isThousands(_ body: String) -> Bool {
        let groups = body.split(separator: ",", omittingEmptySubsequences: false)
        guard let first = groups.first, (1...3).contains(first.count) else { return false }
        return groups.allSatisfy { $0.allSatisfy(\.isASCIIDigit) } && groups.dropFirst().allSatisfy { $0.count == 3 }
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
        func invalid(_ message: String, _ value: Bool, _ safety: Fix.Safety) -> Parsed<Bool> {
            .invalid(message: message, help: "write \(value)", correction: Correction(String(value), safety))
        }
        switch text {
        // YAML 1.2 reads these as booleans too; only the spelling is refused.
        case "True", "TRUE": return invalid("'\(excerpt(text))' is a capitalised boolean; policyc accepts only true and false", true, .safe)
        case "False", "FALSE": return invalid("'\(excerpt(text))' is a capitalised boolean; policyc accepts only true and false", false, .safe)
        case "yes", "Yes", "YES", "y", "Y", "on", "On", "ON":
            return invalid("'\(excerpt(text))' is a YAML 1.1 spelling of a boolean, not accepted here", true, .safe)
        case "no", "No", "NO", "n", "N", "off", "Off", "OFF":
            return invalid("'\(excerpt(text))' is a YAML 1.1 spelling of a boolean, not accepted here", false, .safe)
        case "1": return invalid("'\(excerpt(text))' is a number, not a boolean", true, .unsafe)
        case "0": return invalid("'\(excerpt(text))' is a number, not a boolean", false, .unsafe)
        default: break
        }
        // Other mixes of case (`tRUE`, `yEs`) are no boolean in any YAML: likely meant, not certain.
        // None is long: a value of 1 MiB is not lowered to be compared with them.
        switch text.utf8.count > longestExplained ? "" : text.lowercased() {
        case "yes", "y", "on", "true": return invalid("'\(excerpt(text))' is not a boolean", true, .unsafe)
        case "no", "n", "off", "false": return invalid("'\(excerpt(text))' is not a boolean", false, .unsafe)
        default: return .invalid(message: "'\(excerpt(text))' is not a boolean", help: "write true or false")
        }
    }

    // MARK: duration

    /// `<number><unit>`, unit ms, s, m or h, a whole number of milliseconds: `500ms`, `1.5s`, `5m`.
    /// `typical`, the usual value where it stands, picks the unit a bare number's correction gets.
    public static func duration(_ text: String, typical: Int? = nil) -> Parsed<Int> {
        if let ms = fastDuration(text) { return .value(ms) }
        return fullDuration(text, typical: typical)
    }

    /// The longest text whose mistake is explained in full; a longer one is only refused.
    static let longestExplained = 1024

    /// The units a duration ends with, and their milliseconds; `ms` before `s`.
    static let durationUnits: [(String, Int)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]

    /// `duration` without the fast path: every spelling, and the messages.
    static func fullDuration(_ text: String, typical: Int? = nil) -> Parsed<Int> {
        let t = text
        // The fast reading takes every duration, however long; explaining why a longer text is
        // none reads its Characters, which is slow for a very long one.
        if t.utf8.count > longestExplained, fastDuration(t) == nil {
            return .invalid(message: "'\(excerpt(t))' is too long a duration", help: nil)
        }
        // Units spelled out ("10 seconds", "5min"): say which short unit was meant.
        let digits = t.prefix(while: { $0.isASCIIDigit || $0 == "." })
        let word = t.dropFirst(digits.count).trimmingSpaces.lowercased()
        if !digits.isEmpty, decimal(digits) != nil, let u = spelledUnits[word] {
            return .invalid(message: "'\(excerpt(t))' has an unknown unit '\(excerpt(word))'; units are ms, s, m and h", help: "write \(excerpt("\(digits)\(u)"))",
                            correction: wholeDuration("\(digits)\(u)").map { Correction($0, .safe) })
        }
        var numberPart = Substring(t)
        var factor: Int?
        var unit = ""
        for (u, f) in durationUnits where t.hasSuffix(u) {
            numberPart = t.dropLast(u.count)
            factor = f
            unit = u
            break
        }
        let trimmed = numberPart.hasSuffix(" ") ? numberPart.trimmingSpaces : numberPart
        if factor != nil, trimmed != numberPart, decimal(trimmed) != nil {
            return .invalid(message: "'\(excerpt(t))' has a space before its unit", help: "write \(excerpt("\(trimmed)\(unit)"))",
                            correction: wholeDuration("\(trimmed)\(unit)").map { Correction($0, .safe) })
        }
        guard let factor else {
            if t != t.lowercased(), case .value = fullDuration(t.lowercased()) {
                return .invalid(message: "'\(excerpt(t))' has its unit in capitals; units are ms, s, m and h",
                                help: "write \(excerpt(t.lowercased()))", correction: Correction(t.lowercased(), .safe))
            }
            if decimal(Substring(t)) != nil || Int(t) != nil {
                return .invalid(message: "'\(excerpt(t))' is a bare number; a duration needs a unit (its unit would be a guess)",
                                help: "write \(excerpt(t + "ms")) or \(excerpt(t + "s"))", correction: bareNumberCorrection(t, typical: typical))
            }
            return .invalid(message: "'\(excerpt(t))' is not a duration; write a number and a unit (ms, s, m or h)", help: "for example 500ms, 1.5s, 5m")
        }
        if numberPart.hasPrefix("-") {
            return .invalid(message: "'\(excerpt(t))' is negative; a duration is 0 or more", help: nil)
        }
        guard let (whole, fraction) = decimal(numberPart) else {
            return .invalid(message: "'\(excerpt(t))' is not a duration; write a number and a unit (ms, s, m or h)", help: "for example 500ms, 1.5s, 5m")
        }
        // Exact decimal arithmetic: whole * factor + fraction * factor / 10^digits.
        let frac = fraction.drop(while: { _ in false }).reversed().drop(while: { $0 == "0" }).reversed()
        let fracDigits = String(frac)
        guard whole.count <= 16, fracDigits.count <= 12,
              let w = Int(whole.isEmpty ? "0" : whole), let f = fracDigits.isEmpty ? 0 : Int(fracDigits) else {
            return .invalid(message: "'\(excerpt(t))' is too long a duration", help: nil)
        }
        var scale = 1
        for _ in 0..<fracDigits.count { scale *= 10 }
        let (wholeMs, o1) = w.multipliedReportingOverflow(by: factor)
        let (fracScaled, o2) = f.multipliedReportingOverflow(by: factor)
        guard !o1, !o2, wholeMs <= maxMagnitude else {
            return .invalid(message: "'\(excerpt(t))' is too long a duration", help: nil)
        }
        guard fracScaled % scale == 0 else {
            let below = wholeMs + fracScaled / scale
            return .invalid(message: "'\(excerpt(t))' is not a whole number of milliseconds",
                            help: "write \(Format.duration(below)) or \(Format.duration(below + 1))")
        }
        return .value(wholeMs + fracScaled / scale)
    }

    /// `text` when it is a duration that parses (a whole number of milliseconds).
    static func wholeDuration(_ text: String) -> String? {
        if fastDuration(text) != nil { return text }
        if case .value = fullDuration(text) { return text }
        return nil
    }

    /// A bare number's unit is a guess: of ms and s, the one that puts it nearer the usual value
    /// (`base: 500` is 500ms, `timeout: 8` is 8s); a zero is zero in any unit, so certain.
    static func bareNumberCorrection(_ number: String, typical: Int?) -> Correction? {
        // Without a usual value only a zero has a unit that is certain.
        guard typical != nil || number.utf8.allSatisfy({ $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: ".") }) else { return nil }
        let candidates: [(String, Int)] = ["s", "ms"].compactMap { unit in
            guard case .value(let ms) = fullDuration(number + unit) else { return nil }
            return (number + unit, ms)
        }
        if let zero = candidates.first(where: { $0.1 == 0 }) { return Correction(zero.0, .safe) }
        guard let typical, typical > 0 else { return nil }
        // How many times larger one is than the other: a distance on a log scale.
        func distance(_ ms: Int) -> Double {
            let a = Double(max(ms, 1)), b = Double(typical)
            return max(a, b) / min(a, b)
        }
        return candidates.min { distance($0.1) < distance($1.1) }.map { Correction($0.0, .unsafe) }
    }

    /// Units written out, and the short unit meant.
    static let spelledUnits: [String: String] = [
        "sec": "s", "secs": "s", "second": "s", "seconds": "s",
        "min": "m", "mins": "m", "minute": "m", "minutes": "m",
        "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
        "msec": "ms", "msecs": "ms", "millis": "ms", "milliseconds": "ms", "millisecond": "ms",
    ]

    /// Every duration (`[0-9]+(.[0-9]+)?(ms|s|m|h)`, all ASCII) read on bytes; nil for any other
    /// text, which `duration` then reads in full and explains. The Character-based reading is far
    /// slower. Nil exactly where the full parser refuses (see PerfFastPathTests): past a file's
    /// report end, nil is all the decoder needs to know (reading many over-long durations in full
    /// is slow).
    static func fastDuration(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { b -> Int? in
            let n = b.count
            guard n >= 2 else { return nil }
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
        // On bytes: splitting and testing digits as Characters is far slower. Each
        // part is ASCII digits, so every index here is a Character's boundary.
        let u = s.utf8
        guard let dot = u.firstIndex(of: UInt8(ascii: ".")) ?? Optional(u.endIndex), dot != u.startIndex,
              u[..<dot].allSatisfy(isDigit) else { return nil }
        let whole = s[..<dot]
        guard dot != u.endIndex else { return (whole, "") }
        let fraction = s[u.index(after: dot)...]
        guard !fraction.isEmpty, fraction.utf8.allSatisfy(isDigit) else { return nil }
        return (whole, fraction)
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
        // No percent is this long (at most 16 digits either side of the point); see fullDuration.
        if t.utf8.count > longestExplained {
            return .invalid(message: "'\(excerpt(t))' is not a percent", help: "write a number and %, like 10%")
        }
        guard t.hasSuffix("%") else {
            if let d = decimal(Substring(t)) {
                let number = String(d.0) + (d.1.isEmpty ? "" : "." + d.1)
                if let v = Double(number), v > 0, v < 1 {
                    // The ratio's digits with the point moved by two: 0.07 is 7%, exactly.
                    let ratio = ratioAsPercent(whole: d.0, fraction: d.1)
                    return .invalid(message: "'\(excerpt(t))' is a bare number; a percent needs a % sign",
                                    help: "write \(excerpt(number + "%")) (or \(excerpt("\(ratio)%")) if you meant the ratio \(excerpt(number)))",
                                    correction: Correction("\(ratio)%", .unsafe))
                }
                return .invalid(message: "'\(excerpt(t))' is a bare number; a percent needs a % sign", help: "write \(excerpt(number + "%"))",
                                correction: Double(number).map { $0 > 0 && $0 <= 100 } == true ? Correction("\(number)%", .unsafe) : nil)
            }
            return .invalid(message: "'\(excerpt(t))' is not a percent", help: "write a number and %, like 10%")
        }
        var body = t.dropLast()
        if body.hasSuffix(" "), decimal(body.trimmingSpaces) != nil {
            let written = "\(body.trimmingSpaces)%"
            let correction: Correction? = if case .value = fullPercent(written) { Correction(written, .safe) } else { nil }
            return .invalid(message: "'\(excerpt(t))' has a space before %", help: "write \(excerpt(written))", correction: correction)
        }
        body = body.trimmingSpaces
        guard let (whole, fraction) = decimal(body), whole.count <= 16, fraction.count <= 16 else {
            return .invalid(message: "'\(excerpt(t))' is not a percent", help: "write a number and %, like 10%")
        }
        let digitsWhole = whole.drop(while: { $0 == "0" })
        let digitsFraction = String(fraction.reversed().drop(while: { $0 == "0" }).reversed())
        let canonical = (digitsWhole.isEmpty ? "0" : String(digitsWhole))
            + (digitsFraction.isEmpty ? "" : "." + digitsFraction)
        guard let value = Double(canonical), value > 0 else {
            return .invalid(message: "'\(excerpt(t))' is not greater than 0%; a percent here is more than 0 and at most 100", help: nil)
        }
        guard value <= 100 else {
            return .invalid(message: "'\(excerpt(t))' is over 100%; a percent here is more than 0 and at most 100", help: nil)
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

    /// A ratio under 1 (`0.07`, as whole and fraction digits) as a percent's number (`7`).
    static func ratioAsPercent(whole: Substring, fraction: Substring) -> String {
        var digits = Array(whole + fraction)
        let point = whole.count + 2
        while digits.count < point { digits.append("0") }
        var intPart = String(digits[..<point]).drop { $0 == "0" }
        var fracPart = String(digits[point...])
        while fracPart.hasSuffix("0") { fracPart.removeLast() }
        if intPart.isEmpty { intPart = "0" }
        return fracPart.isEmpty ? String(intPart) : "\(intPart).\(fracPart)"
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
        // Counted once, and only past the limit in bytes (counting a long name is not free).
        let length = s.utf8.count > maxNameLength ? s.scalarCount : 0
        if length > maxNameLength { return "it is \(length) characters long, over the limit of \(maxNameLength)" }
        // Named by code and name: a Cyrillic 'е' or a KELVIN SIGN looks like the ASCII letter.
        if let other = s.unicodeScalars.first(where: { !$0.isASCII }) {
            return "it has \(describeScalar(other)), outside ASCII letters, digits and '-'"
        }
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
    /// 0 to 9 (`isNumber` looked up Unicode's tables for each).
    var isASCIIDigit: Bool { asciiValue.map(Values.isDigit) ?? false }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }
}
