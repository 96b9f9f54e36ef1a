/// Numbers and text as a reviewer reads them, and the markdown escaping that keeps policy text
/// from breaking a table or adding markup to a pull-request comment.
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
    public static func list(_ items: [String]) -> String {
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        default: return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
        }
    }

    // MARK: markdown

    /// Policy text as inline markdown (never at the start of a line, where `-` or `1.` would start
    /// a block): printable (no control or bidi characters, so no new line or reordering), and
    /// every character that inline markdown, GitHub tables, HTML or math could read escaped with a
    /// backslash — which also reads fine as plain text. (`(` and `!` need no escape once `[` has one.)
    public static func markdown(_ text: String) -> String {
        var out = ""
        for scalar in printable(text).unicodeScalars {
            switch scalar {
            case "\\", "`", "*", "_", "[", "]", "<", ">", "&", "|", "~", "$", "#":
                out += "\\"
                out.unicodeScalars.append(scalar)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
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
}
