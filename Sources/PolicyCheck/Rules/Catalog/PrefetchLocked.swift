import PolicySource

extension RuleID {
    public static let prefetchLocked: RuleID = "prefetch-locked"
}

extension Rule {
    static let prefetchLocked = Rule(
        .prefetchLocked, .error,
        summary: "prefetch.onlyUnlocked is false",
        reference: Reference("Checklist", quote: "prefetch for the unlocked next ones"),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "onlyUnlocked: true", with: "onlyUnlocked: ↓false", triggers: true,
                       note: "prefetching locked episodes asks for tickets the viewer cannot use",
                       unsafeFixed: "onlyUnlocked: true"),
            .canonical(replacing: "onlyUnlocked: true", with: "onlyUnlocked: true", triggers: false,
                       note: "only unlocked episodes"),
        ],
        check: { doc, findings in
            guard let only = doc.prefetchOnlyUnlocked, !only.value else { return }
            let fix = findings.replacing(only.span, key: "onlyUnlocked", with: "true")
            findings.add(at: only.span,
                         "prefetch.onlyUnlocked is false; the guide prefetches only the unlocked next episodes",
                         help: "write onlyUnlocked: true", fix: fix)
        })
}
