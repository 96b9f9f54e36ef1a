import PolicySource

extension RuleID {
    public static let retryBudgetMax: RuleID = "retry-budget-max"
}

extension Rule {
    static let retryBudgetMax = Rule(
        .retryBudgetMax, .error,
        summary: "budget.ratio is over 10%",
        reference: Reference("Retry 429 and 503 the right way",
                             quote: "Retries may be at most 10 % of the requests of the last minute"),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "ratio: 10%", with: "ratio: ↓25%", triggers: true,
                       note: "a quarter of the traffic may be retries", unsafeFixed: "ratio: 10%"),
            .canonical(replacing: "ratio: 10%", with: "ratio: ↓10.01%", triggers: true,
                       note: "just over the limit, compared exactly", unsafeFixed: "ratio: 10%"),
            .canonical(replacing: "ratio: 10%", with: "ratio: 10.000%", triggers: false,
                       note: "10% however written"),
            .canonical(replacing: "ratio: 10%", with: "ratio: 2.5%", triggers: false, note: "a smaller budget"),
        ],
        check: { doc, findings in
            let limits = findings.limits
            guard let most = limits.percent(.budgetRatioMax),
                  let ratio = doc.budgetRatio, Percent.compare(ratio.value, most) > 0 else { return }
            let shown = Format.percent(most)
            let fix = findings.replacing(ratio.span, key: "ratio", with: shown)
            findings.add(at: ratio.span,
                         "budget.ratio is \(Format.percent(ratio.value)); retries may be at most \(shown) of the requests of the last minute\(limits.note(.budgetRatioMax))",
                         help: "write ratio: \(shown)", related: limits.related(.budgetRatioMax), fix: fix)
        })

    /// Exact decimal comparison on the written digits (`canonical` has no leading or trailing zeros).
    static func isOverTen(_ p: Percent) -> Bool {
        let parts = p.canonical.split(separator: ".", maxSplits: 1)
        let whole = parts.first.map(String.init) ?? "0"
        if whole.count != 2 { return whole.count > 2 }
        return whole > "10" || (whole == "10" && parts.count > 1)
    }
}
