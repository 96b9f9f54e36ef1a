import PolicySource

extension RuleID {
    public static let interactiveDeadline: RuleID = "interactive-deadline"
}

extension Rule {
    static let interactiveDeadline = Rule(
        .interactiveDeadline, .warning,
        summary: "an interactive profile's deadline is over 15 s, so the viewer waits longer than the guide's "
            + "\"about 15 seconds\" before seeing Retry",
        reference: Reference("Keep the viewer watching",
                             quote: "Show Retry only when the budget is spent (about 15 seconds)."),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "deadline: 15s", with: "deadline: ↓20s", triggers: true,
                       note: "a viewer waits 20 s before seeing Retry", unsafeFixed: "deadline: 15s"),
            .canonical([("timeout: 8s", "timeout: 18s"), ("deadline: 15s", "deadline: ↓20s")], triggers: true,
                       note: "no fix when 15s would be shorter than the timeout"),
            .canonical(replacing: "deadline: 15s", with: "deadline: 15s", triggers: false,
                       note: "15 s is the guide's number"),
            .canonical(replacing: "deadline: 120s", with: "deadline: 10m", triggers: false,
                       note: "background profiles may take longer"),
        ],
        check: { doc, findings in
            let limits = findings.limits
            guard let most = limits.duration(.interactiveDeadlineMax) else { return }
            let note = limits.note(.interactiveDeadlineMax)
            let shown = Format.duration(most)
            for profile in doc.profiles where profile.isInteractive {
                guard let deadline = profile.deadline, deadline.value > most else { continue }
                let fix = (profile.timeout?.value ?? 0) <= most ? findings.replacing(deadline.span, key: "deadline", with: shown) : nil
                findings.add(at: deadline.span,
                             "interactive profile '\(excerpt(profile.name.value))' has a deadline of \(Format.duration(deadline.value)); a viewer should see Retry after about \(shown)\(note)",
                             help: "keep the deadline of an interactive profile at \(shown) or less",
                             related: limits.related(.interactiveDeadlineMax), fix: fix)
            }
        })
}
