// The whole pipeline on arbitrary bytes, and the invariants that hostile input must not break.
//
// One file, two users: the libFuzzer target in `Fuzz/` (through a symbolic link, so both always run
// the same checks) traps on any violation, and `HostileReplayTests` replays every saved crash
// input and seed through it in an ordinary `swift test` (SlowTests' `KeptCorpusTests` the fuzzer's corpus). Public API only, no Foundation.
@testable import PolicyKit

package enum HostilePipeline {
    package static let path = "policies/fuzz.yaml"

    /// The canonical policy, checked once: the other side of the `diff` runs.
    package static let canonical: CheckedFile = Checker.check(Array(Canonical.text.utf8), path: "canonical.yaml")

    /// Everything one run makes from `bytes`, as named texts, so two runs compare byte for byte.
    /// Which products a run makes. `core` is cheap and made on every run (twice: the second run
    /// is the determinism check); `full` adds SARIF (mostly the constant catalog, and half the cost
    /// of a run), colour, `--strict`, both directions of `diff` in every format and `explain`'s
    /// other formats. The replay test makes everything; the fuzzer makes `full` for one input in
    /// eight (chosen by the input's hash, so a crash reproduces), for throughput.
    package enum Depth {
        /// The second run: the findings, and the outputs most likely to vary (json, generated code).
        case again
        case core, full
    }

    /// Everything one run makes from `bytes`, as named texts, so two runs compare byte for byte.
    package static func products(_ bytes: [UInt8], depth: Depth) -> (file: CheckedFile, outputs: [(name: String, text: String)]) {
        let file = Checker.check(bytes, path: path)
        let full = depth == .full
        var outputs: [(String, String)] = []
        if depth == .again {
            outputs.append(("text", Reporters.render(.text, [file])))
            outputs.append(("json", Reporters.render(.json, [file])))
            for generated in file.policy.map({ Generator.files(for: [$0]) }) ?? [] where generated.path != Generator.schemaPath {
                outputs.append(("generated " + generated.path, generated.contents))
            }
            return (file, outputs)
        }
        for format in ReportFormat.allCases where full || format != .sarif {
            outputs.append((format.rawValue, Reporters.render(format, [file])))
        }
        if full {
            outputs.append(("text-color", Reporters.render(.text, [file], options: ReportOptions(color: true))))
            outputs.append(("junit-strict", Reporters.render(.junit, [file], options: ReportOptions(strict: true))))
        }

        // The same file twice under two names: the checks across files, and reporters over two files.
        var copy = file
        copy.path = "policies/copy.yaml"
        for i in copy.diagnostics.indices { copy.diagnostics[i].file = copy.path }
        var pair = [file, copy]
        Checker.checkAcrossFiles(&pair)
        outputs.append(("pair-text", Reporters.render(.text, pair)))
        if full { outputs.append(("pair-github", Reporters.render(.github, pair))) }

        // `diff` works from what parsed, errors or not.
        if file.doc != nil {
            let mine = ReviewInput(file: file, matchKey: "fuzz.yaml")
            let theirs = ReviewInput(file: canonical, matchKey: "fuzz.yaml")
            let from = DiffReport(old: [theirs], new: [mine])
            outputs.append(("diff-from-text", from.text()))
            if full {
                outputs.append(("diff-from-json", from.json.rendered()))
                outputs.append(("diff-from-markdown", from.markdown(Allowances(breaking: true))))
                let to = DiffReport(old: [mine], new: [theirs])
                outputs.append(("diff-to-text", to.text(Allowances(breaking: true))))
                outputs.append(("diff-to-markdown", to.markdown()))
                outputs.append(("diff-to-json", to.json.rendered()))
            }
        }
        if let policy = file.policy {
            for generated in Generator.files(for: [policy]) where generated.path != Generator.schemaPath {
                outputs.append(("generated " + generated.path, generated.contents))
            }
        }
        // `explain` works from complete values, limits broken or not, and says why it cannot.
        let explanation = Explanation(files: [file])
        outputs.append(("explain-text", explanation.text))
        if full {
            outputs.append(("explain-markdown", explanation.markdown))
            outputs.append(("explain-json", explanation.json.rendered()))
        }
        return (file, outputs)
    }

    /// FNV-1a: which inputs get the `full` run in the fuzzer.
    package static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return h
    }

    /// The load + decode + check stage alone (the second fuzz target): what is wrong with the
    /// findings of `bytes`, and no trap on the way. Many times cheaper than `violations`.
    package static func checkViolations(_ bytes: [UInt8]) -> [String] {
        findingViolations(Checker.check(bytes, path: path), in: bytes)
    }

    /// The invariants of a checked file's findings: positions inside the input, report order,
    /// catalog rules, the cap, and a complete policy exactly when there is no error.
    package static func findingViolations(_ file: CheckedFile, in bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        let lines = SourceText(bytes)
        // Positions: inside the input, in report order, each rule from the catalog.
        func checkSpan(_ span: Span, _ what: String) {
            for (mark, end) in [(span.start, "start"), (span.end, "end")] where !lines.contains(mark) {
                problems.append("\(what): \(end) \(mark.line):\(mark.column) is outside the input (\(lines.count) lines, that line has \(lines.length(of: mark.line)) scalars)")
            }
            if span.end < span.start {
                problems.append("\(what): span ends (\(span.end.line):\(span.end.column)) before it starts (\(span.start.line):\(span.start.column))")
            }
        }
        for (i, d) in file.diagnostics.enumerated() {
            let what = "finding \(i) [\(d.rule)] '\(d.message)'"
            checkSpan(d.span, what)
            for r in d.related where r.file == d.file { checkSpan(r.span, what + " (related)") }
            if d.file != path { problems.append("\(what): file is '\(d.file)'") }
            if Catalog.rule(d.rule) == nil { problems.append("\(what): rule is not in the catalog") }
            if d.message.isEmpty { problems.append("\(what): empty message") }
            if i > 0, Diagnostic.inReportOrder(d, file.diagnostics[i - 1]) { problems.append("\(what): out of order") }
        }
        if file.diagnostics.count > 1001 {
            problems.append("\(file.diagnostics.count) findings: more than the cap of a file")
        }
        // A file without errors is one `generate` writes: it must have a complete policy.
        if file.errorCount == 0 && file.policy == nil { problems.append("no errors, but no complete policy either") }
        if file.errorCount > 0 && file.policy != nil { problems.append("errors, and yet a complete policy") }
        // Explained as written only when every error is a limit of the guide.
        if file.policyAsWritten != nil, file.diagnostics.contains(where: { $0.severity == .error && !$0.isLimitFinding }) {
            problems.append("explained as written despite an error that is not a limit")
        }
        return problems
    }

    /// `policyc fmt` on `bytes` (checked as `file`): formatted once, the text formats to itself,
    /// and it means the same (its findings' rules and its generated code; under the cap of
    /// findings, which keeps the first ones in the order of the text).
    package static func formatViolations(_ bytes: [UInt8], _ file: CheckedFile) -> [String] {
        guard case .formatted(let once) = PolicyFormatter.format(bytes) else { return [] }
        var problems: [String] = []
        if PolicyFormatter.format(once) != .formatted(once) { problems.append("fmt gives another text when run again") }
        let again = Checker.check(once, path: path)
        if file.diagnostics.count < Loader.maxFindings, again.diagnostics.map(\.rule.rawValue).sorted() != file.diagnostics.map(\.rule.rawValue).sorted() {
            problems.append("fmt changed the findings")
        }
        let code = { (f: CheckedFile) in f.policy.map { Generator.files(for: [$0]).map(\.contents) } ?? [] }
        if code(again) != code(file) { problems.append("fmt changed the generated code") }
        return problems
    }

    /// What is wrong with the run on `bytes`; empty when every invariant holds.
    /// `thorough` makes every product for every input (the tests); else one input in eight.
    package static func violations(_ bytes: [UInt8], thorough: Bool = true) -> [String] {
        let depth: Depth = thorough || hash(bytes) % 8 == 0 ? .full : .core
        let first = products(bytes, depth: depth)
        let file = first.file
        var problems = findingViolations(file, in: bytes)

        // Echoed input cannot reach a terminal or a CI log as anything but visible text.
        for (name, text) in first.outputs {
            switch name {
            case "text", "pair-text", "junit", "junit-strict", "diff-from-text", "diff-to-text", "explain-text":
                if let bad = unsafe(in: text, allowing: ["\n", "\t"]) { problems.append("\(name) output holds \(bad)") }
            case "text-color":
                if let bad = unsafe(in: strippingColor(text), allowing: ["\n", "\t"]) { problems.append("\(name) output holds \(bad)") }
            case "github", "pair-github":
                if let bad = unsafe(in: text, allowing: ["\n"]) { problems.append("\(name) output holds \(bad)") }
                for line in text.split(separator: "\n") where !(line.hasPrefix("::error ") || line.hasPrefix("::warning ") || line.hasPrefix("::notice ")) {
                    problems.append("\(name) output has a line that is not a workflow command: \(line.prefix(80).debugDescription)")
                }
            case "json", "sarif", "diff-from-json", "diff-to-json", "explain-json":
                if let error = JSONCheck.error(in: text) { problems.append("\(name) output is not JSON: \(error)") }
            default:
                break
            }
        }

        // Generated code: nothing but plain lines, and string literals that read back as the source.
        if let policy = file.policy {
            for (name, text) in first.outputs where name.hasPrefix("generated ") {
                if let bad = unsafe(in: text, allowing: ["\n"]) { problems.append("\(name) holds \(bad)") }
            }
            let swift = first.outputs.first { $0.name.hasPrefix("generated Swift/") }?.text ?? ""
            let kotlin = first.outputs.first { $0.name.hasPrefix("generated Kotlin/") }?.text ?? ""
            let swiftDescription = literal(after: "public static let policyDescription: String? = ", in: swift)
            let kotlinDescription = literal(after: "@JvmField val POLICY_DESCRIPTION: String? = ", in: kotlin)
            func readsBack(_ literal: String?, _ decode: (String) -> String?, none: String) -> Bool {
                guard let literal else { return false }
                guard let text = policy.description else { return literal == none }
                return decode(literal) == text
            }
            if !readsBack(swiftDescription, SwiftLiteral.decode, none: "nil") {
                problems.append("Swift description literal \(swiftDescription ?? "<missing>") does not read back as \(String(describing: policy.description))")
            }
            if !readsBack(kotlinDescription, KotlinLiteral.decode, none: "null") {
                problems.append("Kotlin description literal \(kotlinDescription ?? "<missing>") does not read back as \(String(describing: policy.description))")
            }
            let swiftName = literal(after: "public static let policyName: String = ", in: swift)
            if swiftName.flatMap(SwiftLiteral.decode) != policy.name {
                problems.append("Swift policyName literal \(swiftName ?? "<missing>") does not read back as \(policy.name.debugDescription)")
            }
            if let doc = file.doc, let described = doc.description?.value, described != policy.description {
                problems.append("the policy's description \(String(describing: policy.description)) is not what the file said (\(described.debugDescription))")
            }
        }

        if depth == .full { problems += formatViolations(bytes, file) }

        // Deterministic: a second run makes the same bytes.
        let second = products(bytes, depth: .again)
        let core = Set(second.outputs.map(\.name))
        let firstOutputs = first.outputs.filter { core.contains($0.name) }
        if second.outputs.count != firstOutputs.count {
            problems.append("a second run made \(second.outputs.count) outputs, the first \(firstOutputs.count)")
        }
        for (a, b) in zip(firstOutputs, second.outputs) where a.name != b.name || a.text != b.text {
            problems.append("output \(a.name) differs between two runs")
        }
        if second.file.diagnostics != first.file.diagnostics { problems.append("findings differ between two runs") }
        return problems
    }

    /// The first character `printable` would neutralise, other than those allowed.
    package static func unsafe(in text: String, allowing allowed: Set<Unicode.Scalar>) -> String? {
        for s in text.unicodeScalars where isUnsafeScalar(s) && !allowed.contains(s) {
            return "U+" + String(s.value, radix: 16, uppercase: true)
        }
        return nil
    }

    /// Text without the reporter's own colour sequences (ESC [ digits ; digits m).
    package static func strippingColor(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            if scalars[i] == "\u{1B}", i + 1 < scalars.count, scalars[i + 1] == "[" {
                var j = i + 2
                while j < scalars.count, ("0"..."9").contains(scalars[j]) || scalars[j] == ";" { j += 1 }
                if j < scalars.count, scalars[j] == "m" {
                    i = j + 1
                    continue
                }
            }
            out.append(scalars[i])
            i += 1
        }
        return String(out)
    }

    /// The literal that ends the line starting (after indentation) with `prefix`.
    package static func literal(after prefix: String, in source: String) -> String? {
        for line in source.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix(prefix) { return String(trimmed.dropFirst(prefix.count)) }
        }
        return nil
    }
}

/// The input as lines, split where an editor starts a new line (LF, CR, CRLF: NEL, LS and PS are
/// characters of their line), after a leading byte order mark; lengths in Unicode scalars, as
/// columns are counted.
package struct SourceText {
    package var lengths: [Int] = []

    package init(_ bytes: [UInt8]) {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let scalars = Array(String(decoding: body, as: UTF8.self).unicodeScalars)
        var length = 0
        var i = 0
        while i < scalars.count {
            switch scalars[i] {
            case "\r":
                lengths.append(length)
                length = 0
                if i + 1 < scalars.count, scalars[i + 1] == "\n" { i += 1 }
            case "\n":
                lengths.append(length)
                length = 0
            default:
                length += 1
            }
            i += 1
        }
        if length > 0 { lengths.append(length) }
    }

    package var count: Int { lengths.count }

    /// A line's length in scalars; 0 for the line after the last.
    package func length(of line: Int) -> Int {
        line >= 1 && line <= lengths.count ? lengths[line - 1] : 0
    }

    /// Line 1 … count + 1, column 1 … that line's length + 1.
    package func contains(_ mark: Mark) -> Bool {
        mark.line >= 1 && mark.line <= count + 1 && mark.column >= 1 && mark.column <= length(of: mark.line) + 1
    }
}

/// Reads back the Swift string literals the generator writes: printable ASCII, `\"`, `\\`, `\u{…}`.
package enum SwiftLiteral {
    package static func decode(_ literal: String) -> String? {
        let s = Array(literal.unicodeScalars)
        guard s.count >= 2, s.first == "\"", s.last == "\"" else { return nil }
        var out = String.UnicodeScalarView()
        var i = 1
        while i < s.count - 1 {
            let c = s[i]
            guard c == "\\" else {
                guard c.value >= 0x20 && c.value <= 0x7E, c != "\"" else { return nil }
                out.append(c)
                i += 1
                continue
            }
            guard i + 1 < s.count - 1 else { return nil }
            switch s[i + 1] {
            case "\"": out.append("\""); i += 2
            case "\\": out.append("\\"); i += 2
            case "u":
                guard i + 2 < s.count, s[i + 2] == "{" else { return nil }
                var j = i + 3
                var hex = ""
                while j < s.count - 1, s[j] != "}" { hex.unicodeScalars.append(s[j]); j += 1 }
                guard j < s.count - 1, (1...8).contains(hex.count), let v = UInt32(hex, radix: 16),
                      let scalar = Unicode.Scalar(v) else { return nil }
                out.append(scalar)
                i = j + 1
            default:
                return nil
            }
        }
        return String(out)
    }
}

/// Reads back the Kotlin string literals the generator writes: printable ASCII, `\"`, `\\`, `\$`,
/// and UTF-16 units as `\uXXXX`.
package enum KotlinLiteral {
    package static func decode(_ literal: String) -> String? {
        let s = Array(literal.unicodeScalars)
        guard s.count >= 2, s.first == "\"", s.last == "\"" else { return nil }
        var units: [UInt16] = []
        var i = 1
        while i < s.count - 1 {
            let c = s[i]
            guard c == "\\" else {
                guard c.value >= 0x20 && c.value <= 0x7E, c != "\"", c != "$" else { return nil }
                units.append(UInt16(c.value))
                i += 1
                continue
            }
            guard i + 1 < s.count - 1 else { return nil }
            switch s[i + 1] {
            case "\"", "\\", "$": units.append(UInt16(s[i + 1].value)); i += 2
            case "u":
                guard i + 6 <= s.count - 1 else { return nil }
                let hex = String(String.UnicodeScalarView(s[(i + 2)..<(i + 6)]))
                guard let v = UInt16(hex, radix: 16) else { return nil }
                units.append(v)
                i += 6
            default:
                return nil
            }
        }
        // Strictly: a lone surrogate is not text the source could have held.
        var out = String.UnicodeScalarView()
        var iterator = units.makeIterator()
        var decoder = UTF16()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let v): out.append(v)
            case .emptyInput: return String(out)
            case .error: return nil
            }
        }
    }
}

/// Whether text is one well-formed JSON value (RFC 8259), with no raw control character in a string.
package enum JSONCheck {
    package static func error(in text: String) -> String? {
        var p = Parser(bytes: Array(text.utf8))
        p.space()
        guard p.value(depth: 0) else { return p.problem ?? "bad value at byte \(p.i)" }
        p.space()
        return p.i == p.bytes.count ? nil : "trailing bytes at \(p.i)"
    }

    struct Parser {
        let bytes: [UInt8]
        var i = 0
        var problem: String?

        mutating func space() {
            while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        }

        mutating func fail(_ why: String) -> Bool {
            if problem == nil { problem = why + " at byte \(i)" }
            return false
        }

        mutating func literal(_ word: String) -> Bool {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else { return fail("bad literal") }
            i += w.count
            return true
        }

        mutating func value(depth: Int) -> Bool {
            guard depth < 512 else { return fail("too deep") }
            guard i < bytes.count else { return fail("end of text") }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                space()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return true }
                while true {
                    space()
                    guard string() else { return false }
                    space()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return fail("':' expected") }
                    i += 1
                    space()
                    guard value(depth: depth + 1) else { return false }
                    space()
                    guard i < bytes.count else { return fail("end in object") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return true }
                    return fail("',' or '}' expected")
                }
            case UInt8(ascii: "["):
                i += 1
                space()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return true }
                while true {
                    space()
                    guard value(depth: depth + 1) else { return false }
                    space()
                    guard i < bytes.count else { return fail("end in array") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return true }
                    return fail("',' or ']' expected")
                }
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        mutating func string() -> Bool {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return fail("string expected") }
            i += 1
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") { i += 1; return true }
                if b < 0x20 { return fail("raw control character in a string") }
                if b == UInt8(ascii: "\\") {
                    guard i + 1 < bytes.count else { return fail("end in escape") }
                    let e = bytes[i + 1]
                    if e == UInt8(ascii: "u") {
                        guard i + 6 <= bytes.count,
                              bytes[(i + 2)..<(i + 6)].allSatisfy({ isHex($0) }) else { return fail("bad \\u escape") }
                        i += 6
                    } else if Array("\"\\/bfnrt".utf8).contains(e) {
                        i += 2
                    } else {
                        return fail("bad escape")
                    }
                    continue
                }
                i += 1
            }
            return fail("unterminated string")
        }

        func isHex(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
        }

        mutating func number() -> Bool {
            let start = i
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
            func digits() -> Int {
                let s = i
                while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
                return i - s
            }
            let whole = digits()
            guard whole > 0 else { return fail("bad number") }
            if whole > 1 && bytes[i - whole] == UInt8(ascii: "0") { return fail("leading zero") }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard digits() > 0 else { return fail("bad fraction") }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { return fail("bad exponent") }
            }
            return i > start
        }
    }
}
