/// When a quoted scalar may lose its quotes: only where the language reads the text alone (a
/// string, a name, a choice, a duration, a percent; never where quotes make `"3"` a string), and
/// only when every YAML reader reads the plain word as the same string (not a number, a
/// boolean, null or a date, in YAML 1.1 or 1.2). `fmt` drops such quotes, and `show` prints the
/// value the same way, so that formatting a file leaves what `show` prints unchanged.
package enum Quoting {
    /// Whether a value of `shape` reads the same quoted or not.
    package static func textOnly(_ shape: Shape?) -> Bool {
        switch shape {
        case .string?, .name?, .choice?, .duration?, .percent?: return true
        default: return false
        }
    }

    /// Whether `text` can be written as a plain scalar that every reader reads as this string.
    package static func canBePlain(_ text: String, inFlow: Bool) -> Bool {
        let s = Array(text.unicodeScalars)
        guard let first = s.first, let last = s.last, first != " ", last != " " else { return false }
        guard s.allSatisfy(isPlainCharacter) else { return false }
        if "-?:,[]{}#&*!|>'\"%@`=<~".unicodeScalars.contains(first) { return false }
        if last == ":" || text.contains(": ") || text.contains(" #") { return false }
        if inFlow, s.contains(where: { ",[]{}:#".unicodeScalars.contains($0) }) { return false }
        return !readsAsOtherType(text)
    }

    /// Printable, on one line, no tab: what a plain scalar may hold without surprises.
    package static func isPlainCharacter(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x20...0x7E: return true
        case 0xA0...0xD7FF: return c.value != 0x2028 && c.value != 0x2029
        case 0xE000...0xFFFD: return c.value != 0xFEFF
        case 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Null, a boolean of YAML 1.1 or 1.2, a number or a date, as some reader would take it.
    package static func readsAsOtherType(_ text: String) -> Bool {
        let lower = text.lowercased()
        if ["null", "~", "y", "n", "yes", "no", "true", "false", "on", "off"].contains(lower) { return true }
        var body = Substring(lower)
        if let sign = body.first, sign == "+" || sign == "-" { body = body.dropFirst() }
        if body == ".inf" || body == ".nan" { return true }
        // Digits first, and only what numbers, sexagesimals and timestamps are made of: taken
        // for a number (`500ms` and `10%` are not; `2026-06-30` and `1e3` are).
        guard let first = body.unicodeScalars.first, ("0"..."9").contains(first) || first == "." else { return false }
        return body.unicodeScalars.allSatisfy { "0123456789_.:+-eoxbabcdeftz ".unicodeScalars.contains($0) }
    }

    /// `text` in double quotes (a multi-line quoted value in a flow collection, which is written
    /// on one line): JSON's string literal, which YAML reads alike, with the characters YAML reads
    /// otherwise (NEL, the C1 controls, a BOM, U+FFFE and U+FFFF) escaped too.
    package static func doubleQuoted(_ text: String) -> String {
        var out = ""
        for c in JSON.quote(text).unicodeScalars {
            if c.value < 0x80 || isPlainCharacter(c) {
                out.unicodeScalars.append(c)
            } else {
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out
    }
}
