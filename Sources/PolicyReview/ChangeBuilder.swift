import PolicySource
import PolicyCheck
import PolicyReport
import PolicySimulation

/// Walks every path of the language in canonical order, and words each change with the numbers of
/// `explain`: what it means for a viewer, for the servers and for the apps' code.
struct ChangeBuilder {
    let old: PolicyDoc
    let new: PolicyDoc
    /// The generated types of every policy of the new side (a removed type is breaking).
    let newTypes: Set<ExactText>
    /// The generated symbols changes are worded with.
    let symbols: GeneratedSymbols
    var changes: [PolicyChange] = []
    /// The profiles that changed or are new, with what their changes do together.
    var profiles: [ProfileReview] = []

    init(old: PolicyDoc, new: PolicyDoc, newTypes: Set<ExactText>,
                 symbols: GeneratedSymbols = GeneratedSymbols(targets: CodeTarget.defaults)) {
        self.old = old
        self.new = new
        self.newTypes = newTypes
        self.symbols = symbols
    }

    /// Records a change when the canonical values differ. `effect` gets the two values when both
    /// exist; a side without a valid value gets a generic sentence.
    mutating func compare(
        _ path: String, _ before: JSON, _ after: JSON, show: (JSON) -> String = Show.value,
        breaking: Bool = false, effect: () -> String
    ) {
        guard before != after else { return }
        let word: String
        let field = path.split(separator: ".").last.map(String.init) ?? path
        switch (before, after) {
        case (_, .null): word = "\(field) has no valid value in the new policy (see the findings)"
        case (.null, _): word = "\(field) is now \(show(after)) (the old policy had no valid value)"
        default: word = effect()
        }
        record(path, before, after, show: show, breaking: breaking, effect: word)
        if after == .null { changes[changes.count - 1].missingValue = true }
    }

    /// Records a change as worded by the caller.
    mutating func record(
        _ path: String, _ before: JSON, _ after: JSON, show: (JSON) -> String = Show.value,
        breaking: Bool = false, effect: String
    ) {
        changes.append(PolicyChange(path: path, before: before, after: after, breaking: breaking, effect: effect,
                                    beforeText: show(before), afterText: show(after)))
    }

    mutating func compareAll() {
        // Locals, so the closures below do not read `self` while `compare` mutates it.
        let old = self.old, new = self.new
        compare("version", CanonicalValue.int(old.version), CanonicalValue.int(new.version)) {
            new.version?.value == Language.version
                ? "back to language version \(Language.version)"
                : "language version \(Show.value(CanonicalValue.int(old.version))) → \(Show.value(CanonicalValue.int(new.version))): policyc reads version \(Language.version) only"
        }
        comparePolicyName()
        compareDescription()
        compareProfiles()
        compareRetryOn()
        compare("retry.neverRetry", CanonicalValue.neverRetry(old.neverRetry), CanonicalValue.neverRetry(new.neverRetry),
                show: Show.neverRetry) { Effects.neverRetry(old.neverRetry, new.neverRetry) }
        compare("retry.backoff", CanonicalValue.string(old.backoff?.raw), CanonicalValue.string(new.backoff?.raw)) {
            "backoff \(old.backoff?.value.rawValue ?? "") → \(new.backoff?.value.rawValue ?? ""): "
                + Effects.backoff(new.backoff?.value) + Effects.backoffFigures(old: old, new: new)
        }
        compare("retry.retryAfter.honor", CanonicalValue.bool(old.retryAfterHonor), CanonicalValue.bool(new.retryAfterHonor)) {
            new.retryAfterHonor?.value == true
                ? "Retry-After is honored: clients wait as long as the servers ask before they retry"
                : "Retry-After is ignored: clients retry on their own schedule even when the servers ask them to wait"
        }
        compare("retry.retryAfter.maxJitter", CanonicalValue.duration(old.retryAfterMaxJitter),
                CanonicalValue.duration(new.retryAfterMaxJitter), show: Show.duration) {
            let (b, a) = (old.retryAfterMaxJitter?.value ?? 0, new.retryAfterMaxJitter?.value ?? 0)
            let why = a == 0
                ? "clients told to come back at the same moment all retry at that moment"
                : a > b ? "clients told to come back at the same moment are spread over a longer time"
                        : "clients told to come back at the same moment are spread over a shorter time"
            return "random wait added to Retry-After: up to \(Wording.duration(b)) → \(Wording.duration(a)); \(why)"
        }
        compare("retry.budget.ratio", CanonicalValue.percent(old.budgetRatio), CanonicalValue.percent(new.budgetRatio),
                show: Show.percent) { Effects.budgetRatio(old: old, new: new) }
        compare("retry.budget.minPerMinute", CanonicalValue.int(old.budgetMinPerMinute),
                CanonicalValue.int(new.budgetMinPerMinute)) { Effects.budgetFloor(old: old, new: new) }
        compare("prefetch.ahead", CanonicalValue.int(old.prefetchAhead), CanonicalValue.int(new.prefetchAhead)) {
            let (b, a) = (old.prefetchAhead?.value ?? 0, new.prefetchAhead?.value ?? 0)
            return "prefetch: tickets for the next \(b) → \(a) episodes ride along "
                + "(\(b + 1) → \(a + 1) tickets per request)"
        }
        compare("prefetch.onlyUnlocked", CanonicalValue.bool(old.prefetchOnlyUnlocked), CanonicalValue.bool(new.prefetchOnlyUnlocked)) {
            new.prefetchOnlyUnlocked?.value == true
                ? "prefetch asks only for episodes the viewer has unlocked"
                : "prefetch also asks for locked episodes: tickets the viewer cannot use yet, load for nothing"
        }
        compare("prefetch.retryRefused", CanonicalValue.bool(old.prefetchRetryRefused), CanonicalValue.bool(new.prefetchRetryRefused)) {
            new.prefetchRetryRefused?.value == true
                ? "a refused prefetch is retried: extra load for tickets nobody asked for yet"
                : "a refused prefetch is no longer retried: the ticket is asked for when the viewer gets there"
        }
        compare("tickets.reuseKey", CanonicalValue.reuseKey(old.reuseKey), CanonicalValue.reuseKey(new.reuseKey),
                show: Show.list) { Effects.reuseKey(old.reuseKey, new.reuseKey) }
        compare("tickets.stopReuseBefore", CanonicalValue.duration(old.stopReuseBefore),
                CanonicalValue.duration(new.stopReuseBefore), show: Show.duration) {
            let (b, a) = (old.stopReuseBefore?.value ?? 0, new.stopReuseBefore?.value ?? 0)
            return "a ticket is reused until \(Wording.duration(b)) → \(Wording.duration(a)) before expires_at; "
                + (a < b ? "a reused ticket may now expire sooner during playback" : "tickets are renewed earlier, a few more requests")
        }
        compare("tickets.viewerRef", CanonicalValue.string(old.viewerRef?.raw), CanonicalValue.string(new.viewerRef?.raw)) {
            "viewer_ref \(old.viewerRef?.value.rawValue ?? "") → \(new.viewerRef?.value.rawValue ?? ""): "
                + Effects.viewerRef(new.viewerRef?.value)
        }
    }

    /// Only differs when a nameless new file was compared with the old file at its place.
    mutating func comparePolicyName() {
        let before = CanonicalValue.string(old.policy), after = CanonicalValue.string(new.policy)
        guard before != after else { return }
        let oldType = old.policy.map { Naming.typeName(policy: $0.value) }
        let breaking = oldType.map { !newTypes.contains(ExactText($0)) } ?? false
        let effect: String
        switch (old.policy, new.policy) {
        case (let o?, nil):
            effect = breaking ? "the new file has no valid policy name: the type \(printable(Naming.typeName(policy: o.value)))\(symbols.module(Naming.typeName(policy: o.value))) is no longer generated"
                              : "the new file has no valid policy name (see the findings)"
        case (let o?, let n?):
            let (from, to) = (printable(Naming.typeName(policy: o.value)), printable(Naming.typeName(policy: n.value)))
            effect = "policy '\(printable(o.value))' → '\(printable(n.value))': the type \(from) → \(to)"
                + (symbols.typeScript ? " (TypeScript module \(from).ts → \(to).ts)" : "")
        case (nil, let n?):
            effect = "the file now names its policy: apps get the type \(printable(Naming.typeName(policy: n.value)))\(symbols.module(Naming.typeName(policy: n.value)))"
        case (nil, nil):
            effect = ""
        }
        record("policy", before, after, breaking: breaking, effect: effect)
        if after == .null { changes[changes.count - 1].missingValue = true }
    }

    mutating func compareDescription() {
        let before = CanonicalValue.string(old.description), after = CanonicalValue.string(new.description)
        guard before != after else { return }
        let effect = switch (old.description, new.description) {
        case (nil, _): "description added: generated documentation only, no change in behaviour"
        case (_, nil): "description removed: generated documentation only, no change in behaviour"
        default: "description reworded: generated documentation only, no change in behaviour"
        }
        record("description", before, after, effect: effect)
    }

    mutating func compareRetryOn() {
        let old = self.old, new = self.new
        compare("retry.retryOn", CanonicalValue.retryOn(old.retryOn), CanonicalValue.retryOn(new.retryOn), show: Show.list) {
            let b = Set(old.retryOn?.value.map(\.value) ?? []), a = Set(new.retryOn?.value.map(\.value) ?? [])
            func words(_ items: Set<RetryOn>) -> String {
                var out: [String] = items.contains(.network) ? ["network errors"] : []
                out += items.compactMap { if case .status(let s) = $0 { return s } else { return nil } }.sorted().map(String.init)
                return Wording.list(out)
            }
            var parts: [String] = []
            let added = a.subtracting(b), removed = b.subtracting(a)
            if !added.isEmpty { parts.append("also retries \(words(added)): more requests reach servers that are failing") }
            if !removed.isEmpty { parts.append("no longer retries \(words(removed)): those failures end the call at once") }
            return parts.joined(separator: "; ")
        }
    }

    // MARK: profiles

    /// The generated type, printable: a name that breaks the rules may hold any character.
    var typeName: String { printable(Naming.typeName(policy: new.policy?.value ?? old.policy?.value ?? "")) }

    mutating func compareProfiles() {
        // Profiles and their constants match by bytes (see `sameText`), as they do in lint.
        func byName(_ profiles: [PolicyDoc.Profile]) -> [ExactText: PolicyDoc.Profile] {
            var out: [ExactText: PolicyDoc.Profile] = [:]
            for p in profiles where out[ExactText(p.name.value)] == nil { out[ExactText(p.name.value)] = p }
            return out
        }
        let oldProfiles = byName(old.profiles), newProfiles = byName(new.profiles)
        let newSwift = Set(new.profiles.map { ExactText(Naming.swiftProfile($0.name.value)) })
        let newKotlin = Set(new.profiles.map { ExactText(Naming.kotlinProfile($0.name.value)) })
        var seen: Set<ExactText> = []
        let added = new.profiles.filter { oldProfiles[ExactText($0.name.value)] == nil }

        for o in old.profiles where seen.insert(ExactText(o.name.value)).inserted {
            let name = o.name.value
            let path = "retry.profiles.\(name)"
            guard let n = newProfiles[ExactText(name)] else {
                let swift = Naming.swiftProfile(name), kotlin = Naming.kotlinProfile(name)
                let breaking = !newSwift.contains(ExactText(swift)) || !newKotlin.contains(ExactText(kotlin))
                var effect = breaking
                    ? "removes \(symbols.profile(typeName, name)): apps that use it no longer compile"
                    : "profile '\(printable(name))' is spelled differently; the generated \(typeName).\(printable(swift)) (Kotlin \(printable(kotlin))"
                        + (symbols.typeScript ? ", TypeScript \(printable(Naming.typeScriptProfile(name)))" : "") + ") stays"
                if breaking, let twin = added.first(where: { CanonicalValue.profile($0) == CanonicalValue.profile(o) }) {
                    effect += "; it looks renamed to '\(printable(twin.name.value))' with the same values"
                }
                record(path, CanonicalValue.profile(o), .null, show: Show.profile, breaking: breaking, effect: effect)
                continue
            }
            compareProfile(path: path, o, n)
        }
        for n in added where seen.insert(ExactText(n.name.value)).inserted {
            let name = n.name.value
            var effect = "new profile: apps get \(symbols.profile(typeName, name))"
            if let f = ProfileFigures(n, backoff: new.backoff?.value) { effect += "; " + Effects.summary(f, interactive: n.isInteractive) }
            record("retry.profiles.\(name)", .null, CanonicalValue.profile(n), show: Show.profile, effect: effect)
            profiles.append(ProfileReview(name: name))
        }
        // In the new policy's order.
        let order = Dictionary(new.profiles.enumerated().map { ($1.name.value, $0) }, uniquingKeysWith: { a, _ in a })
        profiles.sort { (order[$0.name] ?? Int.max) < (order[$1.name] ?? Int.max) }
    }

    mutating func compareProfile(path: String, _ o: PolicyDoc.Profile, _ n: PolicyDoc.Profile) {
        let interactive = (n.kind ?? o.kind)?.value == .interactive
        let who = interactive ? "while a viewer waits" : "in the background"
        // Each field's change alone is judged under the old strategy; together with the rest,
        // under the new one (a change of strategy is worded on its own row too).
        let oldBackoff = old.backoff?.value, newBackoff = new.backoff?.value
        let fields: [WritableKeyPath<PolicyDoc.Profile, Located<Int>?>] = [\.maxRetries, \.base, \.cap, \.timeout, \.deadline]
        let changed = fields.filter { o[keyPath: $0]?.value != n[keyPath: $0]?.value }.count
            + (o.kind?.value != n.kind?.value ? 1 : 0)
        // Each change says what it alone does to the figures; what they do together, when the
        // profile changes in more ways, is said once for the profile (`ProfileReview`).
        var said: Set<String> = []
        func with(_ field: WritableKeyPath<PolicyDoc.Profile, Located<Int>?>, _ primary: String) -> String {
            var alone = o
            alone[keyPath: field] = n[keyPath: field]
            let own = Effects.consequences(o, alone, interactive: interactive, backoff: (oldBackoff, oldBackoff))
            said.formUnion(own)
            return ([primary] + own).joined(separator: "; ")
        }
        defer {
            if changed > 0 {
                var review = ProfileReview(name: n.name.value)
                if changed > 1 {
                    review.together = Effects.consequences(o, n, interactive: interactive, backoff: (oldBackoff, newBackoff))
                        .filter { !said.contains($0) && !$0.hasPrefix("the worst case does not move") }
                }
                profiles.append(review)
            }
        }

        compare(path + ".kind", CanonicalValue.string(o.kind?.raw), CanonicalValue.string(n.kind?.raw)) {
            n.kind?.value == .interactive
                ? "background → interactive: now a call a viewer waits on, held to the interactive limits (at most 3 retries, about 15 s before Retry shows)"
                : "interactive → background: now a sync job nobody watches, no longer held to the interactive limits (at most 3 retries, about 15 s)"
        }
        compare(path + ".maxRetries", CanonicalValue.int(o.maxRetries), CanonicalValue.int(n.maxRetries)) {
            let (b, a) = (o.maxRetries?.value ?? 0, n.maxRetries?.value ?? 0)
            return with(\.maxRetries, "\(a > b ? "more" : "fewer") retries \(who): up to \(Wording.count(a + 1, "attempt")) "
                + "instead of \(b + 1)")
        }
        compare(path + ".base", CanonicalValue.duration(o.base), CanonicalValue.duration(n.base), show: Show.duration) {
            with(\.base, "wait before the first retry: up to \(Wording.duration(o.base?.value ?? 0)) → \(Wording.duration(n.base?.value ?? 0))")
        }
        compare(path + ".cap", CanonicalValue.duration(o.cap), CanonicalValue.duration(n.cap), show: Show.duration) {
            var alone = o
            alone.cap = n.cap
            guard let before = ReachableWaits(o, backoff: oldBackoff), let after = ReachableWaits(alone, backoff: oldBackoff) else {
                return with(\.cap, "cap \(Wording.duration(o.cap?.value ?? 0)) → \(Wording.duration(n.cap?.value ?? 0))")
            }
            return with(\.cap, ReachableWaits.capSentence(old: before, new: after, growth: WaitGrowth(backoff: oldBackoff)))
        }
        compare(path + ".timeout", CanonicalValue.duration(o.timeout), CanonicalValue.duration(n.timeout), show: Show.duration) {
            with(\.timeout, "each attempt may run \(Wording.duration(o.timeout?.value ?? 0)) → \(Wording.duration(n.timeout?.value ?? 0)) before it is abandoned")
        }
        compare(path + ".deadline", CanonicalValue.duration(o.deadline), CanonicalValue.duration(n.deadline), show: Show.duration) {
            with(\.deadline, "the whole call, retries included, ends after \(Wording.duration(o.deadline?.value ?? 0)) → \(Wording.duration(n.deadline?.value ?? 0))")
        }
    }
}

/// The sentences of effects that need more than one line of code.
enum Effects {
    /// How the explain figures of a profile move: backoff total, attempts started, worst-case wait;
    /// each side's figures by its policy's `backoff`.
    static func consequences(_ o: PolicyDoc.Profile, _ n: PolicyDoc.Profile, interactive: Bool,
                                     backoff: (old: Backoff?, new: Backoff?)) -> [String] {
        guard let b = ProfileFigures(o, backoff: backoff.old), let a = ProfileFigures(n, backoff: backoff.new) else { return [] }
        var out: [String] = []
        if a.maxBackoffTotalMs != b.maxBackoffTotalMs {
            out.append("waits between attempts add up to at most \(Wording.duration(b.maxBackoffTotalMs)) → \(Wording.duration(a.maxBackoffTotalMs))")
        }
        if a.worstCaseAttempts != b.worstCaseAttempts {
            out.append("in the worst case \(b.worstCaseAttempts) → \(a.worstCaseAttempts) attempts start before the deadline")
        }
        if a.worstCaseWaitMs != b.worstCaseWaitMs {
            out.append(interactive
                ? "worst-case wait before Retry shows: \(Wording.duration(b.worstCaseWaitMs)) → \(Wording.duration(a.worstCaseWaitMs))"
                : "worst case, the call gives up after \(Wording.duration(b.worstCaseWaitMs)) → \(Wording.duration(a.worstCaseWaitMs))")
        }
        if out.isEmpty {
            out.append("the worst case does not move (\(Wording.count(a.worstCaseAttempts, "attempt")), "
                + (interactive ? "\(Wording.duration(a.worstCaseWaitMs)) before Retry shows)" : "gives up after \(Wording.duration(a.worstCaseWaitMs)))"))
        }
        return out
    }

    /// `up to 4 attempts, a viewer waits at most 15 s before Retry shows`.
    static func summary(_ f: ProfileFigures, interactive: Bool) -> String {
        "up to \(Wording.count(f.attemptsMax, "attempt")), "
            + (interactive ? "a viewer waits at most \(Wording.duration(f.worstCaseWaitMs)) before Retry shows"
                           : "gives up after at most \(Wording.duration(f.worstCaseWaitMs))")
    }

    /// `; interactive: up to 4 attempts, …; background: …` for a new policy.
    static func newPolicySummary(_ doc: PolicyDoc?) -> String {
        guard let doc else { return "" }
        let parts = doc.profiles.compactMap { p in
            ProfileFigures(p, backoff: doc.backoff?.value).map { "\(printable(p.name.value)): \(summary($0, interactive: p.isInteractive))" }
        }
        return parts.isEmpty ? "" : "; " + parts.joined(separator: "; ")
    }

    /// `; interactive: waits between attempts add up to at most 3.5 s → 1.5 s` for each profile of
    /// the new policy whose figures move when only the strategy changes (constant against doubling).
    static func backoffFigures(old: PolicyDoc, new: PolicyDoc) -> String {
        let (b, a) = (old.backoff?.value, new.backoff?.value)
        guard WaitGrowth(backoff: b) != WaitGrowth(backoff: a) else { return "" }
        let parts = new.profiles.compactMap { p -> String? in
            let moves = consequences(p, p, interactive: p.isInteractive, backoff: (b, a))
            guard let first = moves.first, !first.hasPrefix("the worst case does not move") else { return nil }
            return "\(printable(p.name.value)): " + moves.joined(separator: ", ")
        }
        return parts.isEmpty ? "" : "; " + parts.joined(separator: "; ")
    }

    static func neverRetry(_ old: Located<[PolicyDoc.NeverRetry]>?, _ new: Located<[PolicyDoc.NeverRetry]>?) -> String {
        func keys(_ v: Located<[PolicyDoc.NeverRetry]>?) -> Set<NeverRetryKey> {
            Set((v?.value ?? []).map { NeverRetryKey(status: $0.status?.value, code: $0.code?.value) })
        }
        let b = keys(old), a = keys(new)
        var parts: [String] = []
        let added = a.subtracting(b).sorted(), removed = b.subtracting(a).sorted()
        if !added.isEmpty { parts.append("never retried any more: \(Wording.list(added.map(\.words)))") }
        if !removed.isEmpty { parts.append("retried again when their status is retried: \(Wording.list(removed.map(\.words)))") }
        return parts.joined(separator: "; ")
    }

    static func backoff(_ strategy: Backoff?) -> String {
        switch strategy {
        case .fullJitter: return "each wait is random up to its step, so clients that failed together do not retry together"
        case .equalJitter: return "half of each wait is fixed, so clients that failed together retry closer together than with full jitter"
        case .exponential: return "every client waits exactly as long, so clients that failed together retry together, in bursts"
        case .constant: return "waits do not grow, so a long outage is retried as hard as a short one"
        case nil: return "no valid strategy (see the findings)"
        }
    }

    static func reuseKey(_ old: Located<[Located<ReuseKeyPart>]>?, _ new: Located<[Located<ReuseKeyPart>]>?) -> String {
        let b = Set(old?.value.map(\.value.rawValue) ?? []), a = Set(new?.value.map(\.value.rawValue) ?? [])
        let across = ["viewer": "across viewers", "device": "across devices", "episode": "for another episode",
                      "intent": "for another intent"]
        func sorted(_ s: Set<String>) -> [String] { s.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        var parts: [String] = []
        for part in sorted(b.subtracting(a)) {
            parts.append("no longer keyed by \(printable(part)): a ticket may be reused \(across[part] ?? "more widely")")
        }
        let added = sorted(a.subtracting(b)).map(printable)
        if !added.isEmpty { parts.append("also keyed by \(Wording.list(added)): tickets are reused less") }
        return parts.joined(separator: "; ")
    }

    static func viewerRef(_ ref: ViewerRef?) -> String {
        switch ref {
        case .perViewerDevice: return "stable per viewer and device, so repeated requests reuse tickets"
        case .perSession: return "changes with every session, so tickets are reused less and requests grow"
        case .userID: return "sends personal data as viewer_ref"
        case nil: return "no valid value (see the findings)"
        }
    }
}

/// Canonical JSON values as people read them in a review.
enum Show {
    static func value(_ v: JSON) -> String {
        switch v {
        case .null: return "none"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .bigInt(let digits): return digits
        case .double(let d): return JSON.number(d)
        case .string(let s): return printable(s)
        case .array(let items): return items.isEmpty ? "(empty)" : items.map(value).joined(separator: ", ")
        case .object(let members):
            return members.keys.sorted().map { "\($0): \(value(members[$0] ?? .null))" }.joined(separator: ", ")
        }
    }

    static func duration(_ v: JSON) -> String {
        if case .int(let ms) = v { return Wording.duration(ms) }
        return value(v)
    }

    static func percent(_ v: JSON) -> String {
        if case .double(let d) = v { return JSON.number(d) + "%" }
        return value(v)
    }

    static func list(_ v: JSON) -> String { value(v) }

    static func neverRetry(_ v: JSON) -> String {
        guard case .array(let items) = v else { return value(v) }
        if items.isEmpty { return "(empty)" }
        return items.map { item -> String in
            guard case .object(let m) = item else { return value(item) }
            return [m["status"].map(value) ?? "none", m["code"].map(value) ?? "none"].joined(separator: " ")
        }.joined(separator: ", ")
    }

    /// `interactive, 3 retries, base 500 ms, cap 8 s, timeout 8 s, deadline 15 s`.
    static func profile(_ v: JSON) -> String {
        guard case .object(let m) = v else { return value(v) }
        let retries = m["maxRetries"].map(value) ?? "none"
        return [value(m["kind"] ?? .null), "\(retries) \(retries == "1" ? "retry" : "retries")", "base \(duration(m["base"] ?? .null))",
                "cap \(duration(m["cap"] ?? .null))", "timeout \(duration(m["timeout"] ?? .null))",
                "deadline \(duration(m["deadline"] ?? .null))"].joined(separator: ", ")
    }
}
