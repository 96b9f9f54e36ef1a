extension Reporters {
    /// GitHub Actions workflow commands, one line per finding:
    /// `::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=RULE::MESSAGE`.
    ///
    /// The help and the guide's words follow the message on lines of their own (an escaped LF),
    /// which the annotation shows. Escaping is GitHub's (`%`, CR, LF; `:` and `,` too in
    /// properties), and other control and separator characters are shown as `\u{…}`, so nothing
    /// echoed from a policy can end the line and start a command of its own.
    public static func github(_ files: [CheckedFile]) -> String {
        var out = ""
        for d in sortedDiagnostics(files) {
            let end = inclusiveEnd(d.span)
            let properties = [
                ("file", d.file), ("line", String(d.line)), ("col", String(d.column)),
                ("endLine", String(end.line)), ("endColumn", String(end.column)), ("title", d.rule),
            ]
            var message = d.message
            if let help = d.help { message += "\nhelp: " + help }
            if let reference = reference(of: d.rule) { message += "\nguide: " + reference.text }
            out += "::\(d.severity.rawValue) "
                + properties.map { "\($0.0)=\(githubProperty($0.1))" }.joined(separator: ",")
                + "::" + githubData(message) + "\n"
        }
        return out
    }

    /// A workflow command's message: `%`, CR and LF escaped as GitHub documents.
    public static func githubData(_ text: String) -> String {
        githubEscape(text, property: false)
    }

    /// A workflow command's property value: as data, and `:` and `,` too.
    public static func githubProperty(_ text: String) -> String {
        githubEscape(text, property: true)
    }

    static func githubEscape(_ text: String, property: Bool) -> String {
        // Most text is plain printable ASCII with nothing to escape.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x25 && !(property && ($0 == 0x3A || $0 == 0x2C)) }) {
            return text
        }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case ":" where property: out += "%3A"
            case "," where property: out += "%2C"
            default:
                appendPrintable(scalar, to: &out)
            }
        }
        return out
    }
}
