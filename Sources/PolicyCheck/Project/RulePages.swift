import PolicySource

/// Where each rule's page of the rule book is (`Docs/rules/<rule>.md`, made by `policyc rules
/// --docs`): SARIF's `helpUri` and the language server's `codeDescription.href` link to it. The
/// project file's `rulesUrl` moves it, for a fork or a docs site.
public struct RulePages: Sendable, Hashable {
    /// This repository's `Docs/rules` on GitHub. Nothing in the repository names its address (the
    /// README's download line has `<owner>`), so the owner is the API's, Wandura, as in the
    /// default Kotlin package `wandura.policies`; a project elsewhere sets `rulesUrl`.
    public static let defaultBase = "https://github.com/wandura/policyc/blob/main/Docs/rules/"
    public static let standard = RulePages(base: defaultBase)

    /// What `{rule}` in `rulesUrl` stands for; without it the page's file name is appended.
    public static let placeholder = "{rule}"

    /// The address as written: a folder (the page `<rule>.md` is appended), or a pattern with
    /// `{rule}` (`https://docs.example.com/policyc/rules/{rule}.html`).
    public let base: String

    private init(base: String) {
        self.base = base
    }

    /// `text` when it is an absolute http(s) address; see `problem(with:)`.
    public init?(_ text: String) {
        guard Self.problem(with: text) == nil else { return nil }
        self.init(base: text)
    }

    /// The page of `rule`.
    public func url(for rule: RuleID) -> String {
        if base.contains(Self.placeholder) { return base.replacingAll(Self.placeholder, with: rule.rawValue) }
        return base + (base.hasSuffix("/") ? "" : "/") + Self.fileName(of: rule)
    }

    /// `timeout-min.md`, the page's name in the book's folder.
    public static func fileName(of rule: RuleID) -> String { rule.rawValue + ".md" }

    /// Why `text` cannot be the book's address, or nil: it must be an absolute `http` or `https`
    /// URL with a host, of the characters a URI may hold (a space or a quote would break the
    /// SARIF and JSON readers that take it as a link), and without `?` or `#` unless the page's
    /// place is marked by `{rule}` (appended after a query, the page name would be lost).
    public static func problem(with text: String) -> String? {
        let lower = text.lowercased()
        guard let scheme = ["https://", "http://"].first(where: lower.hasPrefix) else {
            return "it is not an absolute http or https URL"
        }
        let rest = text.dropFirst(scheme.count)
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !host.isEmpty, !host.hasPrefix(":"), !host.contains("@") else {
            return "it names no host"
        }
        let pattern = text.replacingAll(placeholder, with: "x")
        if let bad = pattern.unicodeScalars.first(where: { !isURICharacter($0) }) {
            return "it holds \(bad == " " ? "a space" : "'\(printable(String(bad)))'"), which a URL cannot hold unencoded"
        }
        if !text.contains(placeholder), text.contains(where: { $0 == "?" || $0 == "#" }) {
            return "the page's name would follow its query or fragment; write \(placeholder) where the rule's id goes"
        }
        return nil
    }

    /// RFC 3986's unreserved, reserved and `%` characters: what a URI holds as it is.
    static func isURICharacter(_ c: Unicode.Scalar) -> Bool {
        guard c.isASCII else { return false }
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9": return true
        default: return "-._~:/?#[]@!$&'()*+,;=%".unicodeScalars.contains(c)
        }
    }
}
