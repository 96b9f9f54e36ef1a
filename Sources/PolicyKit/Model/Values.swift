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
        let t = text
        // Units spelled out ("10 seconds", "5min"): say which short unit was meant.
        let digits = t.prefix(while: { $0.isASCIIDigit || $0 == "." })
        let word = t.dropFirst(digits.count).trimmingSpaces.lowercased()
        let known: [String: String] = ["sec": "s", "secs": "s", "second": "s", "seconds": "s",
                                        "min": "m", "mins": "m", "minute": "m", "minutes": "m",
                                        "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
                                        "msec": "ms", "msecs": "ms", "millis": "ms", "milliseconds": "ms", "millisecond": "ms"]
        if !digits.isEmpty, decimal(digits) != nil, let u = known[word] {
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
            if t != t.lowercased(), case .value = duration(t.lowercased()) {
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

    static func formatPercent(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : "\(v)"
    }

    // MARK: name

    public static let maxNameLength = 64

    /// `^[a-z][a-zA-Z0-9]*(-[a-z0-9]+)*$`, at most 64 characters.
    public static func isName(_ s: String) -> Bool {
        let u = Array(s.utf8)
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
