import PolicySource

extension RuleID {
    public static let retryBudgetFloor: RuleID = "retry-budget-floor"
}

extension Rule {
    static let retryBudgetFloor = Rule(
        .retryBudgetFloor, .error,
        summary: "budget.minPerMinute is over 10",
        reference: Reference("Retry 429 and 503 the right way", quote: "(never fewer than 10 a minute)"),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "minPerMinute: 10", with: "minPerMinute: ↓50", triggers: true,
                       note: "a floor that lets quiet clients retry too much", unsafeFixed: "minPerMinute: 10"),
            .canonical(replacing: "minPerMinute: 10", with: "minPerMinute: 0", triggers: false,
                       note: "no floor at all"),
        ],
        check: { doc, findings in
            let limits = findings.limits
            guard let most = limits.count(.budgetFloorMax),
                  let floor = doc.budgetMinPerMinute, floor.value > most else { return }
            let fix = findings.replacing(floor.span, key: "minPerMinute", with: String(most))
            let whose = limits.origins[.budgetFloorMax] == nil ? "the guide's" : "the project's"
            findings.add(at: floor.span,
                         "budget.minPerMinute is \(floor.value); \(whose) floor is \(most) retries a minute\(limits.note(.budgetFloorMax))",
                         help: "write minPerMinute: \(most)", related: limits.related(.budgetFloorMax), fix: fix)
        })
}
