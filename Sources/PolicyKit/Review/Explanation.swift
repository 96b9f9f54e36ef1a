/// `policyc explain`: what complete policies mean for a viewer and for the servers, worked out.
public struct Explanation: Sendable {
    public struct ExplainedProfile: Sendable {
        public var profile: Policy.Profile
        public var figures: ProfileFigures
        /// simulate (issue 14): the standard outage's figures (`addOutageFigures`).
        public var outage: OutageFigures? = nil
    }

    public struct ExplainedPolicy: Sendable {
        public var policy: Policy
        public var profiles: [ExplainedProfile]
        public var budget: BudgetFigures
    }

    public var policies: [ExplainedPolicy]

    public init(_ policies: [Policy]) {
        self.policies = policies.map { policy in
            ExplainedPolicy(
                policy: policy,
                profiles: policy.profiles.map { ExplainedProfile(profile: $0, figures: ProfileFigures($0)) },
                budget: BudgetFigures(ratio: policy.budgetRatio, minPerMinute: policy.budgetMinPerMinute))
        }
    }

    // MARK: JSON

    /// `{"policies":{"<policy>":{"file","profiles":{"<profile>":{figures and values}},"budget":{…}}}}`.
    public var json: JSON {
        var out: [String: JSON] = [:]
        for p in policies {
            var profiles: [String: JSON] = [:]
            for e in p.profiles {
                var members = Explanation.profileValues(e.profile)
                members["attemptsMax"] = .int(e.figures.attemptsMax)
                members["maxBackoffTotalMs"] = e.figures.maxBackoffTotalMs.json
                members["worstCaseAttempts"] = .int(e.figures.worstCaseAttempts)
                members["worstCaseWaitMs"] = .int(e.figures.worstCaseWaitMs)
                if let o = e.outage { members["outage"] = o.json }   // simulate (issue 14)
                profiles[e.profile.name] = .object(members)
            }
            out[p.policy.name] = .object([
                "file": .string(p.policy.file),
                "profiles": .object(profiles),
                "budget": p.budget.json,
            ])
        }
        return .object(["policies": .object(out)])
    }

    /// A profile's own values under the language's keys, durations in milliseconds (as `diff`).
    static func profileValues(_ p: Policy.Profile) -> [String: JSON] {
        ["kind": .string(p.kind), "maxRetries": .int(p.maxRetries), "base": .int(p.baseMs),
         "cap": .int(p.capMs), "timeout": .int(p.timeoutMs), "deadline": .int(p.deadlineMs)]
    }

    // MARK: text

    public var text: String {
        var out = ""
        for (n, p) in policies.enumerated() {
            if n > 0 { out += "\n" }
            out += "\(printable(p.policy.name)) (\(printable(p.policy.file)))\n"
            if let d = p.policy.description { out += "  \(printable(d))\n" }
            for e in p.profiles {
                out += "  \(printable(e.profile.name)) (\(Explanation.kindWords(e.profile.kind)))\n"
                for sentence in Explanation.sentences(e) { out += "    \(sentence)\n" }
                if let o = e.outage { out += "    \(Explanation.outageSentence(o))\n" }   // simulate (issue 14)
            }
            out += "  retry budget: \(p.budget.sentence)\n"
        }
        return out
    }

    // MARK: markdown

    public var markdown: String {
        var out = ""
        for (n, p) in policies.enumerated() {
            if n > 0 { out += "\n" }
            out += "## \(Spoken.code(p.policy.name)) (\(Spoken.code(p.policy.file)))\n\n"
            // Labelled, so that the text never starts a line (where it could start a block).
            if let d = p.policy.description { out += "Description: " + Spoken.markdown(d) + "\n\n" }
            out += "| Profile | Kind | Attempts at most | Backoff in total at most | Worst case: attempts started | Worst-case wait |\n"
            out += "|---|---|---|---|---|---|\n"
            for e in p.profiles {
                let f = e.figures
                out += "| \(Spoken.code(e.profile.name)) | \(Spoken.markdown(e.profile.kind)) | \(f.attemptsMax) | "
                    + "\(Spoken.duration(f.maxBackoffTotalMs)) | \(f.worstCaseAttempts) | \(Spoken.duration(f.worstCaseWaitMs)) |\n"
            }
            out += "\n"
            for e in p.profiles {
                out += "- **\(Spoken.markdown(e.profile.name))** (\(Explanation.kindWords(e.profile.kind))): "
                    + Spoken.markdown((Explanation.sentences(e) + (e.outage.map { [Explanation.outageSentence($0)] } ?? [])).joined(separator: " ")) + "\n"
            }
            out += "- **Retry budget**: " + Spoken.markdown(p.budget.sentence) + "\n"
        }
        return out
    }

    static func kindWords(_ kind: String) -> String {
        switch kind {
        case "interactive": return "interactive: a viewer is waiting"
        case "background": return "background: a sync job"
        default: return printable(kind)
        }
    }

    /// The profile in three sentences: attempts, backoff, worst case.
    static func sentences(_ e: ExplainedProfile) -> [String] {
        let p = e.profile, f = e.figures
        var out = ["Up to \(Spoken.count(f.attemptsMax, "attempt")) (the first and \(Spoken.count(p.maxRetries, "retry", "retries"))); "
            + "the waits between them add up to at most \(Spoken.duration(f.maxBackoffTotalMs)) "
            + "(first step up to \(Spoken.duration(p.baseMs)), doubling, each at most \(Spoken.duration(p.capMs)))."]
        if f.worstCaseAttempts == 0 {
            out.append("With a deadline of 0 no attempt can start.")
        } else {
            out.append("Worst case, every attempt running to its \(Spoken.duration(p.timeoutMs)) timeout and every wait at its longest: "
                + "\(Spoken.count(f.worstCaseAttempts, "attempt")) of \(f.attemptsMax) start before the "
                + "\(Spoken.duration(p.deadlineMs)) deadline.")
        }
        out.append(p.isInteractive
            ? "A viewer waits at most \(Spoken.duration(f.worstCaseWaitMs)) before Retry shows."
            : "The call gives up after at most \(Spoken.duration(f.worstCaseWaitMs)).")
        return out
    }
}

extension BudgetFigures {
    public var json: JSON {
        .object([
            "ratio": .double(ratio.percent),
            "minPerMinute": .int(minPerMinute),
            "floorBelowRequestsPerMinute": floorBelowRequestsPerMinute.json,
        ])
    }

    /// "during a full outage retries add at most 10% to the requests of the last minute, or 10 a
    /// minute when a client sends fewer than 100".
    public var sentence: String {
        let head = "during a full outage retries add at most \(Format.percent(ratio)) to the requests of the last minute"
        if minPerMinute <= 0 { return head + " (no floor)" }
        return head + ", or \(minPerMinute) a minute when a client sends fewer than \(floorBelowRequestsPerMinute)"
    }
}
