import PolicySource
import PolicyCheck

/// Swift for one policy, the API of SPEC §4. Compiles without warnings in language modes 5 and 6,
/// and is callable from any isolation, also in a target whose default isolation is the main actor
/// (which needs Swift 6.1 or later for `nonisolated` on a type). Free text reaches the output only
/// through `Literal` and `CodeWriter.docText`. The code below writes the file from top to bottom;
/// the profiles and constants, and their doc strings, are `PolicyModule`'s, rendered here in Swift.
enum SwiftGenerator {
    static func source(for policy: Policy) -> String {
        String(decoding: bytes(for: policy, PolicyModule(policy)), as: UTF8.self)
    }

    static func bytes(for policy: Policy, _ module: PolicyModule) -> [UInt8] {
        let w = CodeWriter(.swift)
        Generator.writeHeader(for: policy, limits: module.limits, to: w)
        w.line()
        w.line("import Foundation")
        w.line()
        w.line("// nonisolated: callable from any isolation, also in targets whose default isolation is MainActor.")
        w.doc("Retry policy `", policy.name, "`: the values and functions an app retries its ticket requests with.")
        if let description = policy.description {
            w.line("///")
            w.docText(description)
        }
        w.line("nonisolated public enum ", module.type, " {")
        w.indent {
            w.emit(Self.types)
            for p in module.profiles {
                w.line()
                PolicyModule.writeProfileDoc(p, to: w)
                w.begin()
                w.put("public static let ", Naming.swiftProfile(p.name), ": RetryProfile = RetryProfile(maxRetries: ", p.maxRetries, ", baseMs: ")
                w.put("", p.baseMs, ", capMs: ", p.capMs, ", timeoutMs: ")
                w.put("", p.timeoutMs, ", deadlineMs: ", p.deadlineMs, ", kind: .")
                w.put("", Naming.lowerCamel(p.kind.rawValue), ")")
                w.end()
            }
            w.line()
            w.doc("Every profile, by its name in the policy, in the policy's order (`retry.profiles`).")
            w.begin()
            w.put("public static let allProfiles: KeyValuePairs<String, RetryProfile> = [")
            w.list(module.profiles) { w.put("", quoted($0.name), ": ", Naming.swiftProfile($0.name)) }
            w.put(module.profiles.isEmpty ? ":]" : "]")
            w.end()
            w.line()
            w.emit(Self.profileNamed)
            w.line()
            for constant in module.constants { write(constant, to: w) }
            w.line()
            w.doc("""
                Whether a failed request may be retried: network errors (`status` nil) as `retryOn` says, \
                never a `neverRetry` pair, else the statuses of `retryOn` (`retryOn`, `neverRetry`).
                """)
            w.emit(Self.isRetryable)
            w.line()
            w.doc("""
                Milliseconds to wait before retry number `attempt` (0-based): a positive Retry-After plus up to \
                `retryAfterMaxJitterMs` of jitter when `retryAfterHonored`, else 
                """, PolicyModule.strategyDoc(module.backoff), " (`backoff`, `retryAfter`).")
            w.emit(Self.backoffMs[module.backoff]!)
            w.line()
            w.emit(Self.backoffDelayMs)
            w.line()
            w.doc("""
                Retries may be at most `budgetRatio` of the requests of the last minute and never fewer than \
                `budgetMinPerMinute` a minute (`budget`). Safe to share between threads.
                """)
            w.emit(Self.retryBudget, module.type)
            w.line()
            w.emit(Self.clientTypes)
            w.line()
            w.emit(Self.client)
            w.line()
            w.emit(Self.batch)
        }
        w.line("}")
        return w.bytes
    }

    /// One constant of the module: its doc, then `public static let name: Type = value`.
    private static func write(_ c: PolicyModule.Constant, to w: CodeWriter) {
        w.doc(c.doc)
        w.begin()
        w.put("public static let ", c.swiftName)
        switch c.value {
        case .text(let text):
            w.put(": String = ", quoted(text))
        case .backoff(let value):
            w.put(": BackoffStrategy = .", Naming.lowerCamel(value))
        case .viewerRef(let value):
            w.put(": ViewerRefKind = .", Naming.lowerCamel(value))
        case .optionalText(let text):
            w.put(": String? = ")
            if let text { w.write(quoted(text)) } else { w.put("nil") }
        case .bool(let b):
            w.put(": Bool = ", b)
        case .int(let n), .milliseconds(let n):
            w.put(": Int = ", n)
        case .ratio(let literal):
            w.put(": Double = ", literal)
        case .statuses(let statuses):
            w.put(": Set<Int> = [")
            w.list(statuses) { w.write($0) }
            w.put("]")
        case .neverRetry(let pairs):
            w.put(": [NeverRetry] = [")
            w.list(pairs) { w.put("NeverRetry(status: ", $0.status, ", code: ", quoted($0.code), ")") }
            w.put("]")
        case .reuseKey(let items):
            w.put(": [ReuseKeyItem] = [")
            w.list(items) { w.put(".", Naming.lowerCamel($0)) }
            w.put("]")
        }
        w.end()
        // A duration in milliseconds also as a `Duration`, named without the unit.
        if case .milliseconds = c.value {
            let name = String(String(describing: c.swiftName).dropLast(2))
            w.doc("`", c.swiftName, "` as a `Duration`.")
            w.line(durationAvailability)
            w.line("public static var ", name, ": Duration { .milliseconds(", c.swiftName, ") }")
        }
    }

    /// Where `Duration` is available.
    static let durationAvailability: StaticString = "@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)"

    /// `enum Name: String { case a; case bC = "b-c" }`, a case a line, named as Swift names them.
    private static func enumType(_ w: CodeWriter, _ name: StaticString, _ values: [String]) {
        w.line("public enum ", name, ": String, Sendable, Hashable, CaseIterable {")
        w.indent {
            for value in values {
                let swift = Naming.lowerCamel(value)
                if swift == value { w.line("case ", swift) } else { w.line("case ", swift, " = ", quoted(value)) }
            }
        }
        w.line("}")
    }

    static let profileNamed = FixedLines(.swift, depth: 1) { w, _ in
        w.doc("The profile of this name in the policy (`retry.profiles`), or nil.")
        w.block("public static func profileNamed(_ name: String) -> RetryProfile?") {
            w.line("allProfiles.first(where: { $0.key == name })?.value")
        }
    }

    static let backoffDelayMs = FixedLines(.swift, depth: 1) { w, _ in
        w.doc {
            w.docText("""
                `backoffMs` rounded up to whole milliseconds, as a timer takes them: never shorter than the exact \
                wait, so never before Retry-After (`Int.max` past the range of an `Int`).
                """)
        }
        w.line("public static func backoffDelayMs(attempt: Int, retryAfterS: Double?, profile: RetryProfile,")
        w.line("                                  random: () -> Double = { Double.random(in: 0..<1) }) -> Int {")
        w.indent {
            w.line("let ms = backoffMs(attempt: attempt, retryAfterS: retryAfterS, profile: profile, random: random).rounded(.up)")
            w.line("return ms >= 9.223372036854775807e18 ? Int.max : ms > 0 ? Int(ms) : 0")
        }
        w.line("}")
    }

    // The fixed parts of every file (see `FixedLines`), at the depth they stand at.
    static let types = FixedLines(.swift, depth: 1) { w, _ in
        w.doc("How hard to try for one kind of caller: one entry of `retry.profiles`.")
        w.block("public struct RetryProfile: Sendable, Hashable") {
            w.doc("The kinds of caller (`kind`).")
            w.block("public enum Kind: String, Sendable, Hashable, CaseIterable") {
                w.doc("A viewer is waiting.")
                w.line("case interactive")
                w.doc("A sync job: no viewer is waiting.")
                w.line("case background")
            }
            w.line()
            let fields: [(StaticString, StaticString)] = [
                ("maxRetries", "Retries after the first attempt (`maxRetries`)."),
                ("baseMs", "First backoff step, in milliseconds (`base`)."),
                ("capMs", "Largest backoff step, in milliseconds (`cap`)."),
                ("timeoutMs", "Timeout of one attempt, in milliseconds (`timeout`)."),
                ("deadlineMs", "The whole call, retries included, in milliseconds (`deadline`)."),
            ]
            for (name, text) in fields {
                w.doc(text)
                w.line("public let ", name, ": Int")
            }
            w.doc("The kind of caller (`kind`).")
            w.line("public let kind: Kind")
            w.line()
            for (name, _) in fields.dropFirst() {
                w.doc("`", name, "` as a `Duration`.")
                w.line(durationAvailability)
                w.line("public var ", String(String(describing: name).dropLast(2)), ": Duration { .milliseconds(", name, ") }")
            }
            w.line()
            w.doc("A profile with these values; `kind` is interactive unless given.")
            w.block("public init(maxRetries: Int, baseMs: Int, capMs: Int, timeoutMs: Int, deadlineMs: Int, kind: Kind = .interactive)") {
                for (name, _) in fields { w.line("self.", name, " = ", name) }
                w.line("self.kind = kind")
            }
        }
        w.line()
        w.doc("An answer that is never retried, whatever its status (`retry.neverRetry`).")
        w.block("public struct NeverRetry: Sendable, Hashable") {
            w.doc("The HTTP status of the answer.")
            w.line("public let status: Int")
            w.doc("The error code in the answer's body.")
            w.line("public let code: String")
            w.line()
            w.doc("An exception with these values.")
            w.block("public init(status: Int, code: String)") {
                w.line("self.status = status")
                w.line("self.code = code")
            }
        }
        w.line()
        w.doc("How the wait between retries grows: the values of `retry.backoff`, by their spelling in the policy.")
        enumType(w, "BackoffStrategy", Language.backoffs)
        w.line()
        w.doc("How viewer_ref is made: the values of `tickets.viewerRef`, by their spelling in the policy.")
        enumType(w, "ViewerRefKind", Language.viewerRefs)
        w.line()
        w.doc("What a reused ticket must have in common: the items of `tickets.reuseKey`, by their spelling in the policy.")
        enumType(w, "ReuseKeyItem", Language.reuseKeyParts)
    }

    static let isRetryable = FixedLines(.swift, depth: 1) { w, _ in
        w.block("public static func isRetryable(status: Int?, errorCode: String? = nil) -> Bool") {
            w.line("guard let status = status else { return retryOnNetworkError }")
            w.line("// Codes compare exactly, by their UTF-8 bytes, as the server and the Kotlin and TypeScript code")
            w.line("// compare them: `==` would take canonically equivalent codes (\\u{958}, \\u{915}\\u{93C}) as equal.")
            w.line("if let errorCode = errorCode,")
            w.line("   neverRetry.contains(where: { $0.status == status && $0.code.utf8.elementsEqual(errorCode.utf8) }) { return false }")
            w.line("return retryableStatuses.contains(status)")
        }
    }

    /// `backoffMs` for each strategy: only the policy's is written.
    static let backoffMs = Dictionary(uniqueKeysWithValues: Backoff.allCases.map { strategy in
        (strategy, FixedLines(.swift, depth: 1) { w, _ in
            w.line("public static func backoffMs(attempt: Int, retryAfterS: Double?, profile: RetryProfile,")
            w.line("                             random: () -> Double = { Double.random(in: 0..<1) }) -> Double {")
            w.indent {
                w.line("if retryAfterHonored, let retryAfterS = retryAfterS, retryAfterS > 0 {")
                w.indent { w.line("return retryAfterS * 1000.0 + random() * Double(retryAfterMaxJitterMs)") }
                w.line("}")
                if strategy == .constant {
                    w.line("return Double(profile.baseMs)")
                    return
                }
                w.line("// 2^attempt exactly, as a double: infinite past its range, so min() gives the cap; never traps.")
                w.line("let growth = Double(sign: .plus, exponent: attempt, significand: 1)")
                w.line("let v = Swift.min(Double(profile.capMs), Double(profile.baseMs) * growth)")
                switch strategy {
                case .fullJitter: w.line("return random() * v")
                case .equalJitter: w.line("return v / 2 + random() * (v / 2)")
                case .exponential, .constant: w.line("return v")
                }
            }
            w.line("}")
        })
    })

    /// The hole is the policy's type.
    static let retryBudget = FixedLines(.swift, depth: 1) { w, type in
        w.block("public final class RetryBudget: @unchecked Sendable") {
            w.line("private let lock = NSLock()")
            w.line("private let now: @Sendable () -> Int64")
            w.line("private var sent = 0")
            w.line("private var retries = 0")
            w.line("private var since: Int64")
            w.line()
            w.doc {
                w.docText("""
                    A budget whose first minute starts now; `now` is the clock in milliseconds (`defaultNowMs` \
                    by default: setting the device clock back an hour must not stop retries for an hour).
                    """)
            }
            w.block("public init(now: @escaping @Sendable () -> Int64 = { RetryBudget.defaultNowMs() })") {
                w.line("self.now = now")
                w.line("self.since = now()")
            }
            w.line()
            w.doc {
                w.docText("""
                    The default clock, in milliseconds since 1970: the wall clock read once, then advanced by a \
                    monotonic clock (uptime), so that setting the device clock back cannot move it.
                    """)
            }
            w.block("public static func defaultNowMs() -> Int64") {
                w.line("clockBase.wallMs + Int64(truncatingIfNeeded: (DispatchTime.now().uptimeNanoseconds &- clockBase.uptimeNs) / 1_000_000)")
            }
            w.line()
            w.line("private static let clockBase = (wallMs: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)),")
            w.line("                                uptimeNs: DispatchTime.now().uptimeNanoseconds)")
            w.line()
            w.doc("Counts one request sent.")
            w.block("public func noteRequest()") {
                w.line("lock.lock()")
                w.line("defer { lock.unlock() }")
                w.line("roll()")
                w.line("sent += 1")
            }
            w.line()
            w.doc("Takes one retry from the budget: false, and nothing taken, when the budget is spent.")
            w.block("public func tryRetry() -> Bool") {
                w.line("lock.lock()")
                w.line("defer { lock.unlock() }")
                w.line("roll()")
                w.line("if Double(retries) >= Swift.max(Double(", type, ".budgetMinPerMinute), Double(sent) * ", type, ".budgetRatio) { return false }")
                w.line("retries += 1")
                w.line("return true")
            }
            w.line()
            w.line("// A new minute once more than 60 000 ms have passed; the clock is read again for its start,")
            w.line("// and compared as doubles, exactly as the guide's reference code does.")
            w.block("private func roll()") {
                w.block("if Double(now()) - Double(since) > 60_000") {
                    w.line("sent = 0")
                    w.line("retries = 0")
                    w.line("since = now()")
                }
            }
        }
    }

    /// A Swift string literal of `text`: written by `Literal`, the one way text becomes one.
    static func literal(_ text: String) -> String {
        let w = CodeWriter(.swift, capacity: text.utf8.count + 2)
        w.write(quoted(text))
        return w.text
    }

    static func quoted(_ text: String) -> Literal { Literal(text: text) }

    /// The one way text becomes a Swift string literal: printable ASCII as is (but `"` and `\`
    /// escaped, which also defuses `\(`), everything else as `\u{…}`, so nothing can end the
    /// literal, interpolate, or hide (bidi controls, line separators, NUL).
    struct Literal: Fragment {
        var text: String

        func write(to w: CodeWriter) {
            w.appendQuoted(text) { w, scalar in
                w.put("\\u{")
                w.append(hex: scalar)
                w.put("}")
            }
        }
    }

    /// The lines of the Swift doc comment of `text` (see `CodeWriter.docText`).
    static func doc(_ text: String) -> [String] {
        let w = CodeWriter(.swift, capacity: 2 * text.utf8.count + 16)
        w.doc { w.docText(text) }
        return w.lines
    }

    /// A double literal that reads back as the same double in Swift and Kotlin (`0.1`, `1e-05`).
    static func doubleLiteral(_ d: Double) -> String { "\(d)" }
}

/// Text split at every kind of line break (`LineIndex`'s Unicode breaks), each line made
/// printable and stripped of trailing spaces: what both languages' doc comments are made from.
/// `body` gets each line's UTF-8 bytes.
func commentLines(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    let lines = LineIndex(text, breaks: .unicode)
    lines.bytes.withUnsafeBufferPointer { b in
        for number in 1...lines.lineCount {
            commentLine(UnsafeBufferPointer(rebasing: b[lines.range(ofLine: number)!]), body)
        }
    }
}

/// One line of `commentLines`: made printable, trailing spaces and tabs dropped.
private func commentLine(_ line: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    func isPrintableASCII(_ b: UInt8) -> Bool { b >= 0x20 && b < 0x7F }
    // Printable ASCII (most lines) is already printable, and each byte is a Character: the
    // trailing spaces go by byte.
    if line.allSatisfy(isPrintableASCII) {
        var end = line.count
        while end > 0 && line[end - 1] == 0x20 { end -= 1 }
        body(UnsafeBufferPointer(rebasing: line[0..<end]))
        return
    }
    // Else `printable` makes it safe. It maps each scalar on its own, so it is given only the runs
    // other than printable ASCII (which it would leave as they are): scalar by scalar, a whole
    // line cost ten times as much. Such runs start and end between scalars.
    var safe: [UInt8] = []
    safe.reserveCapacity(line.count + 16)
    var i = 0
    while i < line.count {
        let plain = isPrintableASCII(line[i])
        var j = i + 1
        while j < line.count && isPrintableASCII(line[j]) == plain { j += 1 }
        let run = UnsafeBufferPointer(rebasing: line[i..<j])
        if plain {
            safe.append(contentsOf: run)
        } else {
            var text = printable(String(decoding: run, as: UTF8.self))
            text.withUTF8 { safe.append(contentsOf: $0) }
        }
        i = j
    }
    // Trailing spaces and tabs by Character, as a reader sees them: a space that joins the
    // character before it stays. Only a line whose last byte is one can end in either.
    guard safe.last == 0x20 || safe.last == 0x09 else { return safe.withUnsafeBufferPointer(body) }
    var l = String(decoding: safe, as: UTF8.self)
    while l.last == " " || l.last == "\t" { l.removeLast() }
    l.withUTF8(body)
}

/// The scalar whose UTF-8 starts at `b[i]`, and the number of its bytes; `b` is valid UTF-8 (a
/// String's), so the bytes that follow a lead byte are there.
func utf8Scalar(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> (value: UInt32, length: Int) {
    let lead = UInt32(b[i])
    func next(_ k: Int) -> UInt32 { UInt32(b[i + k] & 0x3F) }
    switch lead {
    case ..<0x80: return (lead, 1)
    case ..<0xE0: return ((lead & 0x1F) << 6 | next(1), 2)
    case ..<0xF0: return ((lead & 0x0F) << 12 | next(1) << 6 | next(2), 3)
    default: return ((lead & 0x07) << 18 | next(1) << 12 | next(2) << 6 | next(3), 4)
    }
}
