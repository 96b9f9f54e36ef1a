import Testing
@testable import PolicyKit

/// Every spelling of SPEC §1's scalar types: the right ones parse exactly, the wrong ones say why and
/// show the spelling that would be right.
@Suite struct ValuesTests {
    func value<T>(_ parsed: Values.Parsed<T>) -> T? {
        if case .value(let v) = parsed { return v }
        return nil
    }

    func problem<T>(_ parsed: Values.Parsed<T>) -> (message: String, help: String?)? {
        if case .invalid(let m, let h) = parsed { return (m, h) }
        return nil
    }

    // MARK: durations

    @Test(arguments: [
        ("500ms", 500), ("1.5s", 1500), ("5m", 300_000), ("1h", 3_600_000), ("0s", 0), ("8s", 8000),
        ("120s", 120_000), ("0.5s", 500), ("1.250s", 1250), ("2.5m", 150_000), ("0.001s", 1), ("1.5h", 5_400_000),
    ])
    func durations(_ text: String, _ ms: Int) {
        #expect(value(Values.duration(text)) == ms)
    }

    @Test(arguments: [
        ("8", "a bare number", "write 8ms or 8s"),
        ("2.5", "a bare number", "write 2.5ms or 2.5s"),
        ("1.5ms", "not a whole number of milliseconds", "write 1ms or 2ms"),
        ("0.0005s", "not a whole number of milliseconds", "write 0ms or 1ms"),
        ("1.0005s", "not a whole number of milliseconds", "write 1s or 1.001s"),
        ("5 min", "unknown unit 'min'", "write 5m"),
        ("10 seconds", "unknown unit 'seconds'", "write 10s"),
        ("1.5 s", "space before its unit", "write 1.5s"),
        ("8S", "unit in capitals", "write 8s"),
        ("-1s", "negative", nil),
        ("fast", "not a duration", "for example 500ms, 1.5s, 5m"),
        ("1,5s", "not a duration", "for example 500ms, 1.5s, 5m"),
        ("99999999999999999h", "too long", nil),
    ] as [(String, String, String?)])
    func badDurations(_ text: String, _ says: String, _ help: String?) throws {
        let p = try #require(problem(Values.duration(text)))
        #expect(p.message.contains("'\(text)'"))
        #expect(p.message.contains(says))
        #expect(p.help == help)
    }

    // MARK: percents

    @Test(arguments: [("10%", "10"), ("2.5%", "2.5"), ("100%", "100"), ("0.01%", "0.01"), ("10.50%", "10.5"),
                      ("10.0%", "10")])
    func percents(_ text: String, _ canonical: String) {
        #expect(value(Values.percent(text))?.canonical == canonical)
    }

    @Test(arguments: [
        ("0%", "not greater than 0%", nil),
        ("150%", "over 100%", nil),
        ("100.5%", "over 100%", nil),
        ("10", "bare number", "write 10%"),
        ("0.1", "bare number", "write 0.1% (or 10% if you meant the ratio 0.1)"),
        ("10 %", "space before %", "write 10%"),
        ("ten%", "not a percent", "write a number and %, like 10%"),
        ("-5%", "not a percent", "write a number and %, like 10%"),
    ] as [(String, String, String?)])
    func badPercents(_ text: String, _ says: String, _ help: String?) throws {
        let p = try #require(problem(Values.percent(text)))
        #expect(p.message.contains(says))
        #expect(p.help == help)
    }

    @Test func percentRatioIsTheDoubleOfTheWrittenDecimal() throws {
        // Exact: the nearest double to the decimal, not the result of a division.
        let cases: [(String, Double)] = [("10%", 0.1), ("2.5%", 0.025), ("33.3%", 0.333), ("100%", 1.0),
                                         ("0.7%", 0.007), ("12.34%", 0.1234), ("1%", 0.01)]
        for (text, ratio) in cases {
            let p = try #require(value(Values.percent(text)))
            #expect(p.ratio == ratio, "\(text)")
            #expect(p.ratio.bitPattern == ratio.bitPattern, "\(text)")
        }
        // The division would not be exact: 33.3 / 100 is not the double nearest 0.333.
        #expect(33.3 / 100 != 0.333)
        #expect(try #require(value(Values.percent("2.5%"))).percent == 2.5)
    }

    // MARK: integers

    @Test(arguments: [("0", 0), ("3", 3), ("42", 42), ("599", 599), ("-3", -3), ("9007199254740991", 9_007_199_254_740_991)])
    func integers(_ text: String, _ v: Int) {
        #expect(value(Values.integer(text)) == v)
    }

    @Test(arguments: [
        ("0x10", "hexadecimal", "write 16"),
        ("0o17", "octal", "write 15"),
        ("0b11", "binary", "write 3"),
        ("010", "leading zero", "write 10"),
        ("1_000", "digit separators", "write 1000"),
        ("1,000", "digit separators", "write 1000"),
        ("1e3", "exponent", "write 1000"),
        ("3.0", "decimal fraction", "write 3"),
        ("+5", "plus sign", "write 5"),
        ("-0", "negative zero", "write 0"),
        ("1.5", "not a whole number", nil),
        ("9007199254740992", "too large", nil),
        ("99999999999999999999", "too large", nil),
        ("three", "not an integer", nil),
    ] as [(String, String, String?)])
    func badIntegers(_ text: String, _ says: String, _ help: String?) throws {
        let p = try #require(problem(Values.integer(text)))
        #expect(p.message.contains("'\(text)'"))
        #expect(p.message.contains(says))
        #expect(p.help == help)
    }

    // MARK: booleans

    @Test func booleans() {
        #expect(value(Values.boolean("true")) == true)
        #expect(value(Values.boolean("false")) == false)
    }

    @Test(arguments: [("yes", "true"), ("no", "false"), ("on", "true"), ("off", "false"), ("y", "true"),
                      ("n", "false"), ("True", "true"), ("FALSE", "false"), ("Yes", "true"), ("1", "true"), ("0", "false")])
    func yaml11Booleans(_ text: String, _ right: String) throws {
        let p = try #require(problem(Values.boolean(text)))
        #expect(p.message.contains("'\(text)'"))
        #expect(p.help == "write \(right)")
    }

    @Test func otherWordsAreNotBooleans() throws {
        let p = try #require(problem(Values.boolean("maybe")))
        #expect(p.help == "write true or false")
    }

    // MARK: names

    @Test(arguments: ["playback", "ios-player", "ticketPlay", "a", "v2", "a-1", "x-y-z", "myURL",
                      "a" + String(repeating: "b", count: 63)])
    func names(_ name: String) {
        #expect(Values.isName(name))
    }

    @Test(arguments: ["", "Playback", "ios_player", "ios--player", "ios-", "-ios", "ios-Player", "1st", "über",
                      "a b", "a" + String(repeating: "b", count: 64), "play.back"])
    func notNames(_ name: String) {
        #expect(!Values.isName(name))
        #expect(!Values.nameProblem(name).isEmpty)
    }
}
