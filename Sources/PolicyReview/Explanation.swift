import PolicySource
import PolicyCheck
import PolicyReport
import PolicySimulation

/// `policyc explain`: what complete policies mean for a viewer and for the servers, worked out.
/// A policy whose values are complete is explained even when it breaks limits of the guide (its
/// findings listed with it), so that a reviewer sees what a proposal would do; one whose values
/// are missing or unreadable cannot be worked out and is listed as not explained.
public struct Explanation: Sendable {
    public struct ExplainedProfile: Sendable {
        public var profile: Policy.Profile
        public var figures: ProfileFigures
        /// The standard outage's figures (`addSimulatedFigures`).
        public var outage: OutageFigures? = nil
        /// The built-in scenario that shows this profile's weakest point (`addSimulatedFigures`).
        public var weakest: WeakestPoint? = nil
        /// The policy's strategy: how little a jittered wait can be decides which waits can happen.
        public var backoff: Backoff? = nil

        public init(profile: Policy.Profile, figures: ProfileFigures, outage: OutageFigures? = nil, backoff: Backoff? = nil) {
            self.profile = profile
            self.figures = figures
            self.outage = outage
            self.backoff = backoff
        }
    }

    public struct ExplainedPolicy: Sendable {
        public var policy: Policy
        public var profiles: [ExplainedProfile]
        public var budget: BudgetFigures
        /// What the policy does with Retry-After, and (`addRetryAfterFigures`) what it changes.
        public var retryAfter: RetryAfterPart
        /// The file's findings: its warnings, and the limits it breaks.
        public var findings: [Diagnostic] = []

        public var errors: Int { findings.count { $0.severity == .error } }
    }

    /// A file whose values are incomplete: its findings say why.
    public struct NotExplained: Sendable {
        public var file: String
        public var diagnostics: [Diagnostic]

        public var errors: Int { diagnostics.count { $0.severity == .error } }

        /// `its values are incomplete or in doubt (missing-key, type-mismatch); fix those errors first`.
        public var reason: String {
            var rules: [RuleID] = []
            for d in diagnostics where d.severity == .error && !d.isLimitFinding && !rules.contains(d.rule) { rules.append(d.rule) }
            guard !rules.isEmpty else { return "not a complete policy" }
            rules.sort()
            return "its values are incomplete or in doubt (\(rules.map(\.rawValue).joined(separator: ", "))); fix \(rules.count == 1 ? "that error" : "those errors") first"
        }

        public var json: JSON {
            .object(["file": .string(file), "diagnostics": .array(diagnostics.map(\.json))])
        }
    }

    public var policies: [ExplainedPolicy]
    public var notExplained: [NotExplained] = []

    public init(_ policies: [Policy]) {
        self.policies = policies.map { Explanation.explained($0) }
    }

    /// Every file: explained when its values are complete (`policyAsWritten`), else not.
    public init(files: [CheckedFile]) {
        policies = []
        // A base (`abstract: true`) is explained through the policies that extend it.
        for file in files where file.doc?.isAbstract != true {
            if let policy = file.policyAsWritten {
                policies.append(Explanation.explained(policy, findings: file.diagnostics))
            } else {
                notExplained.append(NotExplained(file: file.path, diagnostics: file.diagnostics))
            }
        }
    }

    static func explained(_ policy: Policy, findings: [Diagnostic] = []) -> ExplainedPolicy {
        ExplainedPolicy(
            policy: policy,
            profiles: policy.profiles.map {
                ExplainedProfile(profile: $0, figures: ProfileFigures($0, backoff: policy.backoff), backoff: policy.backoff)
            },
            budget: BudgetFigures(ratio: policy.budgetRatio, minPerMinute: policy.budgetMinPerMinute),
            retryAfter: RetryAfterPart(policy),
            findings: findings)
    }

    /// `1 error: the policy breaks a limit of the guide, so generate refuses it; explained as
    /// written`, or `1 warning`; nil without findings.
    static func findingsHeading(_ p: ExplainedPolicy) -> String? {
        guard !p.findings.isEmpty else { return nil }
        let warnings = p.findings.count { $0.severity == .warning }
        let accepted = p.findings.count { $0.severity == .note }
        let counts = [p.errors > 0 ? Wording.count(p.errors, "error") : nil, warnings > 0 ? Wording.count(warnings, "warning") : nil,
                      accepted > 0 ? Wording.count(accepted, "accepted finding") : nil]
            .compactMap { $0 }.joined(separator: ", ")
        guard p.errors > 0 else { return counts }
        return counts + ": the policy breaks \(p.errors == 1 ? "a limit" : "limits") of the guide, so generate refuses it; explained as written"
    }

    // MARK: JSON

    /// `{"policies":{"<policy>":{"file","profiles":{"<profile>":{figures and values}},"budget":{…},
    /// "diagnostics":[…]}},"notExplained":[{"file","diagnostics"}]}`.
    public var json: JSON {
        var out: [String: JSON] = [:]
        for p in policies {
            var profiles: [String: JSON] = [:]
            for e in p.profiles {
                var members = Explanation.profileValues(e.profile)
                members["attemptsMax"] = .int(e.figures.attemptsMax)
                members["maxBackoffTotalMs"] = .int(e.figures.maxBackoffTotalMs)
                members["worstCaseAttempts"] = .int(e.figures.worstCaseAttempts)
                members["worstCaseWaitMs"] = .int(e.figures.worstCaseWaitMs)
                if let o = e.outage { members["outage"] = o.json }
                if let w = e.weakest { members["weakestPoint"] = w.json }
                profiles[e.profile.name] = .object(members)
            }
            out[p.policy.name] = .object([
                "file": .string(p.policy.file),
                "profiles": .object(profiles),
                "budget": p.budget.json,
                "retryAfter": p.retryAfter.json,
                "diagnostics": .array(p.findings.map(\.json)),
            ])
        }
        return .object(["policies": .object(out), "notExplained": .array(notExplained.map(\.json))])
    }

    /// A profile's own values under the language's keys, durations in milliseconds (as `diff`).
    static func profileValues(_ p: Policy.Profile) -> [String: JSON] {
        ["kind": .string(p.kind.rawValue), "maxRetries": .int(p.maxRetries), "base": .int(p.baseMs),
         "cap": .int(p.capMs), "timeout": .int(p.timeoutMs), "deadline": .int(p.deadlineMs)]
    }

    // MARK: text

    public var text: String {
        var out = ""
        for (n, p) in policies.enumerated() {
            if n > 0 { out += "\n" }
            out += "\(printable(p.policy.name)) (\(printable(p.policy.file)))\n"
            if let d = p.policy.description { out += "  \(printable(d))\n" }
            if let heading = Explanation.findingsHeading(p) {
                out += "  \(heading):\n"
                for d in p.findings { out += "    \(d.headline)\n" }
            }
            for e in p.profiles {
                out += "  \(printable(e.profile.name)) (\(Explanation.kindWords(e.profile.kind)))\n"
                for sentence in Explanation.sentences(e) { out += "    \(sentence)\n" }
                for sentence in Explanation.simulatedSentences(e) { out += "    \(sentence)\n" }
            }
            out += "  retry budget: \(p.budget.sentence)\n"
            out += "  Retry-After: \(p.retryAfter.sentence)\n"
        }
        return out
    }

    // MARK: markdown

    public var markdown: String {
        var out = ""
        for (n, p) in policies.enumerated() {
            if n > 0 { out += "\n" }
            out += "## \(Wording.code(p.policy.name)) (\(Wording.code(p.policy.file)))\n\n"
            // Labelled, so that the text never starts a line (where it could start a block).
            if let d = p.policy.description { out += "Description: " + Wording.markdown(d) + "\n\n" }
            if let heading = Explanation.findingsHeading(p) {
                out += (p.errors > 0 ? "❌ " : "⚠️ ") + Wording.markdown(heading) + ":\n\n"
                for d in p.findings { out += ReviewMarkdown.item(d) }
                out += "\n"
            }
            out += "| Profile | Kind | Attempts at most | Backoff in total at most | Worst case: attempts started | Worst-case wait |\n"
            out += "|---|---|---|---|---|---|\n"
            for e in p.profiles {
                let f = e.figures
                out += "| \(Wording.code(e.profile.name)) | \(Wording.markdown(e.profile.kind.rawValue)) | \(f.attemptsMax) | "
                    + "\(Wording.duration(f.maxBackoffTotalMs)) | \(f.worstCaseAttempts) | \(Wording.duration(f.worstCaseWaitMs)) |\n"
            }
            out += "\n"
            for e in p.profiles {
                out += "- **\(Wording.markdown(e.profile.name))** (\(Explanation.kindWords(e.profile.kind))): "
                    + Wording.markdown((Explanation.sentences(e) + Explanation.simulatedSentences(e)).joined(separator: " ")) + "\n"
            }
            out += "- **Retry budget**: " + Wording.markdown(p.budget.sentence) + "\n"
            out += "- **Retry-After**: " + Wording.markdown(p.retryAfter.sentence) + "\n"
        }
        for (n, f) in notExplained.enumerated() {
            if n > 0 || !policies.isEmpty { out += "\n" }
            out += "## \(Wording.code(f.file)) — not explained\n\n"
            out += "❌ Not explained: " + Wording.markdown(f.reason) + ":\n\n"
            for d in f.diagnostics { out += ReviewMarkdown.item(d) }
        }
        return out
    }

    package static func kindWords(_ kind: ProfileKind) -> String {
        switch kind {
        case .interactive: return "interactive: a viewer is waiting"
        case .background: return "background: a sync job"
        }
    }

    /// The profile in three sentences: attempts, backoff, worst case.
    package static func sentences(_ e: ExplainedProfile) -> [String] {
        let p = e.profile, f = e.figures
        let waits = ReachableWaits(maxRetries: p.maxRetries, base: p.baseMs, cap: p.capMs, deadline: p.deadlineMs,
                                   backoff: e.backoff ?? (f.growth == .constant ? .constant : .exponential))
        var steps = f.growth == .constant
            ? "every wait \(Wording.duration(p.baseMs)): constant backoff does not grow"
            : "first step up to \(Wording.duration(p.baseMs)), doubling, each at most \(Wording.duration(p.capMs))"
        if f.growth == .doubling, let longest = waits.longest, longest < p.capMs {
            steps += "; the longest wait that can happen is \(Wording.duration(longest)), the cap is never reached"
        }
        var out = ["Up to \(Wording.count(f.attemptsMax, "attempt")) (the first and \(Wording.count(p.maxRetries, "retry", "retries"))); "
            + "the waits between them add up to at most \(Wording.duration(f.maxBackoffTotalMs)) (\(steps))."]
        if f.worstCaseAttempts == 0 {
            out.append("With a deadline of 0 no attempt can start.")
        } else {
            out.append("Worst case, every attempt running to its \(Wording.duration(p.timeoutMs)) timeout and every wait at its longest: "
                + "\(Wording.count(f.worstCaseAttempts, "attempt")) of \(f.attemptsMax) start before the "
                + "\(Wording.duration(p.deadlineMs)) deadline.")
        }
        out.append(p.isInteractive
            ? "A viewer waits at most \(Wording.duration(f.worstCaseWaitMs)) before Retry shows."
            : "The call gives up after at most \(Wording.duration(f.worstCaseWaitMs)).")
        return out
    }
}

extension BudgetFigures {
    public var json: JSON {
        .object([
            "ratio": .double(ratio.percent),
            "minPerMinute": .int(minPerMinute),
            "floorBelowRequestsPerMinute": .int(floorBelowRequestsPerMinute),
        ])
    }

    /// "during a full outage retries add at most 10% to the requests of the last minute of a
    /// client that sends at least 100 requests a minute; below that the floor governs: 10 retries
    /// a minute, whatever the ratio (the ratio changes nothing there)".
    public var sentence: String {
        let head = "during a full outage retries add at most \(Format.percent(ratio)) to the requests of the last minute"
        if minPerMinute <= 0 { return head + " (no floor)" }
        return head + " of a client that sends at least \(floorBelowRequestsPerMinute) requests a minute; below that the floor "
            + "governs: \(Wording.count(minPerMinute, "retry", "retries")) a minute, whatever the ratio (the ratio changes nothing there)"
    }
}
