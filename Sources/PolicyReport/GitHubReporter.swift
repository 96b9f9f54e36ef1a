import PolicySource
import PolicyCheck

extension Reporters {
    /// GitHub Actions workflow commands, one line per finding:
    /// `::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=RULE::MESSAGE`.
    ///
    /// The help and the guide's words follow the message on lines of their own (an escaped LF),
    /// which the annotation shows. Escaping is GitHub's (`%`, CR, LF; `:` and `,` too in
    /// properties), and other control and separator characters are shown as `\u{…}`, so nothing
    /// echoed from a policy can end the line and start a command of its own.
    ///
    /// Files are named by their path in the repository when `repository` is known: GitHub
    /// matches annotations to the files of a pull request by that path, whatever folder policyc
    /// ran in. An input that could not be read is an `::error` on its path; a folder without
    /// policy files a `::warning` of the run.
    public static func github(_ files: [CheckedFile], notices: [InputNotice] = [],
                              repository: RepositoryLocation? = nil) -> String {
        var out = ""
        func path(_ file: String) -> String { repository?.relative(file) ?? file }
        for notice in sortedNotices(notices) {
            var properties: [(String, String)] = []
            if notice.kind != .empty, notice.path != "-", notice.path != "<stdin>" { properties.append(("file", path(notice.path))) }
            properties.append(("title", notice.kind.rawValue))
            out += "::\(notice.severity.rawValue) "
                + properties.map { "\($0.0)=\(githubProperty($0.1))" }.joined(separator: ",")
                + "::" + githubData(notice.message) + "\n"
        }
        for d in sortedDiagnostics(files) {
            let end = inclusiveEnd(d.span)
            let properties = [
                ("file", path(d.file)), ("line", String(d.line)), ("col", String(d.column)),
                ("endLine", String(end.line)), ("endColumn", String(end.column)), ("title", d.rule.rawValue),
            ]
            var message = d.message
            if let help = d.help { message += "\nhelp: " + help }
            if let accepted = d.acceptance { message += "\n" + accepted }
            if let reference = reference(of: d.rule) { message += "\nguide: " + reference.text }
            out += "::\(d.severity == .note ? "notice" : d.severity.rawValue) "
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
