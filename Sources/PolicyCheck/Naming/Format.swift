import PolicySource

/// Values as people read them in messages and reviews.
public enum Format {
    /// Milliseconds in the largest unit that keeps them whole: `8s`, `500ms`, `5m`, `1.5s`.
    public static func duration(_ ms: Int) -> String {
        if ms != 0 && ms % 3_600_000 == 0 { return "\(ms / 3_600_000)h" }
        if ms != 0 && ms % 60_000 == 0 { return "\(ms / 60_000)m" }
        if ms != 0 && ms % 1000 == 0 { return "\(ms / 1000)s" }
        if ms >= 1000 {
            var fraction = String(ms % 1000)
            while fraction.count < 3 { fraction = "0" + fraction }
            while fraction.hasSuffix("0") { fraction.removeLast() }
            return "\(ms / 1000).\(fraction)s"
        }
        return "\(ms)ms"
    }

    /// A percent as written, without trailing zeros: `10%`, `2.5%`.
    public static func percent(_ p: Percent) -> String { p.canonical + "%" }
}
