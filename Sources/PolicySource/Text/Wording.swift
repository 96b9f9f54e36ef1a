/// Numbers, counts and lists as people read them in every report, and the escaping that keeps
/// policy text from breaking markdown or XML: the one place for each.
public enum Wording {
    /// `500 ms`, `8 s`, `1.5 s`, `5 min`, `2 h`: the largest unit that keeps the value whole,
    /// seconds with a fraction otherwise.
    public static func duration(_ ms: Int) -> String {
        if ms != 0 && ms % 3_600_000 == 0 { return "\(ms / 3_600_000) h" }
        if ms != 0 && ms % 60_000 == 0 { return "\(ms / 60_000) min" }
        if ms < 1000 { return "\(ms) ms" }
        if ms % 1000 == 0 { return "\(ms / 1000) s" }
        var fraction = String(ms % 1000)
        while fraction.count < 3 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(ms / 1000).\(fraction) s"
    }

    /// `1 attempt`, `4 attempts`.
    public static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? singular : plural ?? singular + "s")
    }

    /// `a`, `a and b`, `a, b and c`.
    public static func list(_ items: [String]) -> String { list(items, "and") }

    /// `a`, `a or b`, `a, b or c`.
    public static func orList(_ items: [String]) -> String { list(items, "or") }

    private static func list(_ items: [String], _ word: String) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(word) " + items[items.count - 1]
    }

    // MARK: numbers

    /// The shortest form that reads back as `x`; a whole number without a fraction (`10`, not `10.0`).
    public static func number(_ x: Double) -> String {
        if x == x.rounded(), abs(x) < 1e15 { return String(Int(x)) }
        return "\(x)"
    }

    /// `60,000`: a whole number with its thousands grouped.
    public static func thousands(_ n: Int) -> String {
        var digits = String(n.magnitude), out = ""
        while digits.count > 3 {
            out = "," + digits.suffix(3) + out
            digits.removeLast(3)
        }
        return (n < 0 ? minus : "") + digits + out
    }

    /// `x` with `places` decimals, rounded half away from zero; `–` when it is not a number.
    public static func number(_ x: Double, places: Int) -> String {
        guard x.isFinite else { return "–" }
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(x) * Double(scale)).rounded()
        guard scaled < 9e15 else { return number(x) }
        let n = Int(scaled)
        var fraction = String(n % scale)
        while fraction.count < places { fraction = "0" + fraction }
        return (x < 0 && n != 0 ? "-" : "") + String(n / scale) + (places > 0 ? "." + fraction : "")
    }

    /// `3.4 %`, `0 %`; `–` when undefined.
    public static func percent(_ x: Double?) -> String {
        guard let x else { return "–" }
        var s = number(x, places: 1)
        if s.hasSuffix(".0") { s.removeLast(2) }
        return s + " %"
    }

    /// `2.4×`; `–` when undefined.
    public static func times(_ x: Double?) -> String {
        x.map { number($0, places: $0 < 10 ? 2 : 1) + "×" } ?? "–"
    }

    /// "+1.5 points", "−2 points", "unchanged".
    public static func points(_ x: Double) -> String {
        x == 0 ? "unchanged" : signed(x, places: 1) + " points"
    }

    /// The sign every change in words carries: "+" or "−" (U+2212, the minus sign, in every
    /// report; a bare number for a machine keeps ASCII "-").
    public static let minus = "−"

    /// "1.5", "2", "0.25": rounded to at most `places` decimals, without trailing zeros.
    public static func decimal(_ x: Double, places: Int) -> String {
        var s = number(x, places: places)
        if places > 0, x.isFinite {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s == "-0" ? "0" : s
    }

    /// "+1.5", "−2", "0": rounded to at most `places` decimals (a whole number without ".0"),
    /// with the sign of the rounded value.
    public static func signed(_ x: Double, places: Int) -> String {
        guard x.isFinite else { return "–" }
        let s = decimal(abs(x), places: places)
        if s == "0" { return "0" }
        return (x > 0 ? "+" : minus) + s
    }

    /// How `after` compares with `before`, relative: "+61 %", "−33.3 %", "±0 %" (a change that
    /// rounds away), "unchanged"; "up" or "down" from 0.
    public static func change(_ before: Double, _ after: Double) -> String {
        if before == after { return "unchanged" }
        guard before != 0 else { return after > before ? "up" : "down" }
        let s = signed((after - before) / abs(before) * 100, places: 1)
        return (s == "0" ? "±0" : s) + " %"
    }

    /// A difference with its unit: "+25 s", "−3 s".
    public static func difference(_ x: Double, places: Int, unit: String) -> String {
        signed(x, places: places) + " " + unit
    }

    // MARK: markdown

    /// Policy text as inline markdown (never at the start of a line, where `-` or `1.` would start
    /// a block): printable (no control or bidi characters, so no new line or reordering), and
    /// every character that inline markdown, GitHub tables, HTML or math could read escaped with a
    /// backslash — which also reads fine as plain text. (`(` and `!` need no escape once `[` has one.)
    ///
    /// An `@name` (an owner, a team) is written as a code span, so that a comment never notifies
    /// anyone: GitHub links a bare `@team` in every comment that repeats it.
    public static func markdown(_ text: String) -> String {
        var out = ""
        let scalars = Array(printable(text).unicodeScalars)
        var i = 0
        while i < scalars.count {
            let scalar = scalars[i]
            if scalar == "@", let end = mentionEnd(scalars, at: i) {
                out += "`"
                out.unicodeScalars.append(contentsOf: scalars[i..<end])
                out += "`"
                i = end
                continue
            }
            switch scalar {
            case "\\", "`", "*", "_", "[", "]", "<", ">", "&", "|", "~", "$", "#":
                out += "\\"
                out.unicodeScalars.append(scalar)
            default:
                out.unicodeScalars.append(scalar)
            }
            i += 1
        }
        return out
    }

    /// The end of `@name` or `@org/team` starting at `at`, as GitHub reads a mention: not after a
    /// letter or digit (an e-mail address); a name of letters, digits, `-`, `_`, `/` and `.` (a
    /// final `.` or `/` left out). Nil when `at` starts no mention.
    static func mentionEnd(_ s: [Unicode.Scalar], at: Int) -> Int? {
        func nameCharacter(_ c: Unicode.Scalar) -> Bool {
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "-" || c == "_" || c == "/" || c == "."
        }
        if at > 0, let c = Optional(s[at - 1]), (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") {
            return nil
        }
        var end = at + 1
        while end < s.count, nameCharacter(s[end]) { end += 1 }
        while end > at + 1, s[end - 1] == "." || s[end - 1] == "/" { end -= 1 }
        guard end > at + 1 else { return nil }
        return end
    }

    /// A code span for identifiers and paths we know are plain (`retry.budget.ratio`); anything
    /// else falls back to escaped text, since nothing can be escaped inside a code span.
    public static func code(_ text: String) -> String {
        let plain = !text.isEmpty && text.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == 0x2E || b == 0x2D || b == 0x2F || b == 0x3A || b == 0x20 || b == 0x5F
        }
        return plain && !text.hasPrefix(" ") && !text.hasSuffix(" ") ? "`" + text + "`" : markdown(text)
    }

    // MARK: XML

    /// Text for XML (JUnit, SVG). Characters XML 1.0 cannot hold (most C0 controls, U+FFFE, U+FFFF)
    /// and the other characters `printable` neutralises are written as `\u{…}`; in attributes,
    /// quotes are escaped too, and tab, CR and LF are character references so that attribute
    /// normalisation keeps them.
    public static func xml(_ text: String, attribute: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "'" where attribute: out += "&apos;"
            case "\n": out += attribute ? "&#10;" : "\n"
            case "\t": out += attribute ? "&#9;" : "\t"
            case "\r": out += "&#13;"
            case "\u{FFFE}", "\u{FFFF}": out += escapedScalar(scalar)  // not characters in XML 1.0
            default: appendPrintable(scalar, to: &out)
            }
        }
        return out
    }
}
