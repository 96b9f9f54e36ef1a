/// CSV as RFC 4180 writes it, for `simulate --format csv` and `waivers --format csv`.
public enum CSV {
    /// A field: quoted when it holds a comma, a quote or a line break (a quote doubled); also when
    /// it starts with a character a spreadsheet would read as a formula.
    public static func field(_ text: String) -> String {
        let risky = text.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            || ["=", "+", "-", "@"].contains(where: text.hasPrefix)
        guard risky else { return text }
        return "\"" + text.replacingAll("\"", with: "\"\"") + "\""
    }
}
