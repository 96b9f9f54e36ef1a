/// Swift for one policy, the API of SPEC §4. Compiles without warnings in language modes 5 and 6;
/// free text reaches the output only through `literal` and `doc`.
enum SwiftGenerator {
    static func source(for policy: Policy) -> String {
        let type = Naming.typeName(policy: policy.name)
        let w = CodeWriter()
        func at(_ key: String) -> String { Self.at(policy, key) }
        w.line(Generator.header(for: policy))
        w.line()
        w.line("import Foundation")
        w.line()
        w.lines(doc("Retry policy `\(policy.name)`\(at("policy")): the values and functions an app retries its ticket requests with."))
        if let description = policy.description {
            w.line("///")
            w.lines(doc(description))
        }
        w.block("public enum \(type)") {
            w.emit(Self.types)
            for p in policy.profiles {
                w.line()
                w.lines(doc("Profile `\(p.name)` (line \(p.line)): \(p.kind), \(p.isInteractive ? "a viewer is waiting" : "no viewer is waiting")."))
                w.line("public static let \(Naming.swiftProfile(p.name)): RetryProfile = RetryProfile("
                    + "maxRetries: \(p.maxRetries), baseMs: \(p.baseMs), capMs: \(p.capMs), timeoutMs: \(p.timeoutMs), deadlineMs: \(p.deadlineMs))")
            }
            w.line()
            w.lines(doc("Every profile, by its name in the policy (`retry.profiles`)."))
            let all = policy.profiles.map { "\(literal($0.name)): \(Naming.swiftProfile($0.name))" }
            w.line("public static let allProfiles: [String: RetryProfile] = [\(all.isEmpty ? ":" : all.joined(separator: ", "))]")
            w.line()
            w.lines(doc("The policy's name (`policy`\(at("policy")))."))
            w.line("public static let policyName: String = \(literal(policy.name))")
            w.lines(doc("The policy's description, exactly as written (`description`\(at("description")))."))
            w.line("public static let policyDescription: String? = \(policy.description.map(literal) ?? "nil")")
            w.lines(doc("Whether network errors (no status at all) are retried (`retryOn`\(at("retry.retryOn")))."))
            w.line("public static let retryOnNetworkError: Bool = \(policy.retryOnNetwork)")
            w.lines(doc("The HTTP statuses that are retried (`retryOn`\(at("retry.retryOn")))."))
            w.line("public static let retryableStatuses: Set<Int> = [\(policy.retryStatuses.map(String.init).joined(separator: ", "))]")
            w.lines(doc("Status and error code pairs that are never retried (`neverRetry`\(at("retry.neverRetry")))."))
            let never = policy.neverRetry.map { "NeverRetry(status: \($0.status), code: \(literal($0.code)))" }
            w.line("public static let neverRetry: [NeverRetry] = [\(never.joined(separator: ", "))]")
            w.lines(doc("Whether a Retry-After header sets the wait (`retryAfter.honor`\(at("retry.retryAfter.honor")))."))
            w.line("public static let retryAfterHonored: Bool = \(policy.retryAfterHonor)")
            w.lines(doc("Largest random wait added to Retry-After, in milliseconds (`retryAfter.maxJitter`\(at("retry.retryAfter.maxJitter")))."))
            w.line("public static let retryAfterMaxJitterMs: Int = \(policy.retryAfterMaxJitterMs)")
            w.lines(doc("How the wait between retries grows (`backoff`\(at("retry.backoff")))."))
            w.line("public static let backoffStrategy: String = \(literal(policy.backoff))")
            w.lines(doc("Retries may be at most this share of the requests of the last minute (`budget.ratio`\(at("retry.budget.ratio")): \(policy.budgetRatio.canonical)%)."))
            w.line("public static let budgetRatio: Double = \(doubleLiteral(policy.budgetRatio.ratio))")
            w.lines(doc("Retries always allowed per minute, whatever the ratio (`budget.minPerMinute`\(at("retry.budget.minPerMinute")))."))
            w.line("public static let budgetMinPerMinute: Int = \(policy.budgetMinPerMinute)")
            w.lines(doc("Next episodes asked for in the same request (`prefetch.ahead`\(at("prefetch.ahead")))."))
            w.line("public static let prefetchAhead: Int = \(policy.prefetchAhead)")
            w.lines(doc("Whether only unlocked next episodes are prefetched (`prefetch.onlyUnlocked`\(at("prefetch.onlyUnlocked")))."))
            w.line("public static let prefetchOnlyUnlocked: Bool = \(policy.prefetchOnlyUnlocked)")
            w.lines(doc("Whether a refused prefetch is retried (`prefetch.retryRefused`\(at("prefetch.retryRefused")))."))
            w.line("public static let retryRefusedPrefetch: Bool = \(policy.prefetchRetryRefused)")
            w.lines(doc("What a ticket is reused for: the same of each of these (`tickets.reuseKey`\(at("tickets.reuseKey")))."))
            w.line("public static let ticketReuseKey: [String] = [\(policy.reuseKey.map(literal).joined(separator: ", "))]")
            w.lines(doc("Stop reusing a ticket this long before it expires, in milliseconds (`tickets.stopReuseBefore`\(at("tickets.stopReuseBefore")))."))
            w.line("public static let ticketStopReuseBeforeMs: Int = \(policy.stopReuseBeforeMs)")
            w.lines(doc("How viewer_ref is made (`tickets.viewerRef`\(at("tickets.viewerRef")))."))
            w.line("public static let viewerRef: String = \(literal(policy.viewerRef))")
            w.line()
            w.lines(doc("Whether a failed request may be retried: network errors (`status` nil) as `retryOn` says, "
                + "never a `neverRetry` pair, else the statuses of `retryOn` (`retryOn`\(at("retry.retryOn")), `neverRetry`\(at("retry.neverRetry")))."))
            w.emit(Self.isRetryable)
            w.line()
            w.lines(doc("Milliseconds to wait before retry number `attempt` (0-based): a positive Retry-After plus up to "
                + "`retryAfterMaxJitterMs` of jitter wins, else full jitter under `profile.capMs` "
                + "(`backoff`\(at("retry.backoff")), `retryAfter`\(at("retry.retryAfter.honor"))). Calls `random` (0 ..< 1) once."))
            w.emit(Self.backoffMs)
            w.line()
            w.lines(doc("Retries may be at most `budgetRatio` of the requests of the last minute and never fewer than "
                + "`budgetMinPerMinute` a minute (`budget`\(at("retry.budget.ratio"))). Safe to share between threads."))
            w.emit(Self.retryBudget, type)
        }
        return w.text
    }

    // The fixed parts of every file (see `FixedLines`), at the depth they stand at.
    static let types = FixedLines(depth: 1) { w, _ in
        w.lines(doc("How hard to try for one kind of caller: one entry of `retry.profiles`."))
        w.block("public struct RetryProfile: Sendable, Hashable") {
            let fields: [(String, String)] = [
                ("maxRetries", "Retries after the first attempt (`maxRetries`)."),
                ("baseMs", "First backoff step, in milliseconds (`base`)."),
                ("capMs", "Largest backoff step, in milliseconds (`cap`)."),
                ("timeoutMs", "Timeout of one attempt, in milliseconds (`timeout`)."),
                ("deadlineMs", "The whole call, retries included, in milliseconds (`deadline`)."),
            ]
            for (name, text) in fields {
                w.lines(doc(text))
                w.line("public let \(name): Int")
            }
            w.line()
            w.lines(doc("A profile with these values."))
            w.block("public init(maxRetries: Int, baseMs: Int, capMs: Int, timeoutMs: Int, deadlineMs: Int)") {
                for (name, _) in fields { w.line("self.\(name) = \(name)") }
            }
        }
        w.line()
        w.lines(doc("An answer that is never retried, whatever its status (`retry.neverRetry`)."))
        w.block("public struct NeverRetry: Sendable, Hashable") {
            w.lines(doc("The HTTP status of the answer."))
            w.line("public let status: Int")
            w.lines(doc("The error code in the answer's body."))
            w.line("public let code: String")
            w.line()
            w.lines(doc("An exception with these values."))
            w.block("public init(status: Int, code: String)") {
                w.line("self.status = status")
                w.line("self.code = code")
            }
        }
    }

    static let isRetryable = FixedLines(depth: 1) { w, _ in
        w.block("public static func isRetryable(status: Int?, errorCode: String?) -> Bool") {
            w.line("guard let status = status else { return retryOnNetworkError }")
            w.line("if neverRetry.contains(where: { $0.status == status && $0.code == errorCode }) { return false }")
            w.line("return retryableStatuses.contains(status)")
        }
    }

    static let backoffMs = FixedLines(depth: 1) { w, _ in
        w.line("public static func backoffMs(attempt: Int, retryAfterS: Double?, profile: RetryProfile,")
        w.line("                             random: () -> Double = { Double.random(in: 0..<1) }) -> Double {")
        w.indent {
            w.line("if retryAfterHonored, let retryAfterS = retryAfterS, retryAfterS > 0 {")
            w.indent { w.line("return retryAfterS * 1000.0 + random() * Double(retryAfterMaxJitterMs)") }
            w.line("}")
            w.line("// 2^attempt exactly, as a double: infinite past its range, so min() gives the cap; never traps.")
            w.line("let growth = Double(sign: .plus, exponent: attempt, significand: 1)")
            w.line("return random() * Swift.min(Double(profile.capMs), Double(profile.baseMs) * growth)")
        }
        w.line("}")
    }

    /// The hole is the policy's type.
    static let retryBudget = FixedLines(depth: 1) { w, type in
        w.block("public final class RetryBudget: @unchecked Sendable") {
            w.line("private let lock = NSLock()")
            w.line("private let now: @Sendable () -> Int64")
            w.line("private var sent = 0")
            w.line("private var retries = 0")
            w.line("private var since: Int64")
            w.line()
            w.lines(doc("A budget whose first minute starts now; `now` is the clock in milliseconds (the wall clock by default)."))
            w.block("public init(now: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) })") {
                w.line("self.now = now")
                w.line("self.since = now()")
            }
            w.line()
            w.lines(doc("Counts one request sent."))
            w.block("public func noteRequest()") {
                w.line("lock.lock()")
                w.line("defer { lock.unlock() }")
                w.line("roll()")
                w.line("sent += 1")
            }
            w.line()
            w.lines(doc("Takes one retry from the budget: false, and nothing taken, when the budget is spent."))
            w.block("public func tryRetry() -> Bool") {
                w.line("lock.lock()")
                w.line("defer { lock.unlock() }")
                w.line("roll()")
                w.line("if Double(retries) >= Swift.max(Double(\(type).budgetMinPerMinute), Double(sent) * \(type).budgetRatio) { return false }")
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

    static func at(_ policy: Policy, _ key: String) -> String {
        policy.lines[key].map { " on line \($0)" } ?? ""
    }

    /// The one way text becomes a Swift string literal: printable ASCII as is (but `"` and `\`
    /// escaped, which also defuses `\(`), everything else as `\u{…}`, so nothing can end the
    /// literal, interpolate, or hide (bidi controls, line separators, NUL).
    static func literal(_ s: String) -> String {
        // Printable ASCII without `"` and `\\`, the usual name or code, stands as it is.
        if allUTF8(s, { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) { return "\"" + s + "\"" }
        var out = "\""
        for u in s.unicodeScalars {
            switch u.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x20...0x7E: out.unicodeScalars.append(u)
            default: out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out + "\""
    }

    /// The one way text becomes a Swift doc comment: `///` lines, which nothing can close; each
    /// line break of the text starts a new comment line, other unsafe characters are shown escaped.
    static func doc(_ text: String) -> [String] {
        // One line of printable ASCII (most texts): the line as it is, less trailing spaces.
        if let line = asciiLine(text) { return [line.isEmpty ? "///" : "/// " + line] }
        return commentLines(text).map { $0.isEmpty ? "///" : "/// " + $0 }
    }

    /// A double literal that reads back as the same double in Swift and Kotlin (`0.1`, `1e-05`).
    static func doubleLiteral(_ d: Double) -> String { "\(d)" }
}

/// Text split at every kind of line break, each line made printable and stripped of trailing
/// spaces: what both languages' doc comments are made from.
/// `commentLines(text)`'s one line when `text` is a single line of printable ASCII, else nil:
/// most texts are, and they need neither splitting nor escaping.
func asciiLine(_ text: String) -> String? {
    guard allUTF8(text, { $0 >= 0x20 && $0 < 0x7F }) else { return nil }
    guard text.utf8.last == 0x20 else { return text }
    var utf8 = text.utf8[...]
    while utf8.last == 0x20 { utf8 = utf8.dropLast() }
    return String(utf8)
}

func commentLines(_ text: String) -> [String] {
    // On the UTF-8 bytes: the breaks are ASCII or the sequences C2 85 (U+0085) and E2 80 A8/A9
    // (U+2028/9), which in valid UTF-8 stand only for themselves. Scalar by scalar cost most of
    // generating.
    var lines: [String] = []
    var text = text
    text.withUTF8 { b in
        var start = 0
        var i = 0
        var lastWasCR = false
        while i < b.count {
            var breakLength = 0
            switch b[i] {
            case 0x0A where lastWasCR:
                lastWasCR = false
                i += 1
                start = i
                continue
            case 0x0A, 0x0D, 0x0B, 0x0C: breakLength = 1
            case 0xC2 where i + 1 < b.count && b[i + 1] == 0x85: breakLength = 2
            case 0xE2 where i + 2 < b.count && b[i + 1] == 0x80 && (b[i + 2] == 0xA8 || b[i + 2] == 0xA9): breakLength = 3
            default: break
            }
            if breakLength > 0 {
                lines.append(String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self))
                lastWasCR = b[i] == 0x0D
                i += breakLength
                start = i
            } else {
                lastWasCR = false
                i += 1
            }
        }
        lines.append(String(decoding: UnsafeBufferPointer(rebasing: b[start..<b.count]), as: UTF8.self))
    }
    return lines.map { line in
        var l = printable(line)
        while l.last == " " || l.last == "\t" { l.removeLast() }
        return l
    }
}
