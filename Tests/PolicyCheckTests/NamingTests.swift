import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

/// Names and the identifiers made from them (SPEC §1), against hand-written answers and the
/// name pattern itself.
@Suite struct NamingTests {
    static func names() -> [String] {
        var out = ["", "-", "--", "a", "A", "ios-player", "ticketPlay", "myURL", "my-url", "URLFast", "a1B2",
                   "live-edge", "budget-ratio", "x-", "-x", "a--b", "abcDEFghi", "HTTPServer2Go", "v2-API",
                   "9lives", "aB-Cd-EF-gH", "ABC", "aBC", "AbC-dEf"]
        var rng = Rng(state: 3)
        let alphabet = Array("abcxyzABCXYZ0129-")
        for _ in 0..<3000 {
            out.append(String((0..<(1 + rng.below(12))).map { _ in rng.pick(alphabet) }))
        }
        return out
    }

    @Test(arguments: [
        ("ios-player", "IosPlayer", "iosPlayer", "IOS_PLAYER"), ("ticketPlay", "TicketPlay", "ticketPlay", "TICKET_PLAY"),
        ("ticket-play", "TicketPlay", "ticketPlay", "TICKET_PLAY"), ("myURL", "MyURL", "myURL", "MY_URL"),
        ("my-url", "MyUrl", "myUrl", "MY_URL"), ("URLFast", "URLFast", "URLFast", "URL_FAST"), ("a1B2", "A1B2", "a1B2", "A1_B2"),
        ("a--b", "AB", "aB", "A_B"), ("--", "", "--", ""), ("-x", "X", "x", "X"), ("HTTPServer2Go", "HTTPServer2Go", "HTTPServer2Go", "HTTP_SERVER2_GO"),
        ("v2-API", "V2API", "v2API", "V2_API"), ("aB-Cd-EF-gH", "ABCdEFGH", "aBCdEFGH", "A_B_CD_EF_G_H"),
    ])
    func identifiers(name: String, upper: String, lower: String, snake: String) {
        #expect(Naming.upperCamel(name) == upper)
        #expect(Naming.lowerCamel(name) == lower)
        #expect(Naming.screamingSnake(name) == snake)
    }

    /// `Values.isName` is SPEC §1's pattern, at most 64 characters.
    @Test func isNameIsThePattern() throws {
        let pattern = try Regex("^[a-z][a-zA-Z0-9]*(-[a-z0-9]+)*$")
        var names = Self.names() + ["ça-va", "a_b", "a b", "日本", "e\u{301}-x", "p" + String(repeating: "x", count: 63),
                                    "p" + String(repeating: "x", count: 64), "a-", "a-1", "a-B", "a\n"]
        var rng = Rng(state: 37)
        for _ in 0..<2000 {
            names.append("a" + String((0..<rng.below(70)).map { _ in rng.pick(Array("ab-9Z")) }))
        }
        var valid = 0
        for name in names {
            let expected = name.unicodeScalars.count <= Values.maxNameLength && (try? pattern.wholeMatch(in: name)) != nil
            #expect(Values.isName(name) == expected, "\(name.debugDescription)")
            if expected { valid += 1 }
        }
        #expect(valid > 500 && valid < names.count - 500)
    }
}
