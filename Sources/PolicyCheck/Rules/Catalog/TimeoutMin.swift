import PolicySource

extension RuleID {
    public static let timeoutMin: RuleID = "timeout-min"
}

extension Rule {
    static let timeoutMin = Rule(
        .timeoutMin, .error,
        summary: "a profile's timeout is under 5 s",
        reference: Reference("What Wandura does when it is busy; Checklist",
                             quote: "give ticket requests at least 5 seconds of client timeout"),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "timeout: 8s", with: "timeout: ↓4s", triggers: true,
                       note: "an interactive timeout of 4 s; the unsafe fix writes the least allowed, 5s",
                       unsafeFixed: "timeout: 5s"),
            .canonical(replacing: "timeout: 15s", with: "timeout: ↓4999ms", triggers: true,
                       note: "a millisecond under the limit", unsafeFixed: "timeout: 5s"),
            .canonical([("timeout: 8s", "timeout: ↓2s"), ("deadline: 15s", "deadline: 3s")], triggers: true,
                       note: "no fix when 5s would outlast the deadline"),
            .canonical(replacing: "timeout: 8s", with: "timeout: 5s", triggers: false,
                       note: "exactly 5 s is enough"),
            .canonical(replacing: "timeout: 8s", with: "timeout: 5000ms", triggers: false,
                       note: "any spelling of 5 s"),
        ],
        check: { doc, findings in
            let limits = findings.limits
            guard let least = limits.duration(.timeoutMin) else { return }
            let note = limits.note(.timeoutMin)
            for profile in doc.profiles {
                guard let timeout = profile.timeout, timeout.value < least else { continue }
                // The least allowed is the nearest compliant value, unless it would break the
                // deadline. The guide's own profiles leave more room (8s interactive, 15s
                // background): named as the alternative when it is more and fits the deadline too.
                let deadline = profile.deadline?.value ?? Int.max
                let kind = profile.kind?.value ?? .interactive
                let (own, ownMs) = kind == .background ? ("15s", 15000) : ("8s", 8000)
                let whose = least == Limits.guide.duration(.timeoutMin) ? "the guide" : "the project"
                let why = "the least \(whose) allows"
                    + (deadline >= ownMs && ownMs > least ? "; the guide's own \(kind.rawValue) profile uses \(own)" : "")
                let fix = deadline >= least
                    ? findings.replacing(timeout.span, key: "timeout", with: Format.duration(least), why: why) : nil
                findings.add(at: timeout.span,
                             "profile '\(excerpt(profile.name.value))' has a timeout of \(Format.duration(timeout.value)); ticket requests need at least \(Format.duration(least))\(note)",
                             related: limits.related(.timeoutMin), fix: fix)
            }
        })
}
