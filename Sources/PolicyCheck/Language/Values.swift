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

    /// What a parser returns for a wrong text when no one will read why (`explain: false`): past a
    /// file's report end only whether a value is valid counts, and explaining each of thousands of
    /// wrong values of a hostile file is dear.
    static func unexplained<T>() -> Parsed<T> { .invalid(message: "", help: nil) }

    // MARK: integer

    /// Plain decimal: `0`, `42`, `-3`. No signs of other bases, separators, exponents or fractions.
    public static func integer(_ text: String, explain: Bool = true) -> Parsed<Int> {
        if isPlainDecimal(text) {
            // `Int` of a text past Int.max is nil: too large as well.
            guard let v = Int(text), abs(v) <= maxMagnitude else {
                return explain ? .invalid(message: "'\(excerpt(text))' is too large; integers go up to \(maxMagnitude)", help: nil) : unexplained()
            }
            return .value(v)
        }
        return explain ? integerMistake(text) : unexplained()
    }

    /// Why `t`, which is not a plain decimal, is no integer, with the plain spelling when it has one.
    static func integerMistake(_ t: String) -> Parsed<Int> {
        // No spelling explained below is this long, and lowering a very long value is slow.
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
        for (prefix, radix, what) in [("0x", 16, "hexadecimal"), ("0o", 8, "octal"), ("0b", 2, "binary")] where body.hasPrefix(prefix) {
            return suggest(Int(body.dropFirst(2), radix: radix).map { sign == "-" ? -$0 : $0 }, what)
        }
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

    /// `1,000` or `12,345,678`: commas between groups of three digits, as thousands are written.
    static func isThousands(_ body: String) -> Bool {
        let groups = body.split(separator: ",", omittingEmptySubsequences: false)
        guard let first = groups.first, (1...3).contains(first.count) else { return false }
        return groups.allSatisfy { $0.allSatisfy(\.isASCIIDigit) } && groups.dropFirst().allSatisfy { $0.count == 3 }
    }

    /// Digits with an optional `-`, no leading zero (but `0` itself).
    static func isPlainDecimal(_ t: String) -> Bool {
        let digits = t.hasPrefix("-") ? t.utf8.dropFirst() : t.utf8[...]
        guard let first = digits.first, digits.allSatisfy(isDigit) else { return false }
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

    /// The longest duration a value may hold: a day. No policy waits longer, and every sum of
    /// waits then stays far inside an `Int`.
    public static let maxDurationMs = 24 * 3_600_000

    /// `<number><unit>`, unit ms, s, m or h, a whole number of milliseconds up to a day: `500ms`,
    /// `1.5s`, `5m`. `typical`, the usual value where it stands, picks the unit a bare number's
    /// correction gets.
    public static func duration(_ text: String, typical: Int? = nil, explain: Bool = true) -> Parsed<Int> {
        let bytes = Array(text.utf8)
        guard let (unit, unitMs) = durationUnitBytes.first(where: { bytes.count > $0.0.count && bytes.ends(with: $0.0) }),
              let number = DecimalDigits(bytes.dropLast(unit.count)) else {
            return explain ? durationMistake(text, typical: typical) : unexplained()
        }
        // Exact decimal arithmetic: whole·unit + fraction·unit / 10^digits.
        let fraction = number.significantFraction
        guard number.whole.count <= 16, fraction.count <= 12,
              case let (wholeMs, false) = DecimalDigits.value(number.whole).multipliedReportingOverflow(by: unitMs),
              wholeMs <= maxMagnitude else {
            return explain ? .invalid(message: "'\(excerpt(text))' is too long a duration", help: nil) : unexplained()
        }
        let scale = fraction.reduce(1) { scale, _ in scale * 10 }
        let fractionMs = DecimalDigits.value(fraction) * unitMs
        guard fractionMs % scale == 0 else {
            guard explain else { return unexplained() }
            let below = wholeMs + fractionMs / scale
            return .invalid(message: "'\(excerpt(text))' is not a whole number of milliseconds",
                            help: "write \(Format.duration(below)) or \(Format.duration(below + 1))")
        }
        let ms = wholeMs + fractionMs / scale
        guard ms <= maxDurationMs else {
            return explain ? .invalid(message: "'\(excerpt(text))' is longer than a day, the longest duration policyc reads", help: nil) : unexplained()
        }
        return .value(ms)
    }

    /// The longest text whose mistake is explained in full; a longer one is only refused.
    static let longestExplained = 1024

    /// The units a duration ends with, and their milliseconds; `ms` before `s`.
    static let durationUnits: [(String, Int)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
    static let durationUnitBytes = durationUnits.map { (Array($0.0.utf8), $0.1) }

    /// Why `t`, which is not a number and a unit, is no duration, with the right spelling when
    /// there is one.
    static func durationMistake(_ t: String, typical: Int?) -> Parsed<Int> {
        // Explaining reads Characters, which is slow for a very long text.
        if t.utf8.count > longestExplained {
            return .invalid(message: "'\(excerpt(t))' is too long a duration", help: nil)
        }
        // Units spelled out ("10 seconds", "5min"): say which short unit was meant.
        let digits = t.prefix(while: { $0.isASCIIDigit || $0 == "." })
        let word = t.dropFirst(digits.count).trimmingSpaces.lowercased()
        if !digits.isEmpty, decimal(digits) != nil, let u = spelledUnits[word] {
            return .invalid(message: "'\(excerpt(t))' has an unknown unit '\(excerpt(word))'; units are ms, s, m and h", help: "write \(excerpt("\(digits)\(u)"))",
                            correction: valid("\(digits)\(u)").map { Correction($0, .safe) })
        }
        if let (unit, _) = durationUnits.first(where: { t.hasSuffix($0.0) }) {
            let number = t.dropLast(unit.count)
            let trimmed = number.trimmingSpaces
            if trimmed != number, decimal(trimmed) != nil {
                return .invalid(message: "'\(excerpt(t))' has a space before its unit", help: "write \(excerpt("\(trimmed)\(unit)"))",
                                correction: valid("\(trimmed)\(unit)").map { Correction($0, .safe) })
            }
            if number.hasPrefix("-") {
                return .invalid(message: "'\(excerpt(t))' is negative; a duration is 0 or more", help: nil)
            }
        } else {
            if t != t.lowercased(), case .value = duration(t.lowercased(), explain: false) {
                return .invalid(message: "'\(excerpt(t))' has its unit in capitals; units are ms, s, m and h",
                                help: "write \(excerpt(t.lowercased()))", correction: Correction(t.lowercased(), .safe))
            }
            if decimal(Substring(t)) != nil || Int(t) != nil {
                return .invalid(message: "'\(excerpt(t))' is a bare number; a duration needs a unit (its unit would be a guess)",
                                help: "write \(excerpt(t + "ms")) or \(excerpt(t + "s"))", correction: bareNumberCorrection(t, typical: typical))
            }
        }
        return .invalid(message: "'\(excerpt(t))' is not a duration; write a number and a unit (ms, s, m or h)", help: "for example 500ms, 1.5s, 5m")
    }

    /// `text` when it is a valid duration.
    static func valid(_ text: String) -> String? {
        if case .value = duration(text, explain: false) { return text }
        return nil
    }

    /// A bare number's unit is a guess: of ms and s, the one that puts it nearer the usual value
    /// (`base: 500` is 500ms, `timeout: 8` is 8s); a zero is zero in any unit, so certain.
    static func bareNumberCorrection(_ number: String, typical: Int?) -> Correction? {
        // Without a usual value only a zero has a unit that is certain.
        guard typical != nil || number.utf8.allSatisfy({ $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: ".") }) else { return nil }
        let candidates: [(String, Int)] = ["s", "ms"].compactMap { unit in
            guard case .value(let ms) = duration(number + unit, explain: false) else { return nil }
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

    /// `123` or `1.5` (see `DecimalDigits`): the whole and fraction digits as text.
    static func decimal(_ s: Substring) -> (Substring, Substring)? {
        DecimalDigits(ArraySlice(s.utf8)).map { (Substring(decoding: $0.whole, as: UTF8.self), Substring(decoding: $0.fraction, as: UTF8.self)) }
    }

    // MARK: percent

    /// The most decimals a percent may have: 0.001 % is finer than any retry budget needs, and
    /// every figure made from a percent then stays an exact `Int`.
    public static let maxPercentDecimals = 3

    /// `<number>%`, greater than 0 and at most 100, at most three decimals: `10%`, `2.5%`.
    public static func percent(_ text: String, explain: Bool = true) -> Parsed<Percent> {
        let bytes = Array(text.utf8)
        // Spaces before the number are allowed, not between it and the sign.
        guard bytes.last == UInt8(ascii: "%"), bytes.dropLast().last != UInt8(ascii: " "),
              let number = DecimalDigits(bytes.dropLast().drop { $0 == UInt8(ascii: " ") }),
              number.whole.count <= 16, number.fraction.count <= 16 else {
            return explain ? percentMistake(text) : unexplained()
        }
        let whole = number.whole.drop { $0 == UInt8(ascii: "0") }, fraction = number.significantFraction
        let canonical = (whole.isEmpty ? "0" : String(decoding: whole, as: UTF8.self))
            + (fraction.isEmpty ? "" : "." + String(decoding: fraction, as: UTF8.self))
        guard whole.contains(where: { $0 != UInt8(ascii: "0") }) || !fraction.isEmpty else {
            return explain ? .invalid(message: "'\(excerpt(text))' is not greater than 0%; a percent here is more than 0 and at most 100", help: nil) : unexplained()
        }
        guard whole.count < 3 || (whole.elementsEqual("100".utf8) && fraction.isEmpty) else {
            return explain ? .invalid(message: "'\(excerpt(text))' is over 100%; a percent here is more than 0 and at most 100", help: nil) : unexplained()
        }
        guard fraction.count <= maxPercentDecimals else {
            return explain ? .invalid(message: "'\(excerpt(text))' has more than \(maxPercentDecimals) decimals; a percent here has at most \(maxPercentDecimals)", help: nil) : unexplained()
        }
        return .value(Percent(canonical: canonical))
    }

    /// Why `t`, which is not a number and `%`, is no percent, with the right spelling when there is one.
    static func percentMistake(_ t: String) -> Parsed<Percent> {
        // No percent is this long (at most 16 digits either side of the point).
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
        let body = t.dropLast()
        if body.hasSuffix(" "), decimal(body.trimmingSpaces) != nil {
            let written = "\(body.trimmingSpaces)%"
            let correction: Correction? = if case .value = percent(written, explain: false) { Correction(written, .safe) } else { nil }
            return .invalid(message: "'\(excerpt(t))' has a space before %", help: "write \(excerpt(written))", correction: correction)
        }
        return .invalid(message: "'\(excerpt(t))' is not a percent", help: "write a number and %, like 10%")
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
        guard s.utf8.count <= maxNameLength else { return false }
        let bytes = Array(s.utf8)
        guard let first = bytes.first, isLower(first) else { return false }
        // Before the first '-', letters of either case and digits; after it, words of lowercase
        // letters and digits, each '-' followed by at least one of them.
        var afterHyphen = false, previous = first
        for b in bytes.dropFirst() {
            if b == UInt8(ascii: "-") {
                guard previous != b else { return false }
                afterHyphen = true
            } else if !(isLower(b) || isDigit(b) || (!afterHyphen && isUpper(b))) {
                return false
            }
            previous = b
        }
        return previous != UInt8(ascii: "-")
    }

    /// Why `s` is not a name, in words.
    public static func nameProblem(_ s: String) -> String {
        if s.isEmpty { return "a name cannot be empty" }
        // Counted once, and only past the limit in bytes (counting a long name is not free).
        let length = s.utf8.count > maxNameLength ? s.unicodeScalars.count : 0
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

/// `123` or `1.5`: digits, optionally a point and more digits, as the bytes of the whole and the
/// fraction digits; the one reading of a number that durations, percents and decimals share.
struct DecimalDigits {
    var whole: ArraySlice<UInt8>
    var fraction: ArraySlice<UInt8>

    init?(_ bytes: ArraySlice<UInt8>) {
        let point = bytes.firstIndex(of: UInt8(ascii: ".")) ?? bytes.endIndex
        whole = bytes[..<point]
        fraction = point == bytes.endIndex ? [] : bytes[(point + 1)...]
        guard !whole.isEmpty, whole.allSatisfy(Values.isDigit), fraction.allSatisfy(Values.isDigit),
              point == bytes.endIndex || !fraction.isEmpty else { return nil }
    }

    /// The fraction without its trailing zeros.
    var significantFraction: ArraySlice<UInt8> {
        var digits = fraction
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        return digits
    }

    /// The value of at most 18 digits.
    static func value(_ digits: ArraySlice<UInt8>) -> Int {
        digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}

extension Array where Element == UInt8 {
    /// Whether the bytes end with `suffix`.
    func ends(with suffix: [UInt8]) -> Bool { self.suffix(suffix.count).elementsEqual(suffix) }
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
