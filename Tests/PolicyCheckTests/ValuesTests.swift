import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

/// Every spelling of SPEC §1's scalar types: the right ones parse exactly, the wrong ones say why and
/// show the spelling that would be right.
@Suite struct ValuesTests {
    func value<T>(_ parsed: Values.Parsed<T>) -> T? {
        if case .value(let v) = parsed { return v }
        return nil
    }

    func problem<T>(_ parsed: Values.Parsed<T>) -> (message: String, help: String?, correction: Values.Correction?)? {
        if case .invalid(let m, let h, let c) = parsed { return (m, h, c) }
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

    /// A text longer than `longestExplained` bytes is refused without reading its Characters,
    /// and a duration that long (its fraction's trailing zeros) still reads.
    @Test func aVeryLongTextIsRefusedShortly() throws {
        let digits = String(repeating: "1", count: 100_000)
        let duration = try #require(problem(Values.duration(digits + " s")))
        #expect(duration.message == "'" + String(repeating: "1", count: excerptLimit) + "…' is too long a duration")
        #expect(value(Values.duration("1." + String(repeating: "0", count: 100_000) + "s")) == 1000)
        let percent = try #require(problem(Values.percent(digits + " %")))
        #expect(percent.message == "'" + String(repeating: "1", count: excerptLimit) + "…' is not a percent")
        // At the length, still explained.
        let explained = String(repeating: "1", count: Values.longestExplained - 2) + " s"
        #expect(problem(Values.duration(explained))?.message.hasSuffix("has a space before its unit") == true)
    }

    /// Integers and booleans too: a long value is refused without being lowered or read by
    /// Characters (a 1 MiB one took 530 million instructions), with what its end would say.
    @Test func aVeryLongIntegerOrBooleanIsRefusedShortly() throws {
        let accented = String(repeating: "É", count: 50_000)
        #expect(problem(Values.integer(accented))?.message == "'" + String(repeating: "É", count: excerptLimit) + "…' is not an integer")
        #expect(problem(Values.integer("0x" + String(repeating: "f", count: 5_000)))?.message.hasSuffix("is not an integer") == true)
        let boolean = try #require(problem(Values.boolean(accented)))
        #expect(boolean.message.hasSuffix("is not a boolean") && boolean.help == "write true or false")
        // At the length, still explained.
        let hex = "0x" + String(repeating: "f", count: Values.longestExplained - 2)
        #expect(problem(Values.integer(hex))?.message.hasSuffix("is hexadecimal, not a plain decimal integer") == true)
    }

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

    /// YAML 1.2 reads True and TRUE as booleans too: they are not called YAML 1.1 spellings.
    @Test(arguments: [("True", "true"), ("TRUE", "true"), ("False", "false"), ("FALSE", "false")])
    func capitalisedBooleans(_ text: String, _ right: String) throws {
        let p = try #require(problem(Values.boolean(text)))
        #expect(p.message == "'\(text)' is a capitalised boolean; policyc accepts only true and false")
        #expect(!p.message.contains("YAML 1.1"))
        #expect(p.correction == Values.Correction(right, .safe))
    }

    @Test(arguments: [("yes", "true", Fix.Safety.safe), ("OFF", "false", .safe), ("N", "false", .safe),
                      ("1", "true", .unsafe), ("tRUE", "true", .unsafe), ("yEs", "true", .unsafe)])
    func booleanCorrections(_ text: String, _ right: String, _ safety: Fix.Safety) throws {
        let p = try #require(problem(Values.boolean(text)))
        #expect(p.correction == Values.Correction(right, safety))
        #expect(p.message.contains("YAML 1.1") == (safety == .safe))
    }

    /// The spelling `help` names, as the text a fix writes: certain for one value spelt another
    /// way, a choice for a guess (a bare number's unit, a leading zero, a ratio's percent).
    @Test(arguments: [
        ("0x10", "16", Fix.Safety.safe), ("0o17", "15", .safe), ("1_000", "1000", .safe), ("1,000", "1000", .safe),
        ("1,5", "15", .unsafe), ("1e3", "1000", .safe), ("3.0", "3", .safe), ("+3", "3", .safe), ("-0", "0", .safe),
        ("010", "10", .unsafe),
    ] as [(String, String, Fix.Safety)])
    func integerCorrections(_ text: String, _ right: String, _ safety: Fix.Safety) throws {
        let p = try #require(problem(Values.integer(text)))
        #expect(p.correction == Values.Correction(right, safety))
    }

    @Test func durationAndPercentCorrections() throws {
        #expect(try #require(problem(Values.duration("8 sec"))).correction == Values.Correction("8s", .safe))
        #expect(try #require(problem(Values.duration("5min"))).correction == Values.Correction("5m", .safe))
        #expect(try #require(problem(Values.duration("1.5 s"))).correction == Values.Correction("1.5s", .safe))
        #expect(try #require(problem(Values.duration("500MS"))).correction == Values.Correction("500ms", .safe))
        // A bare number's unit is the one nearer the usual value there; zero is zero in any unit.
        #expect(try #require(problem(Values.duration("500", typical: 500))).correction == Values.Correction("500ms", .unsafe))
        #expect(try #require(problem(Values.duration("8", typical: 8000))).correction == Values.Correction("8s", .unsafe))
        #expect(try #require(problem(Values.duration("300", typical: 300_000))).correction == Values.Correction("300s", .unsafe))
        #expect(try #require(problem(Values.duration("0", typical: 1000))).correction == Values.Correction("0s", .safe))
        #expect(try #require(problem(Values.duration("8"))).correction == nil)
        #expect(try #require(problem(Values.duration("1.0005s"))).correction == nil)
        #expect(try #require(problem(Values.percent("10 %"))).correction == Values.Correction("10%", .safe))
        #expect(try #require(problem(Values.percent("15"))).correction == Values.Correction("15%", .unsafe))
        #expect(try #require(problem(Values.percent("0.1"))).correction == Values.Correction("10%", .unsafe))
        #expect(try #require(problem(Values.percent("150"))).correction == nil)
    }

    /// The ratio's percent is the decimal moved by two places, never a double's rounding.
    @Test func aRatiosPercentIsExact() throws {
        let p = try #require(problem(Values.percent("0.07")))
        #expect(p.help == "write 0.07% (or 7% if you meant the ratio 0.07)")
        #expect(try #require(problem(Values.percent("0.125"))).correction == Values.Correction("12.5%", .unsafe))
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

/// Whether a value is valid never depends on whether its mistake is explained: past a file's report
/// end the decoder asks the parsers not to explain, and must still tell valid from not.
@Suite struct ExplainingTests {
    static let digitRuns = ["0", "1", "5", "8", "00", "007", "10", "15", "250", "4999", "5000", "0000000000000001",
                            "9999999999999999", "99999999999999999", "2501999792983", "123456789012345"]
    static let fractions = ["", ".", ".0", ".5", ".25", ".250", ".001", ".0005", ".000", ".1000000",
                            ".123456789012", ".1234567890123", ".1234567890120", ".9999999999990000", ".5.5"]
    static let units = ["ms", "s", "m", "h", "", "S", "Ms", "sec", " s", "ms ", "%", "mss", "hm", "µs", " %", "%%"]

    /// Every whole part, fraction and unit combined, and random texts besides.
    static func spellings() -> [String] {
        var out: [String] = []
        for w in digitRuns + ["", "-1", "+1", " 1", "1,5", "٣", "-", "--", "0x1F", "1_000", "1e3", "9007199254740992", "24", "25"] {
            for f in fractions {
                for u in units { out.append(w + f + u) }
            }
        }
        out += ["1." + String(repeating: "0", count: 60) + "s", String(repeating: "9", count: 40) + "s",
                "1." + String(repeating: "0", count: 2000) + "s", String(repeating: "1", count: 2000) + "ms",
                "8 sec", "10 seconds", "3 h", "1.5S", "5MS", "100.0000000000000001%", "0.0001%", "24h", "24.001h", "1441m"]
        var rng = Rng(state: 5)
        let alphabet = Array("0123456789.msh%-+ eE_Sx\u{301}\u{600}é")
        for _ in 0..<6000 {
            out.append(String((0..<(1 + rng.below(9))).map { _ in rng.pick(alphabet) }))
        }
        return out
    }

    func value<T>(_ parsed: Values.Parsed<T>) -> T? {
        if case .value(let v) = parsed { return v }
        return nil
    }

    @Test func validityDoesNotDependOnExplaining() {
        var valid = (durations: 0, integers: 0, percents: 0)
        for text in Self.spellings() {
            let duration = value(Values.duration(text))
            #expect(value(Values.duration(text, explain: false)) == duration, "\(text)")
            let integer = value(Values.integer(text))
            #expect(value(Values.integer(text, explain: false)) == integer, "\(text)")
            let percent = value(Values.percent(text))
            #expect(value(Values.percent(text, explain: false)) == percent, "\(text)")
            if duration != nil { valid.durations += 1 }
            if integer != nil { valid.integers += 1 }
            if percent != nil { valid.percents += 1 }
        }
        // Both sides are met: many valid values and many mistakes.
        #expect(valid.durations > 300 && valid.integers > 30 && valid.percents > 100, "\(valid)")
    }

    @Test func theRangesHaveClearEnds() {
        #expect(value(Values.duration("24h")) == 86_400_000)
        #expect(value(Values.duration("1440m")) == 86_400_000)
        guard case .invalid(let message, _, _) = Values.duration("25h") else { Issue.record("25h is over a day"); return }
        #expect(message == "'25h' is longer than a day, the longest duration policyc reads")
        #expect(value(Values.percent("0.125%"))?.canonical == "0.125")
        #expect(value(Values.percent("0.1250%"))?.canonical == "0.125")
        guard case .invalid(let tooFine, _, _) = Values.percent("0.0001%") else { Issue.record("four decimals"); return }
        #expect(tooFine == "'0.0001%' has more than 3 decimals; a percent here has at most 3")
    }
}
